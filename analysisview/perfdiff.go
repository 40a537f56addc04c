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
	TextChange             string // Change, formatted as A − B
}

// PerfDiffReport is what a window shows of a performance difference: a
// headline, notes, the structural differences (what only one experiment
// has, left out of the comparison) and one row per differing focus, the
// most specific first.
type PerfDiffReport struct {
	Result       *analysis.PerfDiffResult
	NameA, NameB string // the experiments compared
	Headline     string
	// Notes says what the matching matched other than by equal names,
	// why the metric was not compared, and which formula a derived metric
	// took.
	Notes     []string
	Rows      []PerfDiffRow
	Structure []StructureRow
}

// StructureRow is one line of the structural differences: a call path or
// system node only one experiment has.
type StructureRow struct {
	analysis.StructuralDiff
	What string // "call path main/foo" or "system node machine/node 3"
	// TextA and TextB are the value in the experiment that has it and
	// "absent" in the other.
	TextA, TextB string
}

// newPerfDiffReport formats res for people; nameA and nameB name the two
// experiments and m (of either experiment) is the metric compared.
func newPerfDiffReport(res *analysis.PerfDiffResult, m *model.Metric, nameA, nameB string, f numfmt.Format) *PerfDiffReport {
	integer := m.IsInteger()
	r := &PerfDiffReport{Result: res, NameA: nameA, NameB: nameB}
	unit := m.Unit
	threshold := formatX(res.Threshold) + " " + unit
	switch {
	case !res.Compared():
		r.Headline = fmt.Sprintf("%s and %s cannot be compared in %s: it is missing in %s", nameA, nameB, metricName(m), missingSides(res, nameA, nameB))
	case len(res.Foci) == 0:
		r.Headline = fmt.Sprintf("%s and %s do not differ in %s by %s or more anywhere they have in common (%d %s examined)",
			nameA, nameB, metricName(m), threshold, res.NumExamined, foci(res.NumExamined))
	default:
		r.Headline = fmt.Sprintf("Where %s and %s differ in %s by at least %s: %d %s, %d most specific (no focus one step below differs); %d examined",
			nameA, nameB, metricName(m), threshold, len(res.Foci), foci(len(res.Foci)), res.MostSpecific(), res.NumExamined)
	}
	if res.RootsMatched != "" {
		r.Notes = append(r.Notes, "Matched: "+res.RootsMatched+".")
	}
	for _, s := range res.Matching {
		r.Notes = append(r.Notes, "Matched: "+s+".")
	}
	names := [2]string{nameA, nameB}
	for i, why := range res.Missing {
		if why != "" {
			r.Notes = append(r.Notes, fmt.Sprintf("Not compared: %s is missing in %s: %s.", res.Metric, names[i], why))
		}
	}
	r.Notes = append(r.Notes, res.Notes...)
	value := func(v float64) string {
		if math.IsNaN(v) && !res.Derived {
			return "(no metric)"
		}
		return f.Format(v, integer)
	}
	for _, sd := range res.Structure {
		row := StructureRow{StructuralDiff: sd, TextA: "absent", TextB: "absent"}
		if sd.Cnode >= 0 {
			row.What = "call path " + res.CallPath(analysis.Focus{Cnode: sd.Cnode, System: -1})
		} else {
			row.What = "system node " + res.SystemPath(analysis.Focus{Cnode: -1, System: sd.System})
		}
		if sd.Only == analysis.SideA {
			row.TextA = value(sd.Value)
		} else {
			row.TextB = value(sd.Value)
		}
		r.Structure = append(r.Structure, row)
	}
	r.Rows = make([]PerfDiffRow, len(res.Foci))
	for i, fd := range res.Foci {
		r.Rows[i] = PerfDiffRow{
			FocusDiff:  fd,
			CallPath:   res.CallPath(fd.Focus),
			System:     res.SystemPath(fd.Focus),
			TextA:      f.Format(fd.A, integer),
			TextB:      f.Format(fd.B, integer),
			TextDiff:   f.Format(fd.Diff, integer),
			TextChange: f.Format(fd.Change, integer),
		}
	}
	return r
}

// missingSides names the experiments that lack the compared metric.
func missingSides(res *analysis.PerfDiffResult, nameA, nameB string) string {
	switch {
	case res.Missing[0] != "" && res.Missing[1] != "":
		return "both"
	case res.Missing[0] != "":
		return nameA
	}
	return nameB
}

// The columns of a performance difference's table.
const (
	PerfDiffMostSpecific = iota // ★ when no focus one step below differs
	PerfDiffA
	PerfDiffB
	PerfDiffDelta  // A − B
	PerfDiffChange // the change below the focus (PerfDiffResult.ChangeRule)
	PerfDiffCallPath
	PerfDiffSystem
	PerfDiffColumns // the number of columns
)

// Cell returns the text of row i's column c.
func (r *PerfDiffReport) Cell(i, c int) string {
	row := &r.Rows[i]
	switch c {
	case PerfDiffMostSpecific:
		if row.MostSpecific {
			return "★"
		}
		return ""
	case PerfDiffA:
		return row.TextA
	case PerfDiffB:
		return row.TextB
	case PerfDiffDelta:
		return row.TextDiff
	case PerfDiffChange:
		return row.TextChange
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
	case PerfDiffMostSpecific:
		if row.MostSpecific {
			return NumKey(1)
		}
		return NumKey(0)
	case PerfDiffA:
		return NumKey(row.A)
	case PerfDiffB:
		return NumKey(row.B)
	case PerfDiffDelta:
		return NumKey(row.Diff)
	case PerfDiffChange:
		return NumKey(row.Change)
	case PerfDiffCallPath:
		return TextKey(row.CallPath)
	}
	return TextKey(row.System)
}

// Numeric reports whether column c holds numbers.
func (r *PerfDiffReport) Numeric(c int) bool { return c <= PerfDiffChange }

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
	if m := e.MetricNamed(res.Metric); m >= 0 {
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

// The columns of the structural differences' table.
const (
	StructureOnly = iota // the experiment that has it
	StructureA
	StructureB
	StructureWhat
	StructureColumns // the number of columns
)

// StructureCell returns the text of structural row i's column c.
func (r *PerfDiffReport) StructureCell(i, c int) string {
	row := &r.Structure[i]
	switch c {
	case StructureOnly:
		return "only in " + [2]string{r.NameA, r.NameB}[row.Only]
	case StructureA:
		return row.TextA
	case StructureB:
		return row.TextB
	}
	return row.What
}

// StructureSortKey returns what structural row i's column c sorts by; an
// absent value sorts below every value.
func (r *PerfDiffReport) StructureSortKey(i, c int) SortKey {
	row := &r.Structure[i]
	switch c {
	case StructureOnly:
		return NumKey(float64(row.Only))
	case StructureA, StructureB:
		if analysis.Side(c-StructureA) != row.Only {
			return NumKey(math.Inf(-1))
		}
		return NumKey(row.Value)
	}
	return TextKey(row.What)
}

// StructureNumeric reports whether the structural table's column c holds
// numbers.
func (r *PerfDiffReport) StructureNumeric(c int) bool { return c == StructureA || c == StructureB }

// StructurePathColumn reports whether the structural table's column c
// holds paths, which shorten keeping their leaf.
func (r *PerfDiffReport) StructurePathColumn(c int) bool { return c == StructureWhat }

// StructureHeader names column c of the structural differences' table.
func (r *PerfDiffReport) StructureHeader(c int) string {
	switch c {
	case StructureOnly:
		return "Only in"
	case StructureA:
		return r.NameA
	case StructureB:
		return r.NameB
	}
	return "Left out of the comparison"
}

// StructureFocus returns the focus that shows structural row i: its call
// path on all locations, or its system node on the whole program.
func (r *PerfDiffReport) StructureFocus(i int) analysis.Focus {
	s := r.Structure[i]
	return analysis.Focus{Cnode: s.Cnode, System: s.System}
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
	case PerfDiffChange:
		if p.Result.ChangeRule == "max" {
			return "max |A − B| below"
		}
		return "Σ |A − B| below"
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
