package dialogform

import (
	"errors"
	"strings"
	"testing"

	"cubeview/model"
)

func TestMemoryForm(t *testing.T) {
	defer model.SetMemoryBudget(0)
	model.SetMemoryBudget(0)
	var saved []string
	fail := false
	f := MemoryForm(true, func(s string) error {
		if fail {
			return errors.New("disk full")
		}
		saved = append(saved, s)
		return nil
	})
	budget := f.Field("Memory for one metric")
	if budget == nil || budget.Text != "" || !strings.Contains(budget.Placeholder, "default: ") {
		t.Fatalf("budget field %+v: want empty with the default as placeholder", budget)
	}
	if note := f.Fields[1].Text; !strings.Contains(note, "--mem") {
		t.Errorf("note %q does not say that the command line set the budget", note)
	}
	if note := f.Fields[1].Text; !strings.Contains(note, model.DefaultBudgetRule) {
		t.Errorf("note %q does not give the default budget's rule", note)
	}
	for _, bad := range []string{"lots", "0"} {
		if err := f.Set(budget, bad); err != nil {
			t.Fatal(err)
		}
		if budget.Problem == "" {
			t.Errorf("%q: no problem shown", bad)
		}
		if err := f.Confirmed(); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
	if model.MemoryBudgetSet() || len(saved) > 0 {
		t.Fatalf("a bad budget was applied (%v) or saved (%q)", model.MemoryBudgetSet(), saved)
	}
	_ = f.Set(budget, " 64M ")
	if budget.Problem != "" {
		t.Errorf("64M: problem %q", budget.Problem)
	}
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	if model.MemoryBudget() != 64<<20 || len(saved) != 1 || saved[0] != "64M" {
		t.Errorf("budget %d saved %q, want 64M both", model.MemoryBudget(), saved)
	}
	_ = f.Set(budget, "")
	fail = true
	if err := f.Confirmed(); err == nil || !strings.Contains(err.Error(), "saving the preference: disk full") {
		t.Errorf("failed save: %v", err)
	}
	if model.MemoryBudgetSet() {
		t.Error("an empty budget did not restore the default")
	}
}
