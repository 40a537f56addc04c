package chart

import (
	"errors"
	"image"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Locations is a value per location with the lines of its minimum, mean
// and maximum (ParaProf's bar chart of one function).
type Locations struct {
	Title, ValueLabel, LocationLabel string
	Values                           []float64
	Min, Mean, Max                   float64
	// Selected is the index of the bar drawn highlighted, or −1.
	Selected int
}

// LocationChart is a chart of one bar per location; after it is drawn
// (Image, Write), Hit tells which bar lies under a point of the image.
type LocationChart struct {
	*Chart
	bars   *locationBars
	height float64 // of the image last drawn, pixels
}

// NewLocationChart draws one vertical bar per location, in order, with
// horizontal lines at the minimum, mean and maximum.
func NewLocationChart(l Locations) (*LocationChart, error) {
	if len(l.Values) == 0 {
		return nil, errors.New("location chart: no locations")
	}
	p := newPlot(l.Title, l.LocationLabel, l.ValueLabel)
	p.Title.TextStyle.Font.Size = vg.Points(12)
	p.Legend.Top, p.Legend.Left = true, false
	addGrid(p, false)
	bars := &locationBars{values: l.Values, selected: l.Selected}
	p.Add(bars)
	for i, line := range []struct {
		name  string
		value float64
		dash  []vg.Length
	}{
		{"max " + formatValue(l.Max), l.Max, []vg.Length{vg.Points(6), vg.Points(3)}},
		{"mean " + formatValue(l.Mean), l.Mean, nil},
		{"min " + formatValue(l.Min), l.Min, []vg.Length{vg.Points(2), vg.Points(2)}},
	} {
		if math.IsNaN(line.value) || math.IsInf(line.value, 0) {
			continue
		}
		n := float64(len(l.Values))
		ln, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: line.value}, {X: n - 0.5, Y: line.value}})
		if err != nil {
			return nil, err
		}
		ln.Color = []color.Color{color.RGBA{R: 200, A: 255}, color.Black, color.RGBA{G: 140, B: 60, A: 255}}[i]
		ln.Width = vg.Points(1.5)
		ln.Dashes = line.dash
		p.Add(ln)
		p.Legend.Add(line.name, ln)
	}
	p.X.Min, p.X.Max = -0.5, float64(len(l.Values))-0.5
	p.X.Tick.Marker = locationTicks{}
	lo := math.Min(0, l.Min)
	p.Y.Min = lo
	if hi := math.Max(l.Max, 0); hi > lo {
		p.Y.Max = hi + (hi-lo)*0.3 // room for the legend above the bars
	}
	return &LocationChart{Chart: &Chart{plots: []*plot.Plot{p}}, bars: bars}, nil
}

// Image renders c as an image of width × height pixels, for a window to
// show; Hit then answers for it.
func (c *LocationChart) Image(width, height int) (image.Image, error) {
	c.height = float64(height)
	return c.Chart.Image(width, height)
}

// Hit returns the index of the bar whose column holds the point x, y
// (pixels from the top left) of the image last drawn by Image, or −1.
func (c *LocationChart) Hit(x, y float64) int {
	b := c.bars
	y = c.height - y // canvas coordinates
	if c.height == 0 || b.right <= b.left || y > b.top || y < b.bottom || x < b.left || x > b.right {
		return -1
	}
	i := int(math.Floor((x - b.left) / (b.right - b.left) * float64(len(b.values))))
	return min(max(i, 0), len(b.values)-1)
}

// BarCenter returns the point of the image last drawn by Image at the
// middle of bar i's column, halfway up the data area, in pixels from the
// top left: where Hit finds bar i.
func (c *LocationChart) BarCenter(i int) (x, y float64) {
	b := c.bars
	x = b.left + (float64(i)+0.5)*(b.right-b.left)/float64(len(b.values))
	return x, c.height - (b.top+b.bottom)/2
}

// locationBars draws the bars and remembers where, in pixels, the data
// area ended up.
type locationBars struct {
	values   []float64
	selected int
	// The data area of the last drawing, pixels from the top left.
	left, right, top, bottom float64
}

func (b *locationBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	for _, v := range b.values {
		if !math.IsNaN(v) {
			ymin, ymax = math.Min(ymin, v), math.Max(ymax, v)
		}
	}
	return -0.5, float64(len(b.values)) - 0.5, ymin, ymax
}

func (b *locationBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	px := func(l vg.Length) float64 { return float64(l) / float64(vg.Inch) * DPI }
	// Canvas coordinates run from the bottom left; Hit flips y.
	b.left, b.right = px(trX(-0.5)), px(trX(float64(len(b.values))-0.5))
	b.top, b.bottom = px(c.Max.Y), px(c.Min.Y)
	w := trX(1) - trX(0)
	gap := w * 0.15
	if w < vg.Points(3) {
		gap = 0
	}
	base := trY(0)
	for i, v := range b.values {
		if math.IsNaN(v) {
			continue
		}
		x0, x1 := trX(float64(i))-w/2+gap/2, trX(float64(i))+w/2-gap/2
		if x1-x0 < vg.Points(0.4) {
			x1 = x0 + vg.Points(0.4)
		}
		y := trY(v)
		rect := []vg.Point{{X: x0, Y: base}, {X: x1, Y: base}, {X: x1, Y: y}, {X: x0, Y: y}}
		col := seriesColor(0)
		if i == b.selected {
			col = color.RGBA{R: 230, G: 120, A: 255}
		}
		c.FillPolygon(col, c.ClipPolygonXY(rect))
	}
}

// locationTicks labels a few locations by index, from 0.
type locationTicks struct{}

func (locationTicks) Ticks(lo, hi float64) []plot.Tick {
	n := int(math.Round(hi - lo)) // the number of bars
	step := 1
	for k := 1; n/step > 10; k *= 10 {
		for _, m := range []int{1, 2, 5} {
			if step = m * k; n/step <= 10 {
				break
			}
		}
	}
	var out []plot.Tick
	for i := 0; i < n; i += step {
		out = append(out, plot.Tick{Value: float64(i), Label: strconv.Itoa(i)})
	}
	return out
}
