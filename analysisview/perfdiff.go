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
	// StatText is the groups' comparison at the focus, formatted (groups
	// of runs only; TextA and TextB are then the means ± sd).
	StatText statTexts
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
	// Columns are the kinds of the table's columns, in order
	// (PerfDiffMostSpecific …): for groups of runs also the test's.
	Columns []int
	// The rows shown: all, or with HideNotSignificant (groups) only the
	// significant ones.
	significantRows
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
	if res.Grouped() && len(res.Foci) > 0 {
		r.Headline = fmt.Sprintf("Where the means of %d runs (A) and %d runs (B) differ in %s by at least %s: %d %s, %d most specific; %d of %d differ significantly (%s test, q < %g); %d examined",
			res.NA, res.NB, metricName(m), threshold, len(res.Foci), foci(len(res.Foci)), res.MostSpecific(), res.Significant(), res.Differing, res.Test, res.Alpha, res.NumExamined)
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
		if st := fd.Stats; st != nil {
			r.Rows[i].StatText = formatStats(&st.Comparison, st.Q, valueFormat(f, false))
			r.Rows[i].TextA, r.Rows[i].TextB = r.Rows[i].StatText.A, r.Rows[i].StatText.B
		}
	}
	r.Columns = []int{PerfDiffMostSpecific, PerfDiffA, PerfDiffB, PerfDiffDelta, PerfDiffChange, PerfDiffCallPath, PerfDiffSystem}
	if res.Grouped() {
		r.Columns = []int{PerfDiffMostSpecific, PerfDiffSignificant, PerfDiffA, PerfDiffB, PerfDiffDelta, PerfDiffCI,
			PerfDiffP, PerfDiffQ, PerfDiffEffect, PerfDiffChange, PerfDiffCallPath, PerfDiffSystem}
	}
	r.SetHideNotSignificant(false)
	return r
}

// Grouped reports whether the sides are groups of runs: the rows carry
// the test's answer, those that are not significant are muted.
func (r *PerfDiffReport) Grouped() bool { return r.Result.Grouped() }

// SetHideNotSignificant leaves out (or shows again) the rows that are not
// significant; for two experiments, which have no test, every row shows.
func (r *PerfDiffReport) SetHideNotSignificant(hide bool) {
	r.set(hide && r.Grouped(), len(r.Rows), func(i int) bool { return r.Rows[i].significant() })
}

// significant reports whether the groups differ significantly at the row's focus.
func (row *PerfDiffRow) significant() bool {
	return row.Stats != nil && row.Stats.Significant
}

// Row returns shown row i.
func (r *PerfDiffReport) Row(i int) *PerfDiffRow { return &r.Rows[r.index(i)] }

// Muted reports whether shown row i is drawn muted: groups that do not
// differ significantly there.
func (r *PerfDiffReport) Muted(i int) bool { return r.Grouped() && !r.Row(i).significant() }

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
	// Groups of runs only: "yes" when significant, the interval of
	// A − B, p, q and the effect size.
	PerfDiffSignificant
	PerfDiffCI
	PerfDiffP
	PerfDiffQ
	PerfDiffEffect
	PerfDiffKinds // the number of kinds of columns
)

// PerfDiffColumns is the number of columns of two experiments'
// comparison, whose columns are the kinds PerfDiffMostSpecific to
// PerfDiffSystem in order.
const PerfDiffColumns = PerfDiffSystem + 1

// Cell returns the text of shown row i's column c.
func (r *PerfDiffReport) Cell(i, c int) string {
	row := r.Row(i)
	switch r.Columns[c] {
	case PerfDiffSignificant:
		if row.significant() {
			return "yes"
		}
		return ""
	case PerfDiffCI:
		return row.StatText.CI
	case PerfDiffP:
		return row.StatText.P
	case PerfDiffQ:
		return row.StatText.Q
	case PerfDiffEffect:
		return row.StatText.Effect
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

// SortKey returns what shown row i's column c sorts by; the difference
// sorts by its signed value (largest increase first, or largest
// decrease).
func (r *PerfDiffReport) SortKey(i, c int) SortKey {
	row := r.Row(i)
	switch r.Columns[c] {
	case PerfDiffSignificant:
		if row.significant() {
			return NumKey(1)
		}
		return NumKey(0)
	case PerfDiffCI:
		return NumKey(row.Stats.CILow)
	case PerfDiffP:
		return NumKey(row.Stats.P)
	case PerfDiffQ:
		return NumKey(row.Stats.Q)
	case PerfDiffEffect:
		return NumKey(row.Stats.Effect)
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
func (r *PerfDiffReport) Numeric(c int) bool {
	k := r.Columns[c]
	return k != PerfDiffCallPath && k != PerfDiffSystem
}

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
	switch p.Columns[c] {
	case PerfDiffA:
		if p.Grouped() {
			return "A (mean ± sd)"
		}
		return p.NameA
	case PerfDiffB:
		if p.Grouped() {
			return "B (mean ± sd)"
		}
		return p.NameB
	case PerfDiffSignificant:
		return "Significant"
	case PerfDiffCI:
		return "95 % interval"
	case PerfDiffP:
		return "p"
	case PerfDiffQ:
		return "q"
	case PerfDiffEffect:
		return "Effect"
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

// perfDiffMetric returns the metric uniq of the first of runs that has
// it; nil when none has.
func perfDiffMetric(runs []*model.Experiment, uniq string) *model.Metric {
	for _, e := range runs {
		if m := e.MetricByName(uniq); m >= 0 {
			return &e.Metrics[m]
		}
	}
	return nil
}
