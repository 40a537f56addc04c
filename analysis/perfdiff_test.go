package analysis

import (
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
)

func open(t testing.TB, path string) *model.Experiment {
	t.Helper()
	e, err := format.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// repoFile returns a path inside the repository.
func repoFile(elem ...string) string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(append([]string{filepath.Dir(here), ".."}, elem...)...)
}

// checkSearch verifies the structure of a perfdiff answer: the search
// examined each focus once, every child of a differing focus was
// examined, every differing focus is reported once with the values the
// examination found, and a focus is significant exactly when none of its
// children differs.
func checkSearch(t *testing.T, r *PerfDiffResult) {
	t.Helper()
	d := r.Domain
	examined := map[Focus]bool{}
	for _, f := range r.Examined {
		if examined[f] {
			t.Fatalf("focus %v examined twice", f)
		}
		examined[f] = true
	}
	reported := map[Focus]FocusDiff{}
	for _, f := range r.Foci {
		if _, dup := reported[f.Focus]; dup {
			t.Fatalf("focus %s @ %s reported twice", r.CallPath(f.Focus), r.SystemPath(f.Focus))
		}
		if !examined[f.Focus] {
			t.Errorf("focus %v reported but not examined", f.Focus)
		}
		if math.Abs(f.Diff) < r.Threshold || f.Diff == 0 || f.Diff != f.A-f.B {
			t.Errorf("focus %v: A %v, B %v, diff %v below threshold %v", f.Focus, f.A, f.B, f.Diff, r.Threshold)
		}
		reported[f.Focus] = f
	}
	children := func(f Focus) []Focus {
		var out []Focus
		cs := d.CnodeRoots
		if f.Cnode >= 0 {
			cs = d.Cnodes[f.Cnode].Children
		}
		for _, c := range cs {
			out = append(out, Focus{c, f.System})
		}
		ss := d.SystemRoots
		if f.System >= 0 {
			ss = d.System[f.System].Children
		}
		for _, s := range ss {
			out = append(out, Focus{f.Cnode, s})
		}
		return out
	}
	for _, f := range r.Foci {
		anyChild := false
		for _, ch := range children(f.Focus) {
			if !examined[ch] {
				t.Errorf("focus %v differs but its child %v was not examined", f.Focus, ch)
			}
			if _, ok := reported[ch]; ok {
				anyChild = true
			}
		}
		if f.Significant == anyChild {
			t.Errorf("focus %s @ %s: significant %v, but a child differs: %v", r.CallPath(f.Focus), r.SystemPath(f.Focus), f.Significant, anyChild)
		}
	}
	// Ranking: significant first, each group by decreasing |diff|.
	for i := 1; i < len(r.Foci); i++ {
		a, b := r.Foci[i-1], r.Foci[i]
		if a.Significant == b.Significant && math.Abs(a.Diff) < math.Abs(b.Diff) || !a.Significant && b.Significant {
			t.Errorf("foci %d and %d out of order", i-1, i)
		}
	}
}

func TestPerfDiffSelfIsEmpty(t *testing.T) {
	for _, p := range []string{repoFile("assets", "before.cubex"), testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size25.r1.cubex")} {
		a, b := open(t, p), open(t, p)
		r, err := PerfDiff(a, b, PerfDiffOptions{Metric: "time", Delta: 0})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Foci) != 0 || len(r.Examined) != 1 {
			t.Errorf("%s against itself: %d foci, %d examined; want none beyond the root", p, len(r.Foci), len(r.Examined))
		}
	}
}

func TestPerfDiffBundledPair(t *testing.T) {
	a, b := open(t, repoFile("assets", "before.cubex")), open(t, repoFile("assets", "after.cubex"))
	r, err := PerfDiff(a, b, PerfDiffOptions{Metric: "mpi_barrier_wait", Delta: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkSearch(t, r)
	found := false
	for _, f := range r.Foci[:r.Significant()] {
		if strings.HasSuffix(r.CallPath(f.Focus), "/MPI_Barrier") {
			found = true
		}
	}
	if !found {
		t.Errorf("no significant focus on MPI_Barrier among %d foci", len(r.Foci))
	}
}

func TestPerfDiffRealPairs(t *testing.T) {
	pairs := [][2]string{
		{"lulesh/lulesh.p27.size25.r1.cubex", "lulesh/lulesh.p27.size30.r1.cubex"},
		{"mm_sweep/mm.x10y1z1.r1.cubex", "mm_sweep/mm.x25y1z1.r1.cubex"},
		{"mm_sweep/mm.x50y1z1.r1.cubex", "mm_sweep/mm.x2000y1z1.r1.cubex"},
	}
	for _, p := range pairs {
		a := open(t, testkit.Data(t, "cube4", p[0]))
		b := open(t, testkit.Data(t, "cube4", p[1]))
		for _, opt := range []PerfDiffOptions{{Metric: "time", Delta: 0.01, Relative: true}, {Metric: "visits", Delta: 0}, {Metric: "min_time", Delta: 0}} {
			r, err := PerfDiff(a, b, opt)
			if err != nil {
				t.Fatal(err)
			}
			checkSearch(t, r)
			if opt.Metric == "time" && len(r.Foci) == 0 {
				t.Errorf("%v %s: no difference found", p, opt.Metric)
			}
		}
	}
}

func TestPerfDiffDerived(t *testing.T) {
	a := synth.Generate(synth.Config{Cnodes: 30, Locations: 8, Threads: 2, Nodes: 2, Metrics: 4, Seed: 1})
	b := synth.Generate(synth.Config{Cnodes: 30, Locations: 8, Threads: 2, Nodes: 2, Metrics: 4, Seed: 1})
	scaleRows(b, b.MetricByName("metric3"), 2)
	f, _ := model.ParseFormula("metric3 / time")
	var err error
	if a, err = a.WithDerived(model.DerivedMetric{UniqName: "r", Formula: f}); err != nil {
		t.Fatal(err)
	}
	if b, err = b.WithDerived(model.DerivedMetric{UniqName: "r", Formula: f}); err != nil {
		t.Fatal(err)
	}
	r, err := PerfDiff(a, b, PerfDiffOptions{Metric: "r", Delta: 0})
	if err != nil {
		t.Fatal(err)
	}
	checkSearch(t, r)
	// metric3 doubled everywhere: at every focus B's ratio is twice A's.
	if len(r.Foci) == 0 {
		t.Fatal("no difference")
	}
	for _, fd := range r.Foci {
		if !near(fd.B, 2*fd.A) {
			t.Errorf("focus %v: A %v, B %v; want B = 2A", fd.Focus, fd.A, fd.B)
		}
	}
}

// scaleRows multiplies every stored value of metric m by k in place; e
// must not have been handed out yet.
func scaleRows(e *model.Experiment, m int, k float64) {
	b, _ := e.Block(m)
	nb := b.Clone()
	for c := 0; c < nb.NumCnodes(); c++ {
		if nb.HasRow(c) {
			row := nb.MutableRow(c)
			for l := range row {
				row[l] *= k
			}
		}
	}
	e.SetBlock(m, nb)
}

func TestPerfDiffErrors(t *testing.T) {
	a := synth.Generate(synth.Config{Cnodes: 5, Locations: 2, Metrics: 1})
	if _, err := PerfDiff(a, a, PerfDiffOptions{Metric: "nope"}); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown metric: %v", err)
	}
	if _, err := PerfDiff(a, a, PerfDiffOptions{Metric: "time", Delta: -1}); err == nil {
		t.Error("negative δ accepted")
	}
}

// BenchmarkPerfDiff runs the operator on 10k call paths × 1k locations
// with δ = 1 % of the whole program; B has a quarter of its call paths
// 10 % slower.
func BenchmarkPerfDiff(b *testing.B) {
	cfg := synth.Config{Cnodes: 10000, Locations: 1024, Threads: 8, Nodes: 16, Metrics: 1, Seed: 3}
	x := synth.Generate(cfg)
	y := synth.Generate(cfg)
	m := y.MetricByName("time")
	blk, _ := y.Block(m)
	nb := blk.Clone()
	for c := 0; c < nb.NumCnodes(); c += 4 {
		if nb.HasRow(c) {
			for l, v := range nb.MutableRow(c) {
				nb.MutableRow(c)[l] = v * 1.1
			}
		}
	}
	y.SetBlock(m, nb)
	b.ReportAllocs()
	b.ResetTimer()
	var r *PerfDiffResult
	for b.Loop() {
		var err error
		if r, err = PerfDiff(x, y, PerfDiffOptions{Metric: "time", Delta: 0.01, Relative: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(r.Examined)), "examined")
	b.ReportMetric(float64(len(r.Foci)), "differing")
	b.ReportMetric(float64(r.Significant()), "significant")
	_ = slices.Clone(r.Foci)
}
