package ui

import (
	"cubeview/dialogform"
	"cubeview/view"
)

// memoryPreference applies the saved memory budget once per process.
var memoryPreference view.MemoryPreference

// applyMemoryPreference sets model.MemoryBudget from the preference once
// per process, unless the command line set it.
func (a *App) applyMemoryPreference() {
	memoryPreference.Apply(func() string { return a.prefs.String(view.MemoryBudgetKey) })
}

// showMemoryDialog asks for the memory one metric's data may take
// (dialogform.MemoryForm) and saves it as a preference.
func (dl *dialogs) showMemoryDialog() {
	w := dl.w
	save := func(text string) error { return w.app.prefs.SetString(view.MemoryBudgetKey, text) }
	showForm(w.win, dialogform.MemoryForm(memoryPreference.FromCommandLine(), save), w.showError)
}
