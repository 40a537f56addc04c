package ui

import "fyne.io/fyne/v2"

// analysisPanels are the panels of the multi-experiment analyses a window
// may show below its panes.
type analysisPanels struct {
	perfDiff *perfDiffPanel // the last performance difference shown
}

// analysisItems returns the Algebra menu's analysis entries.
func (w *Window) analysisItems() (where, scaling *fyne.MenuItem) {
	where = fyne.NewMenuItem("Where did it change…", w.showPerfDiffDialog)
	scaling = fyne.NewMenuItem("Scaling…", w.showScalingDialog)
	return where, scaling
}

func (w *Window) showScalingDialog() {}
