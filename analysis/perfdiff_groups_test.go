package analysis

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"cubeview/algebra"
	"cubeview/analysis/significance"
	"cubeview/internal/synth"
	"cubeview/model"
)

// groupRuns builds runs with tiny: runs[r] maps a call path to its own
// time per rank (ranks 0 and 1).
func groupRuns(prefix string, runs []map[string][]float64) []*model.Experiment {
	var out []*model.Experiment
	for i, r := range runs {
		out = append(out, tiny(prefix+string(rune('1'+i)), []int{0, 1}, map[string]map[string][]float64{"time": r}))
	}
	return out
}

// TestPerfDiffGroupsScipy: at perfdiff's foci of two hand-made groups
// (3 and 4 runs), the groups' means, Welch's t, p and 95 % interval and
// Mann–Whitney's p equal scipy 1.10's ttest_ind(equal_var=False) and
// mannwhitneyu(alternative="two-sided") on the same numbers (the
// values printed by scipy are written here).
func TestPerfDiffGroupsScipy(t *testing.T) {
	a := groupRuns("a", []map[string][]float64{
		{"main": {1, 1}, "main/foo": {5.0, 5.2}, "main/bar": {2.0, 2.1}},
		{"main": {1, 1}, "main/foo": {5.3, 5.1}, "main/bar": {2.2, 1.9}},
		{"main": {1, 1}, "main/foo": {4.9, 5.4}, "main/bar": {2.0, 2.0}},
	})
	b := groupRuns("b", []map[string][]float64{
		{"main": {1, 1.1}, "main/foo": {6.0, 6.1}, "main/bar": {2.1, 2.0}},
		{"main": {1, 1}, "main/foo": {5.8, 6.4}, "main/bar": {1.9, 2.1}},
		{"main": {1.05, 1}, "main/foo": {6.2, 5.7}, "main/bar": {2.05, 2.0}},
		{"main": {1, 1}, "main/foo": {6.4, 6.1}, "main/bar": {2.0, 2.2}},
	})
	type ref struct {
		meanA, meanB, t, p, ciLow, ciHigh, mwP float64
	}
	want := map[string]ref{
		// scipy: a [10.2, 10.4, 10.3], b [12.1, 12.2, 11.9, 12.5]
		"main/foo @ cluster": {10.3, 12.175, -13.617619485048067, 0.00013696960311864118, -2.2524386431018435, -1.4975613568981563, 0.05714285714285714},
		// a [5.0, 5.3, 4.9], b [6.0, 5.8, 6.2, 6.4]
		"main/foo @ cluster/node0/rank 0": {5.066666666666666, 6.1, -5.858449331643017, 0.0021749200414642113, -1.4890997354023336, -0.577566931264331, 0.05714285714285714},
		// a [4.1, 4.1, 4.0], b [4.1, 4.0, 4.05, 4.2] (ties: asymptotic U)
		"main/bar @ cluster": {4.066666666666666, 4.0875, -0.38461538461537936, 0.7163665271324599, -0.16015240251749854, 0.11848573585083247, 1.0},
		// inclusive main: a [16.3, 16.5, 16.3], b [18.3, 18.2, 18.0, 18.7]
		"main @ cluster": {16.366666666666666, 18.3, -11.96448645660208, 0.000243301308740259, -2.3777637648922196, -1.4889029017744546, 0.04974599072150299},
	}
	for _, test := range []significance.Test{significance.Welch, significance.MannWhitney} {
		r, err := PerfDiffGroups(a, b, PerfDiffOptions{Metric: "time", Delta: 0, Self: true, Test: test})
		if err != nil {
			t.Fatal(err)
		}
		if r.NA != 3 || r.NB != 4 || !r.Grouped() {
			t.Fatalf("runs %d and %d, grouped %v", r.NA, r.NB, r.Grouped())
		}
		got := fociByName(r)
		for name, w := range want {
			f, ok := got[name]
			if !ok {
				t.Fatalf("%v: focus %s not reported; have %v", test, name, keys(got))
			}
			st := f.Stats
			if st == nil {
				t.Fatalf("%s: no test", name)
			}
			if !closeTo(f.A, w.meanA, 1e-12) || !closeTo(f.B, w.meanB, 1e-12) || !closeTo(f.Diff, w.meanA-w.meanB, 1e-12) {
				t.Errorf("%s: means %v, %v; want %v, %v", name, f.A, f.B, w.meanA, w.meanB)
			}
			if !closeTo(st.CILow, w.ciLow, 1e-9) || !closeTo(st.CIHigh, w.ciHigh, 1e-9) {
				t.Errorf("%s: interval [%v, %v]; scipy [%v, %v]", name, st.CILow, st.CIHigh, w.ciLow, w.ciHigh)
			}
			wantP := w.p
			if test == significance.MannWhitney {
				wantP = w.mwP
			} else if !closeTo(st.Stat, w.t, 1e-9) {
				t.Errorf("%s: t = %v; scipy %v", name, st.Stat, w.t)
			}
			if !closeTo(st.P, wantP, 1e-9) {
				t.Errorf("%v, %s: p = %v; scipy %v", test, name, st.P, wantP)
			}
		}
		// q: Benjamini–Hochberg over every differing focus.
		p := make([]float64, len(r.Foci))
		for i, f := range r.Foci {
			p[i] = f.Stats.P
		}
		q := significance.BenjaminiHochberg(p)
		for i, f := range r.Foci {
			if !same(f.Stats.Q, q[i]) || f.Stats.Significant != (q[i] < 0.05) {
				t.Errorf("%s: q %v significant %v; want q %v", r.CallPath(f.Focus), f.Stats.Q, f.Stats.Significant, q[i])
			}
		}
		if test == significance.Welch && !got["main/foo @ cluster"].Stats.Significant {
			t.Errorf("main/foo (p 1.4e-4) not significant among %d foci", len(r.Foci))
		}
		if got["main/bar @ cluster"].Stats.Significant {
			t.Error("main/bar (p 0.72) significant")
		}
	}
}

// TestPerfDiffGroupsPlanted: groups of 5 generated runs with 2 % noise per
// call path and a 20 % shift planted in one call path's own values: at
// perfdiff's foci (δ = 0: every focus is tested) the planted call path's
// own part is significant on the whole system and on every location, and
// every significant focus lies on the planted call path or above it
// (whose inclusive values hold the shift); over the seeds the share of
// false discoveries stays near α.
func TestPerfDiffGroupsPlanted(t *testing.T) {
	const planted = 17
	const seeds = 12
	var found, fociTested int
	var fdp float64
	for seed := range uint64(seeds) {
		a, b := plantedGroups(seed, 5, 5, constSigma(0.02), map[int]float64{planted: 0.2})
		r, err := PerfDiffGroups(a, b, PerfDiffOptions{Metric: "time", Delta: 0, Self: true})
		if err != nil {
			t.Fatal(err)
		}
		ig := r.Domain
		plantedC := -1
		for c := range ig.Cnodes {
			if ig.Cnodes[c].Present != 0 && r.CallPath(Focus{Cnode: c}) == a[0].CallPath(planted) {
				plantedC = c
			}
		}
		if plantedC < 0 {
			t.Fatal("planted call path not in the domain")
		}
		// The call paths whose values hold the shift.
		onPath := map[int]bool{}
		for c := plantedC; c >= 0; c = ig.Cnodes[c].Parent {
			onPath[c] = true
		}
		hasKids := len(ig.Cnodes[plantedC].Children) > 0
		hits, falseHits, plantedHits := 0, 0, 0
		for _, f := range r.Foci {
			fociTested++
			if !f.Stats.Significant {
				continue
			}
			hits++
			shifted := onPath[f.Cnode] && (!f.Self || f.Cnode == plantedC)
			if !shifted {
				falseHits++
			}
			if f.Cnode == plantedC && (f.Self || !hasKids) {
				plantedHits++
			}
		}
		// The planted call path's own part on the whole system, each
		// node, process (and thread).
		if want := len(newDomain(mustIntegrate(t, a, b), true, len(a)).sysNode); plantedHits == want {
			found++
		} else {
			t.Logf("seed %d: planted call path significant on %d of %d system nodes", seed, plantedHits, want)
		}
		if hits > 0 {
			fdp += float64(falseHits) / float64(hits)
		}
	}
	if found < seeds-1 {
		t.Errorf("planted shift significant everywhere in %d of %d seeds", found, seeds)
	}
	if rate := fdp / seeds; rate > 0.1 {
		t.Errorf("false discovery rate %.3f, want ≤ α = 0.05", rate)
	}
	t.Logf("planted found everywhere in %d/%d seeds, %d foci tested, FDR %.3f", found, seeds, fociTested, fdp/seeds)
}

// TestPerfDiffGroupsNoShift: groups drawn alike; with Benjamini–Hochberg
// over every focus, most seeds find nothing significant.
func TestPerfDiffGroupsNoShift(t *testing.T) {
	const seeds = 12
	any := 0
	for seed := range uint64(seeds) {
		a, b := plantedGroups(100+seed, 5, 5, constSigma(0.02), nil)
		r, err := PerfDiffGroups(a, b, PerfDiffOptions{Metric: "time", Delta: 0, Self: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Foci) == 0 {
			t.Fatal("no focus tested")
		}
		if r.Significant() > 0 {
			any++
		}
	}
	if any > 3 { // α = 5 % per seed: 0.6 expected
		t.Errorf("something significant in %d of %d seeds without any difference", any, seeds)
	}
}

func mustIntegrate(t *testing.T, a, b []*model.Experiment) *algebra.Integration {
	t.Helper()
	ig, err := algebra.Integrate(append(slices.Clone(a), b...), algebra.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ig
}

// TestPerfDiffGroupsErrors: a group of one run cannot be tested.
func TestPerfDiffGroupsErrors(t *testing.T) {
	a, b := plantedGroups(1, 1, 3, constSigma(0.02), nil)
	if _, err := PerfDiffGroups(a, b, PerfDiffOptions{Metric: "time"}); !errors.Is(err, significance.ErrTooFewRuns) {
		t.Errorf("one run in A: %v", err)
	}
}

// TestPerfDiffGroupsMeansEqualPerfDiff: for a sum metric the groups'
// search runs on their means, so its foci and values are PerfDiff's of
// the algebra's mean of each group; every focus has a p-value.
func TestPerfDiffGroupsMeansEqualPerfDiff(t *testing.T) {
	a, b := plantedGroups(3, 3, 4, constSigma(0.05), map[int]float64{5: 0.3})
	opt := PerfDiffOptions{Metric: "time", Delta: 0.02, Relative: true, Self: true}
	r, err := PerfDiffGroups(a, b, opt)
	if err != nil {
		t.Fatal(err)
	}
	ma, err := algebra.Mean(algebra.Options{}, a...)
	if err != nil {
		t.Fatal(err)
	}
	mb, err := algebra.Mean(algebra.Options{}, b...)
	if err != nil {
		t.Fatal(err)
	}
	want := mustPerfDiff(t, ma, mb, opt)
	if len(r.Foci) == 0 || len(r.Foci) != len(want.Foci) {
		t.Fatalf("%d foci; PerfDiff of the means %d", len(r.Foci), len(want.Foci))
	}
	w := fociByName(want)
	for _, f := range r.Foci {
		name := r.CallPath(f.Focus) + " @ " + r.SystemPath(f.Focus)
		x, ok := w[name]
		if !ok {
			t.Errorf("%s: not a focus of the means", name)
			continue
		}
		if !closeTo(f.A, x.A, 1e-9) || !closeTo(f.B, x.B, 1e-9) || !closeTo(f.Change, x.Change, 1e-9) || f.MostSpecific != x.MostSpecific {
			t.Errorf("%s: %v %v %v %v; means %v %v %v %v", name, f.A, f.B, f.Change, f.MostSpecific, x.A, x.B, x.Change, x.MostSpecific)
		}
		if f.Stats == nil || math.IsNaN(f.Stats.P) || f.Stats.A.N != 3 || f.Stats.B.N != 4 {
			t.Errorf("%s: stats %+v", name, f.Stats)
		}
	}
}

// TestPerfDiffMinMaxCountsVisitedOnly: a minimum counts only the
// locations that visited a call path (model's rule). A's main/foo has no
// min_time row at all (no location visited it), and rank 1 of A did not
// visit main/bar (stored 0, no visits): neither may become a minimum of 0.
// Inclusive, main's minimum is 3 in both runs, so nothing differs by 1;
// counting the absent values as 0 made main differ by 3.
func TestPerfDiffMinMaxCountsVisitedOnly(t *testing.T) {
	a := tiny("a", []int{0, 1}, map[string]map[string][]float64{
		"min_time": {"main": {3, 4}, "main/bar": {5, 0}},
		"time":     {"main": {1, 1}, "main/foo": {1, 1}, "main/bar": {1, 0}},
	})
	b := tiny("b", []int{0, 1}, map[string]map[string][]float64{
		"min_time": {"main": {3, 4}, "main/foo": {5, 6}, "main/bar": {5, 7}},
		"time":     {"main": {1, 1}, "main/foo": {1, 1}, "main/bar": {1, 1}},
	})
	for _, e := range []*model.Experiment{a, b} {
		m := e.MetricByName("min_time")
		e.Metrics[m].Aggregation, e.Metrics[m].DataType = model.Min, "MINDOUBLE"
	}
	r, err := PerfDiff(a, b, PerfDiffOptions{Metric: "min_time", Delta: 1, Self: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.RootA != 3 || r.RootB != 3 {
		t.Errorf("whole program: A %v, B %v; want 3, 3", r.RootA, r.RootB)
	}
	for _, f := range r.Foci {
		t.Errorf("%s @ %s differs: A %v, B %v", r.CallPath(f.Focus), r.SystemPath(f.Focus), f.A, f.B)
	}
	// With δ 0 main/bar on rank 1 is no value in A (not 0): not a
	// difference of 7, and main/bar over both ranks is 5 in both.
	r, err = PerfDiff(a, b, PerfDiffOptions{Metric: "min_time", Delta: 0, Self: true})
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range fociByName(r) {
		if strings.HasPrefix(name, "main/bar") || strings.HasPrefix(name, "main/foo") || strings.HasPrefix(name, "main @") {
			t.Errorf("%s differs: A %v, B %v, change %v", name, f.A, f.B, f.Change)
		}
	}
}

// TestPerfDiffTopAndEmit: with Top the answer is the first Top foci of the
// full answer; with Emit every focus is passed once, none held, with the
// same counts; Emit's error ends the search.
func TestPerfDiffTopAndEmit(t *testing.T) {
	cfg := synth.Config{Cnodes: 80, Locations: 16, Threads: 4, Nodes: 2, Metrics: 1, Seed: 5}
	a, b := synth.Generate(cfg), synth.Generate(cfg)
	perturb(b, 5)
	opt := PerfDiffOptions{Metric: "time", Delta: 0.001, Relative: true, Self: true}
	full, err := PerfDiff(a, b, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Foci) < 100 || full.Differing != len(full.Foci) {
		t.Fatalf("%d foci, Differing %d", len(full.Foci), full.Differing)
	}
	for _, top := range []int{1, 10, 99, len(full.Foci) + 5} {
		o := opt
		o.Top = top
		r, err := PerfDiff(a, b, o)
		if err != nil {
			t.Fatal(err)
		}
		want := full.Foci[:min(top, len(full.Foci))]
		if !slices.Equal(r.Foci, want) || r.Differing != full.Differing || r.MostSpecific() != full.MostSpecific() {
			t.Errorf("top %d: %d foci (differing %d, most specific %d); want the first %d of the full answer (%d, %d)",
				top, len(r.Foci), r.Differing, r.MostSpecific(), len(want), full.Differing, full.MostSpecific())
		}
	}
	var got []FocusDiff
	o := opt
	o.Emit = func(res *PerfDiffResult, f *FocusDiff) error {
		if res.Threshold != full.Threshold {
			t.Errorf("threshold %v while emitting, want %v", res.Threshold, full.Threshold)
		}
		got = append(got, *f)
		return nil
	}
	r, err := PerfDiff(a, b, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Foci) != 0 || r.Differing != full.Differing || r.MostSpecific() != full.MostSpecific() || r.NumExamined != full.NumExamined {
		t.Errorf("emitting: %d held, counts %d %d %d; want 0, %d %d %d", len(r.Foci), r.Differing, r.MostSpecific(), r.NumExamined,
			full.Differing, full.MostSpecific(), full.NumExamined)
	}
	slices.SortFunc(got, compareFoci)
	if !slices.Equal(got, full.Foci) {
		t.Errorf("emitted %d foci, not the %d of the full answer", len(got), len(full.Foci))
	}
	stop := errors.New("stop")
	n := 0
	o.Emit = func(*PerfDiffResult, *FocusDiff) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	}
	if _, err := PerfDiff(a, b, o); !errors.Is(err, stop) || n != 3 {
		t.Errorf("emit error: %v after %d foci", err, n)
	}
}

// BenchmarkPerfDiffGroups compares two groups of 5 generated runs of
// 10,000 call paths on 256 locations (each run's call paths scaled by
// 1 + 2 %·N(0, 1), a 50 % shift planted in the largest, 0.011 % of the
// whole program), δ = 0.002 % of the whole program.
func BenchmarkPerfDiffGroups(b *testing.B) {
	cfg := synth.Config{Cnodes: 10000, Locations: 256, Threads: 4, Nodes: 8, Metrics: 1, Seed: 3}
	// The planted call path: the one of the largest own value.
	own, err := synth.Generate(cfg).CallTreeValues(model.MetricSel{Metric: 0, Inclusive: true}, false)
	if err != nil {
		b.Fatal(err)
	}
	planted := 0
	for c, v := range own {
		if v > own[planted] {
			planted = c
		}
	}
	gen := func(seed uint64, run int, shift float64) *model.Experiment {
		e := synth.Generate(cfg)
		r := rand.New(rand.NewPCG(seed, uint64(run)))
		blk, _ := e.Block(0)
		for c := range e.Cnodes {
			f := 1 + 0.02*r.NormFloat64()
			if c == planted {
				f *= 1 + shift
			}
			if blk.HasRow(c) {
				row := blk.MutableRow(c)
				for l := range row {
					row[l] *= f
				}
			}
		}
		return e
	}
	var ga, gb []*model.Experiment
	for i := range 5 {
		ga = append(ga, gen(1, i, 0.5))
		gb = append(gb, gen(2, i, 0))
	}
	b.ReportAllocs()
	var r *PerfDiffResult
	for b.Loop() {
		var err error
		if r, err = PerfDiffGroups(ga, gb, PerfDiffOptions{Metric: "time", Delta: 2e-5, Relative: true, Self: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(r.Foci)), "differing")
	b.ReportMetric(float64(r.Significant()), "significant")
}
