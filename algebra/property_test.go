package algebra

import (
	"slices"
	"testing"

	"cubeview/internal/synth"
	"cubeview/model"
)

func synthPair() (a, b *model.Experiment) {
	a = generate(synth.Config{Cnodes: 300, Locations: 8, Threads: 2, Nodes: 2, Metrics: 6, MinMax: true, Density: 0.7, Seed: 1})
	b = generate(synth.Config{Cnodes: 250, Locations: 12, Threads: 2, Nodes: 3, Metrics: 5, MinMax: true, Density: 0.7, Seed: 2})
	return a, b
}

func neg(m map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for k, v := range m {
		out[k] = -v
	}
	return out
}

// propertyCheck runs the algebraic identities on a pair of operands.
func propertyCheck(t *testing.T, a, b *model.Experiment, opt Options) {
	propertyCheckKeys(t, a, b, opt, opt.StrictLines, true)
}

// propertyCheckKeys is propertyCheck with call paths named with their call
// sites and region lines when lines is set; with files set every result
// is also written in both formats and read back.
func propertyCheckKeys(t *testing.T, a, b *model.Experiment, opt Options, lines, files bool) {
	flatten := func(t testing.TB, e *model.Experiment) map[string]float64 {
		t.Helper()
		return flattenLines(t, e, lines)
	}
	structure := func(e *model.Experiment) []string { return structureLines(e, lines) }
	before := []string{dump(t, a), dump(t, b)}
	fa, fb := flatten(t, a), flatten(t, b)
	run := func(name string, f func() (*model.Experiment, error)) *model.Experiment {
		t.Helper()
		r, err := f()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("%s: invalid result: %v", name, err)
		}
		if dump(t, a) != before[0] || dump(t, b) != before[1] {
			t.Fatalf("%s changed an operand", name)
		}
		if files {
			roundTrip(t, r)
		}
		return r
	}

	t.Run("Diff(a,a)=0", func(t *testing.T) {
		d := run("diff(a,a)", func() (*model.Experiment, error) { return Diff(a, a, opt) })
		if f := flatten(t, d); len(f) != 0 {
			t.Errorf("diff(a,a) has %d non-zero values", len(f))
		}
		if !slices.Equal(structure(d), structure(a)) {
			t.Errorf("diff(a,a) changed the structure")
		}
	})
	t.Run("Diff(a,b)=a-b=-Diff(b,a)", func(t *testing.T) {
		ab := run("diff(a,b)", func() (*model.Experiment, error) { return Diff(a, b, opt) })
		ba := run("diff(b,a)", func() (*model.Experiment, error) { return Diff(b, a, opt) })
		compareValues(t, "diff(a,b) vs -diff(b,a)", flatten(t, ab), neg(flatten(t, ba)), 0)
		want := map[string]float64{}
		for k, v := range fa {
			want[k] += v
		}
		for k, v := range fb {
			want[k] -= v
		}
		compareValues(t, "diff(a,b) vs a-b", flatten(t, ab), want, 1e-12)
	})
	t.Run("Mean(a,a)=a", func(t *testing.T) {
		m := run("mean(a,a)", func() (*model.Experiment, error) { return Mean(opt, a, a) })
		compareValues(t, "mean(a,a)", flatten(t, m), fa, 0)
		if !slices.Equal(structure(m), structure(a)) {
			t.Errorf("mean(a,a) changed the structure")
		}
	})
	t.Run("Merge(a,a)=a", func(t *testing.T) {
		m := run("merge(a,a)", func() (*model.Experiment, error) { return Merge(opt, a, a) })
		compareValues(t, "merge(a,a)", flatten(t, m), fa, 0)
		if !slices.Equal(structure(m), structure(a)) {
			t.Errorf("merge(a,a) changed the structure")
		}
	})
	t.Run("Mean(a,b)=(a+b)/2", func(t *testing.T) {
		m := run("mean(a,b)", func() (*model.Experiment, error) { return Mean(opt, a, b) })
		want := map[string]float64{}
		for k, v := range fa {
			want[k] += v
		}
		for k, v := range fb {
			want[k] += v
		}
		for k := range want {
			want[k] /= 2
		}
		compareValues(t, "mean(a,b)", flatten(t, m), want, 1e-12)
	})
	t.Run("Merge(a,b)", func(t *testing.T) {
		m := run("merge(a,b)", func() (*model.Experiment, error) { return Merge(opt, a, b) })
		want := map[string]float64{}
		inA := map[string]bool{}
		for i := range a.Metrics {
			inA[a.Metrics[i].UniqName] = true
		}
		for k, v := range fa {
			want[k] = v
		}
		for k, v := range fb {
			if !inA[metricOfKey(k)] {
				want[k] = v
			}
		}
		compareValues(t, "merge(a,b)", flatten(t, m), want, 0)
	})
	t.Run("structure is the union", func(t *testing.T) {
		m := run("merge(a,b)", func() (*model.Experiment, error) { return Merge(opt, a, b) })
		var want []string
		for _, s := range append(structure(a), structure(b)...) {
			if !slices.Contains(want, s) {
				want = append(want, s)
			}
		}
		slices.Sort(want)
		if got := structure(m); !slices.Equal(got, want) {
			t.Errorf("merge(a,b) structure has %d entries, want the union of %d", len(got), len(want))
		}
	})
}

func metricOfKey(k string) string {
	for i := range k {
		if k[i] == ' ' {
			return k[:i]
		}
	}
	return k
}

func TestPropertiesSynthetic(t *testing.T) {
	a, b := synthPair()
	for _, opt := range []Options{{}, {System: SystemCollapse}, {StrictLines: true}} {
		t.Run(opt.String(), func(t *testing.T) { propertyCheck(t, a, b, opt) })
	}
}

// TestPresentMasks checks that every result entity records exactly the
// operands whose trees contain it.
func TestPresentMasks(t *testing.T) {
	a, b := synthPair()
	r, err := Merge(Options{}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	ops := []*model.Experiment{a, b}
	for c := range r.Cnodes {
		want := model.Mask(0)
		for i, e := range ops {
			for oc := range e.Cnodes {
				if pathKey(e, oc) == pathKey(r, c) {
					want |= bit(i)
				}
			}
		}
		if r.Cnodes[c].Present != want {
			t.Errorf("cnode %s: present %b, want %b", pathKey(r, c), r.Cnodes[c].Present, want)
		}
	}
	for m := range r.Metrics {
		want := model.Mask(0)
		for i, e := range ops {
			if e.MetricByName(r.Metrics[m].UniqName) >= 0 {
				want |= bit(i)
			}
		}
		if r.Metrics[m].Present != want {
			t.Errorf("metric %s: present %b, want %b", r.Metrics[m].UniqName, r.Metrics[m].Present, want)
		}
	}
	for l := range r.Locations {
		want := model.Mask(0)
		for i, e := range ops {
			for ol := range e.Locations {
				if locKey(e, ol) == locKey(r, l) {
					want |= bit(i)
				}
			}
		}
		if got := r.Location(l).Present; got != want {
			t.Errorf("location %s: present %b, want %b", locKey(r, l), got, want)
		}
	}
}
