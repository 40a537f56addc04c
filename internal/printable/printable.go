package printable

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// String returns s with every byte that is not part of printable UTF-8
// text written as \xNN: control characters (line breaks included), DEL,
// and bytes of invalid UTF-8 sequences. Printable text, also non-ASCII,
// is kept as is.
func String(s string) string {
	if isPrintable(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 || !unicode.IsPrint(r) && r != ' ' {
			for _, c := range []byte(s[i : i+max(n, 1)]) {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		} else {
			b.WriteString(s[i : i+n])
		}
		i += max(n, 1)
	}
	return b.String()
}

func isPrintable(s string) bool {
	for _, r := range s { // an invalid byte reads as utf8.RuneError
		if r == utf8.RuneError || r != ' ' && !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}
