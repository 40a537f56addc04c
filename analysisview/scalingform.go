package analysisview

import (
	"errors"
	"fmt"
	"image"
	"math"
	"strconv"
	"strings"

	"cubeview/analysis"
	"cubeview/dialogform"
	"cubeview/document"
	"cubeview/form"
	"cubeview/model"
	"cubeview/numfmt"
	"cubeview/view"
)

// ScalingFields are the fields both scaling dialogs have (Algebra ›
// Scaling… and the repository window's Scaling…): the metric, what the
// runs are compared by, weak scaling and own values.
type ScalingFields struct {
	Metric, Basis, Weak, Exclusive *form.Field
	PerVisit, Rank, Predict        *form.Field
}

// NewScalingFields returns the shared fields of a scaling dialog: no
// metric offered yet, runs compared by their mean, strong scaling of
// inclusive values.
func NewScalingFields() ScalingFields {
	return ScalingFields{
		Metric: &form.Field{Kind: form.ChoiceField, Label: "Metric"},
		Basis:  &form.Field{Kind: form.ChoiceField, Label: "Compare", Options: basisNames, Text: basisNames[analysis.BasisAuto]},
		Weak:   &form.Field{Kind: form.CheckField, Label: "Weak scaling (the work grows with x): ratio to the first run, ideal 1"},
		Exclusive: &form.Field{Kind: form.CheckField,
			Label: "Own values of each call path (exclusive) instead of inclusive ones"},
		PerVisit: &form.Field{Kind: form.CheckField,
			Label: "Per visit: each call path's value divided by its own visits (the cost of one call)"},
		Rank: &form.Field{Kind: form.ChoiceField, Label: "Largest first", Options: RankNames, Text: RankNames[0]},
		Predict: &form.Field{Kind: form.TextField, Label: "Predict at x", Placeholder: "optional: an x to evaluate each call path's model at, e.g. 1000",
			Validate: func(text string) error { _, err := parsePredict(text); return err }},
	}
}

// RankNames are the orders of a scaling study's table and plot, as
// --rank of "cubeview series" takes them; the first is its default.
var RankNames = []string{
	"automatic: the prediction when x is given below, else the value in the first run",
	"value in the first run",
	"growth from the first run to the last",
	"predicted value at the x below",
}

// rankChoices are the orders RankNames name after the first.
var rankChoices = []analysis.RankBy{analysis.RankValue, analysis.RankGrowth, analysis.RankPredicted}

// parsePredict reads the x to predict at: blank is none (0), else a
// positive number.
func parsePredict(text string) (float64, error) {
	t := strings.TrimSpace(text)
	if t == "" {
		return 0, nil
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || !(x > 0) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%q: want a positive number", t)
	}
	return x, nil
}

// Spec returns the study of metric (a uniq_name) the fields describe, x
// from x and xText.
func (s ScalingFields) Spec(metric string, x XSource, xText string) ScalingSpec {
	spec := ScalingSpec{Metric: metric, X: x, XText: xText, Weak: s.Weak.On, Exclusive: s.Exclusive.On,
		Basis: analysis.Basis(max(s.Basis.Index(), 0)), PerVisit: s.PerVisit.On}
	spec.Predict, _ = parsePredict(s.Predict.Text) // Validate keeps a bad one from being submitted
	switch i := s.Rank.Index(); {
	case i > 0:
		spec.Rank = rankChoices[i-1]
	case spec.Predict > 0:
		spec.Rank = analysis.RankPredicted
	}
	return spec
}

// ScalingForm is Algebra › Scaling…: the experiments of the study (an
// ordered check list), the metric, where x comes from and how to
// compare. Submit passes the study to the run function given to
// NewScalingForm.
type ScalingForm struct {
	*form.Form
	Experiments, X, XText, Preview *form.Field
	Metric                         *dialogform.MetricChoice
	Options                        ScalingFields   // Options.Metric is Metric.Field
	docs                           []*document.Doc // in the order of Experiments.Options
	labels                         map[string]*document.Doc
}

// NewScalingForm returns the form over the open documents docs, with
// first at the top of the list; first (unless a result of the algebra)
// and every experiment read from a file that is not itself a result are
// checked. The metric is the one
// named metric when they have it.
func NewScalingForm(docs []*document.Doc, first *document.Doc, metric string, run func([]*document.Doc, ScalingSpec)) *ScalingForm {
	f := &ScalingForm{Options: NewScalingFields(), labels: map[string]*document.Doc{}}
	f.Metric = &dialogform.MetricChoice{Field: f.Options.Metric}
	f.Experiments = &form.Field{Kind: form.ListField}
	for i, label := range document.Labels(docs) {
		d := docs[i]
		f.labels[label] = d
		on := dialogform.CheckedByDefault(d, first)
		if d == first {
			f.docs = append([]*document.Doc{d}, f.docs...)
			f.Experiments.Options = append([]string{label}, f.Experiments.Options...)
			f.Experiments.Checked = append([]bool{on}, f.Experiments.Checked...)
		} else {
			f.docs = append(f.docs, d)
			f.Experiments.Options = append(f.Experiments.Options, label)
			f.Experiments.Checked = append(f.Experiments.Checked, on)
		}
	}
	f.X = &form.Field{Kind: form.RadioField, Label: "x", Options: XSourceNames, Text: XSourceNames[XProcesses]}
	f.XText = &form.Field{Kind: form.TextField, Placeholder: "attribute name, or one value per experiment: 16, 32, 64"}
	f.Preview = &form.Field{Kind: form.NoteField, Wrap: true, Plain: true}
	f.update()
	f.Metric.Set(metric)
	o := f.Options
	f.Form = &form.Form{Title: "Scaling", Confirm: "compute", Fields: []*form.Field{
		{Kind: form.NoteField, Text: "Experiments (check two or more):", Plain: true, Width: 720}, f.Experiments,
		f.Metric.Field, f.X, f.XText, o.Basis, o.Weak, o.Exclusive, o.PerVisit, o.Rank, o.Predict, f.Preview,
		form.Note("Trials of the repository: check them in File › Repository… and press Scaling…."),
	}}
	f.Changed = func(x *form.Field) {
		if x == f.Experiments || x == f.X || x == f.XText {
			f.update()
		}
	}
	f.Submit = func() error {
		docs, spec, err := f.spec()
		if err != nil {
			return err
		}
		run(docs, spec)
		return nil
	}
	return f
}

// update offers the metrics of the checked experiments and shows x.
func (f *ScalingForm) update() {
	docs := f.checked()
	f.Metric.OfferDocs(docs...)
	trials := make([]ScalingTrial, len(docs))
	for i, d := range docs {
		trials[i] = ScalingTrial{Name: d.Name, Exp: d.Exp}
	}
	f.Preview.Text = scalingXPreview(xSourceNamed(f.X.Text), f.XText.Text, trials)
}

// checked returns the checked experiments in list order.
func (f *ScalingForm) checked() []*document.Doc {
	var out []*document.Doc
	for _, label := range f.Experiments.CheckedOptions() {
		out = append(out, f.labels[label])
	}
	return out
}

// CheckOnly checks exactly docs and puts them first, in their order, as
// the user could.
func (f *ScalingForm) CheckOnly(docs ...*document.Doc) {
	var front []string
	for _, d := range docs {
		for label, l := range f.labels {
			if l == d {
				front = append(front, label)
			}
		}
	}
	f.Form.CheckOnly(f.Experiments, front)
}

// spec returns the study the form describes and its experiments.
func (f *ScalingForm) spec() ([]*document.Doc, ScalingSpec, error) {
	docs := f.checked()
	s := f.Options.Spec(f.Metric.Metric(), xSourceNamed(f.X.Text), f.XText.Text)
	if len(docs) < 2 {
		return docs, s, errors.New("scaling: check at least two experiments")
	}
	return docs, s, nil
}

// docTrials returns docs as the trials of a scaling study, named by
// their labels (document.Labels).
func docTrials(docs []*document.Doc) []ScalingTrial {
	labels := document.Labels(docs)
	trials := make([]ScalingTrial, len(docs))
	for i, d := range docs {
		trials[i] = ScalingTrial{Name: labels[i], Exp: d.Exp}
	}
	return trials
}

// RunScaling computes the study of docs in the background through run,
// showing progress through busy, and passes the report, its plot or the
// error to done (on run's UI side).
func RunScaling(run view.Runner, busy view.Busy, docs []*document.Doc, spec ScalingSpec, format numfmt.Format,
	done func(*ScalingReport, image.Image, error)) {
	trials := docTrials(docs)
	stop := busy(fmt.Sprintf("Scaling of %d experiments …", len(docs)))
	var rep *ScalingReport
	var img image.Image
	var err error
	run(func() { rep, img, err = ScalingStudy(trials, spec, format) }, func() {
		stop()
		done(rep, img, err)
	})
}

// StudyDocs returns the documents of the study's trials in the trials'
// order (by x); docs are the documents studied, in any order.
func (s *ScalingReport) StudyDocs(docs []*document.Doc) []*document.Doc {
	exps := make([]*model.Experiment, len(docs))
	for i, d := range docs {
		exps[i] = d.Exp
	}
	var out []*document.Doc
	for _, i := range s.trialOrder(exps) {
		if i >= 0 {
			out = append(out, docs[i])
		}
	}
	return out
}

// WindowTitle is the title of the window that shows the study.
func (s *ScalingReport) WindowTitle() string { return "cubeview — scaling: " + s.Result.Metric }

// Hint says, under the study's title, which runs it compares and what a
// click does.
func (s *ScalingReport) Hint() string {
	return s.Runs + ". Click a call path to select it in the experiments' windows, a column's title to sort by it; the plot shows the largest ones."
}
