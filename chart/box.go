package chart

import (
	"errors"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Box is the spread of one call path's values across locations, as
// analysis.Summary computes it.
type Box struct {
	Label                    string
	Min, Q1, Median, Q3, Max float64
	Mean                     float64
	// LowWhisker and HighWhisker end the whiskers; values beyond them
	// (up to Min and Max) are drawn as outlier marks.
	LowWhisker, HighWhisker float64
}

// LogSpread is the ratio of the largest to the smallest median beyond
// which BoxChart draws a logarithmic axis: on a linear one the boxes of
// the small call paths would shrink to a line.
const LogSpread = 100

// BoxChart draws one horizontal box per entry, top to bottom in the
// given order: the box spans the quartiles, a bold line marks the median,
// a dashed one the mean, whiskers reach LowWhisker and HighWhisker, and
// rings mark Min and Max when they lie beyond the whiskers. When no
// value is negative and the medians span more than LogSpread, the axis
// is logarithmic and values at or below its left end (zeros) are drawn
// there.
func BoxChart(title, valueLabel string, boxes []Box) (*Chart, error) {
	if len(boxes) == 0 {
		return nil, errors.New("box chart: no boxes")
	}
	logLo, logHi, useLog := logRangeOf(boxes)
	if useLog {
		valueLabel += " (log scale; zeros at the left end)"
	}
	// The key goes on lines of its own: gonum narrows the data area to
	// the axis label's width, which one long line would squeeze.
	p := newPlot(title, valueLabel+"\nbox: quartiles, bold: median, dashed: mean\nwhiskers: 1.5 box lengths, rings: min/max beyond", "")
	grid := addGrid(p, true)
	names := make([]string, len(boxes))
	for i, b := range boxes {
		names[len(boxes)-1-i] = shortLabel(b.Label, 60)
	}
	bp := &boxPlotter{boxes: boxes}
	p.Add(bp)
	p.NominalY(names...)
	p.Y.Tick.Label.Font.Size = vg.Points(10)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, b := range boxes {
		lo, hi = math.Min(lo, b.Min), math.Max(hi, b.Max)
	}
	pad := (hi - lo) * 0.05
	if pad == 0 {
		pad = math.Max(math.Abs(hi)*0.05, 1)
	}
	p.X.Min, p.X.Max = lo-pad, hi+pad
	p.X.Tick.Marker = distinctTicks{}
	if useLog {
		bp.floor = logLo
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: 3}
		p.X.Min, p.X.Max = logLo, logHi
	}
	return &Chart{plots: []*plot.Plot{p}, grids: []*plotter.Grid{grid}, inked: []inkable{bp}}, nil
}

// logRangeOf decides whether boxes want a logarithmic axis and returns
// its range.
func logRangeOf(boxes []Box) (lo, hi float64, ok bool) {
	minMed, maxMed := math.Inf(1), 0.0
	minPos := math.Inf(1)
	for _, b := range boxes {
		if b.Min < 0 {
			return 0, 0, false
		}
		if b.Median > 0 {
			minMed, maxMed = math.Min(minMed, b.Median), math.Max(maxMed, b.Median)
		}
		for _, v := range []float64{b.Min, b.LowWhisker, b.Q1, b.Median, b.Q3} {
			if v > 0 {
				minPos = math.Min(minPos, v)
			}
		}
		hi = math.Max(hi, b.Max)
	}
	if maxMed == 0 || maxMed/minMed <= LogSpread {
		return 0, 0, false
	}
	// Far-off tiny values would squeeze the rest: the axis shows at most
	// eight decades below the largest value.
	lo = math.Max(minPos, hi*1e-8) / 1.5
	return lo, hi * 1.5, true
}

type boxPlotter struct {
	boxes []Box
	floor float64     // values below are drawn at it (a logarithmic axis); 0: none
	ink   color.Color // of the whiskers, edges and rings; nil: dark blue
}

func (bp *boxPlotter) setInk(c color.Color) { bp.ink = c }

func (bp *boxPlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	for _, b := range bp.boxes {
		xmin, xmax = math.Min(xmin, math.Max(b.Min, bp.floor)), math.Max(xmax, b.Max)
	}
	return xmin, xmax, -0.5, float64(len(bp.boxes)) - 0.5
}

func (bp *boxPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX0, trY := p.Transforms(&c)
	trX := func(x float64) vg.Length { return trX0(math.Max(x, bp.floor)) }
	n := len(bp.boxes)
	rowH := trY(1) - trY(0)
	half := rowH * 0.3
	fill := color.RGBA{R: 120, G: 160, B: 220, A: 255}
	edge := draw.LineStyle{Color: color.RGBA{R: 30, G: 50, B: 90, A: 255}, Width: vg.Points(1.2)}
	if bp.ink != nil {
		// Whiskers and rings lie on the background: drawn in the ink.
		edge.Color = bp.ink
	}
	median := draw.LineStyle{Color: color.Black, Width: vg.Points(3)} // inside the box, on its fill
	mean := draw.LineStyle{Color: color.RGBA{R: 200, G: 40, B: 40, A: 255}, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
	for i, b := range bp.boxes {
		y := trY(float64(n - 1 - i))
		x1, x3 := trX(b.Q1), trX(b.Q3)
		box := []vg.Point{{X: x1, Y: y - half}, {X: x3, Y: y - half}, {X: x3, Y: y + half}, {X: x1, Y: y + half}}
		c.FillPolygon(fill, c.ClipPolygonXY(box))
		c.StrokeLines(edge, c.ClipLinesXY(append(box, box[0]))...)
		c.StrokeLines(median, c.ClipLinesXY([]vg.Point{{X: trX(b.Median), Y: y - half}, {X: trX(b.Median), Y: y + half}})...)
		c.StrokeLines(mean, c.ClipLinesXY([]vg.Point{{X: trX(b.Mean), Y: y - half*1.2}, {X: trX(b.Mean), Y: y + half*1.2}})...)
		lw, hw := trX(b.LowWhisker), trX(b.HighWhisker)
		c.StrokeLines(edge, c.ClipLinesXY([]vg.Point{{X: lw, Y: y}, {X: x1, Y: y}}, []vg.Point{{X: x3, Y: y}, {X: hw, Y: y}},
			[]vg.Point{{X: lw, Y: y - half/2}, {X: lw, Y: y + half/2}}, []vg.Point{{X: hw, Y: y - half/2}, {X: hw, Y: y + half/2}})...)
		ring := draw.GlyphStyle{Color: edge.Color, Radius: vg.Points(3), Shape: draw.RingGlyph{}}
		if b.Min < b.LowWhisker {
			c.DrawGlyph(ring, vg.Point{X: trX(b.Min), Y: y})
		}
		if b.Max > b.HighWhisker {
			c.DrawGlyph(ring, vg.Point{X: trX(b.Max), Y: y})
		}
	}
}

// Bar is one bar of a bar chart.
type Bar struct {
	Label string
	Value float64
}

// BarChart draws one horizontal bar per entry, top to bottom in the
// given order, with its value at the end of the bar.
func BarChart(title, valueLabel string, bars []Bar) (*Chart, error) {
	if len(bars) == 0 {
		return nil, errors.New("bar chart: no bars")
	}
	p := newPlot(title, valueLabel, "")
	grid := addGrid(p, true)
	names := make([]string, len(bars))
	lo, hi := 0.0, 0.0
	for i, b := range bars {
		names[len(bars)-1-i] = shortLabel(b.Label, 60)
		lo, hi = math.Min(lo, b.Value), math.Max(hi, b.Value)
	}
	bp := &barPlotter{bars: bars}
	p.Add(bp)
	p.NominalY(names...)
	span := hi - lo
	if span == 0 {
		span = 1
	}
	p.X.Min, p.X.Max = lo-span*0.02*boolf(lo < 0), hi+span*0.18
	p.X.Tick.Marker = distinctTicks{}
	return &Chart{plots: []*plot.Plot{p}, grids: []*plotter.Grid{grid}, inked: []inkable{bp}}, nil
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

type barPlotter struct {
	bars []Bar
	ink  color.Color // of the values; nil: black
}

func (bp *barPlotter) setInk(c color.Color) { bp.ink = c }

func (bp *barPlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	for _, b := range bp.bars {
		xmin, xmax = math.Min(xmin, b.Value), math.Max(xmax, b.Value)
	}
	return xmin, xmax, -0.5, float64(len(bp.bars)) - 0.5
}

func (bp *barPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	n := len(bp.bars)
	half := (trY(1) - trY(0)) * 0.35
	label := draw.TextStyle{Color: inkOr(bp.ink), Font: p.Y.Tick.Label.Font, Handler: p.TextHandler, YAlign: draw.YCenter}
	label.Font.Size = vg.Points(10)
	for i, b := range bp.bars {
		y := trY(float64(n - 1 - i))
		x0, x1 := trX(0), trX(b.Value)
		rect := []vg.Point{{X: x0, Y: y - half}, {X: x1, Y: y - half}, {X: x1, Y: y + half}, {X: x0, Y: y + half}}
		c.FillPolygon(seriesColor(0), c.ClipPolygonXY(rect))
		txt := label
		txt.XAlign = draw.XLeft
		at := x1 + vg.Points(6)
		if b.Value < 0 {
			txt.XAlign = draw.XRight
			at = x1 - vg.Points(4)
		}
		c.FillText(txt, vg.Point{X: at, Y: y}, formatValue(b.Value))
	}
}

// formatValue renders a bar's value with 4 significant digits.
func formatValue(v float64) string {
	return formatG(v, 4)
}
