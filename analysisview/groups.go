package analysisview

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"cubeview/analysis"
	"cubeview/analysis/significance"
	"cubeview/dialogform"
	"cubeview/document"
	"cubeview/form"
	"cubeview/numfmt"
	"cubeview/view"
)

// Choices of the test in the Compare groups of runs dialog.
const (
	TestWelch       = "Welch's t-test"
	TestMannWhitney = "Mann–Whitney U (ranks; needs about 8 runs per group)"
)

// GroupsNote says what a comparison of groups of runs computes, for the
// dialogs that start one.
const GroupsNote = "Each group holds repeated runs of one configuration (at least two). Per call path a group's\n" +
	"value is the mean over its runs of the metric summed over all locations; the groups are\n" +
	"compared call path by call path, and the p-values adjusted over all call paths\n" +
	"(Benjamini–Hochberg). Significant means q < 0.05, nothing else."

// GroupsRequest compares two groups of open experiments, repeated runs
// of two configurations.
type GroupsRequest struct {
	A, B    []*document.Doc
	Options analysis.GroupOptions
}

// GroupsForm is Algebra › Compare groups of runs…: the runs of group A
// and of group B among the open experiments, a metric and the test.
type GroupsForm struct {
	*form.Form
	runLists
	Test, Inclusive *form.Field
	Metric          *dialogform.MetricChoice
}

// NewGroupsForm returns the form over the open documents docs, current
// ticked in group A, the metric the one named metric when offered.
func NewGroupsForm(docs []*document.Doc, current *document.Doc, metric string, run func(GroupsRequest)) *GroupsForm {
	f := &GroupsForm{runLists: newRunLists(docs, "Group A (runs)", "Group B (runs)"), Metric: dialogform.NewMetricChoice()}
	f.tick(f.A, slices.Index(docs, current))
	f.changed = f.offerMetrics
	f.Test = &form.Field{Kind: form.RadioField, Label: "Test", Options: []string{TestWelch, TestMannWhitney}, Text: TestWelch}
	f.Inclusive = &form.Field{Kind: form.CheckField, Label: "Inclusive values (with everything called below)"}
	f.offerMetrics()
	f.Metric.Set(metric)
	note := form.Note(GroupsNote)
	f.Form = &form.Form{Title: "Compare groups of runs", Confirm: "Compare",
		Fields: []*form.Field{f.A, f.B, f.Metric.Field, f.Test, f.Inclusive, note}}
	followOperands(f.Form, f.A, f.B, f.offerMetrics, f.request, run)
	return f
}

// OfferOpen puts Open file… and Open folder… beside each group: openFile
// and openFolder open an experiment (in a window of its own, as File ›
// Open does) and pass it on once it is read, nil when it could not be;
// it joins both lists, ticked in the group whose button was pressed.
func (f *GroupsForm) OfferOpen(openFile, openFolder func(then func(*document.Doc))) {
	f.runLists.OfferOpen(f.Form, openFile, openFolder)
}

func (f *GroupsForm) offerMetrics() { f.Metric.OfferDocs(f.both()...) }

func (f *GroupsForm) request() (GroupsRequest, error) {
	r := GroupsRequest{A: f.group(f.A), B: f.group(f.B)}
	if len(r.A) < 2 || len(r.B) < 2 {
		return r, fmt.Errorf("tick at least two runs in each group (A has %d, B %d): one run says nothing of the noise", len(r.A), len(r.B))
	}
	if d := f.inBoth(); d != nil {
		return r, fmt.Errorf("%s is in both groups", d.Name)
	}
	r.Options.Metric = f.Metric.Metric()
	if r.Options.Metric == "" {
		return r, errors.New("choose a metric")
	}
	r.Options.Test = testChosen(f.Test)
	r.Options.Inclusive = f.Inclusive.On
	return r, nil
}

// testChosen returns the test a form's Test field chose.
func testChosen(x *form.Field) significance.Test {
	if x.Text == TestMannWhitney {
		return significance.MannWhitney
	}
	return significance.Welch
}

// GroupsJob is a comparison of groups on its way.
type GroupsJob struct {
	GroupsRequest
	Report *GroupsReport
}

// Run compares in the background through run, showing progress through
// busy, and then passes the error to done (on run's UI side).
func (j *GroupsJob) Run(run view.Runner, busy view.Busy, format numfmt.Format, done func(error)) {
	stop := busy(fmt.Sprintf("Comparing %d runs with %d runs …", len(j.A), len(j.B)))
	var err error
	run(func() { err = j.compute(format) }, func() {
		stop()
		done(err)
	})
}

func (j *GroupsJob) compute(format numfmt.Format) error {
	var err error
	j.Report, err = CompareGroupDocs(j.A, j.B, j.Options, format)
	return err
}

// CompareGroupDocs compares the runs of documents a with those of b
// (analysis.CompareGroups) and formats the answer; call it off the UI
// goroutine.
func CompareGroupDocs(a, b []*document.Doc, opt analysis.GroupOptions, format numfmt.Format) (*GroupsReport, error) {
	g, err := analysis.CompareGroups(experiments(a), experiments(b), opt)
	if err != nil {
		return nil, err
	}
	return NewGroupsReport(g, format), nil
}

// The columns of a comparison of groups.
const (
	GroupsSignificant = iota // ★ when q < α
	GroupsMeanA
	GroupsMeanB
	GroupsDiff
	GroupsCI
	GroupsP
	GroupsQ
	GroupsEffect
	GroupsCallPath
	GroupsColumns
)

// GroupsRow is one call path of the comparison, formatted.
type GroupsRow struct {
	analysis.GroupRow
	CallPath string
	Text     [GroupsCallPath]string
}

// GroupsReport is what a window shows of a comparison of groups: a
// headline, a legend and a row per call path, the rows that are not
// significant muted or, with HideNotSignificant, left out.
type GroupsReport struct {
	Result   *analysis.GroupComparison
	Headline string
	Legend   string
	all      []GroupsRow
	significantRows
}

// NewGroupsReport formats g for people.
func NewGroupsReport(g *analysis.GroupComparison, f numfmt.Format) *GroupsReport {
	res := g.Result
	m := &res.Metrics[g.Metric]
	r := &GroupsReport{Result: g}
	num := valueFormat(f, false)
	t := g.Total
	r.Headline = fmt.Sprintf("%s, %d runs (A) against %d (B): %d of %d call paths differ significantly. Whole program: A %s ± %s, B %s ± %s, A − B %s (p %s)",
		metricName(m), g.NA, g.NB, g.Significant(), len(g.Rows), num(t.A.Mean), num(t.A.SD()), num(t.B.Mean), num(t.B.SD()), num(t.Diff), significance.FormatP(t.P, "–"))
	r.Legend = significanceLegend("★ significant", g.Options.Alpha, g.Options.Test, len(g.Rows), "call paths") +
		" " + groupColumnsLegend + " Click a row to select its call path, a column's title to sort."
	r.all = make([]GroupsRow, len(g.Rows))
	for i, gr := range g.Rows {
		row := GroupsRow{GroupRow: gr, CallPath: res.CallPath(gr.Cnode)}
		if gr.Significant {
			row.Text[GroupsSignificant] = "★"
		}
		st := formatStats(&gr.Comparison, gr.Q, num)
		row.Text[GroupsMeanA], row.Text[GroupsMeanB], row.Text[GroupsDiff] = st.A, st.B, st.Diff
		row.Text[GroupsCI], row.Text[GroupsP], row.Text[GroupsQ], row.Text[GroupsEffect] = st.CI, st.P, st.Q, st.Effect
		r.all[i] = row
	}
	r.SetHideNotSignificant(false)
	return r
}

func effectText(g float64) string {
	switch {
	case math.IsNaN(g):
		return "–"
	case math.IsInf(g, 0):
		return strconv.FormatFloat(g, 'f', 0, 64)
	}
	return strconv.FormatFloat(g, 'f', 2, 64)
}

// SetHideNotSignificant leaves out (or shows again) the rows that are not
// significant.
func (r *GroupsReport) SetHideNotSignificant(hide bool) {
	r.set(hide, len(r.all), func(i int) bool { return r.all[i].Significant })
}

// Row returns shown row i.
func (r *GroupsReport) Row(i int) *GroupsRow { return &r.all[r.index(i)] }

// Muted reports whether shown row i is drawn muted: it is not significant.
func (r *GroupsReport) Muted(i int) bool { return !r.Row(i).Significant }

// Cell returns the text of shown row i's column c.
func (r *GroupsReport) Cell(i, c int) string {
	row := r.Row(i)
	if c == GroupsCallPath {
		return row.CallPath
	}
	return row.Text[c]
}

// SortKey returns what shown row i's column c sorts by.
func (r *GroupsReport) SortKey(i, c int) SortKey {
	row := r.Row(i)
	switch c {
	case GroupsSignificant:
		if row.Significant {
			return NumKey(1)
		}
		return NumKey(0)
	case GroupsMeanA:
		return NumKey(row.A.Mean)
	case GroupsMeanB:
		return NumKey(row.B.Mean)
	case GroupsDiff:
		return NumKey(row.Diff)
	case GroupsCI:
		return NumKey(row.CILow)
	case GroupsP:
		return NumKey(row.P)
	case GroupsQ:
		return NumKey(row.Q)
	case GroupsEffect:
		return NumKey(row.Effect)
	}
	return TextKey(row.CallPath)
}

// Numeric reports whether column c holds numbers.
func (r *GroupsReport) Numeric(c int) bool { return c != GroupsCallPath }

// Header names column c.
func (r *GroupsReport) Header(c int) string {
	return [GroupsColumns]string{"", "A (mean ± sd)", "B (mean ± sd)", "A − B", "95 % interval", "p", "q", "Effect", "Call path"}[c]
}

// GroupsNode returns the row of v that shows the call path of shown row i,
// a zero Node when v's experiment has no such call path.
func GroupsNode(v *view.View, r *GroupsReport, i int) view.Node {
	if c := MatchCnode(v.Experiment(), r.Result.Result, r.Row(i).Cnode); c >= 0 {
		return view.Node{Kind: view.CnodeNode, Index: c}
	}
	return view.Node{}
}
