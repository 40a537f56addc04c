package ui

import (
	"fmt"
	"strings"
	"sync"

	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"cubeview/model"
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

// showMemoryDialog asks for the memory one metric's data may take; larger
// metrics of .cubex files are read row by row from the file. The value is
// saved as a preference and applies to data read from now on.
func (w *Window) showMemoryDialog() {
	entry := widget.NewEntry()
	entry.SetPlaceHolder("default: " + roughSize(model.DefaultMemoryBudget()))
	if model.MemoryBudgetSet() {
		entry.SetText(model.FormatSize(model.MemoryBudget()))
	}
	entry.Validator = func(s string) error {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		n, err := model.ParseSize(s)
		if err == nil && n == 0 {
			err = fmt.Errorf("%q is no memory at all", s)
		}
		return err
	}
	note := "A metric whose data take more is read row by row from its .cubex file.\n" +
		"Empty: a quarter of the physical memory or of the process's limit (" +
		roughSize(model.DefaultMemoryBudget()) + ").\nApplies to data read from now on."
	if fromCommandLine {
		note += "\nThis session was started with --mem or $CUBEVIEW_MEM, which win over the\nsaved preference in later sessions too."
	}
	items := []*widget.FormItem{
		widget.NewFormItem("Memory for one metric", entry),
		widget.NewFormItem("", widget.NewLabel(note)),
	}
	dialog.ShowForm("Memory", "Save", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		s := strings.TrimSpace(entry.Text)
		n, _ := model.ParseSize(s)
		if s == "" {
			n = 0
		}
		model.SetMemoryBudget(n)
		if err := w.app.prefs.SetString(memoryBudgetKey, s); err != nil {
			dialog.ShowError(fmt.Errorf("saving the preference: %w", err), w.win)
		}
	}, w.win)
}

// roughSize writes n bytes to a tenth of a G or M, for reading.
func roughSize(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1fG", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%.1fM", float64(n)/(1<<20))
}
