package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/colormap"
	"cubeview/internal/elide"
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

// rowView is the content of one tree row: colour square, the value
// right-aligned in its pane's value column, a badge naming the operands
// of a derived experiment that had the row (when not all did), and the
// label, elided in the middle when the pane is too narrow (the status
// line and the hover hint show it whole). Hovering a row reports it, so
// that the window can show the row's description (Fyne has no tooltips).
type rowView struct {
	widget.BaseWidget
	row     view.Row
	hovered bool
	onHover func(n view.Node, in bool)
	onMenu  func(n view.Node, at fyne.Position)
	onTap   func(n view.Node)
	// valueWidth is the width of the pane's value column, digitWidth of
	// one character of it.
	valueWidth, digitWidth float32

	bg       *canvas.Rectangle
	sw       *swatch
	value    *canvas.Text
	badgeBg  *canvas.Rectangle
	badge    *canvas.Text
	label    *canvas.Text
	labelFor string  // the label text was elided for this text …
	labelAt  float32 // … and this width

	// With metric columns (view.Row.Columns), the value and the columns'
	// values stand at the row's right edge in columns of colWidths.
	colWidths []float32
	cols      []*canvas.Text
}

func newRowView() *rowView {
	r := &rowView{
		bg: canvas.NewRectangle(color.Transparent),
		sw: newSwatch(),
		// Template texts give the tree its row height before data arrive.
		value:   canvas.NewText("0.00", theme.Color(theme.ColorNameForeground)),
		badgeBg: canvas.NewRectangle(badgeColor),
		badge:   canvas.NewText("", color.Black),
		label:   canvas.NewText("Label", theme.Color(theme.ColorNameForeground)),
	}
	r.value.TextStyle = fyne.TextStyle{Monospace: true}
	r.value.Alignment = fyne.TextAlignTrailing
	r.badge.TextStyle = fyne.TextStyle{Bold: true}
	r.badge.TextSize = theme.Size(theme.SizeNameCaptionText)
	r.badgeBg.CornerRadius = 3
	r.ExtendBaseWidget(r)
	return r
}

// badgeColor is the background of operand badges: light in any theme,
// with dark text.
var badgeColor = color.NRGBA{R: 205, G: 215, B: 235, A: 255}

// set shows row data in a value column of width valueWidth, whose
// characters are digitWidth wide.
func (r *rowView) set(row view.Row, valueWidth, digitWidth float32) {
	r.row = row
	r.valueWidth, r.digitWidth = valueWidth, digitWidth
	r.sw.set(row.Color, row.Relief)
	r.value.Text = row.Text
	r.label.Text = row.Label
	r.labelFor = ""
	r.badge.Text = row.Marker
	r.setColumns(row)
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

const (
	rowGap   = 6
	badgePad = 3
	// minLabel is the least width a label keeps in a narrow pane.
	minLabel = 48
)

func (rr *rowRenderer) Layout(size fyne.Size) {
	r := rr.r
	r.bg.Move(fyne.NewPos(-2, 0))
	r.bg.Resize(fyne.NewSize(size.Width+2, size.Height))
	r.sw.Move(fyne.NewPos(0, 0))
	r.sw.Resize(fyne.NewSize(swatchSize, size.Height))
	x := float32(swatchSize + rowGap)
	if r.columnsShown() {
		rr.layoutColumns(size, x)
		return
	}
	vs := r.value.MinSize()
	w := max(r.valueWidth, vs.Width)
	pad := min(float32(r.row.Pad)*r.digitWidth, w-vs.Width) // decimal points align
	r.value.Move(fyne.NewPos(x, (size.Height-vs.Height)/2))
	r.value.Resize(fyne.NewSize(w-max(pad, 0), vs.Height))
	x += w + rowGap
	if r.badge.Text != "" {
		bs := r.badge.MinSize()
		r.badgeBg.Move(fyne.NewPos(x, (size.Height-bs.Height)/2))
		r.badgeBg.Resize(fyne.NewSize(bs.Width+2*badgePad, bs.Height))
		r.badge.Move(fyne.NewPos(x+badgePad, (size.Height-bs.Height)/2))
		r.badge.Resize(bs)
		r.badgeBg.Show()
		x += bs.Width + 2*badgePad + rowGap
	} else {
		r.badgeBg.Hide()
	}
	avail := max(size.Width-x, minLabel)
	if r.labelFor != r.row.Label || r.labelAt != avail {
		size, style := r.label.TextSize, r.label.TextStyle
		r.label.Text = elide.Middle(r.row.Label, func(s string) bool { return fyne.MeasureText(s, size, style).Width <= avail })
		r.labelFor, r.labelAt = r.row.Label, avail
	}
	ls := r.label.MinSize()
	r.label.Move(fyne.NewPos(x, (size.Height-ls.Height)/2))
	r.label.Resize(ls)
}

func (rr *rowRenderer) MinSize() fyne.Size {
	r := rr.r
	vs := r.value.MinSize()
	w := float32(swatchSize+rowGap) + max(r.valueWidth, vs.Width) + rowGap + minLabel
	if r.columnsShown() {
		w = float32(swatchSize+rowGap) + minLabel + r.columnsWidth()
	}
	if r.badge.Text != "" {
		w += r.badge.MinSize().Width + 2*badgePad + rowGap
	}
	h := max(float32(swatchSize), vs.Height, r.label.MinSize().Height)
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
	for _, c := range r.cols {
		c.Color = r.value.Color
	}
	r.bg.FillColor = r.background()
	rr.Layout(r.Size())
	for _, o := range rr.Objects() {
		canvas.Refresh(o)
	}
}

func (rr *rowRenderer) Objects() []fyne.CanvasObject {
	r := rr.r
	objs := []fyne.CanvasObject{r.bg, r.sw, r.value, r.badgeBg, r.badge, r.label}
	for _, c := range r.cols {
		objs = append(objs, c)
	}
	return objs
}

func (rr *rowRenderer) Destroy() {}
