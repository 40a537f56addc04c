package analysisview

import (
	"errors"
	"fmt"
	"slices"

	"cubeview/algebra"
	"cubeview/analysis"
	"cubeview/dialogform"
	"cubeview/document"
	"cubeview/form"
	"cubeview/model"
	"cubeview/numfmt"
	"cubeview/view"
)

// Choices of the δ kind in the Where did it change dialog.
const (
	DeltaAbsolute = "absolute, in the metric's unit"
	DeltaRelative = "% of the whole-program value"
)

// PerfDiffRequest is a comparison of two open experiments, or of two
// groups of repeated runs (at least two each).
type PerfDiffRequest struct {
	A, B    []*document.Doc
	Options analysis.PerfDiffOptions
}

// Grouped reports whether the sides are groups of runs, compared with a
// statistical test at every focus.
func (r PerfDiffRequest) Grouped() bool { return len(r.A) > 1 || len(r.B) > 1 }

// PerfDiffForm is Algebra › Where did it change…: two open experiments,
// or two groups of repeated runs, ticked among the open ones, a metric
// of theirs, δ and (for groups) the test. Submit passes the comparison
// to the run function given to NewPerfDiffForm.
type PerfDiffForm struct {
	*form.Form
	runLists
	Delta, Kind, Test *form.Field
	Metric            *dialogform.MetricChoice
}

// NewPerfDiffForm returns the form over the open documents docs: A is
// current, B the one after it (wrapping around), the metric the one
// named metric when they have it.
func NewPerfDiffForm(docs []*document.Doc, current *document.Doc, metric string, run func(PerfDiffRequest)) *PerfDiffForm {
	f := &PerfDiffForm{runLists: newRunLists(docs, "A: experiment, or repeated runs", "B: experiment, or repeated runs"), Metric: dialogform.NewMetricChoice()}
	f.changed = f.offerMetrics
	f.Delta = &form.Field{Kind: form.TextField, Label: "δ", Text: "1"}
	f.Kind = &form.Field{Kind: form.RadioField, Options: []string{DeltaAbsolute, DeltaRelative}, Text: DeltaAbsolute}
	f.Test = &form.Field{Kind: form.RadioField, Label: "Test (groups)", Options: []string{TestWelch, TestMannWhitney}, Text: TestWelch}
	a, b := dialogform.PairChoice(docs, current)
	f.tick(f.A, a)
	if b != a {
		f.tick(f.B, b)
	}
	f.offerMetrics()
	f.Metric.Set(metric)
	note := form.Note("A focus is a call path, or a call path's own part \"(self)\", on a part of the system. Starting at\n" +
		"the whole program, every focus whose change below it (the sum of |A − B| over its points; for\n" +
		"min, max and derived metrics the largest |A − B|) reaches δ is refined one step in the call tree\n" +
		"and in the system tree, so time that moved between call paths or ranks is found too. Most specific\n" +
		"foci are those no focus one step below of which differs. What only one experiment has is listed\n" +
		"apart and left out of the comparison. Click a result to select it in the window of A − B (for a\n" +
		"derived metric: in the windows of A and B).\n" +
		"Tick several runs per side to compare groups of repeated runs (at least two each): the search runs\n" +
		"on the groups' means, and every differing focus is tested (q: Benjamini–Hochberg over all of them;\n" +
		"significant means q < 0.05, nothing else); the window shows mean(A) − mean(B).")
	f.Form = &form.Form{Title: "Where did it change?", Confirm: "Compare",
		Fields: []*form.Field{f.A, f.B, f.Metric.Field, f.Delta, f.Kind, f.Test, note}}
	followOperands(f.Form, f.A, f.B, f.offerMetrics, f.request, run)
	return f
}

// OfferOpen puts Open file… and Open folder… beside each side's list
// (runLists.OfferOpen).
func (f *PerfDiffForm) OfferOpen(openFile, openFolder func(then func(*document.Doc))) {
	f.runLists.OfferOpen(f.Form, openFile, openFolder)
}

// offerMetrics offers the metrics of the experiments ticked.
func (f *PerfDiffForm) offerMetrics() { f.Metric.OfferDocs(f.both()...) }

// request returns the comparison the form describes, or why it cannot run.
func (f *PerfDiffForm) request() (PerfDiffRequest, error) {
	r := PerfDiffRequest{A: f.group(f.A), B: f.group(f.B)}
	switch {
	case len(r.A) == 0 || len(r.B) == 0:
		return r, errors.New("tick experiment A and experiment B (or two groups of repeated runs)")
	case r.Grouped() && (len(r.A) < 2 || len(r.B) < 2):
		return r, fmt.Errorf("tick one experiment per side, or at least two runs in each group (A has %d, B %d): one run says nothing of its noise", len(r.A), len(r.B))
	case r.Grouped() && len(r.A)+len(r.B) > algebra.MaxOperands:
		return r, fmt.Errorf("%d runs ticked: at most %d can be compared together", len(r.A)+len(r.B), algebra.MaxOperands)
	}
	if d := f.inBoth(); d != nil && r.Grouped() {
		return r, fmt.Errorf("%s is in both groups", d.Name)
	}
	r.Options.Metric = f.Metric.Metric()
	if r.Options.Metric == "" {
		return r, errors.New("choose a metric")
	}
	r.Options.Self = true
	r.Options.Relative = f.Kind.Text == DeltaRelative
	if r.Grouped() {
		r.Options.Test = testChosen(f.Test)
	}
	var err error
	r.Options.Delta, err = parseDelta(f.Delta.Text, r.Options.Relative)
	return r, err
}

// PerfDiffJob is a comparison on its way: where its result list goes,
// and what was computed.
type PerfDiffJob struct {
	PerfDiffRequest
	// Diff is A − B of two experiments (zero for groups: their window
	// shows mean(A) − mean(B)).
	Diff document.Operation
	// Derived reports that the metric is derived in A or B (two
	// experiments): A − B of a derived metric is its formula over the
	// operands' differences, not A's value minus B's, so the list goes
	// below A's window and a click selects the focus in the windows of A
	// and B, which show the values compared.
	Derived bool
	// InDifference is the open document A − B (for groups mean(A) −
	// mean(B)) whose window shows the list; nil when none is open (or the
	// metric is derived).
	InDifference *document.Doc
	Names        [2]string // of A and B, as the list names them

	Report *PerfDiffReport
	// Result is A − B (for groups mean(A) − mean(B)), computed when no
	// window shows it.
	Result *model.Experiment
	// name is the expression of the result of groups.
	name string
}

// NewPerfDiffJob plans the comparison r among the open documents.
func NewPerfDiffJob(r PerfDiffRequest, open []*document.Doc) *PerfDiffJob {
	j := &PerfDiffJob{PerfDiffRequest: r}
	if r.Grouped() {
		j.Names = [2]string{"A", "B"}
		j.name = groupName(r.A) + " − " + groupName(r.B)
		j.InDifference = findNamed(open, j.name, append(slices.Clone(r.A), r.B...))
		return j
	}
	j.Diff = document.Operation{Op: algebra.OpDiff, Operands: []*document.Doc{r.A[0], r.B[0]}}
	j.Derived = derivedIn(r.A[0], r.Options.Metric) || derivedIn(r.B[0], r.Options.Metric)
	if !j.Derived {
		j.InDifference = findNamed(open, j.Diff.Name(), j.Diff.Operands)
	}
	names := document.OperandNames(j.Diff.Operands)
	j.Names = [2]string{names[0], names[1]}
	return j
}

// groupName names a group of runs as its mean: "mean(run1, run2, run3)".
func groupName(docs []*document.Doc) string {
	return document.Operation{Op: algebra.OpMean, Operands: docs}.Name()
}

// findNamed returns the open document that is the result name of
// sources, nil when none is.
func findNamed(open []*document.Doc, name string, sources []*document.Doc) *document.Doc {
	for _, d := range open {
		if d != nil && d.Expression == name && slices.Equal(d.Sources, sources) {
			return d
		}
	}
	return nil
}

// ResultDoc returns the document of Result, titled by its expression.
func (j *PerfDiffJob) ResultDoc() *document.Doc {
	if !j.Grouped() {
		return j.Diff.Result(j.Result)
	}
	return &document.Doc{Exp: j.Result, Name: j.name, Expression: j.name,
		Operands: []string{groupName(j.A), groupName(j.B)}, Sources: append(slices.Clone(j.A), j.B...)}
}

// derivedIn reports whether metric uniq is a derived metric of d.
func derivedIn(d *document.Doc, uniq string) bool {
	m := d.Exp.MetricByName(uniq)
	return m >= 0 && d.Exp.Metrics[m].IsDerived()
}

// progress is the progress message while the comparison runs.
func (j *PerfDiffJob) progress() string {
	if j.Grouped() {
		return fmt.Sprintf("Comparing %d runs with %d runs …", len(j.A), len(j.B))
	}
	return fmt.Sprintf("Comparing %s and %s …", j.Names[0], j.Names[1])
}

// Run compares in the background through run, showing progress through
// busy, and then passes compute's error to done (on run's UI side).
func (j *PerfDiffJob) Run(run view.Runner, busy view.Busy, format numfmt.Format, done func(error)) {
	stop := busy(j.progress())
	var err error
	run(func() { err = j.compute(format) }, func() {
		stop()
		done(err)
	})
}

// experiments returns the experiments of docs.
func experiments(docs []*document.Doc) []*model.Experiment {
	out := make([]*model.Experiment, len(docs))
	for i, d := range docs {
		out[i] = d.Exp
	}
	return out
}

// compute compares, and computes A − B (mean(A) − mean(B)) when the list
// goes into its new window (neither derived nor open); call it off the
// UI goroutine.
func (j *PerfDiffJob) compute(format numfmt.Format) error {
	a, b := experiments(j.A), experiments(j.B)
	if !j.Grouped() {
		pd, err := analysis.PerfDiff(a[0], b[0], j.Options)
		if err != nil {
			return err
		}
		m := perfDiffMetric(append(a, b...), j.Options.Metric)
		j.Report = newPerfDiffReport(pd, m, j.Names[0], j.Names[1], format)
		if !j.Derived && j.InDifference == nil {
			j.Result, err = j.Diff.Evaluate()
		}
		return err
	}
	pd, err := analysis.PerfDiffGroups(a, b, j.Options)
	if err != nil {
		return err
	}
	j.Report = newPerfDiffReport(pd, perfDiffMetric(append(a, b...), j.Options.Metric), j.Names[0], j.Names[1], format)
	j.Report.Notes = append([]string{"A = " + groupName(j.A) + "; B = " + groupName(j.B) + "."}, j.Report.Notes...)
	if pd.Derived {
		j.Report.Notes = append(j.Report.Notes, "A and B of a derived metric are the means of each run's value of its formula; "+
			"the window of mean(A) − mean(B) shows the formula over the means.")
	}
	if j.InDifference != nil {
		return nil
	}
	meanA, err := algebra.Mean(j.Options.Algebra, a...)
	if err != nil {
		return err
	}
	meanB, err := algebra.Mean(j.Options.Algebra, b...)
	if err != nil {
		return err
	}
	j.Result, err = algebra.Diff(meanA, meanB, j.Options.Algebra)
	return err
}

// Legend explains the result list: what a star, "(self)" and, for
// groups, "significant" mean and what a click selects.
func (j *PerfDiffJob) Legend() string {
	const star = "★ most specific: no focus one step below differs (this says where the search ends; it is no statistical test). " +
		"\"(self)\": the call path's own part, without its callees; a click selects the call path expanded, showing its own value. "
	switch {
	case j.Grouped():
		res := j.Report.Result
		return star + significanceLegend("Significant (yes)", res.Alpha, res.Test, res.Differing, "differing foci") + " " + groupColumnsLegend +
			" Click a row to select its metric, call path and system node above (the window shows mean(A) − mean(B)), a column's title to sort by it."
	case j.Derived:
		return star + j.Names[0] + " − " + j.Names[1] +
			" of a derived metric is each one's value at the focus, subtracted. Click a row to select the focus here and in " +
			j.Names[1] + "'s window, a column's title to sort by it."
	}
	return star + "Click a row to select its metric, call path and system node above, a column's title to sort by it."
}
