package ui

import (
	"image/color"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"cubeview/colormap"
	"cubeview/view"
)

// legend is the colour bar with the meaning of the colours and reliefs,
// drawn as the view describes them (view.Legend), and in a derived
// experiment the operands that the rows' badges name.
type legend struct {
	widget.BaseWidget
	scale    colormap.Scale
	bar      *canvas.Raster
	low      *widget.Label
	high     *widget.Label
	swatches []*swatch
	meanings []*widget.Label
	operands *widget.Label
	content  fyne.CanvasObject
	entries  []view.LegendEntry
}

func newLegend() *legend {
	l := &legend{scale: colormap.Default()}
	l.bar = canvas.NewRasterWithPixels(func(x, _, w, _ int) color.Color {
		if w <= 1 {
			return l.scale.LegendColor(0)
		}
		return l.scale.LegendColor(float64(x) / float64(w-1))
	})
	l.bar.SetMinSize(fyne.NewSize(240, 14))
	l.low, l.high = widget.NewLabel("0"), widget.NewLabel("max")
	l.operands = titleLabel("")
	l.operands.Hide()
	objs := []fyne.CanvasObject{l.low, container.NewCenter(l.bar), l.high, layout.NewSpacer(), l.operands}
	for i := 0; i < 4; i++ {
		s, t := newSwatch(), widget.NewLabel("")
		l.swatches, l.meanings = append(l.swatches, s), append(l.meanings, t)
		objs = append(objs, container.NewCenter(s), t)
	}
	l.content = container.NewHBox(objs...)
	l.ExtendBaseWidget(l)
	return l
}

// set shows v's legend.
func (l *legend) set(v *view.View) {
	low, high, entries := v.Appearance().Legend()
	operands := v.Markers().Legend()
	l.low.SetText(low)
	l.high.SetText(high)
	if s := v.Appearance().Scale(); s != l.scale {
		l.scale = s
		l.bar.Refresh()
	}
	if !slices.Equal(entries, l.entries) {
		l.entries = entries
		for i, s := range l.swatches {
			if i < len(entries) {
				s.set(entries[i].Color, entries[i].Relief)
				l.meanings[i].SetText(entries[i].Meaning)
			}
		}
	}
	if len(operands) > 0 {
		l.operands.SetText("badges: " + strings.Join(operands, " · "))
		l.operands.Show()
	} else {
		l.operands.Hide()
	}
}

func (l *legend) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(l.content)
}
