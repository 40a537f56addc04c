package view

import "unicode/utf8"

// ElideMiddle shortens s until fits accepts it by replacing its middle with
// "…", keeping as much of both ends as fits: call paths and file names
// differ at either end. It returns s when s fits, and "…" when nothing does.
func ElideMiddle(s string, fits func(string) bool) string {
	if fits(s) {
		return s
	}
	rs := []rune(s)
	fit := func(k int) string { return string(rs[:(k+1)/2]) + "…" + string(rs[len(rs)-k/2:]) }
	lo, hi := 0, len(rs)-1 // fit(lo) fits (or nothing does); fit(hi+1) does not
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(fit(mid)) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return fit(lo)
}

// maxStatusPath is the most characters of a call path the status line
// (View.Explain) shows: more never fits on one line, and laying out the
// call path of a 100,000 deep call tree would hold the window up.
const maxStatusPath = 400

// statusPath returns call path p with its middle elided to at most
// maxStatusPath characters.
func statusPath(p string) string {
	if len(p) <= maxStatusPath {
		return p
	}
	return ElideMiddle(p, func(s string) bool { return utf8.RuneCountInString(s) <= maxStatusPath })
}
