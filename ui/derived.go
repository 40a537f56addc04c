package ui

import (
	"errors"
	"strings"

	"cubeview/dialogform"
	"cubeview/model"
	"cubeview/view"
)

// newDerivedForm returns Metric tree › New derived metric… for the
// window's experiment; submitting adds the metric and selects it.
func (dl *dialogs) newDerivedForm() *dialogform.DerivedForm {
	w := dl.w
	return dialogform.NewDerivedForm(w.view.Experiment(), func(e *model.Experiment) error {
		if err := w.replaceExperiment(e); err != nil {
			return err
		}
		w.selectNode(view.MetricPane, view.Node{Kind: view.MetricNode, Index: len(e.Metrics) - 1})
		return nil
	})
}

func (dl *dialogs) showDerivedDialog() {
	w := dl.w
	if w.view != nil {
		showForm(w.win, w.dialogs.newDerivedForm().Form, w.showError)
	}
}

// showThresholdsDialog sets or removes the thresholds of the selected
// metric.
func (dl *dialogs) showThresholdsDialog() {
	w := dl.w
	if w.view == nil {
		return
	}
	if f := dialogform.ThresholdsForm(w.view, w.dialogs.SetThresholds); f != nil {
		showForm(w.win, f, w.showError)
	}
}

// SetThresholds gives metric uniq the thresholds spec (empty: none).
func (dl *dialogs) SetThresholds(uniq, spec string) error {
	w := dl.w
	if w.view == nil {
		return errors.New("no experiment in this window")
	}
	e, err := model.WithThresholds(w.view.Experiment(), uniq, strings.TrimSpace(spec))
	if err != nil {
		return err
	}
	return w.replaceExperiment(e)
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
