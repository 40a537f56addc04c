package ui

import (
	"testing"

	"cubeview/model"
	"cubeview/view"
)

// TestMemoryPreference: the saved memory budget is applied when a window
// is built, unless the command line set one, and File › Memory for one
// metric… is in the menu.
func TestMemoryPreference(t *testing.T) {
	defer model.SetMemoryBudget(0)
	for _, c := range []struct {
		name     string
		cmdLine  int64 // budget set by --mem before the window, 0: none
		pref     string
		want     int64
		wantAuto bool // the default is in force
	}{
		{"preference", 0, "64M", 64 << 20, false},
		{"no preference", 0, "", 0, true},
		{"command line wins", 32 << 20, "64M", 32 << 20, false},
		{"bad preference ignored", 0, "lots", 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			memoryPreference = view.MemoryPreference{}
			model.SetMemoryBudget(c.cmdLine)
			a := newTestApp(t)
			if err := a.prefs.SetString(view.MemoryBudgetKey, c.pref); err != nil {
				t.Fatal(err)
			}
			w := openWindow(t, a, dataFile(t, "cube4/cpi/profile.cubex"))
			found := false
			for _, m := range w.menus.bar().Items {
				for _, it := range m.Items {
					found = found || m.Label == "File" && it.Label == "Memory for one metric…"
				}
			}
			if !found {
				t.Error("File menu has no Memory for one metric… item")
			}
			if got := model.MemoryBudgetSet(); got == c.wantAuto {
				t.Errorf("budget set = %v, want %v", got, !c.wantAuto)
			}
			if !c.wantAuto && model.MemoryBudget() != c.want {
				t.Errorf("budget = %d, want %d", model.MemoryBudget(), c.want)
			}
		})
	}
}
