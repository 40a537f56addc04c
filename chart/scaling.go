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
	// Speedup (strong scaling) or ratio to the first run (weak scaling),
	// and parallel efficiency, one per trial; NaN where undefined.
	Speedup, Efficiency []float64
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
}

// ScalingChart draws speedup (or the weak-scaling ratio) and parallel
// efficiency per series against the ideal line, both on a log-2 x axis;
// speedup and ratio on a log-2 y axis too.
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
	yLabel, idealName := "speedup over the first run", "ideal (x / x₀)"
	ideal := func(x float64) float64 { return x / x0 }
	if s.Weak {
		yLabel, idealName = "ratio to the first run", "ideal (1)"
		ideal = func(float64) float64 { return 1 }
	}
	title := s.Title
	sp := newPlot(title+": "+yLabel, s.XLabel+" (log₂)", yLabel+" (log₂)")
	ef := newPlot(title+": parallel efficiency", s.XLabel+" (log₂)", "parallel efficiency")
	for _, p := range []*plot.Plot{sp, ef} {
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
	sp.Y.Min, sp.Y.Max = ymin/1.15, ymax*1.15
	sp.Y.Tick.Marker = pow2Ticks{}
	ef.Y.Min, ef.Y.Max = 0, effMax*1.1
	// Efficiency starts at 1 at the top left: the legend goes below.
	ef.Legend.Top = false

	idealPts := plotter.XYs{}
	for _, x := range logRange(xmin, xmax, 50) {
		idealPts = append(idealPts, plotter.XY{X: x, Y: ideal(x)})
	}
	if err := addIdeal(sp, idealPts, idealName); err != nil {
		return nil, err
	}
	if err := addIdeal(ef, plotter.XYs{{X: xmin, Y: 1}, {X: xmax, Y: 1}}, "ideal (1)"); err != nil {
		return nil, err
	}
	for i, ser := range s.Series {
		name := shortLabel(ser.Name, 48)
		if err := addCurve(sp, s.X, ser.Speedup, name, i, true); err != nil {
			return nil, err
		}
		if err := addCurve(ef, s.X, ser.Efficiency, name, i, false); err != nil {
			return nil, err
		}
	}
	return &Chart{plots: []*plot.Plot{sp, ef}}, nil
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
