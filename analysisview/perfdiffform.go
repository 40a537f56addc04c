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

// PerfDiffRequest is a comparison of two open experiments.
type PerfDiffRequest struct {
	A, B    *document.Doc
	Options analysis.PerfDiffOptions
}

// PerfDiffForm is Algebra › Where did it change…: two open experiments,
// a metric of theirs and δ. Submit passes the comparison to the run
// function given to NewPerfDiffForm.
type PerfDiffForm struct {
	*form.Form
	A, B, Delta, Kind *form.Field
	Metric            *dialogform.MetricChoice
	docs              []*document.Doc
	labels            []string
}

// NewPerfDiffForm returns the form over the open documents docs: A is
// current, B the one after it (wrapping around), the metric the one
// named metric when they have it.
func NewPerfDiffForm(docs []*document.Doc, current *document.Doc, metric string, run func(PerfDiffRequest)) *PerfDiffForm {
	f := &PerfDiffForm{docs: docs, labels: document.Labels(docs), Metric: dialogform.NewMetricChoice()}
	f.A = &form.Field{Kind: form.ChoiceField, Label: "Experiment A", Options: f.labels, Width: 720}
	f.B = &form.Field{Kind: form.ChoiceField, Label: "Experiment B", Options: f.labels}
	f.Delta = &form.Field{Kind: form.TextField, Label: "δ", Text: "1"}
	f.Kind = &form.Field{Kind: form.RadioField, Options: []string{DeltaAbsolute, DeltaRelative}, Text: DeltaAbsolute}
	a, b := dialogform.PairChoice(docs, current)
	if a >= 0 {
		f.A.Text = f.labels[a]
	}
	if b >= 0 {
		f.B.Text = f.labels[b]
	}
	f.offerMetrics()
	f.Metric.Set(metric)
	note := form.Note("A focus is a call path, or a call path's own part \"(self)\", on a part of the system. Starting at\n" +
		"the whole program, every focus whose change below it (the sum of |A − B| over its points; for\n" +
		"min, max and derived metrics the largest |A − B|) reaches δ is refined one step in the call tree\n" +
		"and in the system tree, so time that moved between call paths or ranks is found too. Most specific\n" +
		"foci are those no focus one step below of which differs. What only one experiment has is listed\n" +
		"apart and left out of the comparison. Click a result to select it in the window of A − B (for a\n" +
		"derived metric: in the windows of A and B).")
	f.Form = &form.Form{Title: "Where did it change?", Confirm: "Compare",
		Fields: []*form.Field{f.A, f.B, f.Metric.Field, f.Delta, f.Kind, note}}
	followOperands(f.Form, f.A, f.B, f.offerMetrics, f.request, run)
	return f
}

// doc returns the document labelled label, nil when none is.
func (f *PerfDiffForm) doc(label string) *document.Doc {
	for i, l := range f.labels {
		if l == label {
			return f.docs[i]
		}
	}
	return nil
}

// offerMetrics offers the metrics of A and B.
func (f *PerfDiffForm) offerMetrics() { f.Metric.OfferDocs(f.doc(f.A.Text), f.doc(f.B.Text)) }

// request returns the comparison the form describes, or why it cannot run.
func (f *PerfDiffForm) request() (PerfDiffRequest, error) {
	r := PerfDiffRequest{A: f.doc(f.A.Text), B: f.doc(f.B.Text)}
	if r.A == nil || r.B == nil {
		return r, errors.New("choose experiments A and B")
	}
	r.Options.Metric = f.Metric.Metric()
	if r.Options.Metric == "" {
		return r, errors.New("choose a metric")
	}
	r.Options.Self = true
	r.Options.Relative = f.Kind.Text == DeltaRelative
	var err error
	r.Options.Delta, err = parseDelta(f.Delta.Text, r.Options.Relative)
	return r, err
}

// PerfDiffJob is a comparison on its way: where its result list goes,
// and what was computed.
type PerfDiffJob struct {
	PerfDiffRequest
	Diff document.Operation // A − B
	// Derived reports that the metric is derived in A or B: A − B of a
	// derived metric is its formula over the operands' differences, not
	// A's value minus B's, so the list goes below A's window and a click
	// selects the focus in the windows of A and B, which show the values
	// compared.
	Derived bool
	// InDifference is the open document A − B whose window shows the
	// list; nil when none is open (or the metric is derived).
	InDifference *document.Doc
	Names        [2]string // of A and B, as the list names them

	Report *PerfDiffReport
	Result *model.Experiment // A − B, computed when no window shows it
}

// NewPerfDiffJob plans the comparison r among the open documents.
func NewPerfDiffJob(r PerfDiffRequest, open []*document.Doc) *PerfDiffJob {
	j := &PerfDiffJob{PerfDiffRequest: r, Diff: document.Operation{Op: algebra.OpDiff, Operands: []*document.Doc{r.A, r.B}}}
	j.Derived = derivedIn(r.A, r.Options.Metric) || derivedIn(r.B, r.Options.Metric)
	if !j.Derived {
		j.InDifference = findResult(open, j.Diff)
	}
	names := document.OperandNames(j.Diff.Operands)
	j.Names = [2]string{names[0], names[1]}
	return j
}

// findResult returns the open document that is op's result, nil when
// none is.
func findResult(open []*document.Doc, op document.Operation) *document.Doc {
	name := op.Name()
	for _, d := range open {
		if d != nil && d.Expression == name && slices.Equal(d.Sources, op.Operands) {
			return d
		}
	}
	return nil
}

// derivedIn reports whether metric uniq is a derived metric of d.
func derivedIn(d *document.Doc, uniq string) bool {
	m := d.Exp.MetricByName(uniq)
	return m >= 0 && d.Exp.Metrics[m].IsDerived()
}

// progress is the progress message while the comparison runs.
func (j *PerfDiffJob) progress() string {
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

// compute compares, and computes A − B when the list goes into its new
// window (neither derived nor open); call it off the UI goroutine.
func (j *PerfDiffJob) compute(format numfmt.Format) error {
	pd, err := analysis.PerfDiff(j.A.Exp, j.B.Exp, j.Options)
	if err != nil {
		return err
	}
	m := perfDiffMetric(j.A.Exp, j.B.Exp, j.Options.Metric)
	j.Report = newPerfDiffReport(pd, m, j.Names[0], j.Names[1], format)
	if !j.Derived && j.InDifference == nil {
		j.Result, err = j.Diff.Evaluate()
	}
	return err
}

// Legend explains the result list: what a star and "(self)" mean and
// what a click selects.
func (j *PerfDiffJob) Legend() string {
	const star = "★ most specific: no focus one step below differs (this says where the search ends; it is no statistical test). " +
		"\"(self)\": the call path's own part, without its callees; a click selects the call path expanded, showing its own value. "
	if j.Derived {
		return star + j.Names[0] + " − " + j.Names[1] +
			" of a derived metric is each one's value at the focus, subtracted. Click a row to select the focus here and in " +
			j.Names[1] + "'s window, a column's title to sort by it."
	}
	return star + "Click a row to select its metric, call path and system node above, a column's title to sort by it."
}
