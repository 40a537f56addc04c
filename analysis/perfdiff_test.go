package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"cubeview/algebra"
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

// tiny builds an experiment by hand: data maps a metric to call paths
// ("main", "main/foo", …) and their own values per process (one thread
// each, ranks as given). Metrics named PAPI_* are UINT64 counters, the
// others seconds.
func tiny(source string, ranks []int, data map[string]map[string][]float64) *model.Experiment {
	e := &model.Experiment{Source: source}
	var metrics []string
	for m := range data {
		metrics = append(metrics, m)
	}
	sort.Strings(metrics)
	for i, name := range metrics {
		m := model.Metric{ID: i, UniqName: name, DispName: name, DataType: "DOUBLE", Unit: "sec", Parent: -1}
		if strings.HasPrefix(name, "PAPI_") {
			m.DataType, m.Unit = "UINT64", "occ"
		}
		e.Metrics = append(e.Metrics, m)
	}
	var paths []string
	for _, rows := range data {
		for p := range rows {
			if !slices.Contains(paths, p) {
				paths = append(paths, p)
			}
		}
	}
	// Parents before children, so a parent's index is known.
	sort.Slice(paths, func(i, j int) bool {
		di, dj := strings.Count(paths[i], "/"), strings.Count(paths[j], "/")
		if di != dj {
			return di < dj
		}
		return paths[i] < paths[j]
	})
	region := map[string]int{}
	cnode := map[string]int{}
	for _, p := range paths {
		name := p[strings.LastIndex(p, "/")+1:]
		r, ok := region[name]
		if !ok {
			r = len(e.Regions)
			region[name] = r
			e.Regions = append(e.Regions, model.Region{ID: r, Name: name, Module: "m.c", Begin: -1, End: -1})
		}
		parent := -1
		if i := strings.LastIndex(p, "/"); i >= 0 {
			parent = cnode[p[:i]]
		}
		cnode[p] = len(e.Cnodes)
		e.Cnodes = append(e.Cnodes, model.Cnode{ID: len(e.Cnodes), Region: r, Parent: parent, CallLine: -1})
	}
	e.System = []model.SystemNode{
		{ID: 0, Kind: model.TreeNode, Class: "machine", Name: "cluster", Parent: -1},
		{ID: 1, Kind: model.TreeNode, Class: "node", Name: "node0", Parent: 0},
	}
	for i, r := range ranks {
		g := len(e.System)
		e.System = append(e.System,
			model.SystemNode{ID: i, Kind: model.Group, Class: "process", Name: fmt.Sprintf("rank %d", r), Rank: r, Parent: 1},
			model.SystemNode{ID: i, Kind: model.Leaf, Class: "thread", Name: "thread 0", Rank: 0, Parent: g})
	}
	e.Link()
	e.NumberLocations()
	for m, name := range metrics {
		b := model.NewBlock(len(e.Cnodes), len(e.Locations))
		for p, row := range data[name] {
			b.SetRow(cnode[p], slices.Clone(row))
		}
		e.SetBlock(m, b)
	}
	if err := e.Validate(); err != nil {
		panic(err)
	}
	return e
}

// foci indexes a result's foci by call path and system path.
func fociByName(r *PerfDiffResult) map[string]FocusDiff {
	out := map[string]FocusDiff{}
	for _, f := range r.Foci {
		out[r.CallPath(f.Focus)+" @ "+r.SystemPath(f.Focus)] = f
	}
	return out
}

// mustPerfDiff runs PerfDiff with opt and checks the answer against the
// reference, with and without own parts as foci; it returns the answer
// of opt.
func mustPerfDiff(t *testing.T, a, b *model.Experiment, opt PerfDiffOptions) *PerfDiffResult {
	t.Helper()
	other := opt
	other.Self = !opt.Self
	r2, err := PerfDiff(a, b, other)
	if err != nil {
		t.Fatal(err)
	}
	checkAgainstReference(t, a, b, other, r2)
	r, err := PerfDiff(a, b, opt)
	if err != nil {
		t.Fatal(err)
	}
	checkAgainstReference(t, a, b, opt, r)
	return r
}

// TestPerfDiffMovedTime: time that moved from computing to waiting
// leaves the whole program's time unchanged; the search must still find
// both call paths (the net difference at the root is 0).
func TestPerfDiffMovedTime(t *testing.T) {
	a := tiny("a", []int{0, 1}, map[string]map[string][]float64{"time": {
		"main": {1, 1}, "main/compute": {10, 10}, "main/wait": {2, 2}}})
	b := tiny("b", []int{0, 1}, map[string]map[string][]float64{"time": {
		"main": {1, 1}, "main/compute": {2, 2}, "main/wait": {10, 10}}})
	r := mustPerfDiff(t, a, b, PerfDiffOptions{Metric: "time", Delta: 5, Self: true})
	got := fociByName(r)
	root := got["main @ cluster"]
	if root.Diff != 0 || root.Change != 32 || root.MostSpecific {
		t.Errorf("root: %+v; want Diff 0, Change 32 (16 s moved), not most specific", root)
	}
	for _, k := range []string{"main/compute @ cluster", "main/wait @ cluster"} {
		f, ok := got[k]
		if !ok || math.Abs(f.Diff) != 16 {
			t.Errorf("%s: %+v, found %v; want |A − B| = 16", k, f, ok)
		}
	}
	// Per rank 8 s moved: with δ = 5 the ranks are where it ends.
	for _, k := range []string{"main/compute @ cluster/node0/rank 0", "main/wait @ cluster/node0/rank 1"} {
		if f := got[k]; !f.MostSpecific || math.Abs(f.Diff) != 8 {
			t.Errorf("%s: %+v; want a most specific focus with |A − B| = 8", k, f)
		}
	}
	if r.MostSpecific() != 4 {
		t.Errorf("%d most specific foci, want 4 (compute and wait on each rank)", r.MostSpecific())
	}
}

// TestPerfDiffMovedAcrossRanks: time that moved from one rank to another
// within one call path (a load rebalancing) is found at that call path.
func TestPerfDiffMovedAcrossRanks(t *testing.T) {
	a := tiny("a", []int{0, 1}, map[string]map[string][]float64{"time": {"main": {1, 1}, "main/solve": {12, 4}}})
	b := tiny("b", []int{0, 1}, map[string]map[string][]float64{"time": {"main": {1, 1}, "main/solve": {8, 8}}})
	r := mustPerfDiff(t, a, b, PerfDiffOptions{Metric: "time", Delta: 3})
	got := fociByName(r)
	for _, k := range []string{"main/solve @ cluster/node0/rank 0", "main/solve @ cluster/node0/rank 1"} {
		if f := got[k]; !f.MostSpecific || math.Abs(f.Diff) != 4 {
			t.Errorf("%s: %+v; want most specific, |A − B| = 4", k, f)
		}
	}
}

// TestPerfDiffSelfFocus: a caller whose own time changed is a focus of
// its own, "(self)", also when a callee changed too.
func TestPerfDiffSelfFocus(t *testing.T) {
	a := tiny("a", []int{0}, map[string]map[string][]float64{"time": {"main": {2}, "main/solve": {10}, "main/solve/kernel": {5}}})
	b := tiny("b", []int{0}, map[string]map[string][]float64{"time": {"main": {2}, "main/solve": {7}, "main/solve/kernel": {2}}})
	r := mustPerfDiff(t, a, b, PerfDiffOptions{Metric: "time", Delta: 1, Self: true})
	got := fociByName(r)
	self, ok := got["main/solve (self) @ cluster"]
	if !ok || self.Diff != 3 || self.A != 10 || self.B != 7 {
		t.Errorf("solve's own part: %+v (found %v); want A 10, B 7, A − B 3", self, ok)
	}
	if k := got["main/solve/kernel @ cluster"]; k.Diff != 3 {
		t.Errorf("kernel: %+v; want A − B 3", k)
	}
	if s := got["main/solve @ cluster"]; s.MostSpecific || s.Diff != 6 {
		t.Errorf("solve: %+v; want A − B 6, not most specific", s)
	}
	// Without the callee's change the caller's own part is still found.
	b2 := tiny("b", []int{0}, map[string]map[string][]float64{"time": {"main": {2}, "main/solve": {7}, "main/solve/kernel": {5}}})
	r = mustPerfDiff(t, a, b2, PerfDiffOptions{Metric: "time", Delta: 1, Self: true})
	if _, ok := fociByName(r)["main/solve (self) @ cluster"]; !ok {
		t.Errorf("solve's own part not found: %v", keys(fociByName(r)))
	}
}

func keys(m map[string]FocusDiff) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestPerfDiffStructure: a call path filtered out of one run, a process
// that only one run has and a metric that only one run measured are
// structural differences, reported apart and never as performance.
func TestPerfDiffStructure(t *testing.T) {
	a := tiny("a.cubex", []int{0, 1, 2}, map[string]map[string][]float64{
		"time":         {"main": {1, 1, 1}, "main/io": {36, 36, 36}, "main/solve": {5, 5, 5}},
		"PAPI_TOT_INS": {"main": {100, 100, 100}},
	})
	b := tiny("b.cubex", []int{0, 1}, map[string]map[string][]float64{
		"time": {"main": {1, 1}, "main/solve": {4, 5}},
	})
	r := mustPerfDiff(t, a, b, PerfDiffOptions{Metric: "time", Delta: 0.5})
	var only []string
	for _, s := range r.Structure {
		what := ""
		if s.Cnode >= 0 {
			what = r.Domain.CallPath(s.Cnode)
		} else {
			what = SystemPath(r.Domain, s.System)
		}
		only = append(only, fmt.Sprintf("%s %s %g", s.Only, what, s.Value))
	}
	want := []string{"A main/io 108", "A cluster/node0/rank 2 42"}
	if !slices.Equal(only, want) {
		t.Errorf("structure %q, want %q", only, want)
	}
	for _, f := range r.Foci {
		if strings.Contains(r.CallPath(f.Focus), "io") || strings.Contains(r.SystemPath(f.Focus), "rank 2") {
			t.Errorf("structural part ranked as performance: %s @ %s", r.CallPath(f.Focus), r.SystemPath(f.Focus))
		}
	}
	// The common part: only solve on rank 0 changed, by 1.
	if len(r.Foci) == 0 || r.Foci[0].Diff != 1 || r.CallPath(r.Foci[0].Focus) != "main/solve" {
		t.Errorf("first focus %+v, want main/solve with A − B = 1", r.Foci)
	}
	if r.RootA != 2*(1+5) || r.RootB != 1+1+4+5 {
		t.Errorf("whole program over the common part: A %v, B %v; want 12 and 11", r.RootA, r.RootB)
	}

	// A metric only A measured: said so, no performance difference.
	r, err := PerfDiff(a, b, PerfDiffOptions{Metric: "PAPI_TOT_INS", Delta: 0})
	if err != nil {
		t.Fatal(err)
	}
	if r.Compared() || r.Missing[0] != "" || !strings.Contains(r.Missing[1], "b.cubex") || len(r.Foci) != 0 {
		t.Errorf("metric only in A: missing %q, %d foci", r.Missing, len(r.Foci))
	}
	if len(r.Structure) != 2 || r.Structure[0].Value != 0 || r.Structure[1].Value != 100 {
		t.Errorf("structure with a metric of A only: %+v", r.Structure)
	}
}

func TestPerfDiffSelfIsEmpty(t *testing.T) {
	for _, p := range []string{repoFile("assets", "before.cubex"), testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size25.r1.cubex")} {
		a, b := open(t, p), open(t, p)
		r := mustPerfDiff(t, a, b, PerfDiffOptions{Metric: "time", Delta: 0})
		if len(r.Foci) != 0 || r.NumExamined != 1 || len(r.Structure) != 0 {
			t.Errorf("%s against itself: %d foci, %d examined, %d structural; want none beyond the root", p, len(r.Foci), r.NumExamined, len(r.Structure))
		}
	}
}

func TestPerfDiffBundledPair(t *testing.T) {
	a, b := open(t, repoFile("assets", "before.cubex")), open(t, repoFile("assets", "after.cubex"))
	r := mustPerfDiff(t, a, b, PerfDiffOptions{Metric: "mpi_barrier_wait", Delta: 1})
	found := false
	for _, f := range r.Foci[:r.MostSpecific()] {
		if strings.HasSuffix(r.CallPath(f.Focus), "/MPI_Barrier") {
			found = true
		}
	}
	if !found {
		t.Errorf("no most specific focus on MPI_Barrier among %d foci", len(r.Foci))
	}
}

func TestPerfDiffRealPairs(t *testing.T) {
	pairs := [][2]string{
		{"lulesh/lulesh.p27.size25.r1.cubex", "lulesh/lulesh.p27.size30.r1.cubex"},
		{"lulesh/lulesh.p27.size25.r1.cubex", "lulesh/lulesh.p64.size25.r1.cubex"},
		{"mm_sweep/mm.x10y1z1.r1.cubex", "mm_sweep/mm.x25y1z1.r1.cubex"},
		{"mm_sweep/mm.x50y1z1.r1.cubex", "mm_sweep/mm.x2000y1z1.r1.cubex"},
	}
	for _, p := range pairs {
		a := open(t, testkit.Data(t, "cube4", p[0]))
		b := open(t, testkit.Data(t, "cube4", p[1]))
		for _, opt := range []PerfDiffOptions{{Metric: "time", Delta: 0.01, Relative: true}, {Metric: "visits", Delta: 0}, {Metric: "min_time", Delta: 0}} {
			r := mustPerfDiff(t, a, b, opt)
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
	r := mustPerfDiff(t, a, b, PerfDiffOptions{Metric: "r", Delta: 0})
	// metric3 doubled everywhere: at every focus B's ratio is twice A's.
	if len(r.Foci) == 0 || !r.Derived || r.ChangeRule != "max" {
		t.Fatalf("%d foci, derived %v, rule %s", len(r.Foci), r.Derived, r.ChangeRule)
	}
	for _, fd := range r.Foci {
		if !near(fd.B, 2*fd.A) {
			t.Errorf("focus %v: A %v, B %v; want B = 2A", fd.Focus, fd.A, fd.B)
		}
	}
	// Only A defines r: B's value uses A's formula, and a note says so.
	b0 := synth.Generate(synth.Config{Cnodes: 30, Locations: 8, Threads: 2, Nodes: 2, Metrics: 4, Seed: 1})
	scaleRows(b0, b0.MetricByName("metric3"), 2)
	r2 := mustPerfDiff(t, a, b0, PerfDiffOptions{Metric: "r", Delta: 0})
	if len(r2.Foci) != len(r.Foci) || len(r2.Notes) != 1 || !strings.Contains(r2.Notes[0], "defined only in A") {
		t.Errorf("r defined in A only: %d foci (want %d), notes %q", len(r2.Foci), len(r.Foci), r2.Notes)
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

func TestPerfDiffSynthetic(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		cfg := synth.Config{Cnodes: 40, Locations: 12, Threads: 3, Nodes: 2, Metrics: 5, MinMax: true, Seed: seed, Density: 0.6}
		a := synth.Generate(cfg)
		cfg.Seed += 100
		b := synth.Generate(cfg)
		for _, opt := range []PerfDiffOptions{
			{Metric: "time", Delta: 0.05, Relative: true},
			{Metric: "time", Delta: 0},
			{Metric: "time_part1", Delta: 2},
			{Metric: "min_time", Delta: 0.1},
			{Metric: "max_time", Delta: 0},
		} {
			mustPerfDiff(t, a, b, opt)
		}
	}
}

// perturb multiplies each stored row of every metric of e by a factor
// from 0.5 to 1.5 drawn for the row, and zeroes some rows; e must not
// have been handed out yet.
func perturb(e *model.Experiment, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	for m := range e.Metrics {
		b, err := e.Block(m)
		if err != nil {
			continue
		}
		nb := b.Clone()
		for c := 0; c < nb.NumCnodes(); c++ {
			if !nb.HasRow(c) {
				continue
			}
			if rng.IntN(8) == 0 {
				nb.SetRow(c, nil)
				continue
			}
			k := 0.5 + rng.Float64()
			row := nb.MutableRow(c)
			for l := range row {
				row[l] *= k
			}
		}
		e.SetBlock(m, nb)
	}
}

// TestPerfDiffSameStructure compares runs with the same call tree whose
// values differ per call path, for every kind of metric.
func TestPerfDiffSameStructure(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		cfg := synth.Config{Cnodes: 60, Locations: 16, Threads: 4, Nodes: 2, Metrics: 5, MinMax: true, Seed: seed, Density: 0.7}
		a, b := synth.Generate(cfg), synth.Generate(cfg)
		perturb(b, seed)
		for _, opt := range []PerfDiffOptions{
			{Metric: "time", Delta: 0.02, Relative: true},
			{Metric: "time", Delta: 0},
			{Metric: "time_part2", Delta: 1},
			{Metric: "min_time", Delta: 0.01},
			{Metric: "max_time", Delta: 0.5},
		} {
			r := mustPerfDiff(t, a, b, opt)
			if len(r.Foci) == 0 {
				t.Errorf("seed %d %+v: no difference", seed, opt)
			}
		}
	}
}

// TestPerfDiffFromFileEqualsInMemory: the answer read row by row from
// .cubex files equals the one from blocks held in memory, bit for bit.
func TestPerfDiffFromFileEqualsInMemory(t *testing.T) {
	dir := t.TempDir()
	cfg := synth.Config{Cnodes: 300, Locations: 24, Threads: 4, Nodes: 3, Metrics: 5, MinMax: true, Seed: 9, Density: 0.8}
	x, y := synth.Generate(cfg), synth.Generate(cfg)
	perturb(y, 5)
	pa, pb := filepath.Join(dir, "a.cubex"), filepath.Join(dir, "b.cubex")
	if err := format.Write(pa, x); err != nil {
		t.Fatal(err)
	}
	if err := format.Write(pb, y); err != nil {
		t.Fatal(err)
	}
	for _, opt := range []PerfDiffOptions{{Metric: "time", Delta: 0.01, Relative: true, Self: true}, {Metric: "max_time", Delta: 0.2, Self: true}} {
		streamed, err := PerfDiff(open(t, pa), open(t, pb), opt)
		if err != nil {
			t.Fatal(err)
		}
		ma, mb := open(t, pa), open(t, pb)
		for _, e := range []*model.Experiment{ma, mb} {
			if _, err := e.Block(e.MetricByName(opt.Metric)); err != nil {
				t.Fatal(err)
			}
		}
		inMemory, err := PerfDiff(ma, mb, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(streamed.Foci) == 0 || !slices.Equal(streamed.Foci, inMemory.Foci) || streamed.Threshold != inMemory.Threshold {
			t.Errorf("%s: %d foci read from the files, %d from memory; they differ", opt.Metric, len(streamed.Foci), len(inMemory.Foci))
		}
	}
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

// refFocus is a focus's values as the reference computes them.
type refFocus struct {
	A, B, Change float64
}

// checkAgainstReference recomputes the answer by brute force from the
// experiments' point values in memory — every focus of the common part,
// its values, its change, which foci differ and which are most specific —
// and compares it with r, and checks the order of r.Foci.
func checkAgainstReference(t *testing.T, a, b *model.Experiment, opt PerfDiffOptions, r *PerfDiffResult) {
	t.Helper()
	ig, err := algebra.Integrate([]*model.Experiment{a, b}, opt.Algebra)
	if err != nil {
		t.Fatal(err)
	}
	d := ig.Result
	if !r.Compared() {
		return
	}
	// Common call paths and locations.
	common := make([]bool, len(d.Cnodes))
	for _, c := range d.CnodeOrder() {
		n := d.Cnodes[c]
		common[c] = n.Present&3 == 3 && (n.Parent < 0 || common[n.Parent])
	}
	commonLoc := make([]bool, len(d.Locations))
	for l, s := range d.Locations {
		commonLoc[l] = d.System[s].Present&3 == 3
	}
	var roots, sysRoots []int
	for _, c := range d.CnodeRoots {
		if common[c] {
			roots = append(roots, c)
		}
	}
	locsBelow := func(s int) []int {
		var out []int
		var walk func(int)
		walk = func(s int) {
			if l := d.System[s].Location; l >= 0 && commonLoc[l] {
				out = append(out, l)
			}
			for _, ch := range d.System[s].Children {
				walk(ch)
			}
		}
		if s < 0 {
			for _, r := range d.SystemRoots {
				walk(r)
			}
		} else {
			walk(s)
		}
		return out
	}
	for _, s := range d.SystemRoots {
		if len(locsBelow(s)) > 0 {
			sysRoots = append(sysRoots, s)
		}
	}
	subtree := func(c int) []int {
		if c < 0 {
			var out []int
			for x := range common {
				if common[x] {
					out = append(out, x)
				}
			}
			return out
		}
		var out []int
		var walk func(int)
		walk = func(c int) {
			out = append(out, c)
			for _, ch := range d.Cnodes[c].Children {
				if common[ch] {
					walk(ch)
				}
			}
		}
		walk(c)
		return out
	}
	// Own values per side, metric name, domain cnode and location.
	type pointKey struct{ c, l int }
	own := [2]map[string]map[pointKey]float64{{}, {}}
	aggOf := map[string]model.Aggregation{}
	metricOf := func(e *model.Experiment, name string) int { return e.MetricByName(name) }
	var formula *model.Formula
	var inputs []string
	for i, e := range []*model.Experiment{a, b} {
		m := metricOf(e, r.Metric)
		if m >= 0 && e.Metrics[m].IsDerived() || m < 0 {
			if formula == nil {
				other := []*model.Experiment{a, b}[1-i]
				if m < 0 {
					m = metricOf(other, r.Metric)
					e = other
				}
				formula = e.Metrics[m].Formula
				inputs = formula.Metrics()
			}
		} else if inputs == nil {
			inputs = []string{r.Metric}
		}
	}
	inv := [2][]int{}
	for i := range inv {
		inv[i] = make([]int, len(d.Cnodes))
		for c := range inv[i] {
			inv[i][c] = -1
		}
		for oc, rc := range ig.Cnodes[i] {
			if rc >= 0 {
				inv[i][rc] = oc
			}
		}
	}
	for i, e := range []*model.Experiment{a, b} {
		for _, name := range inputs {
			m := metricOf(e, name)
			if m < 0 {
				t.Fatalf("reference: %s lacks %s", e.Source, name)
			}
			aggOf[name] = e.Metrics[m].Aggregation
			blk, err := e.PointValues(model.MetricSel{Metric: m, Inclusive: true}, false)
			if err != nil {
				t.Fatal(err)
			}
			// A min or max counts only the values of locations that
			// visited the call path (model's rule): the others are left
			// out of pts.
			counted := func(c int, row []float64) ([]float64, error) { return row, nil }
			if aggOf[name] != model.Sum {
				values, release, err := model.CountedValues(e, m)
				if err != nil {
					t.Fatal(err)
				}
				defer release()
				counted = values
			}
			pts := map[pointKey]float64{}
			for c := range d.Cnodes {
				if !common[c] || inv[i][c] < 0 {
					continue
				}
				row := blk.Row(inv[i][c])
				if row == nil {
					continue
				}
				row, err := counted(inv[i][c], row)
				if err != nil {
					t.Fatal(err)
				}
				for ol, rl := range ig.Locations[i] {
					if rl >= 0 && commonLoc[rl] && !math.IsInf(row[ol], 0) {
						pts[pointKey{c, rl}] = row[ol]
					}
				}
			}
			own[i][name] = pts
		}
	}
	value := func(side int, cnodes, locs []int) float64 {
		get := func(name string) float64 {
			agg := aggOf[name]
			acc := agg.Identity()
			for _, c := range cnodes {
				for _, l := range locs {
					if v, ok := own[side][name][pointKey{c, l}]; ok {
						acc = agg.Combine(acc, v)
					}
				}
			}
			if math.IsInf(acc, 0) {
				return math.NaN() // a min or max without any value
			}
			return acc
		}
		if formula == nil {
			return get(inputs[0])
		}
		v, err := formula.EvalScalar(func(name string) (float64, error) { return get(name), nil })
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// Every focus.
	cfoci := []Focus{}
	if len(roots) > 1 {
		cfoci = append(cfoci, Focus{Cnode: -1})
	}
	for c := range d.Cnodes {
		if !common[c] {
			continue
		}
		cfoci = append(cfoci, Focus{Cnode: c})
		for _, ch := range d.Cnodes[c].Children {
			if common[ch] && opt.Self {
				cfoci = append(cfoci, Focus{Cnode: c, Self: true})
				break
			}
		}
	}
	var sfoci []int
	if len(sysRoots) > 1 {
		sfoci = append(sfoci, -1)
	}
	// The only child of a system node that has common locations (the
	// node of a one-node machine, the only thread of a process) is the
	// same focus as its parent.
	soleThread := func(s int) bool {
		p := d.System[s].Parent
		if p < 0 || d.System[p].Location >= 0 {
			return false
		}
		n := 0
		for _, ch := range d.System[p].Children {
			if len(locsBelow(ch)) > 0 {
				n++
			}
		}
		return n == 1
	}
	// The foci one step below system node s: its children, a child
	// folded into s standing for its own children.
	var sysKids func(s int) []int
	sysKids = func(s int) []int {
		var out []int
		for _, ch := range d.System[s].Children {
			switch {
			case len(locsBelow(ch)) == 0:
			case soleThread(ch):
				out = append(out, sysKids(ch)...)
			default:
				out = append(out, ch)
			}
		}
		return out
	}
	for s := range d.System {
		if len(locsBelow(s)) > 0 && !soleThread(s) {
			sfoci = append(sfoci, s)
		}
	}
	additive := formula == nil && aggOf[inputs[0]] == model.Sum
	ref := map[Focus]refFocus{}
	cnodesOf := func(f Focus) []int {
		if f.Self {
			return []int{f.Cnode}
		}
		return subtree(f.Cnode)
	}
	for _, cf := range cfoci {
		for _, s := range sfoci {
			f := Focus{Cnode: cf.Cnode, System: s, Self: cf.Self}
			cs, ls := cnodesOf(f), locsBelow(s)
			x := refFocus{A: value(0, cs, ls), B: value(1, cs, ls)}
			if additive {
				for _, c := range cs {
					for _, l := range ls {
						x.Change += math.Abs(own[0][inputs[0]][pointKey{c, l}] - own[1][inputs[0]][pointKey{c, l}])
					}
				}
			}
			ref[f] = x
		}
	}
	// For the max rule a focus's change is the largest |A − B| at or
	// below it: the largest over itself and its one-step children's.
	refKids := func(f Focus) []Focus {
		var out []Focus
		if !f.Self {
			kids := roots
			if f.Cnode >= 0 {
				kids = nil
				for _, ch := range d.Cnodes[f.Cnode].Children {
					if common[ch] {
						kids = append(kids, ch)
					}
				}
				if len(kids) > 0 && opt.Self {
					out = append(out, Focus{Cnode: f.Cnode, System: f.System, Self: true})
				}
			}
			for _, c := range kids {
				out = append(out, Focus{Cnode: c, System: f.System})
			}
		}
		sk := sysRoots
		if f.System >= 0 {
			sk = sysKids(f.System)
		}
		for _, s := range sk {
			out = append(out, Focus{Cnode: f.Cnode, System: s, Self: f.Self})
		}
		return out
	}
	if !additive {
		done := map[Focus]bool{}
		var maxChange func(f Focus) float64
		maxChange = func(f Focus) float64 {
			x := ref[f]
			if done[f] {
				return x.Change
			}
			x.Change = absOrZero(x.A - x.B)
			for _, ch := range refKids(f) {
				x.Change = math.Max(x.Change, maxChange(ch))
			}
			ref[f], done[f] = x, true
			return x.Change
		}
		for f := range ref {
			maxChange(f)
		}
	}
	thr := opt.Delta
	if opt.Relative {
		root := Focus{Cnode: -1, System: -1}
		if len(roots) == 1 {
			root.Cnode = roots[0]
		}
		if len(sysRoots) == 1 {
			root.System = sysRoots[0]
		}
		thr = opt.Delta * math.Max(absOrZero(ref[root].A), absOrZero(ref[root].B))
	}
	if !closeRel(r.Threshold, thr) {
		t.Errorf("threshold %v, reference %v", r.Threshold, thr)
	}
	differs := func(f Focus) bool { x := ref[f]; return x.Change >= r.Threshold && x.Change > 0 }
	want := map[Focus]bool{}
	for f := range ref {
		if differs(f) {
			want[f] = true
		}
	}
	got := map[Focus]FocusDiff{}
	for _, fd := range r.Foci {
		if _, dup := got[fd.Focus]; dup {
			t.Errorf("focus %v reported twice", fd.Focus)
		}
		got[fd.Focus] = fd
		x, ok := ref[fd.Focus]
		if !ok || !want[fd.Focus] {
			t.Errorf("%s: focus %s @ %s reported but its change %v is below %v", opt.Metric, r.CallPath(fd.Focus), r.SystemPath(fd.Focus), x.Change, r.Threshold)
			continue
		}
		if !closeRel(fd.A, x.A) || !closeRel(fd.B, x.B) || !closeRel(fd.Change, x.Change) {
			t.Errorf("%s: focus %s @ %s: A %v B %v change %v; reference %v %v %v", opt.Metric, r.CallPath(fd.Focus), r.SystemPath(fd.Focus), fd.A, fd.B, fd.Change, x.A, x.B, x.Change)
		}
		most := true
		for _, ch := range refKids(fd.Focus) {
			if want[ch] {
				most = false
			}
		}
		if fd.MostSpecific != most {
			t.Errorf("%s: focus %s @ %s: most specific %v, reference %v", opt.Metric, r.CallPath(fd.Focus), r.SystemPath(fd.Focus), fd.MostSpecific, most)
		}
	}
	for f := range want {
		if _, ok := got[f]; !ok {
			t.Errorf("%s: focus %v (change %v ≥ %v) not reported", opt.Metric, f, ref[f].Change, r.Threshold)
		}
	}
	for i := 1; i < len(r.Foci); i++ {
		x, y := r.Foci[i-1], r.Foci[i]
		if !x.MostSpecific && y.MostSpecific || x.MostSpecific == y.MostSpecific && x.Change < y.Change {
			t.Errorf("foci %d and %d out of order", i-1, i)
		}
	}
}

func closeRel(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
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
		if r, err = PerfDiff(x, y, PerfDiffOptions{Metric: "time", Delta: 0.01, Relative: true, Self: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(r.NumExamined), "examined")
	b.ReportMetric(float64(len(r.Foci)), "differing")
	b.ReportMetric(float64(r.MostSpecific()), "most-specific")
}

// examinedFoci lists the differing foci and every focus one step below
// one, each once; the whole-program focus when nothing differs: the foci
// a search examines, built from its answer.
func examinedFoci(dom *domain, foci []FocusDiff) []Focus {
	if len(foci) == 0 {
		return []Focus{dom.rootFocus()}
	}
	seen := make(map[Focus]bool, len(foci))
	out := make([]Focus, 0, len(foci))
	for _, f := range foci {
		seen[f.Focus] = true
		out = append(out, f.Focus)
	}
	for _, f := range foci {
		dom.children(f.Focus, func(ch Focus) {
			if !seen[ch] {
				seen[ch] = true
				out = append(out, ch)
			}
		})
	}
	return out
}

// TestPerfDiffExaminedCount: the count of examined foci made during the
// pass equals the list built from the answer.
func TestPerfDiffExaminedCount(t *testing.T) {
	cfg := synth.Config{Cnodes: 120, Locations: 16, Threads: 4, Nodes: 2, Metrics: 5, MinMax: true, Seed: 3, Density: 0.7}
	a, b := synth.Generate(cfg), synth.Generate(cfg)
	perturb(b, 11)
	for _, self := range []bool{false, true} {
		for _, opt := range []PerfDiffOptions{{Metric: "time", Delta: 0.05, Relative: true}, {Metric: "time", Delta: 3},
			{Metric: "max_time", Delta: 1}, {Metric: "time", Delta: 1e9}} {
			opt.Self = self
			r, err := PerfDiff(a, b, opt)
			if err != nil {
				t.Fatal(err)
			}
			ig, err := algebra.Integrate([]*model.Experiment{a, b}, opt.Algebra)
			if err != nil {
				t.Fatal(err)
			}
			listed := examinedFoci(newDomain(ig, opt.Self, 1), r.Foci)
			if r.NumExamined != len(listed) || r.NumExamined == 0 {
				t.Errorf("%+v: %d examined counted, %d listed", opt, r.NumExamined, len(listed))
			}
		}
	}
}

// TestPerfDiffOneChildChain: system nodes each with one child (the node
// of a one-node machine; machine, node and process of a one-process run)
// have the same locations, so they are one focus, listed once.
func TestPerfDiffOneChildChain(t *testing.T) {
	for _, tc := range []struct {
		ranks []int
		a, b  map[string][]float64
		want  []string // the foci, by call path @ system path
	}{
		{[]int{0, 1},
			map[string][]float64{"main": {1, 1}, "main/foo": {5, 1}},
			map[string][]float64{"main": {1, 1}, "main/foo": {2, 1}},
			[]string{"main @ cluster", "main/foo @ cluster", "main @ cluster/node0/rank 0", "main/foo @ cluster/node0/rank 0"}},
		{[]int{3},
			map[string][]float64{"main": {1}, "main/foo": {5}},
			map[string][]float64{"main": {1}, "main/foo": {2}},
			[]string{"main @ cluster", "main/foo @ cluster"}},
	} {
		a := tiny("a", tc.ranks, map[string]map[string][]float64{"time": tc.a})
		b := tiny("b", tc.ranks, map[string]map[string][]float64{"time": tc.b})
		r := mustPerfDiff(t, a, b, PerfDiffOptions{Metric: "time", Delta: 1})
		got := keys(fociByName(r))
		want := slices.Clone(tc.want)
		sort.Strings(want)
		if !slices.Equal(got, want) || len(r.Foci) != len(want) {
			t.Errorf("ranks %v: foci %q, want %q", tc.ranks, got, want)
		}
	}
}
