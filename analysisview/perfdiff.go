package analysisview

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"cubeview/analysis"
	"cubeview/model"
	"cubeview/numfmt"
	"cubeview/view"
)

// PerfDiffRow is one line of the result list of a performance difference.
type PerfDiffRow struct {
	analysis.FocusDiff
	CallPath, System string // the focus's call path and system node
	// TextA, TextB and TextDiff are A, B and Diff formatted in the
	// metric's unit.
	TextA, TextB, TextDiff string
}

// PerfDiffReport is what a window shows of a performance difference: a
// headline and one row per differing focus, significant ones first.
type PerfDiffReport struct {
	Result       *analysis.PerfDiffResult
	NameA, NameB string // the experiments compared
	Headline     string
	Rows         []PerfDiffRow
}

// newPerfDiffReport formats res for people; nameA and nameB name the two
// experiments and m (of either experiment) is the metric compared.
func newPerfDiffReport(res *analysis.PerfDiffResult, m *model.Metric, nameA, nameB string, f numfmt.Format) *PerfDiffReport {
	integer := m.IsInteger()
	r := &PerfDiffReport{Result: res, NameA: nameA, NameB: nameB}
	unit := m.Unit
	r.Headline = fmt.Sprintf("Where %s and %s differ in %s by at least %s %s: %d %s, %d significant (no finer focus differs); %d examined",
		nameA, nameB, metricName(m), formatX(res.Threshold), unit,
		len(res.Foci), foci(len(res.Foci)), res.Significant(), len(res.Examined))
	if len(res.Foci) == 0 {
		r.Headline = fmt.Sprintf("%s and %s do not differ in %s by %s %s or more anywhere (%d examined)",
			nameA, nameB, metricName(m), formatX(res.Threshold), unit, len(res.Examined))
	}
	r.Rows = make([]PerfDiffRow, len(res.Foci))
	for i, fd := range res.Foci {
		r.Rows[i] = PerfDiffRow{
			FocusDiff: fd,
			CallPath:  res.CallPath(fd.Focus),
			System:    res.SystemPath(fd.Focus),
			TextA:     f.Format(fd.A, integer),
			TextB:     f.Format(fd.B, integer),
			TextDiff:  f.Format(fd.Diff, integer),
		}
	}
	return r
}

// The columns of a performance difference's table.
const (
	PerfDiffSignificant = iota // ★ when no finer focus differs
	PerfDiffA
	PerfDiffB
	PerfDiffDelta // A − B
	PerfDiffCallPath
	PerfDiffSystem
	PerfDiffColumns // the number of columns
)

// Cell returns the text of row i's column c.
func (r *PerfDiffReport) Cell(i, c int) string {
	row := &r.Rows[i]
	switch c {
	case PerfDiffSignificant:
		if row.Significant {
			return "★"
		}
		return ""
	case PerfDiffA:
		return row.TextA
	case PerfDiffB:
		return row.TextB
	case PerfDiffDelta:
		return row.TextDiff
	case PerfDiffCallPath:
		return row.CallPath
	}
	return row.System
}

// SortKey returns what row i's column c sorts by; the difference sorts
// by its signed value (largest increase first, or largest decrease).
func (r *PerfDiffReport) SortKey(i, c int) SortKey {
	row := &r.Rows[i]
	switch c {
	case PerfDiffSignificant:
		if row.Significant {
			return NumKey(1)
		}
		return NumKey(0)
	case PerfDiffA:
		return NumKey(row.A)
	case PerfDiffB:
		return NumKey(row.B)
	case PerfDiffDelta:
		return NumKey(row.Diff)
	case PerfDiffCallPath:
		return TextKey(row.CallPath)
	}
	return TextKey(row.System)
}

// Numeric reports whether column c holds numbers.
func (r *PerfDiffReport) Numeric(c int) bool { return c <= PerfDiffDelta }

func metricName(m *model.Metric) string {
	if m.DispName != "" && m.DispName != m.UniqName {
		return m.DispName + " (" + m.UniqName + ")"
	}
	return m.UniqName
}

// parseDelta reads the δ of a performance difference: a number ≥ 0 in
// the metric's unit, or with relative a percentage of the whole-program
// value, returned as a fraction.
func parseDelta(text string, relative bool) (float64, error) {
	s := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), "%"))
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, fmt.Errorf("δ %q: want a number ≥ 0", text)
	}
	if relative {
		if x > 100 {
			return 0, fmt.Errorf("δ %q: want a percentage from 0 to 100", text)
		}
		return x / 100, nil
	}
	return x, nil
}

// FocusNodes returns the rows of v that show focus f of res:
// the metric, the call path and the system node; a zero Node where the
// view has no such row or the focus covers all roots of a tree.
func FocusNodes(v *view.View, res *analysis.PerfDiffResult, f analysis.Focus) (metric, call, system view.Node) {
	e := v.Experiment()
	if m := e.MetricByName(res.Metric); m >= 0 {
		metric = view.Node{Kind: view.MetricNode, Index: m}
	}
	if c := MatchCnode(e, res.Domain, f.Cnode); c >= 0 {
		call = view.Node{Kind: view.CnodeNode, Index: c}
	}
	s := matchSystem(e, res.Domain, f.System)
	if f.System < 0 && len(e.SystemRoots) == 1 {
		s = e.SystemRoots[0]
	}
	system = v.Showing(view.Node{Kind: view.SystemNode, Index: s})
	return metric, call, system
}

func foci(n int) string {
	if n == 1 {
		return "focus"
	}
	return "foci"
}

// Header names column c of the performance difference's table; the
// value columns by the experiments' names.
func (p *PerfDiffReport) Header(c int) string {
	switch c {
	case PerfDiffA:
		return p.NameA
	case PerfDiffB:
		return p.NameB
	case PerfDiffDelta:
		return p.NameA + " − " + p.NameB
	case PerfDiffCallPath:
		return "Call path"
	case PerfDiffSystem:
		return "System"
	}
	return ""
}

// perfDiffMetric returns the metric uniq of a, or of b when a does not
// have it; nil when neither has.
func perfDiffMetric(a, b *model.Experiment, uniq string) *model.Metric {
	if m := a.MetricByName(uniq); m >= 0 {
		return &a.Metrics[m]
	}
	if m := b.MetricByName(uniq); m >= 0 {
		return &b.Metrics[m]
	}
	return nil
}
