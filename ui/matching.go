package ui

import (
	"fyne.io/fyne/v2/widget"

	"cubeview/view"
)

// showMatching shows above the status line how a derived experiment's
// operands were matched for the selected metric, as a warning when an
// operand contributes nothing to its values; nothing for an original.
func (w *Window) showMatching() {
	line, warn := view.MatchingLine(w.view)
	if line == "" {
		w.matching.Hide()
		return
	}
	w.matching.Importance = widget.MediumImportance
	if warn {
		w.matching.Importance = widget.WarningImportance
	}
	w.matching.SetText(line)
	w.matching.Show()
}
