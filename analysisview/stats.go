package analysisview

import (
	"cmp"
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"

	"cubeview/analysis"
	"cubeview/chart"
	"cubeview/model"
	"cubeview/numfmt"
	"cubeview/view"
)

// statsRequest is what the statistics panel shows, taken from a view on
// its goroutine so that compute can run on another: the selected metric
// and call selection, and their values per location.
type statsRequest struct {
	Exp *model.Experiment
	// Metric and MetricIncl are the metric selection (exclusive when the
	// metric is expanded in its pane).
	Metric     int
	MetricIncl bool
	// Call names the call selection ("main/foo", "region foo"); Values
	// are its values per location (data-column order), as the system
	// pane's leaves show them.
	Call   string
	Values []float64
	paper  color.Color // the plots' background in a dark window; nil: white
	// CallIncl says whether the call selection includes its callees.
	CallIncl bool
	// Top is the number of call paths in the per-metric box plot; 0
	// leaves it out.
	Top    int
	Format numfmt.Format
}

// statsKey identifies what a statsRequest depends on, so that a panel
// recomputes only when it changes.
type statsKey struct {
	Exp        *model.Experiment
	Metric     int
	MetricIncl bool
	Call       view.Node
	CallIncl   bool
}

// statsKeyOf returns the key of the request statsRequestOf would return
// now for v.
func statsKeyOf(v *view.View) statsKey {
	s := v.Selection()
	return statsKey{Exp: v.Experiment(), Metric: s.Metric.Metric, MetricIncl: s.Metric.Inclusive, Call: s.Call, CallIncl: s.CallIncl}
}

// statsRequestOf returns the statistics of the current selection of v
// to compute; v must be up to date (Update).
func statsRequestOf(v *view.View, top int) (statsRequest, error) {
	s, e := v.Selection(), v.Experiment()
	ms := s.Metric
	if !s.HasMetric {
		return statsRequest{}, errors.New("statistics: select a metric")
	}
	if r := e.Metrics[ms.Metric].Unavailable; r != "" {
		return statsRequest{}, fmt.Errorf("statistics: metric %s has no values: %s", v.Label(view.Node{Kind: view.MetricNode, Index: ms.Metric}), r)
	}
	if !s.Call.Valid() || s.Locations == nil {
		return statsRequest{}, errors.New("statistics: select a call path")
	}
	return statsRequest{
		Exp: e, Metric: ms.Metric, MetricIncl: ms.Inclusive,
		Call: s.CallName, Values: slices.Clone(s.Locations), CallIncl: s.CallIncl,
		Top: top, Format: v.Appearance().NumberFormat(),
	}, nil
}

// StatLine is one number of the statistics table.
type StatLine struct {
	Name, Value string
}

// StatsReport is what the statistics panel shows: the numbers and box of
// the call selection's values across locations, and the boxes of the top
// call paths of the metric.
type StatsReport struct {
	Title   string // metric, call selection and what the values are
	Summary analysis.Summary
	Lines   []StatLine
	Box     chart.Box
	// TopTitle and Top describe the per-metric plot: the call paths with
	// the largest exclusive sums, largest first.
	TopTitle string
	Top      []analysis.CallPathStats
	TopBoxes []chart.Box
	// ValueLabel labels the value axes: metric and unit.
	ValueLabel string
}

// compute summarizes the request's values and the metric's top call
// paths (analysis.Statistics, each call path's own values). It may take
// long on a large experiment: call it off the UI goroutine.
func (r statsRequest) compute() (*StatsReport, error) {
	e := r.Exp
	m := &e.Metrics[r.Metric]
	s := analysis.Summarize(r.Values)
	rep := &StatsReport{Summary: s, ValueLabel: valueLabel(m)}
	what := "inclusive"
	if !r.CallIncl {
		what = "exclusive"
	}
	metric := metricName(m)
	if !r.MetricIncl {
		metric += " without its child metrics"
	}
	rep.Title = fmt.Sprintf("%s of %s (%s) across %d locations", metric, r.Call, what, len(r.Values))
	integer := m.IsInteger()
	num := func(x float64, integer bool) string {
		t := r.Format.Format(x, integer)
		if m.Unit != "" {
			t += " " + m.Unit
		}
		return t
	}
	where := func(l int) string {
		if l < 0 {
			return ""
		}
		return " at " + analysis.LocationName(e, l)
	}
	rep.Lines = []StatLine{
		{"Count", fmt.Sprint(s.Count)},
		{"Sum", num(s.Sum, integer)},
		{"Minimum", num(s.Min, integer) + where(s.ArgMin)},
		{"Maximum", num(s.Max, integer) + where(s.ArgMax)},
		{"Mean", num(s.Mean, false)},
		{"Median", num(s.Median, false)},
		{"Lower quartile", num(s.Q1, false)},
		{"Upper quartile", num(s.Q3, false)},
		{"Standard deviation", num(s.StdDev, false)},
	}
	if s.Count > 0 {
		rep.Box = boxOf(lastPart(r.Call), s) // the title names the whole path
	}
	if r.Top <= 0 {
		return rep, nil
	}
	stats, err := analysis.Statistics(e, m.UniqName, topCandidates(e, r.Metric, r.Top), false)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(stats, func(a, b analysis.CallPathStats) int { return cmp.Compare(math.Abs(b.Sum), math.Abs(a.Sum)) })
	n := min(r.Top, len(stats))
	for n > 0 && stats[n-1].Sum == 0 {
		n--
	}
	rep.Top = stats[:n]
	for _, st := range rep.Top {
		rep.TopBoxes = append(rep.TopBoxes, boxOf(e.CallPath(st.Cnode), st.Summary))
	}
	rep.TopTitle = fmt.Sprintf("%s: top %d call paths by own value across %d locations", metricName(m), n, e.NumLocations())
	return rep, nil
}

// topCandidates returns the call paths among which the top n by own sum
// across locations are: for a stored summed metric the call-tree
// exclusive values are those sums, so twice n of the largest (and some
// more, for sums that differ in the last bits) suffice; otherwise all
// (nil), each summarized.
func topCandidates(e *model.Experiment, m, n int) []int {
	met := &e.Metrics[m]
	if !met.HasStoredValues() || met.Aggregation != model.Sum {
		return nil
	}
	sums, err := e.CallTreeValues(model.MetricSel{Metric: m, Inclusive: true}, false)
	if err != nil {
		return nil // Statistics reports it
	}
	order := e.CnodeOrder()
	if k := 2*n + 10; k < len(order) {
		order = slices.Clone(order)
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(math.Abs(sums[b]), math.Abs(sums[a])) })
		order = order[:k]
	}
	return order
}

// lastPart returns the last region of a call path "a/b/c" (the text after
// the last "/" outside parentheses, which may hold C++ signatures).
func lastPart(path string) string {
	depth := 0
	for i := len(path) - 1; i >= 0; i-- {
		switch path[i] {
		case ')':
			depth++
		case '(':
			depth--
		case '/':
			if depth == 0 {
				return path[i+1:]
			}
		}
	}
	return path
}

func boxOf(label string, s analysis.Summary) chart.Box {
	return chart.Box{Label: label, Min: s.Min, Q1: s.Q1, Median: s.Median, Q3: s.Q3, Max: s.Max,
		Mean: s.Mean, LowWhisker: s.LowWhisker, HighWhisker: s.HighWhisker}
}

// valueLabel labels a value axis with the metric and its unit.
func valueLabel(m *model.Metric) string {
	name := m.DispName
	if name == "" {
		name = m.UniqName
	}
	if m.Unit != "" && m.Unit != "#" {
		return name + " (" + m.Unit + ")"
	}
	return name
}

// charts returns the box plot of the call selection and that of the top
// call paths (nil when there are none).
func (rep *StatsReport) charts() (selected, top *chart.Chart, err error) {
	if rep.Summary.Count > 0 {
		if selected, err = chart.BoxChart(rep.Box.Label, rep.ValueLabel, []chart.Box{rep.Box}); err != nil {
			return nil, nil, err
		}
	}
	if len(rep.TopBoxes) > 0 {
		if top, err = chart.BoxChart(rep.TopTitle, rep.ValueLabel, rep.TopBoxes); err != nil {
			return nil, nil, err
		}
	}
	return selected, top, nil
}
