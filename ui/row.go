package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/colormap"
	"cubeview/view"
)

// Colours of the relief edges and of find marks.
var (
	reliefLight    = color.NRGBA{R: 250, G: 250, B: 250, A: 255}
	reliefDark     = color.NRGBA{R: 70, G: 70, B: 70, A: 255}
	reliefFlat     = color.NRGBA{R: 150, G: 150, B: 150, A: 255}
	findColor      = color.NRGBA{R: 255, G: 240, B: 60, A: 255}
	findBelowColor = color.NRGBA{R: 255, G: 250, B: 190, A: 255}
	findCurColor   = color.NRGBA{R: 255, G: 190, B: 40, A: 255}
)

const (
	swatchSize = 14 // side of the colour square
	reliefEdge = 2  // width of the raised or sunken edge
)

// swatch is a colour square whose relief shows the sign of its value: the
// light edge on top and left for raised (positive), at the bottom and
// right for sunken (negative), a thin uniform frame for flat.
type swatch struct {
	widget.BaseWidget
	fill   color.NRGBA
	relief colormap.Relief
}

func newSwatch() *swatch {
	s := &swatch{fill: colormap.White}
	s.ExtendBaseWidget(s)
	return s
}

func (s *swatch) set(fill color.NRGBA, r colormap.Relief) {
	if s.fill == fill && s.relief == r {
		return
	}
	s.fill, s.relief = fill, r
	s.Refresh()
}

func (s *swatch) MinSize() fyne.Size { return fyne.NewSize(swatchSize, swatchSize) }

func (s *swatch) CreateRenderer() fyne.WidgetRenderer {
	r := &swatchRenderer{s: s, body: canvas.NewRectangle(s.fill)}
	for i := range r.edges {
		r.edges[i] = canvas.NewRectangle(reliefFlat)
	}
	r.Refresh()
	return r
}

type swatchRenderer struct {
	s     *swatch
	body  *canvas.Rectangle
	edges [4]*canvas.Rectangle // top, left, bottom, right
}

func (r *swatchRenderer) Layout(size fyne.Size) {
	side := float32(swatchSize)
	y := (size.Height - side) / 2
	w := float32(reliefEdge)
	if r.s.relief == colormap.Flat {
		w = 1
	}
	r.body.Move(fyne.NewPos(0, y))
	r.body.Resize(fyne.NewSize(side, side))
	r.edges[0].Move(fyne.NewPos(0, y))
	r.edges[0].Resize(fyne.NewSize(side, w))
	r.edges[1].Move(fyne.NewPos(0, y))
	r.edges[1].Resize(fyne.NewSize(w, side))
	r.edges[2].Move(fyne.NewPos(0, y+side-w))
	r.edges[2].Resize(fyne.NewSize(side, w))
	r.edges[3].Move(fyne.NewPos(side-w, y))
	r.edges[3].Resize(fyne.NewSize(w, side))
}

func (r *swatchRenderer) MinSize() fyne.Size { return r.s.MinSize() }

func (r *swatchRenderer) Refresh() {
	r.body.FillColor = r.s.fill
	topLeft, bottomRight := reliefFlat, reliefFlat
	switch r.s.relief {
	case colormap.Raised:
		topLeft, bottomRight = reliefLight, reliefDark
	case colormap.Sunken:
		topLeft, bottomRight = reliefDark, reliefLight
	}
	r.edges[0].FillColor, r.edges[1].FillColor = topLeft, topLeft
	// Drawn last, the bottom and right edges overlap the corners.
	r.edges[2].FillColor, r.edges[3].FillColor = bottomRight, bottomRight
	r.Layout(r.s.Size())
	canvas.Refresh(r.body)
	for _, e := range r.edges {
		canvas.Refresh(e)
	}
}

func (r *swatchRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.body, r.edges[0], r.edges[1], r.edges[2], r.edges[3]}
}

func (r *swatchRenderer) Destroy() {}

// rowView is the content of one tree row: colour square, value, label and
// an optional provenance marker. Hovering a row reports it, so that the
// window can show the row's description in the status line (Fyne has no
// tooltips).
type rowView struct {
	widget.BaseWidget
	row     view.Row
	hovered bool
	onHover func(n view.Node, in bool)
	onMenu  func(n view.Node, at fyne.Position)
	onTap   func(n view.Node)

	bg     *canvas.Rectangle
	sw     *swatch
	value  *canvas.Text
	label  *canvas.Text
	marker *canvas.Text
}

func newRowView() *rowView {
	r := &rowView{
		bg: canvas.NewRectangle(color.Transparent),
		sw: newSwatch(),
		// Template texts give the tree its row height before data arrive.
		value:  canvas.NewText("0.00", theme.Color(theme.ColorNameForeground)),
		label:  canvas.NewText("Label", theme.Color(theme.ColorNameForeground)),
		marker: canvas.NewText("", theme.Color(theme.ColorNamePlaceHolder)),
	}
	r.value.TextStyle = fyne.TextStyle{Monospace: true}
	r.marker.TextStyle = fyne.TextStyle{Italic: true}
	r.ExtendBaseWidget(r)
	return r
}

// set shows row data.
func (r *rowView) set(row view.Row) {
	r.row = row
	r.sw.set(row.Color, row.Relief)
	r.value.Text = row.Text
	r.label.Text = row.Label
	r.marker.Text = ""
	if row.Marker != "" {
		r.marker.Text = "(" + row.Marker + ")"
	}
	r.Refresh()
}

func (r *rowView) background() color.Color {
	switch r.row.Find {
	case view.FoundCurrent:
		return findCurColor
	case view.Found:
		return findColor
	case view.FoundBelow:
		return findBelowColor
	}
	if r.hovered {
		return theme.Color(theme.ColorNameHover)
	}
	return color.Transparent
}

// MouseIn reports the hovered row.
func (r *rowView) MouseIn(*desktop.MouseEvent) {
	r.hovered = true
	r.Refresh()
	if r.onHover != nil && r.row.Node.Valid() {
		r.onHover(r.row.Node, true)
	}
}

// MouseMoved is part of desktop.Hoverable.
func (r *rowView) MouseMoved(*desktop.MouseEvent) {}

// MouseOut ends the hover.
func (r *rowView) MouseOut() {
	r.hovered = false
	r.Refresh()
	if r.onHover != nil && r.row.Node.Valid() {
		r.onHover(r.row.Node, false)
	}
}

// Tapped selects the row. The desktop driver delivers a click to the
// innermost object that handles either kind of tap, so a row that takes
// right clicks must take left clicks too, or the tree never sees them.
func (r *rowView) Tapped(*fyne.PointEvent) {
	if r.onTap != nil && r.row.Node.Valid() {
		r.onTap(r.row.Node)
	}
}

// TappedSecondary opens the row's context menu.
func (r *rowView) TappedSecondary(ev *fyne.PointEvent) {
	if r.onMenu != nil && r.row.Node.Valid() {
		r.onMenu(r.row.Node, ev.AbsolutePosition)
	}
}

func (r *rowView) CreateRenderer() fyne.WidgetRenderer {
	return &rowRenderer{r: r}
}

type rowRenderer struct{ r *rowView }

const rowGap = 6

func (rr *rowRenderer) Layout(size fyne.Size) {
	r := rr.r
	r.bg.Move(fyne.NewPos(-2, 0))
	r.bg.Resize(fyne.NewSize(size.Width+2, size.Height))
	r.sw.Move(fyne.NewPos(0, 0))
	r.sw.Resize(fyne.NewSize(swatchSize, size.Height))
	x := float32(swatchSize + rowGap)
	for _, t := range []*canvas.Text{r.value, r.label, r.marker} {
		ms := t.MinSize()
		t.Move(fyne.NewPos(x, (size.Height-ms.Height)/2))
		t.Resize(ms)
		if t.Text != "" {
			x += ms.Width + rowGap
		}
	}
}

func (rr *rowRenderer) MinSize() fyne.Size {
	r := rr.r
	w := float32(swatchSize + rowGap)
	h := float32(swatchSize)
	for _, t := range []*canvas.Text{r.value, r.label, r.marker} {
		ms := t.MinSize()
		if t.Text != "" {
			w += ms.Width + rowGap
		}
		h = max(h, ms.Height)
	}
	return fyne.NewSize(w, h+2)
}

func (rr *rowRenderer) Refresh() {
	r := rr.r
	fg := theme.Color(theme.ColorNameForeground)
	r.value.Color, r.label.Color = fg, fg
	if r.row.Find != view.NotFound {
		// Find marks are light; keep the text dark on them in any theme.
		r.value.Color, r.label.Color = color.Black, color.Black
	}
	r.marker.Color = theme.Color(theme.ColorNamePlaceHolder)
	r.bg.FillColor = r.background()
	rr.Layout(r.Size())
	canvas.Refresh(r.bg)
	canvas.Refresh(r.value)
	canvas.Refresh(r.label)
	canvas.Refresh(r.marker)
}

func (rr *rowRenderer) Objects() []fyne.CanvasObject {
	r := rr.r
	return []fyne.CanvasObject{r.bg, r.sw, r.value, r.label, r.marker}
}

func (rr *rowRenderer) Destroy() {}
