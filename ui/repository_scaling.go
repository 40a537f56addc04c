package ui

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysis"
	"cubeview/model"
	"cubeview/repo"
	"cubeview/repoview"
	"cubeview/view"
)

// repoScalingForm is the repository window's Scaling… dialog: a scaling
// study of the marked trials, x from one of their numeric attributes
// (the process count the import filled in, by default). The dialog's
// Compute button calls Submit; tests set the widgets and call Submit the
// same way.
type repoScalingForm struct {
	rw        *repoWindow
	trials    []repo.Trial
	metric    *widget.Select
	x         *widget.Select
	weak      *widget.Check
	exclusive *widget.Check
	basis     *widget.Select
	derived   *widget.Entry
	preview   *widget.Label
	content   fyne.CanvasObject
}

func (rw *repoWindow) newScalingForm() *repoScalingForm {
	f := &repoScalingForm{rw: rw, trials: rw.b.MarkedTrials()}
	f.preview = widget.NewLabel("")
	f.preview.Wrapping = fyne.TextWrapWord
	f.metric = widget.NewSelect(nil, nil)
	f.metric.PlaceHolder = "reading the trials' metrics …"
	f.x = widget.NewSelect(repoview.ScalingAttrs(f.trials), func(key string) {
		f.preview.SetText(repoview.ScalingPreview(f.trials, key))
	})
	if len(f.x.Options) > 0 {
		f.x.SetSelectedIndex(0)
	} else {
		f.preview.SetText("The marked trials share no numeric attribute to order them by: set one (e.g. size=25) first.")
	}
	f.weak = widget.NewCheck("Weak scaling (the work grows with x): ratio to the first run, ideal 1", nil)
	f.exclusive = widget.NewCheck("Own values of each call path (exclusive) instead of inclusive ones", nil)
	f.basis = widget.NewSelect(basisChoices, nil)
	f.basis.SetSelectedIndex(int(analysis.BasisMean))
	f.derived = widget.NewEntry()
	f.derived.SetPlaceHolder("optional: a derived metric to study, e.g. tpv = time / visits")
	var names []string
	filter := repoview.IDFilter(f.trials)
	rw.app.async(func() { names, _ = rw.c.Repo().MetricNames(context.Background(), filter) }, func() {
		f.metric.Options = names
		f.metric.PlaceHolder = "(select one)"
		for _, n := range names {
			if n == "time" {
				f.metric.SetSelected(n)
			}
		}
		if f.metric.Selected == "" && len(names) > 0 {
			f.metric.SetSelectedIndex(0)
		}
		f.metric.Refresh()
	})
	note := widget.NewLabel("Per call path: its value in each trial (ordered by x), the speedup and parallel efficiency\n" +
		"against the first one, and a plot of the largest call paths. Click a call path to select it in the\n" +
		"windows of the trials that are open.")
	note.Importance = widget.LowImportance
	f.content = container.NewVBox(
		widget.NewLabel(fmt.Sprintf("A scaling study of the %d marked trials, ordered by x:", len(f.trials))),
		widget.NewForm(
			widget.NewFormItem("Metric", f.metric),
			widget.NewFormItem("or derived", f.derived),
			widget.NewFormItem("x", f.x),
			widget.NewFormItem("Compare", f.basis),
			widget.NewFormItem("", f.weak),
			widget.NewFormItem("", f.exclusive)),
		f.preview, note)
	return f
}

// Spec returns the study the form describes: of the derived metric when
// one is given, else of the metric chosen.
func (f *repoScalingForm) Spec() (view.ScalingSpec, *model.DerivedMetric, error) {
	s := view.ScalingSpec{
		Metric: f.metric.Selected, X: view.XGiven, XText: f.x.Selected,
		Weak: f.weak.Checked, Exclusive: f.exclusive.Checked, Basis: analysis.Basis(max(f.basis.SelectedIndex(), 0)),
	}
	d, err := repoview.ScalingDerived(f.derived.Text)
	if d != nil {
		s.Metric = d.UniqName
	}
	return s, d, err
}

// Submit starts the study, or returns why it cannot start.
func (f *repoScalingForm) Submit() error {
	s, d, err := f.Spec()
	if err == nil {
		err = repoview.CheckScalingDerived(d, f.metric.Options)
	}
	if err != nil {
		return err
	}
	return f.rw.c.Scaling(f.trials, s, d)
}

func (rw *repoWindow) showScalingDialog() {
	f := rw.newScalingForm()
	showFormDialog(rw.win, "Scaling of repository trials", "Compute", f.content, 720, f.Submit, rw.showError)
}
