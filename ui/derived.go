package ui

import (
	"errors"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"cubeview/model"
	"cubeview/view"
)

// derivedForm is the content of the New derived metric dialog. The
// dialog's Add button calls Submit; tests fill the entries and call Submit
// the same way.
type derivedForm struct {
	w                            *Window
	name, expr, unit, thresholds *widget.Entry
	problem                      *widget.Label // the expression's problem, with a caret under it
	items                        []*widget.FormItem
}

func (w *Window) newDerivedForm() *derivedForm {
	f := &derivedForm{w: w}
	f.name = widget.NewEntry()
	f.name.SetPlaceHolder("ipc")
	f.name.Validator = func(s string) error { return view.CheckMetricName(f.exp(), s) }
	f.expr = widget.NewEntry()
	f.expr.SetPlaceHolder("PAPI_TOT_INS / PAPI_TOT_CYC")
	f.expr.TextStyle.Monospace = true
	f.expr.Validator = func(s string) error {
		_, err := view.CheckExpression(f.exp(), s)
		f.showProblem(err)
		if err != nil {
			return errors.New("see below")
		}
		return nil
	}
	f.unit = widget.NewEntry()
	f.unit.SetPlaceHolder("from the operands")
	f.thresholds = widget.NewEntry()
	f.thresholds.SetPlaceHolder("optional, e.g. poor < 0.5 < average < 1 < good")
	f.thresholds.Validator = view.CheckThresholds
	f.problem = widget.NewLabel("")
	f.problem.TextStyle.Monospace = true
	help := widget.NewLabel("+ − × ÷ (or + - * /), numbers, metric unique names and parentheses; evaluated after\n" +
		"aggregation at every row (a ratio of sums). Thresholds name ranges of the values, shown after each row's name.")
	help.Importance = widget.LowImportance
	f.items = []*widget.FormItem{
		widget.NewFormItem("Name", f.name),
		widget.NewFormItem("Expression", f.expr),
		widget.NewFormItem("", f.problem),
		widget.NewFormItem("Unit", f.unit),
		widget.NewFormItem("Thresholds", f.thresholds),
		widget.NewFormItem("", help),
	}
	return f
}

func (f *derivedForm) exp() *model.Experiment { return f.w.view.Experiment() }

func (f *derivedForm) showProblem(err error) {
	if err == nil {
		f.problem.SetText("")
		return
	}
	f.problem.SetText(err.Error())
}

// Spec returns what the form describes.
func (f *derivedForm) Spec() view.DerivedSpec {
	return view.DerivedSpec{Name: f.name.Text, Expression: f.expr.Text, Unit: f.unit.Text, Thresholds: f.thresholds.Text}
}

// Submit adds the metric to the window's experiment and selects it.
func (f *derivedForm) Submit() error {
	e, err := view.WithDerived(f.exp(), f.Spec())
	if err != nil {
		f.showProblem(err)
		return err
	}
	if err := f.w.replaceExperiment(e); err != nil {
		return err
	}
	f.w.selectNode(view.MetricPane, view.Node{Kind: view.MetricNode, Index: len(e.Metrics) - 1})
	return nil
}

func (w *Window) showDerivedDialog() {
	if w.view == nil {
		return
	}
	f := w.newDerivedForm()
	d := dialog.NewForm("New derived metric", "Add", "Cancel", f.items, func(ok bool) {
		if !ok {
			return
		}
		if err := f.Submit(); err != nil {
			w.showError(err)
		}
	}, w.win)
	d.Resize(fyne.NewSize(720, 0).Max(d.MinSize()))
	d.Show()
	w.win.Canvas().Focus(f.name)
}

// showThresholdsDialog sets or removes the thresholds of the selected
// metric.
func (w *Window) showThresholdsDialog() {
	if w.view == nil {
		return
	}
	n := w.view.Selected(view.MetricPane)
	if n.Kind != view.MetricNode {
		return
	}
	m := &w.view.Experiment().Metrics[n.Index]
	entry := widget.NewEntry()
	entry.SetPlaceHolder("poor < 0.5 < average < 1 < good; empty removes them")
	if t, err := m.Thresholds(); err == nil && t != nil {
		entry.SetText(t.String())
	}
	entry.Validator = view.CheckThresholds
	items := []*widget.FormItem{widget.NewFormItem("Thresholds", entry)}
	d := dialog.NewForm("Thresholds of "+w.view.Label(n), "Apply", "Cancel", items, func(ok bool) {
		if ok {
			w.reportError(w.SetThresholds(m.UniqName, entry.Text))
		}
	}, w.win)
	d.Resize(fyne.NewSize(560, 0).Max(d.MinSize()))
	d.Show()
}

// SetThresholds gives metric uniq the thresholds spec (empty: none).
func (w *Window) SetThresholds(uniq, spec string) error {
	if w.view == nil {
		return errors.New("no experiment in this window")
	}
	e, err := w.view.Experiment().WithThresholds(uniq, strings.TrimSpace(spec))
	if err != nil {
		return err
	}
	return w.replaceExperiment(e)
}

func (w *Window) reportError(err error) {
	if err != nil {
		w.showError(err)
	}
}

// replaceExperiment shows e, the window's experiment with metrics added or
// changed, keeping selections and expansions; the document follows, so
// that the algebra and Save as see the new metric.
func (w *Window) replaceExperiment(e *model.Experiment) error {
	if err := w.view.SetExperiment(e); err != nil {
		return err
	}
	w.doc.Exp = e
	for _, p := range w.panes {
		p.SetView(w.view)
	}
	w.app.changed()
	w.refresh()
	return nil
}
