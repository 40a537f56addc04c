package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"cubeview/colormap"
)

// legend is the colour bar with the meaning of the colours and reliefs.
type legend struct {
	widget.BaseWidget
	scale   colormap.Scale
	bar     *canvas.Raster
	low     *widget.Label
	high    *widget.Label
	content fyne.CanvasObject
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
	raised, sunken := newSwatch(), newSwatch()
	raised.set(colormap.Red, colormap.Raised)
	sunken.set(colormap.Red, colormap.Sunken)
	zero := newSwatch()
	zero.set(colormap.White, colormap.Flat)
	gray := newSwatch()
	gray.set(colormap.Gray, colormap.Flat)
	text := func(s string) fyne.CanvasObject {
		t := widget.NewLabel(s)
		t.Importance = widget.LowImportance
		return t
	}
	l.content = container.NewHBox(
		l.low, container.NewCenter(l.bar), l.high,
		layout.NewSpacer(),
		container.NewCenter(zero), text("zero or undefined"),
		container.NewCenter(gray), text("outside the range"),
		container.NewCenter(raised), text("positive"),
		container.NewCenter(sunken), text("negative"),
	)
	l.ExtendBaseWidget(l)
	return l
}

func (l *legend) setScale(s colormap.Scale) {
	if s == l.scale {
		return
	}
	l.scale = s
	if s.Diverging {
		l.low.SetText("−max")
		l.high.SetText("+max")
	} else {
		l.low.SetText("0")
		l.high.SetText("max")
	}
	l.bar.Refresh()
}

func (l *legend) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(l.content)
}
