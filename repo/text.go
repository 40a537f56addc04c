package repo

import (
	"strconv"
	"unicode"
)

// Printable shows stored text as it is unless it holds control characters
// (a newline, a NUL) or invalid UTF-8, which are shown Go-quoted so that
// one line stays one line.
func Printable(s string) string {
	for _, r := range s {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return strconv.Quote(s)
		}
	}
	return s
}
