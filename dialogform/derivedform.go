package dialogform

import (
	"cubeview/form"
	"cubeview/model"
	"cubeview/view"
)

// DerivedForm is Metric tree › New derived metric…: a name, an
// expression over the experiment's metrics (its problem shown under it,
// with a caret at the column), a unit and thresholds.
type DerivedForm struct {
	*form.Form
	Name, Expression, Unit, Thresholds *form.Field
}

// NewDerivedForm returns the form for a new metric of e; Submit passes
// e with the metric added (WithDerived) to add.
func NewDerivedForm(e *model.Experiment, add func(*model.Experiment) error) *DerivedForm {
	f := &DerivedForm{
		Name: &form.Field{Kind: form.TextField, Label: "Name", Placeholder: "ipc", Width: 720,
			Validate: func(s string) error { return checkMetricName(e, s) }},
		Expression: &form.Field{Kind: form.TextField, Label: "Expression", Placeholder: "PAPI_TOT_INS / PAPI_TOT_CYC", Monospace: true,
			Validate: func(s string) error {
				_, err := view.CheckExpression(e, s)
				return err
			}},
		Unit: &form.Field{Kind: form.TextField, Label: "Unit", Placeholder: "from the operands"},
		Thresholds: &form.Field{Kind: form.TextField, Label: "Thresholds", Placeholder: "optional, e.g. poor < 0.5 < average < 1 < good",
			Validate: checkThresholds},
	}
	help := form.Note("+ − × ÷ (or + - * /), numbers, metric unique names and parentheses; evaluated after\n" +
		"aggregation at every row (a ratio of sums). Thresholds name ranges of the values, shown after each row's name.")
	f.Form = &form.Form{Title: "New derived metric", Confirm: "Add",
		Fields: []*form.Field{f.Name, f.Expression, f.Unit, f.Thresholds, help}, Focus: f.Name}
	f.Submit = func() error {
		x, err := view.WithDerived(e, f.spec())
		if err != nil {
			f.Expression.Problem = err.Error()
			return err
		}
		return add(x)
	}
	return f
}

// Spec returns what the form describes.
func (f *DerivedForm) spec() view.DerivedSpec {
	return view.DerivedSpec{Name: f.Name.Text, Expression: f.Expression.Text, Unit: f.Unit.Text, Thresholds: f.Thresholds.Text}
}

// ThresholdsForm is Metric tree › Thresholds of the selected metric…:
// the thresholds of the metric selected in v's metric pane; Submit
// passes its unique name and the text (empty: none) to set. Nil when no
// metric is selected.
func ThresholdsForm(v *view.View, set func(uniq, spec string) error) *form.Form {
	n := v.Selected(view.MetricPane)
	if n.Kind != view.MetricNode {
		return nil
	}
	m := &v.Experiment().Metrics[n.Index]
	x := &form.Field{Kind: form.TextField, Label: "Thresholds", Placeholder: "poor < 0.5 < average < 1 < good; empty removes them",
		Validate: checkThresholds, Width: 560}
	if t, err := m.Thresholds(); err == nil && t != nil {
		x.Text = t.String()
	}
	f := &form.Form{Title: "Thresholds of " + v.Label(n), Confirm: "Apply", Fields: []*form.Field{x}}
	f.Submit = func() error { return set(m.UniqName, x.Text) }
	return f
}
