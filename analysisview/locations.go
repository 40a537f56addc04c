package analysisview

import (
	"errors"
	"fmt"
	"image"
	"slices"

	"cubeview/analysis"
	"cubeview/chart"
	"cubeview/model"
	"cubeview/numfmt"
	"cubeview/view"
)

// LocationChart is the per-location chart of the selected metric × call
// path (ParaProf's bar chart): one bar per location with the minimum,
// mean and maximum over the locations. LocationChartOf takes what it
// needs from a view on the view's goroutine; Draw may run on another.
type LocationChart struct {
	Key     LocationKey
	Title   string
	Values  []float64 // per location, data-column order
	Summary analysis.Summary
	exp     *model.Experiment
	label   string
	format  numfmt.Format
	integer bool
	unit    string
	// Selected is the location selected in the system pane, or −1.
	Selected int
}

// LocationKey identifies what a location chart shows, so that a panel
// draws again only when it changes.
type LocationKey struct {
	Exp        *model.Experiment
	Metric     int
	MetricIncl bool
	Call       view.Node
	CallIncl   bool
	Selected   int
}

// LocationChartOf returns the chart of v's current selection; v must be
// up to date (Update).
func LocationChartOf(v *view.View) (*LocationChart, error) {
	s, e := v.Selection(), v.Experiment()
	if !s.HasMetric {
		return nil, errors.New("select a metric")
	}
	if r := e.Metrics[s.Metric.Metric].Unavailable; r != "" {
		return nil, fmt.Errorf("metric %s has no values: %s", v.Label(view.Node{Kind: view.MetricNode, Index: s.Metric.Metric}), r)
	}
	if !s.Call.Valid() || s.Locations == nil {
		return nil, errors.New("select a call path")
	}
	c := &LocationChart{exp: e, Values: slices.Clone(s.Locations), Selected: selectedLocation(v)}
	c.Key = LocationKey{Exp: e, Metric: s.Metric.Metric, MetricIncl: s.Metric.Inclusive, Call: s.Call, CallIncl: s.CallIncl, Selected: c.Selected}
	c.Summary = analysis.Summarize(c.Values)
	m := &e.Metrics[s.Metric.Metric]
	c.label = valueLabel(m)
	c.format, c.integer, c.unit = v.Appearance().NumberFormat(), m.IsInteger(), m.Unit
	what := "inclusive"
	if !s.CallIncl {
		what = "exclusive"
	}
	metric := metricName(m)
	if !s.Metric.Inclusive {
		metric += " without its child metrics"
	}
	c.Title = fmt.Sprintf("%s of %s (%s) per location", metric, lastPart(s.CallName), what)
	return c, nil
}

// KeyOf returns the key of the chart LocationChartOf would return now.
func KeyOf(v *view.View) LocationKey {
	s := v.Selection()
	return LocationKey{Exp: v.Experiment(), Metric: s.Metric.Metric, MetricIncl: s.Metric.Inclusive, Call: s.Call, CallIncl: s.CallIncl, Selected: selectedLocation(v)}
}

// selectedLocation returns the location selected in v's system pane, or
// −1 when the selection is no single location.
func selectedLocation(v *view.View) int {
	n := v.Selected(view.SystemPane)
	if n.Kind != view.SystemNode {
		return -1
	}
	e := v.Experiment()
	if e.System[n.Index].Kind != model.Leaf {
		// With the thread level hidden a process row stands for its
		// only thread.
		kids := e.System[n.Index].Children
		if len(kids) != 1 || e.System[kids[0]].Kind != model.Leaf {
			return -1
		}
		n.Index = kids[0]
	}
	return slices.Index(e.Locations, n.Index)
}

// Draw renders the chart at width × height pixels; the returned chart's
// Hit tells which location lies under a point of the image.
func (c *LocationChart) Draw(width, height int) (*chart.LocationChart, image.Image, error) {
	lc, err := chart.NewLocationChart(chart.Locations{
		Title: c.Title, ValueLabel: c.label,
		LocationLabel: fmt.Sprintf("location (%d)", len(c.Values)),
		Values:        c.Values, Min: c.Summary.Min, Mean: c.Summary.Mean, Max: c.Summary.Max,
		Selected: c.Selected,
	})
	if err != nil {
		return nil, nil, err
	}
	img, err := lc.Image(width, height)
	if err != nil {
		return nil, nil, err
	}
	return lc, img, nil
}

// Location returns the system-pane row of location i (its process when
// the thread level is hidden).
func (c *LocationChart) Location(v *view.View, i int) view.Node {
	if i < 0 || i >= len(c.Values) {
		return view.Node{}
	}
	return v.Showing(view.Node{Kind: view.SystemNode, Index: c.exp.Locations[i]})
}

// Describe names location i and its value, for a hint.
func (c *LocationChart) Describe(i int) string {
	if i < 0 || i >= len(c.Values) {
		return ""
	}
	return fmt.Sprintf("location %d, %s: %s %s", i, analysis.LocationName(c.exp, i), c.format.Format(c.Values[i], c.integer), c.unit)
}

// SummaryText sums the chart up in a line: the number of locations and
// where the minimum and maximum are.
func (c *LocationChart) SummaryText() string {
	s := c.Summary
	if s.Count == 0 {
		return "no locations"
	}
	num := func(x float64, integer bool) string { return c.format.Format(x, integer) + " " + c.unit }
	return fmt.Sprintf("%d locations · min %s at %s · mean %s · max %s at %s", s.Count,
		num(s.Min, c.integer), analysis.LocationName(c.exp, s.ArgMin), num(s.Mean, false),
		num(s.Max, c.integer), analysis.LocationName(c.exp, s.ArgMax))
}

// Save writes the chart to path, PNG or SVG by its extension, at the
// chart package's default size.
func (c *LocationChart) Save(path string) error {
	lc, _, err := c.Draw(200, 200) // a drawing only to build the chart
	if err != nil {
		return err
	}
	return lc.Save(path, chart.DefaultWidth, chart.DefaultHeight/2)
}
