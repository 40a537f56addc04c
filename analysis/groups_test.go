package analysis

import (
	"errors"
	"math"
	"testing"

	"cubeview/analysis/significance"
	"cubeview/internal/synth"
	"cubeview/model"
)

// plantedConfig is the shape of the generated runs: every run has the
// same call tree and the same base values; runs differ by noise.
var plantedConfig = synth.Config{Cnodes: 200, Locations: 8, Metrics: 1, Seed: 7}

// plantedRun returns one generated run: each call path's values scaled by
// 1 + sigma(c)·N(0, 1), drawn per run and call path from seed and run,
// and by 1 + shift[c] where a shift is planted.
func plantedRun(seed uint64, run int, sigma func(c int) float64, shift map[int]float64) *model.Experiment {
	return synth.NoisyRun(plantedConfig, seed, run, sigma, shift)
}

func plantedGroups(seed uint64, na, nb int, sigma func(int) float64, shiftA map[int]float64) (a, b []*model.Experiment) {
	for i := range na {
		a = append(a, plantedRun(seed, i, sigma, shiftA))
	}
	for i := range nb {
		b = append(b, plantedRun(seed, 1000+i, sigma, nil))
	}
	return a, b
}

// baseValue is a call path's own value summed over locations before noise.
func baseValue(t *testing.T, c int) float64 {
	e := synth.Generate(plantedConfig)
	v, err := e.CallTreeValues(model.MetricSel{Metric: 0, Inclusive: true}, false)
	if err != nil {
		t.Fatal(err)
	}
	return v[c]
}

func constSigma(s float64) func(int) float64 { return func(int) float64 { return s } }

// TestPlantedShift: groups of 5 runs with 2 % noise per call path and a
// 20 % shift planted in one call path (t ≈ 0.2/(0.02·√(2/5)) ≈ 16, while
// Benjamini–Hochberg asks p < 0.05/200 of the one true difference among
// 200, t > 6 at df 8): over 60 seeds the shift is significant every time, its 95 % interval holds
// the true difference in about 95 % of them, the p-values of the 199
// unchanged call paths are uniform (5 % below 0.05), and the share of
// false discoveries among the significant rows stays at the
// Benjamini–Hochberg rate α = 5 %.
func TestPlantedShift(t *testing.T) {
	const planted = 17
	const seeds = 60
	truth := 0.2 * baseValue(t, planted)
	var found, covered, nullBelow, nullTests int
	var fdp float64
	for seed := range uint64(seeds) {
		a, b := plantedGroups(seed, 5, 5, constSigma(0.02), map[int]float64{planted: 0.2})
		g, err := CompareGroups(a, b, GroupOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Rows) != plantedConfig.Cnodes {
			t.Fatalf("%d rows, want %d", len(g.Rows), plantedConfig.Cnodes)
		}
		falseHits, hits := 0, 0
		for _, r := range g.Rows {
			if r.Cnode == g.Integration.Cnodes[0][planted] {
				if r.Significant {
					found++
				}
				if r.CILow <= truth && truth <= r.CIHigh {
					covered++
				}
				continue
			}
			nullTests++
			if r.P < 0.05 {
				nullBelow++
			}
			if r.Significant {
				falseHits++
			}
		}
		for _, r := range g.Rows {
			if r.Significant {
				hits++
			}
			if r.Significant != (r.Q < significance.DefaultAlpha) {
				t.Fatalf("row %d: significant %v with q %g", r.Cnode, r.Significant, r.Q)
			}
		}
		if hits > 0 {
			fdp += float64(falseHits) / float64(hits)
		}
	}
	if found != seeds {
		t.Errorf("planted shift significant in %d of %d seeds", found, seeds)
	}
	if covered < 52 { // 57 expected, binomial sd 1.7
		t.Errorf("95 %% interval held the true difference %g in %d of %d seeds", truth, covered, seeds)
	}
	if rate := float64(nullBelow) / float64(nullTests); rate < 0.04 || rate > 0.06 {
		t.Errorf("unchanged call paths: %.2f %% with p < 0.05, want 5 %%", 100*rate)
	}
	if rate := fdp / seeds; rate > 0.08 {
		t.Errorf("false discovery rate %.3f, want ≤ 0.05", rate)
	}
	t.Logf("found %d/%d, CI coverage %d/%d, null p<0.05 %.2f %%, FDR %.3f", found, seeds, covered, seeds, 100*float64(nullBelow)/float64(nullTests), fdp/seeds)
}

// TestNoShiftNothingSignificant: without a planted shift, 200 call paths
// of pure noise are, under Benjamini–Hochberg, all unremarkable in at
// least 1 − α of the seeds (the procedure keeps the chance of any false
// discovery at α when nothing differs).
func TestNoShiftNothingSignificant(t *testing.T) {
	const seeds = 60
	any := 0
	for seed := range uint64(seeds) {
		a, b := plantedGroups(500+seed, 5, 5, constSigma(0.05), nil)
		g, err := CompareGroups(a, b, GroupOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if g.Significant() > 0 {
			any++
		}
	}
	if any > 8 {
		t.Errorf("something significant in %d of %d seeds of pure noise, want about 3", any, seeds)
	}
}

// TestMannWhitneyGroups: with 10 runs per group the exact Mann–Whitney
// test finds the planted shift among 200 call paths (smallest p 2/C(20,10)
// ≈ 1.1e-5 < 0.05/200); with 5 runs it cannot (smallest p 2/252 ≈ 0.008):
// few runs and many call paths need Welch's test.
func TestMannWhitneyGroups(t *testing.T) {
	const planted = 42
	for seed := range uint64(10) {
		a, b := plantedGroups(900+seed, 10, 10, constSigma(0.02), map[int]float64{planted: 0.1})
		g, err := CompareGroups(a, b, GroupOptions{Test: significance.MannWhitney})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range g.Rows {
			if r.Cnode == g.Integration.Cnodes[0][planted] && (!r.Significant || !r.Exact || r.Stat != 100) {
				t.Errorf("seed %d: planted row U %g p %g q %g exact %v", seed, r.Stat, r.P, r.Q, r.Exact)
			}
		}
	}
	a, b := plantedGroups(1, 5, 5, constSigma(0.02), map[int]float64{planted: 0.1})
	g, err := CompareGroups(a, b, GroupOptions{Test: significance.MannWhitney})
	if err != nil {
		t.Fatal(err)
	}
	if g.Significant() != 0 {
		t.Errorf("5 runs per group: %d significant with Mann–Whitney", g.Significant())
	}
}

// TestGroupOrderIrrelevant: the answer does not depend on the order of
// the runs within a group.
func TestGroupOrderIrrelevant(t *testing.T) {
	a, b := plantedGroups(3, 4, 3, constSigma(0.03), map[int]float64{5: 0.2})
	g1, err := CompareGroups(a, b, GroupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ra := []*model.Experiment{a[2], a[0], a[3], a[1]}
	rb := []*model.Experiment{b[1], b[2], b[0]}
	g2, err := CompareGroups(ra, rb, GroupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range g1.Rows {
		x, y := g1.Rows[i], g2.Rows[i]
		if x.Cnode != y.Cnode || !same(x.P, y.P) || !same(x.Q, y.Q) || !same(x.Diff, y.Diff) || x.Significant != y.Significant {
			t.Fatalf("row %d: %+v vs %+v", i, x, y)
		}
	}
}

func same(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(x)) }

func TestGroupsNeedTwoRuns(t *testing.T) {
	a, b := plantedGroups(3, 1, 3, constSigma(0.03), nil)
	if _, err := CompareGroups(a, b, GroupOptions{}); !errors.Is(err, significance.ErrTooFewRuns) {
		t.Errorf("group of one run: %v", err)
	}
	if _, err := RunNoise(a, GroupOptions{}); !errors.Is(err, significance.ErrTooFewRuns) {
		t.Errorf("one run: %v", err)
	}
}

// TestRunNoisePlanted: 20 runs whose call paths carry noise of 1 % to 5 %
// (by call path number): the measured coefficient of variation, averaged
// over the 40 call paths of each level, is that level within 5 %; the
// detectable difference is t(0.975, 38)·CV·√(2/20).
func TestRunNoisePlanted(t *testing.T) {
	sigma := func(c int) float64 { return 0.01 * float64(1+c%5) }
	var runs []*model.Experiment
	for i := range 20 {
		runs = append(runs, plantedRun(11, i, sigma, nil))
	}
	n, err := RunNoise(runs, GroupOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n.Runs != 20 || len(n.Rows) != plantedConfig.Cnodes {
		t.Fatalf("%d runs, %d rows", n.Runs, len(n.Rows))
	}
	var sum [5]float64
	tq := 2.024 // t(0.975, 38) from a table
	operandCnode := map[int]int{}
	for c, rc := range n.Integration.Cnodes[0] {
		operandCnode[rc] = c
	}
	for _, r := range n.Rows {
		sum[operandCnode[r.Cnode]%5] += r.CV
		if want := tq * r.CV * math.Sqrt(2.0/20); math.Abs(r.Detectable-want) > 1e-3*want {
			t.Errorf("call path %d: detectable %g, want %g", r.Cnode, r.Detectable, want)
		}
	}
	for k, s := range sum {
		mean := s / float64(plantedConfig.Cnodes/5)
		if want := 0.01 * float64(k+1); math.Abs(mean-want) > 0.05*want {
			t.Errorf("noise level %g: mean CV %g", want, mean)
		}
	}
	for i := 1; i < len(n.Rows); i++ {
		if n.Rows[i].Mean > n.Rows[i-1].Mean {
			t.Fatalf("rows not by decreasing mean at %d", i)
		}
	}
}

// BenchmarkCompareGroups compares 2 groups × 5 runs of a generated
// experiment of 10,000 call paths × 16 locations in memory;
// BenchmarkCompareGroupsLarge the same with 1,000 locations generated row
// by row as they are read (10 groups are 9 such comparisons against one).
func BenchmarkCompareGroups(b *testing.B) {
	benchmarkCompareGroups(b, synth.Config{Cnodes: 10000, Locations: 16, Metrics: 1})
}

func BenchmarkCompareGroupsLarge(b *testing.B) {
	benchmarkCompareGroups(b, synth.Config{Cnodes: 10000, Locations: 1000, Metrics: 1, OnDemand: true})
}

func benchmarkCompareGroups(b *testing.B, cfg synth.Config) {
	var ga, gb []*model.Experiment
	for i := range 5 {
		cfg.Seed = uint64(i)
		ga = append(ga, synth.Generate(cfg))
		cfg.Seed = uint64(100 + i)
		gb = append(gb, synth.Generate(cfg))
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CompareGroups(ga, gb, GroupOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
