package importer

import (
	"strconv"
	"unicode/utf8"
)

// MaxQuote is how many bytes of a file's text an error message quotes.
const MaxQuote = 64

// Quote returns s quoted for an error message, the one rule of every
// reader: Go's quoting (control characters and invalid UTF-8 escaped) of
// at most MaxQuote bytes of s, cut at a character boundary and followed
// by "…" and the whole length when s is longer. A message that quoted a
// whole line of a hostile file could be megabytes long, and laying it out
// would block a window for minutes.
func Quote(s string) string {
	if len(s) <= MaxQuote {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:cut(s)]) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// QuoteBytes is Quote of b, without converting more of b than it quotes.
func QuoteBytes(b []byte) string {
	if len(b) <= MaxQuote {
		return strconv.Quote(string(b))
	}
	head := string(b[:MaxQuote+1])
	return strconv.Quote(head[:cut(head)]) + "… (" + strconv.Itoa(len(b)) + " bytes)"
}

// cut returns where to cut s (longer than MaxQuote): at MaxQuote bytes,
// or before the character that straddles it.
func cut(s string) int {
	c := MaxQuote
	for c > MaxQuote-utf8.UTFMax && !utf8.RuneStart(s[c]) {
		c--
	}
	return c
}
