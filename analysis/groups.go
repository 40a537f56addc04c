package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"cubeview/algebra"
	"cubeview/analysis/significance"
	"cubeview/model"
)

// GroupOptions configure CompareGroups and RunNoise.
type GroupOptions struct {
	// Metric names the metric as Integration.MetricIndex resolves it
	// (unique name, an operand's name, a canonical identity); "" takes
	// time, else the first metric every run has.
	Metric string
	// Inclusive compares call-tree inclusive values instead of each call
	// path's own.
	Inclusive bool
	// Test is Welch's t-test (default) or Mann–Whitney U; Method the
	// latter's p-value computation.
	Test   significance.Test
	Method significance.Method
	// Alpha is the false-discovery rate below which a q-value is
	// significant; Level the confidence level of the intervals (0:
	// significance.DefaultAlpha, DefaultLevel).
	Alpha, Level float64
	// Algebra controls how the runs' trees are matched.
	Algebra algebra.Options
}

func (o GroupOptions) alpha() float64 {
	if o.Alpha <= 0 || o.Alpha >= 1 {
		return significance.DefaultAlpha
	}
	return o.Alpha
}

func (o GroupOptions) level() float64 {
	if o.Level <= 0 || o.Level >= 1 {
		return significance.DefaultLevel
	}
	return o.Level
}

// GroupRow compares one call path between the groups: each group's runs
// summarised (mean, variance), the difference of the means A − B with its
// confidence interval, the test's p-value, its Benjamini–Hochberg q-value
// over every call path compared, and whether it is significant (q < α).
type GroupRow struct {
	Cnode int // in GroupComparison.Result
	significance.Comparison
	Q           float64
	Significant bool
}

// GroupComparison is the answer of CompareGroups.
type GroupComparison struct {
	// Result holds the integrated metadata of every run (no data): Cnode
	// indices refer to it. Integration is the matching itself (Report,
	// RootsMatched).
	Result      *model.Experiment
	Integration *algebra.Integration
	Metric      int // in Result
	NA, NB      int // runs per group
	Options     GroupOptions
	// Total compares the whole program: the metric's total of each run.
	Total GroupRow
	// Rows holds every call path with a value in some run, largest
	// |A − B| first (ties by call path).
	Rows []GroupRow
}

// Significant returns the number of significant rows.
func (g *GroupComparison) Significant() int {
	n := 0
	for _, r := range g.Rows {
		if r.Significant {
			n++
		}
	}
	return n
}

// CompareGroups compares two groups of repeated runs call path by call
// path: the value of a call path in a run is the metric summed over all
// locations (0 where the run has no such call path, as in the algebra),
// a group's value is the mean over its runs with their spread, and each
// call path is tested (Welch's t-test or Mann–Whitney U), with the
// interval of the difference of the means, Hedges' g and
// Benjamini–Hochberg q-values over all call paths compared. All runs are
// matched together as the algebra matches operands (at most
// algebra.MaxOperands runs in all). Each group needs at least two runs.
func CompareGroups(a, b []*model.Experiment, opt GroupOptions) (*GroupComparison, error) {
	if len(a) < 2 || len(b) < 2 {
		return nil, fmt.Errorf("groups of %d and %d runs: each group needs at least two runs to estimate its noise (%w)", len(a), len(b), significance.ErrTooFewRuns)
	}
	runs := append(slices.Clone(a), b...)
	ig, rm, vals, totals, err := runValues(runs, opt)
	if err != nil {
		return nil, err
	}
	g := &GroupComparison{Result: ig.Result, Integration: ig, Metric: rm, NA: len(a), NB: len(b), Options: opt}
	na := len(a)
	sopt := significance.Options{Test: opt.Test, Method: opt.Method, Level: opt.level()}
	compare := func(c int, v []float64) (GroupRow, error) {
		cmp, err := significance.Compare(v[:na], v[na:], sopt)
		if err != nil {
			return GroupRow{}, err
		}
		return GroupRow{Cnode: c, Comparison: cmp}, nil
	}
	if g.Total, err = compare(-1, totals); err != nil {
		return nil, err
	}
	g.Total.Q = g.Total.P
	g.Total.Significant = significance.Significant(g.Total.P, opt.alpha())
	col := make([]float64, len(runs))
	for c := range ig.Result.Cnodes {
		zero := true
		for i := range runs {
			col[i] = vals[i][c]
			zero = zero && col[i] == 0
		}
		if zero {
			continue
		}
		row, err := compare(c, col)
		if err != nil {
			return nil, fmt.Errorf("call path %s: %w", ig.Result.CallPath(c), err)
		}
		g.Rows = append(g.Rows, row)
	}
	p := make([]float64, len(g.Rows))
	for i, r := range g.Rows {
		p[i] = r.P
	}
	for i, q := range significance.BenjaminiHochberg(p) {
		g.Rows[i].Q = q
		g.Rows[i].Significant = significance.Significant(q, opt.alpha())
	}
	res := ig.Result
	slices.SortStableFunc(g.Rows, func(x, y GroupRow) int {
		if c := cmp.Compare(math.Abs(y.Diff), math.Abs(x.Diff)); c != 0 {
			return c
		}
		return cmp.Compare(res.CallPath(x.Cnode), res.CallPath(y.Cnode))
	})
	return g, nil
}

// NoiseRow is the run-to-run spread of one call path's value.
type NoiseRow struct {
	Cnode int // in RunNoiseResult.Result; −1 for the whole program
	significance.Sample
	Min, Max float64
	// CV is the coefficient of variation (standard deviation / mean).
	CV float64
	// Detectable is the smallest difference of means, relative to the
	// mean, that Welch's test would find at p < 0.05 between two groups
	// of this many runs with this spread: t(0.975, 2(n−1))·s·√(2/n) / mean.
	// A change smaller than that cannot be told from noise.
	Detectable float64
}

// RunNoiseResult is the answer of RunNoise.
type RunNoiseResult struct {
	Result      *model.Experiment
	Integration *algebra.Integration
	Metric      int
	Runs        int
	Options     GroupOptions
	Total       NoiseRow
	// Rows holds every call path with a value in some run, largest mean
	// first (ties by call path).
	Rows []NoiseRow
}

// RunNoise measures the noise of repeated runs of one configuration: per
// call path the mean over the runs of the metric summed over all
// locations, its standard deviation, coefficient of variation and the
// smallest difference the runs could tell from noise. Runs are matched as
// the algebra matches operands; at least two are needed.
func RunNoise(runs []*model.Experiment, opt GroupOptions) (*RunNoiseResult, error) {
	if len(runs) < 2 {
		return nil, fmt.Errorf("%d run: %w", len(runs), significance.ErrTooFewRuns)
	}
	ig, rm, vals, totals, err := runValues(runs, opt)
	if err != nil {
		return nil, err
	}
	n := len(runs)
	tq := significance.StudentTQuantile(0.975, float64(2*(n-1)))
	row := func(c int, v []float64) NoiseRow {
		s := significance.Describe(v)
		r := NoiseRow{Cnode: c, Sample: s, Min: slices.Min(v), Max: slices.Max(v), CV: s.CV(), Detectable: math.NaN()}
		if s.Mean != 0 {
			r.Detectable = tq * s.SD() * math.Sqrt(2/float64(n)) / math.Abs(s.Mean)
		}
		return r
	}
	out := &RunNoiseResult{Result: ig.Result, Integration: ig, Metric: rm, Runs: n, Options: opt, Total: row(-1, totals)}
	col := make([]float64, n)
	for c := range ig.Result.Cnodes {
		zero := true
		for i := range runs {
			col[i] = vals[i][c]
			zero = zero && col[i] == 0
		}
		if !zero {
			out.Rows = append(out.Rows, row(c, col))
		}
	}
	res := ig.Result
	slices.SortStableFunc(out.Rows, func(x, y NoiseRow) int {
		if c := cmp.Compare(math.Abs(y.Mean), math.Abs(x.Mean)); c != 0 {
			return c
		}
		return cmp.Compare(res.CallPath(x.Cnode), res.CallPath(y.Cnode))
	})
	return out, nil
}

// runValues integrates the runs and returns, per run, the metric's value
// at every result call path summed over all locations, and each run's
// total. A run without the metric is an error that names it and what
// helps.
func runValues(runs []*model.Experiment, opt GroupOptions) (ig *algebra.Integration, rm int, vals [][]float64, totals []float64, err error) {
	if len(runs) > algebra.MaxOperands {
		return nil, 0, nil, nil, fmt.Errorf("%d runs: at most %d can be compared together", len(runs), algebra.MaxOperands)
	}
	ig, err = algebra.Integrate(runs, opt.Algebra)
	if err != nil {
		return nil, 0, nil, nil, err
	}
	res := ig.Result
	if rm, err = groupMetric(ig, opt.Metric); err != nil {
		return nil, 0, nil, nil, err
	}
	vals = make([][]float64, len(runs))
	totals = make([]float64, len(runs))
	for i, e := range ig.Operands {
		m := slices.Index(ig.Metrics[i], rm)
		if m < 0 {
			return nil, 0, nil, nil, fmt.Errorf("%s has no metric matching %q of the other runs; --map-metric 'FROM=TO' compares metrics of different names or meaning", sourceName(e, i), res.Metrics[rm].UniqName)
		}
		if r := e.Metrics[m].Unavailable; r != "" {
			return nil, 0, nil, nil, fmt.Errorf("%s: metric %q is not available: %s", sourceName(e, i), e.Metrics[m].UniqName, r)
		}
		sel := model.MetricSel{Metric: m, Inclusive: true}
		v, err := e.CallTreeValues(sel, opt.Inclusive)
		if err != nil {
			return nil, 0, nil, nil, fmt.Errorf("%s: metric %q: %w", sourceName(e, i), e.Metrics[m].UniqName, err)
		}
		if totals[i], err = e.MetricTotal(sel); err != nil {
			return nil, 0, nil, nil, fmt.Errorf("%s: metric %q: %w", sourceName(e, i), e.Metrics[m].UniqName, err)
		}
		vals[i] = make([]float64, len(res.Cnodes))
		for c, x := range v {
			vals[i][ig.Cnodes[i][c]] += x
		}
	}
	return ig, rm, vals, totals, nil
}

// groupMetric resolves name among the integrated runs; "" takes time,
// else the first metric every run has.
func groupMetric(ig *algebra.Integration, name string) (int, error) {
	if name != "" {
		return ig.MetricIndex(name)
	}
	res := ig.Result
	all := model.Mask(1)<<uint(len(ig.Operands)) - 1
	inAll := func(r int) bool { return res.Metrics[r].Present&all == all && res.Metrics[r].Unavailable == "" }
	if r, err := ig.MetricIndex(model.IdentityTime); err == nil && inAll(r) {
		return r, nil
	}
	for _, r := range res.MetricOrder() {
		if inAll(r) {
			return r, nil
		}
	}
	return -1, fmt.Errorf("no metric is measured in all %d runs; --map-metric 'FROM=TO' matches metrics of different names", len(ig.Operands))
}

func sourceName(e *model.Experiment, i int) string {
	if e.Source != "" {
		return e.Source
	}
	return fmt.Sprintf("run %d", i+1)
}
