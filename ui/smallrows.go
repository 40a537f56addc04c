package ui

import "cubeview/view"

// setSmallRows folds the rows of w below share t of their pane's total
// into "(n hidden)" rows (0: every row shown); the choice is remembered.
func setSmallRows(w *Window, t float64) {
	w.update(func(v *view.View) {
		v.SmallRows().SetThreshold(t)
		view.SaveSmallRows(w.app.prefs, v.SmallRows().Threshold())
		for _, p := range w.panes {
			p.Reload()
		}
	})
}
