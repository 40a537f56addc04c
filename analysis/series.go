package analysis

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"cubeview/algebra"
	"cubeview/model"
)

// Trial is one experiment of a series with its position on the x axis.
type Trial struct {
	Name string // how the trial is named in tables and plots
	Exp  *model.Experiment
	X    float64 // e.g. the process count
}

// Basis chooses which value of a call path speedup and efficiency compare.
type Basis uint8

const (
	// BasisMean compares the mean across locations (the call path's value
	// divided by the number of locations): the time each location spends,
	// so that perfect strong scaling gives speedup x/x₀.
	BasisMean Basis = iota
	// BasisMax compares the maximum across locations (the slowest one).
	BasisMax
	// BasisSum compares the value summed over all locations.
	BasisSum
)

// String returns "mean", "max" or "sum".
func (b Basis) String() string {
	switch b {
	case BasisMax:
		return "max"
	case BasisSum:
		return "sum"
	}
	return "mean"
}

// ParseBasis reads "mean", "max" or "sum".
func ParseBasis(s string) (Basis, error) {
	for _, b := range []Basis{BasisMean, BasisMax, BasisSum} {
		if s == b.String() {
			return b, nil
		}
	}
	return 0, fmt.Errorf("basis %q: want mean, max or sum", s)
}

// SeriesOptions configure Series.
type SeriesOptions struct {
	Metric string // uniq_name of the metric (stored or derived)
	// Weak compares as weak scaling: the ratio value/value₀ (ideal 1)
	// instead of the speedup value₀/value (ideal x/x₀).
	Weak bool
	// Exclusive takes each call path's own values instead of its
	// inclusive ones.
	Exclusive bool
	Basis     Basis
	// Algebra controls how the trials' call trees are matched.
	Algebra algebra.Options
}

// SeriesRow is one call path across the trials; every slice has one
// entry per trial in the order of SeriesResult.Trials. NaN marks a value
// that is not defined (a ratio with zero).
type SeriesRow struct {
	Cnode    int    // in SeriesResult.Domain
	CallPath string // region names from the root, joined by "/"
	// Value is the call path's value over all the trial's locations (the
	// value "cubeview tree" shows); Min, Mean and Max spread it across them.
	Value, Min, Mean, Max []float64
	// Ratio is the speedup b₀/bᵢ (strong scaling) or the ratio bᵢ/b₀ (weak)
	// of the basis values b; Efficiency is Ratio·x₀/xᵢ (strong) or b₀/bᵢ
	// (weak).
	Ratio, Efficiency []float64
}

// Basis returns the row's basis values, one per trial.
func (r *SeriesRow) Basis(b Basis) []float64 {
	switch b {
	case BasisMax:
		return r.Max
	case BasisSum:
		return r.Value
	}
	return r.Mean
}

// SeriesResult is the answer of Series.
type SeriesResult struct {
	Domain *model.Experiment // the trials' integrated call tree (no data)
	Metric string
	Trials []Trial // ordered by X
	Weak   bool
	Basis  Basis
	Rows   []SeriesRow // in depth-first order of the domain's call tree
}

// Series compares one metric over trials ordered by X (the order among
// equal X is kept): per call path, matched across the trials as the
// algebra matches operands, its value in each trial, the spread across
// locations, and the speedup and parallel efficiency against the first
// trial (or the weak-scaling ratio).
func Series(trials []Trial, opt SeriesOptions) (*SeriesResult, error) {
	if len(trials) < 2 {
		return nil, fmt.Errorf("series: want at least 2 trials, got %d", len(trials))
	}
	trials = slices.Clone(trials)
	slices.SortStableFunc(trials, func(a, b Trial) int { return cmp.Compare(a.X, b.X) })
	for _, t := range trials {
		if math.IsNaN(t.X) || math.IsInf(t.X, 0) || t.X <= 0 {
			return nil, fmt.Errorf("series: trial %s: x = %v; want a positive number", t.Name, t.X)
		}
	}
	exps := make([]*model.Experiment, len(trials))
	for i, t := range trials {
		exps[i] = t.Exp
	}
	ig, err := algebra.Integrate(exps, opt.Algebra)
	if err != nil {
		return nil, fmt.Errorf("series: %w", err)
	}
	// each trial's own name of the metric opt.Metric names (matched by
	// canonical identity or --map-metric across tools)
	rm, err := ig.MetricIndex(opt.Metric)
	if err != nil {
		return nil, fmt.Errorf("series: %w", err)
	}
	names := make([]string, len(trials))
	for i, t := range trials {
		m := slices.Index(ig.Metrics[i], rm)
		if m < 0 {
			return nil, fmt.Errorf("series: trial %s has no metric matching %q; --map-metric 'FROM=TO' compares metrics of different names or meaning", t.Name, opt.Metric)
		}
		names[i] = ig.Operands[i].Metrics[m].UniqName
		if r := ig.Operands[i].Metrics[m].Unavailable; r != "" {
			return nil, fmt.Errorf("series: trial %s: metric %q has no values: %s", t.Name, names[i], r)
		}
	}
	d := ig.Result
	cols := systemColumns(d)
	res := &SeriesResult{Domain: d, Metric: d.Metrics[rm].UniqName, Trials: trials, Weak: opt.Weak, Basis: opt.Basis}
	order := d.CnodeOrder()
	res.Rows = make([]SeriesRow, len(order))
	for i, c := range order {
		res.Rows[i] = SeriesRow{Cnode: c, CallPath: d.CallPath(c)}
	}
	for t := range trials {
		fv, err := newFocusValues(ig, t, names[t], cols, !opt.Exclusive)
		if err != nil {
			return nil, fmt.Errorf("series: trial %s: %w", trials[t].Name, err)
		}
		own := make([]int, 0, trials[t].Exp.NumLocations())
		own = append(own, ig.Locations[t]...)
		one := make([]int, 1)
		for i := range res.Rows {
			r := &res.Rows[i]
			rows := []int{r.Cnode}
			v, err := fv.over(rows, own)
			if err != nil {
				return nil, fmt.Errorf("series: trial %s: %w", trials[t].Name, err)
			}
			lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
			for _, l := range own {
				one[0] = l
				x, err := fv.over(rows, one)
				if err != nil {
					return nil, fmt.Errorf("series: trial %s: %w", trials[t].Name, err)
				}
				lo, hi, sum = math.Min(lo, x), math.Max(hi, x), sum+x
			}
			mean := sum / float64(len(own))
			if len(own) == 0 {
				lo, hi, mean = 0, 0, 0
			}
			r.Value = append(r.Value, v)
			r.Min = append(r.Min, lo)
			r.Mean = append(r.Mean, mean)
			r.Max = append(r.Max, hi)
		}
	}
	x0 := trials[0].X
	for i := range res.Rows {
		r := &res.Rows[i]
		b := r.Basis(opt.Basis)
		for t := range trials {
			ratio, eff := math.NaN(), math.NaN()
			if b[0] != 0 && b[t] != 0 {
				if opt.Weak {
					ratio, eff = b[t]/b[0], b[0]/b[t]
				} else {
					ratio = b[0] / b[t]
					eff = ratio * x0 / trials[t].X
				}
			}
			r.Ratio = append(r.Ratio, ratio)
			r.Efficiency = append(r.Efficiency, eff)
		}
	}
	return res, nil
}

// Top returns the n rows with the largest basis value in the first trial
// (all rows when n ≤ 0 or beyond), largest first.
func (r *SeriesResult) Top(n int) []SeriesRow {
	rows := slices.Clone(r.Rows)
	slices.SortStableFunc(rows, func(a, b SeriesRow) int {
		return cmp.Compare(math.Abs(b.Basis(r.Basis)[0]), math.Abs(a.Basis(r.Basis)[0]))
	})
	if n > 0 && n < len(rows) {
		rows = rows[:n]
	}
	return rows
}

// ProcessCount returns the number of processes (location groups) of e,
// or its number of locations when it has no groups.
func ProcessCount(e *model.Experiment) int {
	n := 0
	for i := range e.System {
		if e.System[i].Kind == model.Group {
			n++
		}
	}
	if n == 0 {
		return e.NumLocations()
	}
	return n
}

// AttrNumber returns the experiment attribute key as a number, for
// ordering trials by an attribute such as a problem size.
func AttrNumber(e *model.Experiment, key string) (float64, error) {
	v, ok := e.Attr(key)
	if !ok {
		return 0, fmt.Errorf("%s has no attribute %q", e.Source, key)
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return 0, fmt.Errorf("%s: attribute %s = %q is not a number", e.Source, key, v)
	}
	return x, nil
}

// ParseXValues reads a comma-separated list of n positive numbers.
func ParseXValues(s string, n int) ([]float64, error) {
	parts := strings.Split(s, ",")
	if len(parts) != n {
		return nil, fmt.Errorf("x values %q: %d given for %d trials", s, len(parts), n)
	}
	out := make([]float64, n)
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || x <= 0 || math.IsInf(x, 0) {
			return nil, errors.New("x values " + strconv.Quote(s) + ": " + strconv.Quote(p) + " is not a positive number")
		}
		out[i] = x
	}
	return out, nil
}
