package repo

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// PostgreSQL text holds valid UTF-8 without NUL bytes, which is what
// names almost always are: they are stored as they are, so that psql
// users read and compare them directly. The rare text that is not such
// text (or that starts with the escape mark itself) is stored as the mark
// U+0001 followed by the text with every NUL, byte of invalid UTF-8 and
// "%" written as %XX, so any text comes back literally.
const escapeMark = '\x01'

const hexDigits = "0123456789ABCDEF"

// escapeText returns the stored form of s.
func escapeText(s string) string {
	if utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 && (s == "" || s[0] != escapeMark) {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s) + 8)
	sb.WriteByte(escapeMark)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || r == 0 || r == '%' || (i == 0 && r == escapeMark) {
			sb.WriteByte('%')
			sb.WriteByte(hexDigits[s[i]>>4])
			sb.WriteByte(hexDigits[s[i]&15])
			i++
			continue
		}
		sb.WriteString(s[i : i+n])
		i += n
	}
	return sb.String()
}

var errBadEscape = errors.New("stored text has a malformed escape")

// unescapeText reverses escapeText.
func unescapeText(s string) (string, error) {
	if s == "" || s[0] != escapeMark {
		return s, nil
	}
	b := make([]byte, 0, len(s))
	for i := 1; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", errBadEscape
		}
		hi, lo := strings.IndexByte(hexDigits, s[i+1]), strings.IndexByte(hexDigits, s[i+2])
		if hi < 0 || lo < 0 {
			return "", errBadEscape
		}
		b = append(b, byte(hi<<4|lo))
		i += 2
	}
	return string(b), nil
}
