package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// analysisPanels are the panels of the multi-experiment analyses a window
// may show below its panes.
type analysisPanels struct {
	perfDiff *perfDiffPanel // the last performance difference shown
	stats    *statsPanel    // nil until the statistics are first shown
	scaling  *scalingWindow // the last scaling study started here
}

// showAnalysisPanel puts obj below the panes in place of any other
// panel, giving the panes the share panes of the height.
func (w *Window) showAnalysisPanel(obj fyne.CanvasObject, panes float64) {
	if w.SourceShown() {
		w.ShowSource(false)
	}
	w.SetPanel(obj)
	if s, ok := w.panesArea.Objects[0].(*container.Split); ok {
		s.SetOffset(panes)
	}
	w.rebuildMenu()
}

// panelShows reports whether obj is the panel below the panes.
func (w *Window) panelShows(obj fyne.CanvasObject) bool {
	if len(w.panesArea.Objects) == 0 {
		return false
	}
	s, ok := w.panesArea.Objects[0].(*container.Split)
	return ok && s.Trailing == obj
}
