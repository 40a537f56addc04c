package repo

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestReadOnly: the owner of a repository may change it; a PostgreSQL
// role with SELECT rights only is told it may not, and why.
func TestReadOnly(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		importSynth(t, r, 1, "app", "exp", "run")
		ro, why, err := r.ReadOnly(ctx)
		if err != nil || ro || why != "" {
			t.Fatalf("owner: read-only %v (%q), %v; want writable", ro, why, err)
		}
		if r.Engine() != "postgres" {
			return
		}
		reader := openRepo(t, readOnlyRole(t, r, loc))
		ro, why, err = reader.ReadOnly(ctx)
		if err != nil || !ro {
			t.Fatalf("read-only role: read-only %v, %v; want read-only", ro, err)
		}
		if !strings.Contains(why, ErrReadOnly.Error()) || !strings.Contains(why, "trial") {
			t.Errorf("reason %q does not say the repository is read-only and which tables", why)
		}
		// What ReadOnly predicts is what the database does.
		if err := reader.Remove(ctx, 1); !errors.Is(err, ErrReadOnly) {
			t.Errorf("rm as the read-only role: %v", err)
		}
	})
}

// TestMetricNames lists the metrics of the trials a filter selects.
func TestMetricNames(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		a := importSynth(t, r, 1, "app", "exp", "a", "procs=4")
		importSynth(t, r, 2, "other", "exp", "b", "procs=8")
		want := map[string]bool{}
		for _, id := range []int64{a} {
			e, err := r.Open(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range e.Metrics {
				want[m.UniqName] = true
			}
		}
		got, err := r.MetricNames(ctx, "procs = 4")
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) || !slices.IsSorted(got) {
			t.Fatalf("metric names %q, want the %d of trial %d, sorted", got, len(want), a)
		}
		for _, n := range got {
			if !want[n] {
				t.Errorf("%q is not a metric of trial %d", n, a)
			}
		}
		if none, err := r.MetricNames(ctx, "procs = 5"); err != nil || len(none) != 0 {
			t.Errorf("no trial: %q, %v", none, err)
		}
		var fe *FilterError
		if _, err := r.MetricNames(ctx, "procs >"); !errors.As(err, &fe) {
			t.Errorf("bad filter: %v, want a FilterError", err)
		}
	})
}

func TestParseShare(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"0.25", 0.25, true}, {"25%", 0.25, true}, {" 10 % ", 0.1, true}, {"1e-3", 0.001, true},
		{"", 0, false}, {"%", 0, false}, {"ten", 0, false}, {"5%%", 0, false},
	} {
		got, err := ParseShare(c.in)
		if (err == nil) != c.ok || c.ok && got != c.want {
			t.Errorf("ParseShare(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}
