package view

import (
	"strings"
	"sync"

	"cubeview/model"
)

// MemoryBudgetKey is the preference that holds the preferred memory
// budget of one metric's data, as a size ("512M", "2G"); empty or
// absent: the default.
const MemoryBudgetKey = "memory budget"

// MemoryPreference applies the saved memory budget once per process,
// unless --mem or $CUBEVIEW_MEM set the budget: they win over the
// preference for the session.
type MemoryPreference struct {
	once            sync.Once
	fromCommandLine bool
}

// Apply sets model.MemoryBudget from the preference saved returns, the
// first time it is called; a preference that does not parse is ignored.
func (p *MemoryPreference) Apply(saved func() string) {
	p.once.Do(func() {
		p.fromCommandLine = model.MemoryBudgetSet()
		if p.fromCommandLine {
			return
		}
		if s := strings.TrimSpace(saved()); s != "" {
			if n, err := model.ParseSize(s); err == nil && n > 0 {
				model.SetMemoryBudget(n)
			}
		}
	})
}

// FromCommandLine reports whether the command line set the budget (as
// Apply found it).
func (p *MemoryPreference) FromCommandLine() bool { return p.fromCommandLine }
