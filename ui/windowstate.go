package ui

import (
	"cubeview/view"
)

// windowState keeps a window's choices in the preferences — value
// modes, sort order, the panel below the panes, the window's size — and
// gives them to the windows opened after it.
type windowState struct{ w *Window }

// restoreModes gives a new window's view the value modes and sort order
// the user chose last.
func (st windowState) restoreModes() {
	w := st.w
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
func (st windowState) rememberPanel() {
	w := st.w
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
func (st windowState) restorePanel() {
	w := st.w
	switch view.PanelPref(w.app.prefs) {
	case view.StatisticsPanel:
		w.panels.ShowStats(true)
	case view.SourcePanel:
		w.panels.ShowSource(true)
	}
}

// rememberSize remembers the window's size, for the next window to open
// at it (within the screen).
func (st windowState) rememberSize() {
	w := st.w
	s := w.win.Canvas().Size()
	if s.Width > 0 && s.Height > 0 {
		view.SaveWindowSize(w.app.prefs, view.Size{Width: float64(s.Width), Height: float64(s.Height)})
	}
}
