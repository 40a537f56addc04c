package view

import (
	"unicode/utf8"

	"cubeview/internal/elide"
)

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
	return elide.Middle(p, func(s string) bool { return utf8.RuneCountInString(s) <= maxStatusPath })
}

// ShortLegend is Legend with the operands' names reduced to what tells
// them apart (elide.Distinct), for where Legend's lines do not fit.
func (m *Markers) ShortLegend() []string {
	if !m.known {
		return nil
	}
	var out []string
	for i, name := range elide.Distinct(m.names) {
		out = append(out, operandLetter(i)+" "+name)
	}
	return out
}
