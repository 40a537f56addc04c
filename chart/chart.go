package chart

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"cubeview/internal/atomicfile"
)

// DPI is the resolution at which pixel sizes are turned into lengths: at
// 96 dots per inch a 12-point label is 16 pixels high.
const DPI = 96

// Default image size in pixels.
const (
	DefaultWidth  = 1200
	DefaultHeight = 800
)

// Chart is one figure: one or more plots side by side, below a plot
// across the whole width when top is set.
type Chart struct {
	top   *plot.Plot
	plots []*plot.Plot
	// ink and paper are the colours of text and lines and of the
	// background (nil: black on white); grids and inked are the parts
	// drawn in colours of their own that SetDark changes too.
	ink, paper color.Color
	grids      []*plotter.Grid
	inked      []inkable
}

// Write renders c as format ("png" or "svg") of width × height pixels.
func (c *Chart) Write(w io.Writer, format string, width, height int) error {
	if width < 100 || height < 100 || width > 20000 || height > 20000 {
		return fmt.Errorf("image size %d×%d: want 100 to 20000 pixels each way", width, height)
	}
	wl, hl := pixels(width), pixels(height)
	switch strings.ToLower(format) {
	case "png":
		cv := vgimg.NewWith(vgimg.UseWH(wl, hl), vgimg.UseDPI(DPI))
		c.draw(draw.New(cv))
		_, err := vgimg.PngCanvas{Canvas: cv}.WriteTo(w)
		return err
	case "svg":
		cv := vgsvg.New(wl, hl)
		c.draw(draw.New(cv))
		_, err := cv.WriteTo(w)
		return err
	}
	return fmt.Errorf("image format %q: want png or svg", format)
}

// Save writes c to path, PNG or SVG by the extension, under a temporary
// name renamed when complete.
func (c *Chart) Save(path string, width, height int) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	err = atomicfile.Write(path, func(w io.Writer) error { return c.Write(w, format, width, height) })
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// FormatOf returns "png" or "svg" for a file name, or an error.
func FormatOf(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return "png", nil
	case ".svg":
		return "svg", nil
	}
	return "", fmt.Errorf("%s: the image name must end in .png or .svg", path)
}

func pixels(n int) vg.Length { return vg.Length(n) * vg.Inch / DPI }

func (c *Chart) draw(dc draw.Canvas) {
	dc.SetColor(c.background())
	dc.Fill(dc.Rectangle.Path())
	// A margin all round; the left one also keeps long axis labels inside.
	dc = draw.Crop(dc, vg.Millimeter*8, -vg.Millimeter*4, vg.Millimeter*2, -vg.Millimeter*2)
	if c.top != nil {
		h := dc.Max.Y - dc.Min.Y
		if len(c.plots) == 0 {
			c.top.Draw(dc)
			return
		}
		c.top.Draw(draw.Crop(dc, 0, 0, h*0.5+vg.Millimeter*3, 0))
		dc = draw.Crop(dc, 0, 0, 0, -(h*0.5 + vg.Millimeter*3))
	}
	if len(c.plots) == 1 {
		c.plots[0].Draw(dc)
		return
	}
	tiles := draw.Tiles{Rows: 1, Cols: len(c.plots), PadX: vg.Millimeter * 10}
	row := [][]*plot.Plot{c.plots}
	canvases := plot.Align(row, tiles, dc)
	for i, p := range c.plots {
		p.Draw(canvases[0][i])
	}
}

// newPlot returns a plot with readable type sizes and a light grid.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(15)
	p.Title.Padding = vg.Points(8)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font.Size = vg.Points(12)
		ax.Tick.Label.Font.Size = vg.Points(10)
		ax.Padding = vg.Points(4)
	}
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.Padding = vg.Points(2)
	return p
}

// addGrid draws light lines at the major ticks.
func addGrid(p *plot.Plot, vertical bool) *plotter.Grid {
	g := plotter.NewGrid()
	g.Horizontal.Color = color.Gray{Y: 220}
	g.Vertical.Color = color.Gray{Y: 220}
	if !vertical {
		g.Vertical.Width = 0
	}
	p.Add(g)
	return g
}

// pow2Ticks marks powers of two (and, when few fall in the range, the data
// values) on a logarithmic axis, labelled as plain numbers.
type pow2Ticks struct {
	data []float64
}

func (t pow2Ticks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	seen := map[float64]bool{}
	add := func(v float64, label bool) {
		if seen[v] || v < lo*(1-1e-9) || v > hi*(1+1e-9) {
			return
		}
		seen[v] = true
		tk := plot.Tick{Value: v}
		if label {
			tk.Label = formatTick(v)
		}
		ticks = append(ticks, tk)
	}
	n := 0
	for e := math.Floor(math.Log2(lo)); e <= math.Ceil(math.Log2(hi)); e++ {
		if v := math.Exp2(e); v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
			n++
		}
	}
	step := 1.0
	for n/int(step) > 10 {
		step *= 2
	}
	for e := math.Floor(math.Log2(lo)); e <= math.Ceil(math.Log2(hi)); e += step {
		add(math.Exp2(e), true)
	}
	if n < 4 {
		for _, v := range t.data {
			add(v, true)
		}
		for e := math.Floor(math.Log2(lo)); e <= math.Ceil(math.Log2(hi)); e++ {
			add(1.5*math.Exp2(e), true)
		}
	}
	return ticks
}

// formatTick renders a tick value briefly.
func formatTick(v float64) string {
	switch {
	case v == math.Trunc(v) && math.Abs(v) < 1e6:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 0.01 && math.Abs(v) < 1e6:
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(v, 'g', 2, 64)
}

// shortLabel keeps the end of a long call path readable on an axis.
func shortLabel(s string, most int) string {
	r := []rune(s)
	if len(r) <= most {
		return s
	}
	// Three dots rather than an ellipsis: the plot font measures every
	// character it draws.
	return "..." + string(r[len(r)-most+3:])
}

// color returns the i-th colour of a palette that stays apart on screen.
func seriesColor(i int) color.Color { return plotutil.Color(i) }

// defaultFont is the family every plot uses.
var defaultFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

func init() {
	plot.DefaultFont = defaultFont
}

func formatG(v float64, digits int) string {
	if v == 0 {
		return "0"
	}
	return strconv.FormatFloat(v, 'g', digits, 64)
}
