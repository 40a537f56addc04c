package algebra

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// counters builds a run of two call paths on two locations with
// instruction and cycle counters and the derived metric ipc = ins / cyc.
func counters(t *testing.T, source string, ins, cyc map[string][]float64) *model.Experiment {
	t.Helper()
	e := build(t, spec{
		source:  source,
		metrics: []string{"ins occ UINT64", "cyc occ UINT64"},
		cnodes:  []string{"main", "main/solve"},
		system:  []string{"m/n/0/0", "m/n/1/0"},
		data:    map[string]map[string][]float64{"ins": ins, "cyc": cyc},
	})
	f, err := model.ParseFormula("ins / cyc")
	if err != nil {
		t.Fatal(err)
	}
	if e, err = e.WithDerived(model.DerivedMetric{UniqName: "ipc", Formula: f}); err != nil {
		t.Fatal(err)
	}
	return e
}

// callValues returns metric uniq's call-tree values of e by call path.
func callValues(t *testing.T, e *model.Experiment, uniq string, inclusive bool) map[string]float64 {
	t.Helper()
	m := e.MetricByName(uniq)
	if m < 0 {
		t.Fatalf("%s has no metric %s", e.Source, uniq)
	}
	if r := e.Metrics[m].Unavailable; r != "" {
		t.Fatalf("%s: %s unavailable: %s", e.Source, uniq, r)
	}
	v, err := e.CallTreeValues(model.MetricSel{Metric: m, Inclusive: true}, inclusive)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for c := range e.Cnodes {
		out[e.CallPath(c)] = v[c]
	}
	return out
}

// TestDerivedThroughOperators: through diff a derived metric is the
// difference of each operand's value of its formula (not the formula of
// the differences); through mean and merge it is the formula of the
// result's values; saved and read back it stays so.
func TestDerivedThroughOperators(t *testing.T) {
	a := counters(t, "a", map[string][]float64{"main": {100, 100}, "main/solve": {900, 700}}, map[string][]float64{"main": {100, 80}, "main/solve": {1000, 900}})
	b := counters(t, "b", map[string][]float64{"main": {110, 90}, "main/solve": {950, 720}}, map[string][]float64{"main": {105, 80}, "main/solve": {1050, 905}})
	d, err := Diff(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	saved := filepath.Join(dir, "d.cubex")
	if err := format.Write(saved, d); err != nil {
		t.Fatal(err)
	}
	back, err := format.Open(saved)
	if err != nil {
		t.Fatal(err)
	}
	for _, inclusive := range []bool{false, true} {
		ipcA, ipcB := callValues(t, a, "ipc", inclusive), callValues(t, b, "ipc", inclusive)
		insD, cycD := callValues(t, d, "ins", inclusive), callValues(t, d, "cyc", inclusive)
		for _, x := range []*model.Experiment{d, back} {
			got := callValues(t, x, "ipc", inclusive)
			for p, want := range ipcA {
				want -= ipcB[p]
				if math.Abs(got[p]-want) > 1e-12 {
					t.Errorf("%s inclusive %v: ipc at %s = %v, want ipc(A) − ipc(B) = %v (ΔINS/ΔCYC would be %v)",
						x.Source, inclusive, p, got[p], want, insD[p]/cycD[p])
				}
			}
		}
	}
	m := d.MetricByName("ipc")
	if dm := d.Metrics[m]; !strings.Contains(dm.DispName, "A − B") || !strings.Contains(dm.Descr, "not the formula of the differences") {
		t.Errorf("ipc of the difference is not labelled: %q, %q", dm.DispName, dm.Descr)
	}
	for _, name := range []string{"ins_A", "cyc_B"} {
		if h := back.MetricByName(name); h < 0 || !back.Metrics[h].Hidden() {
			t.Errorf("operand copy %s missing or shown in the file read back", name)
		}
	}
	// Whole program and per location (system tree) too.
	sys, err := d.SystemTreeValues(model.MetricSel{Metric: m, Inclusive: true}, d.CnodeOrder())
	if err != nil {
		t.Fatal(err)
	}
	wantRoot := (100+100+900+700)/(100+80+1000+900.0) - (110+90+950+720)/(105+80+1050+905.0)
	if root := sys[d.SystemRoots[0]]; math.Abs(root-wantRoot) > 1e-12 {
		t.Errorf("whole program: %v, want %v", root, wantRoot)
	}

	mean, err := Mean(Options{}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	got := callValues(t, mean, "ipc", true)
	if want := (1800 + 1870.0) / (2080 + 2140.0); math.Abs(got["main"]-want) > 1e-12 {
		t.Errorf("mean: ipc at main %v, want the ratio of the mean values %v", got["main"], want)
	}
	merged, err := Merge(Options{}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	got, want := callValues(t, merged, "ipc", false), callValues(t, a, "ipc", false)
	for p := range want {
		if got[p] != want[p] {
			t.Errorf("merge: ipc at %s %v, want A's %v", p, got[p], want[p])
		}
	}
}

// TestDerivedDiffNeedsBothOperands: a derived metric whose formula reads a
// metric one operand lacks has no values in the difference, with the
// reason.
func TestDerivedDiffNeedsBothOperands(t *testing.T) {
	a := counters(t, "a", map[string][]float64{"main": {1, 1}}, map[string][]float64{"main": {2, 2}})
	b := build(t, spec{source: "b", metrics: []string{"ins occ UINT64"}, cnodes: []string{"main"}, system: []string{"m/n/0/0", "m/n/1/0"},
		data: map[string]map[string][]float64{"ins": {"main": {1, 1}}}})
	d, err := Diff(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := d.Metrics[d.MetricByName("ipc")].Unavailable; !strings.Contains(r, "cyc") || !strings.Contains(r, "b") {
		t.Errorf("ipc of a difference where B lacks cyc: unavailable %q", r)
	}
}

// TestDerivedDiffRealCounters: on two real Kripke runs with different
// counter sets, bytes per second sent (bytes_sent / time) through diff is
// each run's value subtracted, at every call path.
func TestDerivedDiffRealCounters(t *testing.T) {
	var runs []*model.Experiment
	for _, name := range []string{"L2_DCM_negative.cubex", "L3_DCA_negative.cubex"} {
		e, err := format.Open(testkit.Data(t, "cube4", "hw_counter", name))
		if err != nil {
			t.Fatal(err)
		}
		f, _ := model.ParseFormula("bytes_sent / time")
		if e, err = e.WithDerived(model.DerivedMetric{UniqName: "bw", Formula: f}); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, e)
	}
	d, err := Diff(runs[0], runs[1], Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, b, got := callValues(t, runs[0], "bw", true), callValues(t, runs[1], "bw", true), callValues(t, d, "bw", true)
	compared := 0
	for p, want := range a {
		y, ok := b[p]
		if !ok || math.IsNaN(want) || math.IsNaN(y) {
			continue
		}
		want -= y
		if math.Abs(got[p]-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("bw at %s: %v, want %v", p, got[p], want)
		}
		compared++
	}
	if compared < 100 {
		t.Errorf("%d call paths compared", compared)
	}
}

// TestMergePreferLast: by default a shared metric keeps the first
// operand's values; with PreferLast each operand's stored rows replace
// the earlier ones' on its own locations, as CubeLib's cube_merge does.
func TestMergePreferLast(t *testing.T) {
	a := build(t, spec{source: "a", metrics: []string{"time sec DOUBLE"}, cnodes: []string{"main", "main/x", "main/y"},
		system: []string{"m/n/0/0", "m/n/1/0"},
		data:   map[string]map[string][]float64{"time": {"main": {1, 2}, "main/x": {3, 4}, "main/y": {5, 6}}}})
	b := build(t, spec{source: "b", metrics: []string{"time sec DOUBLE"}, cnodes: []string{"main", "main/x", "main/z"},
		system: []string{"m/n/0/0"},
		data:   map[string]map[string][]float64{"time": {"main": {10}, "main/z": {30}}}})
	for _, c := range []struct {
		last bool
		want map[string][]float64
	}{
		{false, map[string][]float64{"main": {1, 2}, "main/x": {3, 4}, "main/y": {5, 6}, "main/z": {0, 0}}},
		// b's rows replace a's on rank 0; main/x has no row in b and keeps a's.
		{true, map[string][]float64{"main": {10, 2}, "main/x": {3, 4}, "main/y": {5, 6}, "main/z": {30, 0}}},
	} {
		opt := Options{PreferLast: c.last}
		res, err := Merge(opt, a, b)
		if err != nil {
			t.Fatal(err)
		}
		blk, err := res.Block(0)
		if err != nil {
			t.Fatal(err)
		}
		for p, want := range c.want {
			cn := res.CnodeByPath(p)
			for l, w := range want {
				if got := blk.Value(cn, l); got != w {
					t.Errorf("prefer last %v: %s location %d = %v, want %v", c.last, p, l, got, w)
				}
			}
		}
		back, err := ParseOptions(opt.String())
		if err != nil || back.PreferLast != c.last {
			t.Errorf("options %q read back as %+v, %v", opt.String(), back, err)
		}
	}
}
