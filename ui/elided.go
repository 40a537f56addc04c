package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/internal/elide"
)

// elision is how a text too wide for its place is shortened:
// elide.Path keeps a path's leaf, elide.Middle both ends.
type elision func(s string, fits func(string) bool) string

var (
	_ elision = elide.Path
	_ elision = elide.Middle
)

// elidedText is one line of text shortened to its width as its elision
// says: a call path keeps its leaf, a name what tells it from its
// neighbours (alt, tried before eliding).
type elidedText struct {
	widget.BaseWidget
	full, alt string
	elide     elision
	text      *canvas.Text
	muted     bool // drawn dimmed (a difference that is not significant)

	laidFor, laidAlt string
	laidAt           float32
}

func (t *elidedText) init(elide elision) {
	t.elide = elide
	t.text = canvas.NewText("", theme.Color(theme.ColorNameForeground))
	t.text.TextSize = theme.Size(theme.SizeNameText)
}

// SetText shows s, or alt (when not "") where s does not fit.
func (t *elidedText) SetText(s, alt string) {
	if t.full == s && t.alt == alt {
		return
	}
	t.full, t.alt = s, alt
	t.Refresh()
}

// SetMuted draws the text dimmed, or in the text's colour again.
func (t *elidedText) SetMuted(muted bool) {
	if t.muted != muted {
		t.muted = muted
		t.Refresh()
	}
}

// Muted reports whether the text is drawn dimmed.
func (t *elidedText) Muted() bool { return t.muted }

// SetElision sets how the text is shortened.
func (t *elidedText) SetElision(e elision) { t.elide = e }

// Text returns the whole text.
func (t *elidedText) Text() string { return t.full }

// Shown returns the text as drawn.
func (t *elidedText) Shown() string { return t.text.Text }

func (t *elidedText) CreateRenderer() fyne.WidgetRenderer { return &elidedRenderer{t: t} }

type elidedRenderer struct{ t *elidedText }

func (r *elidedRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.t.text} }

func (r *elidedRenderer) MinSize() fyne.Size {
	pad := theme.Size(theme.SizeNameInnerPadding)
	h := fyne.MeasureText("M", r.t.text.TextSize, r.t.text.TextStyle).Height
	return fyne.NewSize(2*pad, h+2*pad)
}

func (r *elidedRenderer) Layout(size fyne.Size) {
	t := r.t
	pad := theme.Size(theme.SizeNameInnerPadding)
	avail := size.Width - 2*pad
	if t.laidFor != t.full || t.laidAlt != t.alt || t.laidAt != avail {
		ts, style := t.text.TextSize, t.text.TextStyle
		fits := func(s string) bool { return fyne.MeasureText(s, ts, style).Width <= avail }
		switch {
		case fits(t.full):
			t.text.Text = t.full
		case t.alt != "" && fits(t.alt):
			t.text.Text = t.alt
		case t.alt != "":
			t.text.Text = t.elide(t.alt, fits)
		default:
			t.text.Text = t.elide(t.full, fits)
		}
		t.laidFor, t.laidAlt, t.laidAt = t.full, t.alt, avail
	}
	ts := t.text.MinSize()
	x := pad
	if t.text.Alignment == fyne.TextAlignTrailing {
		x = size.Width - pad - ts.Width
	}
	t.text.Move(fyne.NewPos(x, (size.Height-ts.Height)/2))
	t.text.Resize(ts)
}

func (r *elidedRenderer) Refresh() {
	r.t.text.Color = theme.Color(theme.ColorNameForeground)
	if r.t.muted {
		r.t.text.Color = theme.Color(theme.ColorNameDisabled)
	}
	r.t.text.TextSize = theme.Size(theme.SizeNameText)
	r.Layout(r.t.Size())
	r.t.text.Refresh()
}

func (r *elidedRenderer) Destroy() {}

// elidedCell is a table cell's elided text that reports the whole text
// while hovered, for the table to show it below itself.
type elidedCell struct {
	elidedText
	onHover func(full string, in bool)
}

func newElidedCell(onHover func(full string, in bool)) *elidedCell {
	c := &elidedCell{onHover: onHover}
	c.init(elide.Middle)
	c.ExtendBaseWidget(c)
	return c
}

// MouseIn reports the hovered text.
func (c *elidedCell) MouseIn(*desktop.MouseEvent) {
	if c.onHover != nil {
		c.onHover(c.full, true)
	}
}

// MouseMoved is part of desktop.Hoverable.
func (c *elidedCell) MouseMoved(*desktop.MouseEvent) {}

// MouseOut ends the hover.
func (c *elidedCell) MouseOut() {
	if c.onHover != nil {
		c.onHover(c.full, false)
	}
}

// textWidth returns the width s takes in t's style, 0 for "".
func (t *elidedText) textWidth(s string) float32 {
	if s == "" {
		return 0
	}
	return fyne.MeasureText(s, t.text.TextSize, t.text.TextStyle).Width
}
