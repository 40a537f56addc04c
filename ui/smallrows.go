package ui

import "cubeview/view"

// SetSmallRows folds the rows below share t of their pane's total into
// "(n hidden)" rows (0: every row shown); the choice is remembered.
func (w *Window) SetSmallRows(t float64) {
	w.update(func(v *view.View) {
		v.SmallRows().SetThreshold(t)
		view.SaveSmallRows(w.app.prefs, v.SmallRows().Threshold())
		for _, p := range w.panes {
			p.Reload()
		}
	})
}
