package analysis

import (
	"fmt"
	"math"
	"slices"

	"cubeview/model"
)

// Summary describes how values spread across locations.
//
// Quartiles and the median follow one rule, linear interpolation between
// order statistics (Hyndman & Fan's type 7, the default of R and NumPy):
// for sorted values x[0] ≤ … ≤ x[n−1] the p-quantile is
// x[k] + f·(x[k+1] − x[k]) with h = (n−1)·p, k = ⌊h⌋, f = h − k. StdDev is
// the population standard deviation (divided by n), as Cube's statistics
// show it.
type Summary struct {
	Count                   int
	Sum, Min, Max, Mean     float64
	Q1, Median, Q3          float64
	StdDev                  float64
	ArgMin, ArgMax          int     // index of the first minimum and maximum; -1 when Count is 0
	LowWhisker, HighWhisker float64 // ends of the box plot whiskers
}

// Summarize computes the summary of values (which it does not change);
// NaN values (undefined) are left out. Whiskers reach the most extreme
// values within 1.5 interquartile ranges of the box, as box plots draw
// them.
func Summarize(values []float64) Summary {
	s := Summary{ArgMin: -1, ArgMax: -1}
	for i, v := range values {
		if math.IsNaN(v) {
			continue // undefined: not a value
		}
		if s.Count == 0 || v < s.Min {
			s.Min, s.ArgMin = v, i
		}
		if s.Count == 0 || v > s.Max {
			s.Max, s.ArgMax = v, i
		}
		s.Count++
		s.Sum += v
	}
	if s.Count == 0 {
		return s
	}
	n := float64(s.Count)
	s.Mean = s.Sum / n
	ss := 0.0
	sorted := make([]float64, 0, s.Count)
	for _, v := range values {
		if math.IsNaN(v) {
			continue
		}
		d := v - s.Mean
		ss += d * d
		sorted = append(sorted, v)
	}
	s.StdDev = math.Sqrt(ss / n)
	slices.Sort(sorted)
	s.Q1, s.Median, s.Q3 = Quantile(sorted, 0.25), Quantile(sorted, 0.5), Quantile(sorted, 0.75)
	iqr := s.Q3 - s.Q1
	s.LowWhisker, s.HighWhisker = s.Q1, s.Q3
	for _, v := range sorted {
		if v >= s.Q1-1.5*iqr {
			s.LowWhisker = min(v, s.Q1)
			break
		}
	}
	for i := len(sorted) - 1; i >= 0; i-- {
		if v := sorted[i]; v <= s.Q3+1.5*iqr {
			s.HighWhisker = max(v, s.Q3)
			break
		}
	}
	return s
}

// Quantile returns the p-quantile (0 ≤ p ≤ 1) of ascending values by
// linear interpolation between order statistics (see Summary); 0 for no
// values.
func Quantile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	h := float64(n-1) * p
	k := int(math.Floor(h))
	if k >= n-1 {
		return sorted[n-1]
	}
	if k < 0 {
		return sorted[0]
	}
	return sorted[k] + (h-float64(k))*(sorted[k+1]-sorted[k])
}

// CallPathStats is the spread of one call path's values across locations.
type CallPathStats struct {
	Cnode int
	Summary
}

// Statistics returns, for each listed cnode (all cnodes in depth-first
// order when cnodes is nil), the summary of the metric's values across
// all locations: each cnode's own values, or with inclusive its whole
// subtree's. ArgMin and ArgMax are data columns (see LocationName). A
// derived metric's values are its formula at each location; locations
// where it is undefined (a division by zero) are left out of the count.
//
// The metric's rows are read one call path at a time (see callRows): the
// memory needed grows with the depth of the call tree times the number of
// locations, whatever the size of the metric.
func Statistics(e *model.Experiment, metric string, cnodes []int, inclusive bool) ([]CallPathStats, error) {
	m, err := MetricIndex(e, metric)
	if err != nil {
		return nil, err
	}
	xb := &exprBuilder{e: e, lookup: e.MetricByName}
	expr, missing, err := xb.metric(m, 0)
	if err != nil {
		return nil, err
	}
	if missing != "" {
		return nil, fmt.Errorf("%s: metric %q: %s", e.Source, metric, missing)
	}
	if cnodes == nil {
		cnodes = e.CnodeOrder()
	}
	wanted := make([]bool, len(e.Cnodes))
	for _, c := range cnodes {
		wanted[c] = true
	}
	sums := make([]Summary, len(e.Cnodes))
	nl := e.NumLocations()
	err = callRows(e, xb.inputs, inclusive, func(c int, rows [][]float64) error {
		if !wanted[c] {
			return nil
		}
		vals, err := expr.eval(nl, func(i int) []float64 { return rows[i] })
		if err != nil {
			return err
		}
		sums[c] = Summarize(vals)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: metric %q: %w", e.Source, metric, err)
	}
	out := make([]CallPathStats, 0, len(cnodes))
	for _, c := range cnodes {
		out = append(out, CallPathStats{Cnode: c, Summary: sums[c]})
	}
	return out, nil
}

// MetricIndex returns the index of the metric named uniq, or an error
// naming the experiment and listing its metrics; a metric without values
// is an error too.
func MetricIndex(e *model.Experiment, uniq string) (int, error) {
	m := e.MetricByName(uniq)
	if m < 0 {
		names := make([]string, 0, len(e.Metrics))
		for _, i := range e.MetricOrder() {
			names = append(names, e.Metrics[i].UniqName)
		}
		return -1, fmt.Errorf("%s has no metric %q (it has: %s)", e.Source, uniq, joinNames(names))
	}
	if r := e.Metrics[m].Unavailable; r != "" {
		return -1, fmt.Errorf("%s: metric %q has no values: %s", e.Source, uniq, r)
	}
	return m, nil
}

func joinNames(names []string) string {
	const most = 40
	s := ""
	for i, n := range names {
		if i == most {
			return s + fmt.Sprintf(", … %d more", len(names)-most)
		}
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// LocationName names data column l for people: its process (location
// group) and, unless every process has one thread, the thread, e.g.
// "MPI Rank 3" or "MPI Rank 3/Thread 1".
func LocationName(e *model.Experiment, l int) string {
	return SystemName(e, e.Locations[l], e.ThreadLevelHidden())
}

// SystemName names system node s: a location by its group and itself
// (only the group when hideThreads), any other node by its name.
func SystemName(e *model.Experiment, s int, hideThreads bool) string {
	n := &e.System[s]
	if n.Kind != model.Leaf || n.Parent < 0 || e.System[n.Parent].Kind != model.Group {
		return n.Name
	}
	if hideThreads {
		return e.System[n.Parent].Name
	}
	return e.System[n.Parent].Name + "/" + n.Name
}
