package ui

import (
	"cubeview/view"
)

// restoreModes gives a new window's view the value modes and sort order
// the user chose last.
func (w *Window) restoreModes() {
	for d, m := range view.PaneModesPref(w.app.prefs) {
		// Clusters need a clustering first: a new window does not start one.
		if m != view.Absolute && m != view.ClusterMode {
			w.view.SetMode(view.Dim(d), m)
		}
	}
	if o := view.SortOrderPref(w.app.prefs); o != view.FileOrder {
		w.view.SetOrder(o)
	}
}

// rememberPanel remembers the panel shown below the panes, for new
// windows to open it too.
func (w *Window) rememberPanel() {
	x := view.NoPanel
	switch {
	case w.panels.StatsShown():
		x = view.StatisticsPanel
	case w.panels.SourceShown():
		x = view.SourcePanel
	}
	view.SavePanel(w.app.prefs, x)
}

// restorePanel opens the panel that was open when the user last chose.
func (w *Window) restorePanel() {
	switch view.PanelPref(w.app.prefs) {
	case view.StatisticsPanel:
		w.panels.ShowStats(true)
	case view.SourcePanel:
		w.panels.ShowSource(true)
	}
}

// rememberSize remembers the window's size, for the next window to open
// at it (within the screen).
func (w *Window) rememberSize() {
	s := w.win.Canvas().Size()
	if s.Width > 0 && s.Height > 0 {
		view.SaveWindowSize(w.app.prefs, view.Size{Width: float64(s.Width), Height: float64(s.Height)})
	}
}
