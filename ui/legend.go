package ui

import (
	"image/color"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/colormap"
	"cubeview/internal/elide"
	"cubeview/view"
)

// legend is the colour bar with the meaning of the colours and reliefs,
// drawn as the view describes them (view.Legend), and in a derived
// experiment the operands that the rows' badges name. It fits any width:
// the operands' line elides, then the swatches' meanings go from the
// right and the bar narrows, so that the legend never makes its window
// wider.
type legend struct {
	widget.BaseWidget
	scale    colormap.Scale
	bar      *canvas.Raster
	low      *widget.Label
	high     *widget.Label
	swatches []*swatch
	meanings []*widget.Label
	operands *elidedText
	entries  []view.LegendEntry
}

// Widths of the colour bar: as drawn when there is room, and the least.
const (
	legendBar    = 240
	legendBarMin = 60
)

func newLegend() *legend {
	l := &legend{scale: colormap.Default()}
	l.bar = canvas.NewRasterWithPixels(func(x, _, w, _ int) color.Color {
		if w <= 1 {
			return l.scale.LegendColor(0)
		}
		return l.scale.LegendColor(float64(x) / float64(w-1))
	})
	l.low, l.high = widget.NewLabel("0"), widget.NewLabel("max")
	l.operands = &elidedText{}
	l.operands.init(elide.Middle)
	l.operands.text.TextStyle.Bold = true
	l.operands.ExtendBaseWidget(l.operands)
	l.operands.Hide()
	for i := 0; i < 4; i++ {
		l.swatches = append(l.swatches, newSwatch())
		l.meanings = append(l.meanings, widget.NewLabel(""))
	}
	l.ExtendBaseWidget(l)
	return l
}

// set shows v's legend, laying it out again only when its texts changed
// (it is set after every selection).
func (l *legend) set(v *view.View) {
	low, high, entries := v.Appearance().Legend()
	operands := v.Markers().Legend()
	changed := low != l.low.Text || high != l.high.Text
	l.low.SetText(low)
	l.high.SetText(high)
	if s := v.Appearance().Scale(); s != l.scale {
		l.scale = s
		l.bar.Refresh()
	}
	if !slices.Equal(entries, l.entries) {
		changed = true
		l.entries = entries
		for i, s := range l.swatches {
			if i < len(entries) {
				s.set(entries[i].Color, entries[i].Relief)
				l.meanings[i].SetText(entries[i].Meaning)
			}
		}
	}
	if len(operands) > 0 {
		full := "badges: " + strings.Join(operands, " · ")
		if full != l.operands.Text() || !l.operands.Visible() {
			changed = true
			l.operands.SetText(full, "badges: "+strings.Join(v.Markers().ShortLegend(), " · "))
			l.operands.Show()
		}
	} else if l.operands.Visible() {
		changed = true
		l.operands.Hide()
	}
	if changed {
		l.Refresh()
	}
}

// Operands returns the line naming the badges' operands, "" when none.
func (l *legend) Operands() string {
	if !l.operands.Visible() {
		return ""
	}
	return l.operands.Text()
}

func (l *legend) CreateRenderer() fyne.WidgetRenderer { return &legendRenderer{l: l} }

type legendRenderer struct{ l *legend }

func (r *legendRenderer) Objects() []fyne.CanvasObject {
	l := r.l
	objs := []fyne.CanvasObject{l.low, l.bar, l.high, l.operands}
	for i := range l.swatches {
		objs = append(objs, l.swatches[i], l.meanings[i])
	}
	return objs
}

// MinSize is what the colour bar at its least width and its ends need.
func (r *legendRenderer) MinSize() fyne.Size {
	l := r.l
	return fyne.NewSize(l.low.MinSize().Width+legendBarMin+l.high.MinSize().Width, r.height())
}

func (r *legendRenderer) height() float32 {
	return max(r.l.low.MinSize().Height, swatchSize)
}

// Layout places, left to right, the bar with its ends, the operands'
// line and as many swatches with their meanings as fit. Where room is
// short the bar narrows down to its least first, then swatches go from
// the right until the operands' short line (what tells them apart) fits,
// then the operands' line elides.
func (r *legendRenderer) Layout(size fyne.Size) {
	l := r.l
	h := size.Height
	pad := theme.Size(theme.SizeNamePadding)
	lowW, highW := l.low.MinSize().Width, l.high.MinSize().Width
	entryW := make([]float32, len(l.swatches))
	var entries float32
	shown := 0
	for i, m := range l.meanings {
		if i >= len(l.entries) {
			break
		}
		entryW[i] = pad/2 + swatchSize + m.MinSize().Width
		entries += entryW[i]
		shown++
	}
	var opFull, opShort float32
	if l.operands.Visible() {
		opFull, opShort = l.operands.textWidth(l.operands.full)+4*pad, l.operands.textWidth(l.operands.alt)+4*pad
	}
	fixed := lowW + highW
	for shown > 0 && fixed+legendBarMin+opShort+entries > size.Width {
		shown--
		entries -= entryW[shown]
	}
	bar := min(float32(legendBar), max(size.Width-fixed-entries-opShort, legendBarMin))
	x := float32(0)
	place := func(o fyne.CanvasObject, w, oh float32) {
		o.Move(fyne.NewPos(x, (h-oh)/2))
		o.Resize(fyne.NewSize(w, oh))
		x += w
	}
	place(l.low, lowW, l.low.MinSize().Height)
	place(l.bar, bar, swatchSize)
	place(l.high, highW, l.high.MinSize().Height)
	if l.operands.Visible() {
		room := size.Width - x - entries
		if room > 4*pad {
			place(l.operands, min(room, opFull), l.operands.MinSize().Height)
		} else {
			l.operands.Resize(fyne.NewSize(0, 0))
		}
	}
	x = size.Width - entries
	for i := range l.swatches {
		s, m := l.swatches[i], l.meanings[i]
		if i >= shown {
			s.Hide()
			m.Hide()
			continue
		}
		s.Show()
		m.Show()
		x += pad / 2
		place(s, swatchSize, swatchSize)
		place(m, m.MinSize().Width, m.MinSize().Height)
	}
}

func (r *legendRenderer) Refresh() {
	r.Layout(r.l.Size())
	for _, o := range r.Objects() {
		if o != r.l.bar { // redrawn by set when the scale changes
			o.Refresh()
		}
	}
}

func (r *legendRenderer) Destroy() {}
