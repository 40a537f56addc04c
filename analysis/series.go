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
	// BasisAuto is BasisMax for a time-like metric (the slowest location
	// is the critical path: a section only one location runs does not
	// scale however many locations wait) and BasisMean for any other.
	BasisAuto Basis = iota
	// BasisMean compares the mean across locations (the call path's value
	// divided by the number of locations): the time each location spends,
	// so that perfect strong scaling gives speedup x/x₀.
	BasisMean
	// BasisMax compares the maximum across locations (the slowest one).
	BasisMax
	// BasisSum compares the value summed over all locations.
	BasisSum
)

// String returns "auto", "mean", "max" or "sum".
func (b Basis) String() string {
	switch b {
	case BasisAuto:
		return "auto"
	case BasisMax:
		return "max"
	case BasisSum:
		return "sum"
	}
	return "mean"
}

// ParseBasis reads "auto", "mean", "max" or "sum"; "" is "auto".
func ParseBasis(s string) (Basis, error) {
	if s == "" {
		return BasisAuto, nil
	}
	for _, b := range []Basis{BasisAuto, BasisMean, BasisMax, BasisSum} {
		if s == b.String() {
			return b, nil
		}
	}
	return 0, fmt.Errorf("basis %q: want auto, mean, max or sum", s)
}

// resolve returns the basis BasisAuto stands for with metric m.
func (b Basis) resolve(m *model.Metric) Basis {
	if b != BasisAuto {
		return b
	}
	if IsTimeLike(m) {
		return BasisMax
	}
	return BasisMean
}

// timeUnits are the units of time-like metrics, lower case.
var timeUnits = map[string]bool{"sec": true, "s": true, "secs": true, "second": true, "seconds": true,
	"ms": true, "msec": true, "us": true, "usec": true, "µs": true, "ns": true, "nsec": true}

// IsTimeLike reports whether m measures time (by its canonical identity
// or its unit), so that the slowest location is its critical path.
func IsTimeLike(m *model.Metric) bool {
	return m.Identity == model.IdentityTime || m.Identity == model.IdentityCPUTime ||
		timeUnits[strings.ToLower(strings.TrimSpace(m.Unit))]
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
	// Basis is what speedup, efficiency and the models compare;
	// BasisAuto (the zero value) picks the slowest location for time.
	Basis Basis
	// PerVisit divides each call path's value by its own visits (at each
	// location, and over all of them): the cost of one visit, so that a
	// growing iteration count is told apart from a growing cost per
	// iteration.
	PerVisit bool
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
	// Model is the performance model of the basis values over x (nil
	// with fewer than MinModelPoints trials or when no model fits).
	Model *Model
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
	Basis  Basis // as resolved: never BasisAuto
	// PerVisit says the values are per visit of each call path.
	PerVisit bool
	Rows     []SeriesRow // in depth-first order of the domain's call tree
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
	basis := opt.Basis.resolve(&d.Metrics[rm])
	res := &SeriesResult{Domain: d, Metric: d.Metrics[rm].UniqName, Trials: trials, Weak: opt.Weak, Basis: basis, PerVisit: opt.PerVisit}
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
		var visits *focusValues
		if opt.PerVisit {
			e := ig.Operands[t]
			order := e.MetricOrder() // the first visits metric in tree order
			v := e.MetricByName("visits")
			if i := slices.IndexFunc(order, func(m int) bool { return e.Metrics[m].Identity == model.IdentityVisits }); i >= 0 {
				v = order[i]
			}
			if v < 0 {
				return nil, fmt.Errorf("series: trial %s has no visits metric to divide by (--per-visit)", trials[t].Name)
			}
			// a call path's own visits: how often it was entered
			if visits, err = newFocusValues(ig, t, e.Metrics[v].UniqName, cols, false); err != nil {
				return nil, fmt.Errorf("series: trial %s: %w", trials[t].Name, err)
			}
		}
		own := slices.Clone(ig.Locations[t])
		one := make([]int, 1)
		for i := range res.Rows {
			r := &res.Rows[i]
			rows := []int{r.Cnode}
			v, err := fv.over(rows, own)
			if err != nil {
				return nil, fmt.Errorf("series: trial %s: %w", trials[t].Name, err)
			}
			if visits != nil {
				n, err := visits.over(rows, own)
				if err != nil {
					return nil, fmt.Errorf("series: trial %s: %w", trials[t].Name, err)
				}
				v = perVisit(v, n)
			}
			lo, hi, sum, count := math.Inf(1), math.Inf(-1), 0.0, 0
			for _, l := range own {
				one[0] = l
				x, err := fv.over(rows, one)
				if err != nil {
					return nil, fmt.Errorf("series: trial %s: %w", trials[t].Name, err)
				}
				if visits != nil {
					n, err := visits.over(rows, one)
					if err != nil {
						return nil, fmt.Errorf("series: trial %s: %w", trials[t].Name, err)
					}
					if n == 0 {
						continue // a location that never entered the call path has no cost per visit
					}
					x /= n
				}
				lo, hi, sum, count = math.Min(lo, x), math.Max(hi, x), sum+x, count+1
			}
			mean := sum / float64(count)
			if count == 0 {
				lo, hi, mean = 0, 0, 0
			}
			r.Value = append(r.Value, v)
			r.Min = append(r.Min, lo)
			r.Mean = append(r.Mean, mean)
			r.Max = append(r.Max, hi)
		}
	}
	x0 := trials[0].X
	xs := make([]float64, len(trials))
	for t := range trials {
		xs[t] = trials[t].X
	}
	var modeler *Modeler
	if len(trials) >= MinModelPoints {
		modeler, _ = NewModeler(xs, !opt.Weak) // xs are positive: checked above
	}
	for i := range res.Rows {
		r := &res.Rows[i]
		b := r.Basis(basis)
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
		if modeler != nil {
			if m, err := modeler.Fit(b); err == nil {
				r.Model = &m
			}
		}
	}
	return res, nil
}

// perVisit returns v/n, 0 when the call path was not visited (n = 0).
func perVisit(v, n float64) float64 {
	if n == 0 {
		return 0
	}
	return v / n
}

// Top returns the n rows with the largest basis value in the first trial
// (all rows when n ≤ 0 or beyond), largest first.
func (r *SeriesResult) Top(n int) []SeriesRow {
	rows, _ := r.Rank(RankValue, n, 0)
	return rows
}

// RankBy orders the call paths of a series.
type RankBy uint8

const (
	// RankValue ranks by the basis value in the first trial.
	RankValue RankBy = iota
	// RankGrowth ranks by the growth b_last/b_first of the basis value
	// from the first trial to the last; call paths whose last value is
	// below GrowthFloor of the largest last value come after the others,
	// so that noise growing from nothing does not crowd out the paths
	// that matter.
	RankGrowth
	// RankPredicted ranks by the model's prediction at a given x; call
	// paths without a model come last.
	RankPredicted
)

// GrowthFloor is the share of the largest last value below which
// RankGrowth ranks a call path after the others.
const GrowthFloor = 0.01

// ParseRankBy reads "value", "growth" or "predicted".
func ParseRankBy(s string) (RankBy, error) {
	switch s {
	case "value":
		return RankValue, nil
	case "growth":
		return RankGrowth, nil
	case "predicted":
		return RankPredicted, nil
	}
	return 0, fmt.Errorf("rank %q: want value, growth or predicted", s)
}

// Growth returns the row's growth b_last/b_first of the basis b; NaN
// when the first value is 0.
func (row *SeriesRow) Growth(b Basis) float64 {
	v := row.Basis(b)
	if len(v) == 0 || v[0] == 0 {
		return math.NaN()
	}
	return v[len(v)-1] / v[0]
}

// Predict returns the row's model value at x; NaN without a model.
func (row *SeriesRow) Predict(x float64) float64 {
	if row.Model == nil {
		return math.NaN()
	}
	return row.Model.Eval(x)
}

// Rank returns the n first rows (all when n ≤ 0 or beyond) in the order
// by says, the largest first; at is the x of RankPredicted. The key is
// returned alongside, one per row.
func (r *SeriesResult) Rank(by RankBy, n int, at float64) ([]SeriesRow, []float64) {
	type keyed struct {
		row  SeriesRow
		key  float64
		tier int // lower first
	}
	last := len(r.Trials) - 1
	largest := 0.0
	for i := range r.Rows {
		largest = math.Max(largest, math.Abs(r.Rows[i].Basis(r.Basis)[last]))
	}
	ks := make([]keyed, len(r.Rows))
	for i, row := range r.Rows {
		k := keyed{row: row}
		switch by {
		case RankValue:
			k.key = math.Abs(row.Basis(r.Basis)[0])
		case RankGrowth:
			k.key = row.Growth(r.Basis)
			if math.Abs(row.Basis(r.Basis)[last]) < GrowthFloor*largest {
				k.tier = 1
			}
		case RankPredicted:
			k.key = row.Predict(at)
		}
		if math.IsNaN(k.key) {
			k.tier = 2
		}
		ks[i] = k
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		if a.tier != b.tier {
			return cmp.Compare(a.tier, b.tier)
		}
		return cmp.Compare(b.key, a.key)
	})
	if n > 0 && n < len(ks) {
		ks = ks[:n]
	}
	rows := make([]SeriesRow, len(ks))
	keys := make([]float64, len(ks))
	for i, k := range ks {
		rows[i], keys[i] = k.row, k.key
	}
	return rows, keys
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

// ScalingAttr is the experiment (or repository) attribute that says
// whether a run belongs to a weak-scaling series (the work grows with x:
// "weak") or a strong-scaling one ("strong").
const ScalingAttr = "scaling"

// ParseScaling reads an attribute value: "weak" or "strong" (any case,
// "weak scaling" too); ok false for anything else.
func ParseScaling(v string) (weak, ok bool) {
	v = strings.ToLower(strings.TrimSpace(v))
	v = strings.TrimSuffix(strings.TrimSuffix(v, "scaling"), "-")
	switch strings.TrimSpace(v) {
	case "weak":
		return true, true
	case "strong":
		return false, true
	}
	return false, false
}

// WeakFromAttrs says whether trials whose ScalingAttr values are given
// ("" where a trial has none) form a weak-scaling series: known false
// when none has the attribute; an error when they disagree or a value
// is neither weak nor strong.
func WeakFromAttrs(names, values []string) (weak, known bool, err error) {
	first := ""
	for i, v := range values {
		if v == "" {
			continue
		}
		w, ok := ParseScaling(v)
		if !ok {
			return false, false, fmt.Errorf("%s: attribute %s = %q: want weak or strong", names[i], ScalingAttr, v)
		}
		if known && w != weak {
			return false, false, fmt.Errorf("attribute %s: %s says %q, %s says %q; give --weak or --strong", ScalingAttr, first, values[slices.Index(names, first)], names[i], v)
		}
		if !known {
			first = names[i]
		}
		weak, known = w, true
	}
	return weak, known, nil
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

// Distinct returns up to n of rows (all when n ≤ 0) in their order, each
// curve once: a row whose basis values are within CurveTolerance of
// those of a row already taken that is its caller or callee (a caller
// that does little but call it, so that the two curves would be drawn
// on top of each other) is folded into it. The row kept is the deeper
// call path; folded lists the call paths folded into each row kept.
func (r *SeriesResult) Distinct(rows []SeriesRow, n int) (kept []SeriesRow, folded [][]string) {
	for _, row := range rows {
		b := row.Basis(r.Basis)
		same := -1
		for i := range kept {
			if chained(kept[i].CallPath, row.CallPath) && sameCurve(kept[i].Basis(r.Basis), b) {
				same = i
				break
			}
		}
		if same < 0 {
			if n > 0 && len(kept) == n {
				continue
			}
			kept = append(kept, row)
			folded = append(folded, nil)
			continue
		}
		if len(row.CallPath) > len(kept[same].CallPath) {
			folded[same] = append(folded[same], kept[same].CallPath)
			kept[same] = row
		} else {
			folded[same] = append(folded[same], row.CallPath)
		}
	}
	return kept, folded
}

// CurveTolerance is the relative difference below which two curves
// count as one in Distinct: less than a plot's line width.
const CurveTolerance = 0.005

// chained reports whether call path a calls b or b calls a.
func chained(a, b string) bool {
	return strings.HasPrefix(a, b+"/") || strings.HasPrefix(b, a+"/")
}

func sameCurve(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !(math.Abs(a[i]-b[i]) <= CurveTolerance*math.Max(math.Abs(a[i]), math.Abs(b[i]))) {
			return false
		}
	}
	return true
}

// processNames are attribute names that count processes.
var processNames = map[string]bool{"procs": true, "processes": true, "np": true, "nprocs": true, "ranks": true, "nranks": true, "mpi_ranks": true, "p": true}

// IsProcessCount reports whether an attribute named key counts
// processes, so that parallel efficiency means something along it.
func IsProcessCount(key string) bool { return processNames[strings.ToLower(strings.TrimSpace(key))] }
