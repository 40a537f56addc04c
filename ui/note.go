package ui

import (
	"fyne.io/fyne/v2/widget"

	"cubeview/view"
)

// showNote shows above the status line view.NoteLine: how a derived
// experiment's operands were matched for the selected metric, as a
// warning when an operand contributes nothing to its values, and what
// the reader tolerated in the input.
func (w *Window) showNote() {
	line, warn := view.NoteLine(w.view)
	if line == "" {
		w.note.Hide()
		return
	}
	w.note.Importance = widget.MediumImportance
	if warn {
		w.note.Importance = widget.WarningImportance
	}
	w.note.SetText(line)
	w.note.Show()
}
