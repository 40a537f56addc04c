package view

import (
	"image/color"
	"math"

	"cubeview/colormap"
	"cubeview/numfmt"
)

// Appearance is how a window's values look: the number format of their
// text and the colour scale of their squares. It is the one place where
// a value becomes text, colour and relief, for the tree panes, the
// callers and callees and the source panel alike.
type Appearance struct {
	format numfmt.Format
	scale  colormap.Scale
}

func newAppearance() Appearance {
	return Appearance{format: numfmt.Grouped(), scale: colormap.Default()}
}

// NumberFormat returns the number format.
func (a *Appearance) NumberFormat() numfmt.Format { return a.format }

// SetNumberFormat sets the number format.
func (a *Appearance) SetNumberFormat(f numfmt.Format) { a.format = f }

// SetNumberStyle sets the number format to numfmt.Styles[i], keeping the
// decimals; an i out of range changes nothing.
func (a *Appearance) SetNumberStyle(i int) {
	if i < 0 || i >= len(numfmt.Styles) {
		return
	}
	f := numfmt.Styles[i].Format()
	f.Decimals = a.format.Decimals
	a.format = f
}

// SetDecimals sets the number of decimals shown.
func (a *Appearance) SetDecimals(n int) { a.format.Decimals = n }

// Scale returns the colour scale.
func (a *Appearance) Scale() colormap.Scale { return a.scale }

// SetScale sets the colour scale.
func (a *Appearance) SetScale(s colormap.Scale) { a.scale = s }

// SetDiverging switches diverging colours (blue below zero) on or off.
func (a *Appearance) SetDiverging(on bool) { a.scale.Diverging = on }

// Cell is how one value looks: its text, colour and relief.
type Cell struct {
	Text   string
	Color  color.NRGBA
	Relief colormap.Relief
}

// Cell returns how value x (NaN: undefined) looks with its text in format
// f (a column's) and the colour scale over range rng: values that print
// as zero are white and flat. With clamp, magnitudes beyond rng.Max take
// the end colour instead of the out-of-range one.
func (a *Appearance) Cell(f numfmt.Format, x float64, integer bool, rng colormap.Range, clamp bool) Cell {
	c := Cell{Text: f.Format(x, integer), Relief: colormap.ReliefOf(x, a.format.ZeroThreshold())}
	switch {
	case a.format.IsZero(x):
		c.Color = colormap.White
	case clamp && math.Abs(x) > rng.Max:
		c.Color = a.scale.Color(math.Copysign(rng.Max, x), rng)
	default:
		c.Color = a.scale.Color(x, rng)
	}
	return c
}

// LegendEntry is one swatch of the legend: how a kind of value looks in
// the panes and what it means.
type LegendEntry struct {
	Color   color.NRGBA
	Relief  colormap.Relief
	Meaning string
}

// Legend returns what the legend's colour part shows: the ends of the
// colour bar and a swatch for each kind of value exactly as the panes
// draw it (Markers.Legend names the operands).
func (a *Appearance) Legend() (low, high string, entries []LegendEntry) {
	low, high = "0", "max"
	if a.scale.Diverging {
		low, high = "−max", "+max"
	}
	unit := colormap.Range{Max: 1}
	entries = []LegendEntry{
		{colormap.White, colormap.Flat, "zero or undefined"},
		{colormap.Gray, colormap.Flat, "outside the range"},
		{a.scale.Color(1, unit), colormap.Raised, "positive (raised)"},
		{a.scale.Color(-1, unit), colormap.Sunken, "negative (sunken)"},
	}
	if !a.scale.Diverging {
		// One spectrum for both signs: only the relief tells them apart.
		entries[3].Meaning = "negative (sunken, coloured by size)"
	}
	return low, high, entries
}
