package chart

import (
	"image/color"

	"gonum.org/v1/plot"
)

// inkable is a plotter that draws in the chart's ink: text and lines
// that lie on the background.
type inkable interface{ setInk(c color.Color) }

// SetDark draws c for a window of a dark theme: on paper (the window's
// background) with light text, axes, grid and whiskers, instead of
// black on white, which glares in a dark window.
func (c *Chart) SetDark(paper color.Color) {
	ink := color.Gray{Y: 230}
	c.ink, c.paper = ink, paper
	for _, p := range append([]*plot.Plot{c.top}, c.plots...) {
		if p == nil {
			continue
		}
		p.BackgroundColor = paper
		p.Title.TextStyle.Color = ink
		p.Legend.TextStyle.Color = ink
		for _, ax := range []*plot.Axis{&p.X, &p.Y} {
			ax.Color = ink
			ax.LineStyle.Color = ink
			ax.Label.TextStyle.Color = ink
			ax.Tick.Label.Color = ink
			ax.Tick.LineStyle.Color = ink
		}
	}
	for _, g := range c.grids {
		g.Horizontal.Color = color.Gray{Y: 80}
		g.Vertical.Color = color.Gray{Y: 80}
	}
	for _, x := range c.inked {
		x.setInk(ink)
	}
}

// background returns the colour of c's paper.
func (c *Chart) background() color.Color {
	if c.paper == nil {
		return color.White
	}
	return c.paper
}

// inkOr returns ink, or black when nil.
func inkOr(ink color.Color) color.Color {
	if ink == nil {
		return color.Black
	}
	return ink
}
