package view

import (
	"testing"
	"unicode/utf8"
)

func TestElideMiddle(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int // in characters
		want  string
	}{
		{"main/solve/exchange", 40, "main/solve/exchange"},
		{"main/solve/exchange", 19, "main/solve/exchange"},
		{"main/solve/exchange", 18, "main/solv…exchange"},
		{"abcdefghij", 5, "ab…ij"},
		{"abcdefghij", 4, "ab…j"},
		{"äöüßéàèù", 6, "äöü…èù"},
		{"abcdefghij", 1, "…"},
		{"abcdefghij", 0, "…"},
	} {
		fits := func(s string) bool { return utf8.RuneCountInString(s) <= tc.width }
		if got := ElideMiddle(tc.s, fits); got != tc.want {
			t.Errorf("ElideMiddle(%q, %d chars) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}
