package analysisview

import (
	"fmt"

	"cubeview/analysis/significance"
	"cubeview/numfmt"
)

// statTexts is a comparison of two groups of runs at one call path or
// focus, formatted for a table.
type statTexts struct {
	A, B   string // mean ± standard deviation over the runs
	Diff   string // A − B of the means
	CI     string // "[low, high]" of the difference
	P, Q   string
	Effect string // Hedges' g
}

// formatStats formats c and its q-value with num for the values.
func formatStats(c *significance.Comparison, q float64, num func(float64) string) statTexts {
	return statTexts{
		A:      num(c.A.Mean) + " ± " + num(c.A.SD()),
		B:      num(c.B.Mean) + " ± " + num(c.B.SD()),
		Diff:   num(c.Diff),
		CI:     "[" + num(c.CILow) + ", " + num(c.CIHigh) + "]",
		P:      significance.FormatP(c.P, "–"),
		Q:      significance.FormatP(q, "–"),
		Effect: effectText(c.Effect),
	}
}

// valueFormat returns a formatter of values in f, integers without
// decimals when integer.
func valueFormat(f numfmt.Format, integer bool) func(float64) string {
	return func(v float64) string { return f.Format(v, integer) }
}

// groupColumnsLegend says what the columns of a comparison of groups hold.
const groupColumnsLegend = "A, B: means over the runs ± standard deviation; 95 % interval of A − B; effect: Hedges' g."

// significanceLegend says what "significant" means in a table of n
// compared rows (what names them: "call paths", "foci") whose
// significant rows the column or mark named mark shows, and that the
// other rows are muted.
func significanceLegend(mark string, alpha float64, test significance.Test, n int, what string) string {
	if alpha <= 0 {
		alpha = significance.DefaultAlpha
	}
	return fmt.Sprintf("%s: q < %g, the p-value (%s test) adjusted over all %d %s (Benjamini–Hochberg), and only that. "+
		"Muted rows are not significant: the runs' noise explains their difference.", mark, alpha, test, n, what)
}

// significantRows are the rows a report shows: all, or with
// HideNotSignificant only the significant ones.
type significantRows struct {
	shown []int
	hide  bool
}

// set shows the n rows, or with hide only those significant says are.
func (s *significantRows) set(hide bool, n int, significant func(i int) bool) {
	s.hide = hide
	s.shown = s.shown[:0]
	for i := range n {
		if !hide || significant(i) {
			s.shown = append(s.shown, i)
		}
	}
}

// HideNotSignificant reports whether rows that are not significant are left out.
func (s *significantRows) HideNotSignificant() bool { return s.hide }

// Len returns the number of rows shown.
func (s *significantRows) Len() int { return len(s.shown) }

// index returns the report's row of shown row i.
func (s *significantRows) index(i int) int { return s.shown[i] }
