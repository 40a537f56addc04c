package ui

import (
	"strings"
	"sync"

	"cubeview/model"
	"cubeview/view"
)

// memoryBudgetKey holds the preferred memory budget of one metric's data,
// as a size ("512M", "2G"); empty or absent: the default.
const memoryBudgetKey = "memory budget"

// fromCommandLine records, before the preference is first applied,
// whether --mem or $CUBEVIEW_MEM set the budget; they win over the
// preference for the session.
var (
	budgetOnce      sync.Once
	fromCommandLine bool
)

// applyMemoryPreference sets model.MemoryBudget from the preference once
// per process, unless the command line set it.
func (a *App) applyMemoryPreference() {
	budgetOnce.Do(func() {
		fromCommandLine = model.MemoryBudgetSet()
		if fromCommandLine {
			return
		}
		if s := strings.TrimSpace(a.prefs.String(memoryBudgetKey)); s != "" {
			if n, err := model.ParseSize(s); err == nil && n > 0 {
				model.SetMemoryBudget(n)
			}
		}
	})
}

// showMemoryDialog asks for the memory one metric's data may take
// (view.MemoryForm) and saves it as a preference.
func (w *Window) showMemoryDialog() {
	save := func(text string) error { return w.app.prefs.SetString(memoryBudgetKey, text) }
	showForm(w.win, view.MemoryForm(fromCommandLine, save), w.showError)
}
