package model

import (
	"runtime/debug"
	"testing"
)

// TestDefaultBudget: the default memory budget of one metric is the
// measured DefaultBudget on any machine (not a quarter of its memory,
// gigabytes that bought no speed), or a quarter of a lower limit of the
// process.
func TestDefaultBudget(t *testing.T) {
	if got := DefaultMemoryBudget(); got > DefaultBudget || got < 16<<20 {
		t.Errorf("default budget %s, want at most %s", FormatSize(got), FormatSize(DefaultBudget))
	}
	old := debug.SetMemoryLimit(128 << 20)
	defer debug.SetMemoryLimit(old)
	if got := DefaultMemoryBudget(); got != 32<<20 {
		t.Errorf("under GOMEMLIMIT=128MiB: default budget %s, want 32M", FormatSize(got))
	}
}
