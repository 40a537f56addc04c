package repoview

import (
	"slices"
	"strings"
	"testing"

	"cubeview/repo"
)

func TestScalingAttrs(t *testing.T) {
	trial := func(id int64, attrs ...string) repo.Trial {
		tr := repo.Trial{ID: id, Name: "run" + string(rune('0'+id))}
		for i := 0; i < len(attrs); i += 2 {
			tr.Attrs = append(tr.Attrs, repo.NewAttribute(attrs[i], attrs[i+1], repo.FromUser))
		}
		return tr
	}
	ts := []repo.Trial{
		trial(1, "compiler", "gcc", "procs", "27", "size", "25", "zero", "0", "only", "3"),
		trial(2, "compiler", "gcc", "procs", "64", "size", "30", "zero", "0"),
	}
	if got := ScalingAttrs(ts); !slices.Equal(got, []string{"procs", "size"}) {
		t.Errorf("attributes %q, want procs then size (compiler is text, zero not positive, only in one)", got)
	}
	xs, err := ScalingX(ts, "size")
	if err != nil || !slices.Equal(xs, []float64{25, 30}) {
		t.Errorf("size: %v, %v", xs, err)
	}
	for _, c := range []struct{ key, want string }{
		{"only", "trial 2 (run2) has no attribute only"},
		{"compiler", `trial 1 (run1): compiler = "gcc" is not a positive number`},
		{"zero", `zero = "0" is not a positive number`},
		{" ", "name the attribute"},
	} {
		if _, err := ScalingX(ts, c.key); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.key, err, c.want)
		}
	}
	if got := ScalingPreview(ts, "procs"); got != "x = procs — #1 run1: 27, #2 run2: 64" {
		t.Errorf("preview %q", got)
	}
	if got := IDFilter(ts); got != "id = 1 or id = 2" {
		t.Errorf("filter %q", got)
	}
	b := NewBrowser()
	b.SetListing(Listing{Trials: ts})
	if ok, _ := b.Enabled(Scaling); ok {
		t.Error("Scaling enabled with nothing marked")
	}
	b.SetMarked(2, true)
	b.SetMarked(1, true)
	if ok, why := b.Enabled(Scaling); !ok {
		t.Errorf("Scaling disabled with two marks: %s", why)
	}
	if m := b.MarkedTrials(); len(m) != 2 || m[0].ID != 2 || m[1].ID != 1 {
		t.Errorf("marked trials %+v", m)
	}
}

func TestScalingDerived(t *testing.T) {
	d, err := ScalingDerived(" tpv = time / visits ")
	if err != nil || d == nil || d.UniqName != "tpv" {
		t.Fatalf("%+v, %v", d, err)
	}
	if err := CheckScalingDerived(d, []string{"time", "visits"}); err != nil {
		t.Error(err)
	}
	if err := CheckScalingDerived(d, []string{"time"}); err == nil || !strings.Contains(err.Error(), "no metric visits") {
		t.Errorf("missing operand: %v", err)
	}
	if d, err := ScalingDerived("  "); d != nil || err != nil {
		t.Errorf("blank: %+v, %v", d, err)
	}
	if _, err := ScalingDerived("tpv"); err == nil {
		t.Error("a definition without = accepted")
	}
}
