package view

import (
	"testing"

	"cubeview/model"
)

func TestMemoryPreference(t *testing.T) {
	defer model.SetMemoryBudget(0)
	for _, c := range []struct {
		name     string
		cmdLine  int64 // budget set by --mem before, 0: none
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
			model.SetMemoryBudget(c.cmdLine)
			var p MemoryPreference
			reads := 0
			saved := func() string {
				reads++
				return c.pref
			}
			p.Apply(saved)
			if got := model.MemoryBudgetSet(); got == c.wantAuto {
				t.Errorf("budget set = %v, want %v", got, !c.wantAuto)
			}
			if !c.wantAuto && model.MemoryBudget() != c.want {
				t.Errorf("budget = %d, want %d", model.MemoryBudget(), c.want)
			}
			if p.FromCommandLine() != (c.cmdLine > 0) {
				t.Errorf("FromCommandLine() = %v", p.FromCommandLine())
			}
			model.SetMemoryBudget(16 << 20)
			p.Apply(func() string { return "128M" })
			if model.MemoryBudget() != 16<<20 || reads > 1 {
				t.Errorf("a second Apply changed the budget to %d (%d reads)", model.MemoryBudget(), reads)
			}
		})
	}
}
