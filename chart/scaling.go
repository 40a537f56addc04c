package chart

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ScalingSeries is one call path's curve across the trials.
type ScalingSeries struct {
	Name string
	// Callers is the number of callers whose curves equal this one's
	// and are drawn as it; the legend says so.
	Callers int
	// Speedup (strong scaling) or ratio to the first run (weak scaling),
	// and parallel efficiency, one per trial; NaN where undefined.
	Speedup, Efficiency []float64
	// Values are the compared values themselves, one per trial (nil:
	// not drawn); Model, when not nil, is their performance model, drawn
	// as a curve and named by ModelText in the legend.
	Values    []float64
	Model     func(x float64) float64
	ModelText string
}

// Scaling describes a scaling plot.
type Scaling struct {
	Title  string
	XLabel string    // what x is, e.g. "processes"
	X      []float64 // one per trial, ascending, > 0
	Series []ScalingSeries
	// Weak plots the ratio to the first run against the ideal 1 instead
	// of the speedup against the ideal x/x₀.
	Weak bool
	// ProcessX says x counts processes: only then is parallel efficiency
	// drawn.
	ProcessX bool
	// ValueLabel names the axis of the values ("time (sec), slowest
	// location"); PredictX, beyond the last x, extends the model curves.
	ValueLabel string
	PredictX   float64
}

// ScalingChart draws speedup (or the weak-scaling ratio) per series
// against the ideal line, and, when x is a process count, parallel
// efficiency, on a log-2 x axis; speedup and ratio on a log-2 y axis
// too. When a series has values, a plot across the top shows them
// (log-log) with their models' curves.
func ScalingChart(s Scaling) (*Chart, error) {
	if len(s.X) < 2 {
		return nil, errors.New("scaling chart: want at least 2 trials")
	}
	for _, x := range s.X {
		if !(x > 0) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("scaling chart: x = %v; want positive values", x)
		}
	}
	x0 := s.X[0]
	xmin, xmax := s.X[0], s.X[len(s.X)-1]
	kind := "strong scaling"
	yLabel, idealName := "speedup over the first run", "ideal (x / x₀)"
	ideal := func(x float64) float64 { return x / x0 }
	if s.Weak {
		kind = "weak scaling"
		yLabel, idealName = "ratio to the first run", "ideal (1)"
		ideal = func(float64) float64 { return 1 }
	}
	title := s.Title + ", " + kind
	sp := newPlot(title+": "+yLabel, s.XLabel+" (log₂)", yLabel+" (log₂)")
	plots := []*plot.Plot{sp}
	var ef *plot.Plot
	if s.ProcessX {
		ef = newPlot(title+": parallel efficiency", s.XLabel+" (log₂)", "parallel efficiency")
		plots = append(plots, ef)
	}
	for _, p := range plots {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = pow2Ticks{data: s.X}
		p.X.Min, p.X.Max = xmin, xmax
		addGrid(p, true)
	}
	sp.Y.Scale = plot.LogScale{}
	ymin, ymax := math.Min(1, ideal(xmax)), math.Max(1, ideal(xmax))
	effMax := 1.0
	for _, ser := range s.Series {
		for i, v := range ser.Speedup {
			if v > 0 && !math.IsInf(v, 0) && i < len(s.X) {
				ymin, ymax = math.Min(ymin, v), math.Max(ymax, v)
			}
		}
		for _, v := range ser.Efficiency {
			if v > 0 && !math.IsInf(v, 0) {
				effMax = math.Max(effMax, v)
			}
		}
	}
	// Room above the data for the legend, one line per entry.
	share := legendShare(len(s.Series) + 1)
	sp.Y.Min, sp.Y.Max = ymin/1.15, ymax*1.15
	sp.Y.Max = sp.Y.Min * math.Pow(sp.Y.Max/sp.Y.Min, 1/share)
	sp.Y.Tick.Marker = pow2Ticks{}

	idealPts := plotter.XYs{}
	for _, x := range logRange(xmin, xmax, 50) {
		idealPts = append(idealPts, plotter.XY{X: x, Y: ideal(x)})
	}
	if err := addIdeal(sp, idealPts, idealName); err != nil {
		return nil, err
	}
	if ef != nil {
		ef.Y.Min, ef.Y.Max = 0, effMax*1.05/share
		if err := addIdeal(ef, plotter.XYs{{X: xmin, Y: 1}, {X: xmax, Y: 1}}, "ideal (1)"); err != nil {
			return nil, err
		}
	}
	for i, ser := range s.Series {
		name := ser.label(48)
		if err := addCurve(sp, s.X, ser.Speedup, name, i, true); err != nil {
			return nil, err
		}
		if ef != nil {
			if err := addCurve(ef, s.X, ser.Efficiency, name, i, false); err != nil {
				return nil, err
			}
		}
	}
	top, err := valuesPlot(s, title)
	if err != nil {
		return nil, err
	}
	return &Chart{top: top, plots: plots}, nil
}

// valuesPlot draws the series' values as points and their models as
// curves on log-log axes; nil when no series has values.
func valuesPlot(s Scaling, title string) (*plot.Plot, error) {
	xmin, xmax := s.X[0], s.X[len(s.X)-1]
	if s.PredictX > xmax {
		xmax = s.PredictX
	}
	ylo, yhi := math.Inf(1), math.Inf(-1)
	curves := make([]plotter.XYs, len(s.Series))
	for i, ser := range s.Series {
		for k, v := range ser.Values {
			if v > 0 && k < len(s.X) {
				ylo, yhi = math.Min(ylo, v), math.Max(yhi, v)
			}
		}
		if ser.Model == nil {
			continue
		}
		for _, x := range logRange(xmin, xmax, 80) {
			if y := ser.Model(x); y > 0 && !math.IsInf(y, 0) {
				curves[i] = append(curves[i], plotter.XY{X: x, Y: y})
				ylo, yhi = math.Min(ylo, y), math.Max(yhi, y)
			}
		}
	}
	if math.IsInf(ylo, 1) {
		return nil, nil
	}
	// Room above the data for the legend, one line per entry.
	share := legendShare(len(s.Series) + 1)
	ylo, yhi = ylo/1.3, yhi*1.3
	yhi = ylo * math.Pow(yhi/ylo, 1/share)
	what := "values"
	if s.ValueLabel != "" {
		what = s.ValueLabel
	}
	p := newPlot(title+": measured (points) and models (lines)", s.XLabel+" (log₂)", what+" (log)")
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker = pow2Ticks{data: s.X}
	p.Y.Tick.Marker = plot.LogTicks{Prec: 3}
	p.X.Min, p.X.Max = xmin, xmax
	p.Y.Min, p.Y.Max = ylo, yhi
	addGrid(p, true)
	if s.PredictX > s.X[len(s.X)-1] {
		mark, err := plotter.NewLine(plotter.XYs{{X: s.PredictX, Y: p.Y.Min}, {X: s.PredictX, Y: p.Y.Max}})
		if err != nil {
			return nil, err
		}
		mark.Color, mark.Dashes = color.Gray{Y: 120}, []vg.Length{vg.Points(2), vg.Points(3)}
		p.Add(mark)
		p.Legend.Add(fmt.Sprintf("predicted at %s", formatTick(s.PredictX)), mark)
	}
	for i, ser := range s.Series {
		c := seriesColor(i)
		var pts plotter.XYs
		for k, v := range ser.Values {
			if v > 0 && k < len(s.X) {
				pts = append(pts, plotter.XY{X: s.X[k], Y: v})
			}
		}
		label := ser.label(48)
		if ser.ModelText != "" {
			label += ": " + ser.ModelText
		}
		var thumbs []plot.Thumbnailer
		if len(pts) > 0 {
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, err
			}
			sc.Color, sc.Shape, sc.Radius = c, draw.CircleGlyph{}, vg.Points(3.5)
			p.Add(sc)
			thumbs = append(thumbs, sc)
		}
		if len(curves[i]) > 1 {
			l, err := plotter.NewLine(curves[i])
			if err != nil {
				return nil, err
			}
			l.Color, l.Width = c, vg.Points(1.8)
			p.Add(l)
			thumbs = append(thumbs, l)
		}
		if len(thumbs) > 0 {
			p.Legend.Add(label, thumbs...)
		}
	}
	return p, nil
}

// legendShare returns the share of a plot's height the data may take
// below a legend of n lines at the top.
func legendShare(n int) float64 { return math.Max(0.4, 1-0.075*float64(n)) }

// label returns the series' name for a legend, at most about most
// characters, with its folded callers.
func (ser ScalingSeries) label(most int) string {
	switch ser.Callers {
	case 0:
		return shortLabel(ser.Name, most)
	case 1:
		return shortLabel(ser.Name, most-18) + " (and its caller)"
	}
	return fmt.Sprintf("%s (and %d callers)", shortLabel(ser.Name, most-18), ser.Callers)
}

func logRange(lo, hi float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = lo * math.Pow(hi/lo, float64(i)/float64(n-1))
	}
	return out
}

func addIdeal(p *plot.Plot, pts plotter.XYs, name string) error {
	l, err := plotter.NewLine(pts)
	if err != nil {
		return err
	}
	l.Color = color.Black
	l.Width = vg.Points(1.5)
	l.Dashes = []vg.Length{vg.Points(6), vg.Points(4)}
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}

// addCurve adds one series' points (skipping undefined ones; on a log
// axis also those ≤ 0) as a line with markers.
func addCurve(p *plot.Plot, xs, ys []float64, name string, i int, logY bool) error {
	var pts plotter.XYs
	for k := range xs {
		if k >= len(ys) {
			break
		}
		y := ys[k]
		if math.IsNaN(y) || math.IsInf(y, 0) || logY && y <= 0 {
			continue
		}
		pts = append(pts, plotter.XY{X: xs[k], Y: y})
	}
	if len(pts) == 0 {
		return nil
	}
	l, s, err := plotter.NewLinePoints(pts)
	if err != nil {
		return err
	}
	c := seriesColor(i)
	l.Color, l.Width = c, vg.Points(2)
	s.Color, s.Shape, s.Radius = c, draw.CircleGlyph{}, vg.Points(3)
	p.Add(l, s)
	p.Legend.Add(name, l, s)
	return nil
}
