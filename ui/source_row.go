package ui

import (
	"image/color"
	"strconv"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/sourceview"
	"cubeview/view"
)

const (
	tabWidth     = 8 // columns per tab stop
	gutterGap    = 6 // between the gutter's parts and before the code
	focusBar     = 3 // width of the bar marking the focus line
	maxLineRunes = 2000
)

// syntaxColor returns the colour of a span category, fitting a light or a
// dark theme; plain text, operators and punctuation take fg.
func syntaxColor(c sourceview.Category, dark bool, fg color.Color) color.Color {
	type pair struct{ light, dark color.NRGBA }
	var p pair
	switch c {
	case sourceview.Keyword:
		p = pair{color.NRGBA{0, 51, 179, 255}, color.NRGBA{86, 156, 214, 255}}
	case sourceview.Type:
		p = pair{color.NRGBA{11, 122, 117, 255}, color.NRGBA{78, 201, 176, 255}}
	case sourceview.Builtin:
		p = pair{color.NRGBA{111, 66, 193, 255}, color.NRGBA{197, 134, 192, 255}}
	case sourceview.Function:
		p = pair{color.NRGBA{121, 94, 38, 255}, color.NRGBA{220, 220, 170, 255}}
	case sourceview.String:
		p = pair{color.NRGBA{163, 21, 21, 255}, color.NRGBA{206, 145, 120, 255}}
	case sourceview.Number:
		p = pair{color.NRGBA{9, 134, 88, 255}, color.NRGBA{181, 206, 168, 255}}
	case sourceview.Comment:
		p = pair{color.NRGBA{106, 115, 125, 255}, color.NRGBA{106, 153, 85, 255}}
	case sourceview.Preprocessor:
		p = pair{color.NRGBA{175, 0, 219, 255}, color.NRGBA{197, 134, 192, 255}}
	default:
		return fg
	}
	if dark {
		return p.dark
	}
	return p.light
}

// darkTheme reports whether the current theme draws light text on a dark
// background.
func darkTheme() bool {
	r, g, b, _ := theme.Color(theme.ColorNameBackground).RGBA()
	return 299*r+587*g+114*b < 500*0xffff
}

// expandTabs replaces tabs in s by spaces up to the next tab stop, given
// that s starts at column col; it returns the text and the column after it.
func expandTabs(s string, col int) (string, int) {
	if !strings.Contains(s, "\t") {
		return s, col + utf8.RuneCountInString(s)
	}
	var sb strings.Builder
	for _, r := range s {
		if r == '\t' {
			n := tabWidth - col%tabWidth
			sb.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		sb.WriteRune(r)
		col++
	}
	return sb.String(), col
}

// sourceRow draws one line of the source panel: the gutter with the line
// number and the colour square and value of the line's first annotation,
// the highlighted code, and the names of the line's annotations. Lines of
// the selected region are shaded; the focus line has a bar at its left.
type sourceRow struct {
	widget.BaseWidget
	p    *sourcePanel
	line int // 1-based; 0 while the row shows nothing

	bg     *canvas.Rectangle
	bar    *canvas.Rectangle
	number *canvas.Text
	sw     *swatch
	value  *canvas.Text
	code   []*canvas.Text // one per span, grown as needed
	note   *canvas.Text
	nCode  int // code texts in use
}

func newSourceRow(p *sourcePanel) *sourceRow {
	r := &sourceRow{
		p:      p,
		bg:     canvas.NewRectangle(color.Transparent),
		bar:    canvas.NewRectangle(color.Transparent),
		number: canvas.NewText("0", theme.Color(theme.ColorNamePlaceHolder)),
		sw:     newSwatch(),
		value:  canvas.NewText("", theme.Color(theme.ColorNameForeground)),
		note:   canvas.NewText("", theme.Color(theme.ColorNamePlaceHolder)),
	}
	r.number.TextStyle = fyne.TextStyle{Monospace: true}
	r.number.Alignment = fyne.TextAlignTrailing
	r.value.TextStyle = fyne.TextStyle{Monospace: true}
	r.value.Alignment = fyne.TextAlignTrailing
	r.note.TextStyle = fyne.TextStyle{Italic: true}
	r.ExtendBaseWidget(r)
	return r
}

// setLine shows line n (1-based) of the panel's file.
func (r *sourceRow) setLine(n int) {
	r.line = n
	r.Refresh()
}

// notes returns the annotations of the row's line.
func (r *sourceRow) notes() []view.SourceNote {
	return r.p.annots[r.line]
}

// MouseIn shows what the line's annotations stand for below the status
// line, as the tree rows do with their descriptions.
func (r *sourceRow) MouseIn(*desktop.MouseEvent) {
	if notes := r.notes(); len(notes) > 0 {
		r.p.w.hint.SetText(r.p.describe(notes))
	}
}

// MouseMoved is part of desktop.Hoverable.
func (r *sourceRow) MouseMoved(*desktop.MouseEvent) {}

// MouseOut clears the description.
func (r *sourceRow) MouseOut() {
	if len(r.notes()) > 0 {
		r.p.w.hint.SetText("")
	}
}

// DoubleTapped selects the call path of the line's first call site in
// the call pane.
func (r *sourceRow) DoubleTapped(*fyne.PointEvent) {
	for _, n := range r.notes() {
		if n.Kind == sourceview.CallSite {
			r.p.w.revealCnode(n.Index)
			return
		}
	}
}

func (r *sourceRow) CreateRenderer() fyne.WidgetRenderer { return &sourceRowRenderer{r: r} }

type sourceRowRenderer struct {
	r       *sourceRow
	objects []fyne.CanvasObject
}

func (rr *sourceRowRenderer) MinSize() fyne.Size {
	p := rr.r.p
	return fyne.NewSize(p.gutterWidth(), p.rowHeight())
}

func (rr *sourceRowRenderer) Layout(size fyne.Size) {
	r, p := rr.r, rr.r.p
	r.bg.Move(fyne.NewPos(0, 0))
	r.bg.Resize(size)
	r.bar.Move(fyne.NewPos(0, 0))
	r.bar.Resize(fyne.NewSize(focusBar, size.Height))
	x := float32(focusBar + gutterGap)
	place := func(t *canvas.Text, width float32) {
		h := t.MinSize().Height
		t.Move(fyne.NewPos(x, (size.Height-h)/2))
		t.Resize(fyne.NewSize(width, h))
	}
	place(r.number, p.numberWidth)
	x += p.numberWidth + gutterGap
	r.sw.Move(fyne.NewPos(x, 0))
	r.sw.Resize(fyne.NewSize(swatchSize, size.Height))
	x += swatchSize + gutterGap
	place(r.value, p.valueWidth)
	x += p.valueWidth + 2*gutterGap
	for _, t := range r.code[:r.nCode] {
		w := t.MinSize().Width
		place(t, w)
		x += w
	}
	x += 2 * gutterGap
	place(r.note, r.note.MinSize().Width)
}

func (rr *sourceRowRenderer) Refresh() {
	r, p := rr.r, rr.r.p
	fg := theme.Color(theme.ColorNameForeground)
	dim := theme.Color(theme.ColorNamePlaceHolder)
	size := p.textSize()
	var line *sourceview.Line
	if r.line >= 1 && r.line <= len(p.lines()) {
		line = &p.lines()[r.line-1]
	}

	r.bg.FillColor = color.Transparent
	r.bar.FillColor = color.Transparent
	if t := p.target; line != nil && p.showsTarget() {
		if t.begin > 0 && r.line >= t.begin && r.line <= t.end {
			r.bg.FillColor = theme.Color(theme.ColorNameSelection)
		}
		if r.line == t.focus {
			r.bar.FillColor = theme.Color(theme.ColorNamePrimary)
		}
	}

	r.number.Text = ""
	if line != nil {
		r.number.Text = strconv.Itoa(r.line)
	}
	r.number.Color, r.number.TextSize = dim, size

	notes := r.notes()
	if len(notes) > 0 {
		r.sw.set(notes[0].Color, notes[0].Relief)
		r.sw.Show()
		r.value.Text = notes[0].Text
	} else {
		r.sw.Hide()
		r.value.Text = ""
	}
	r.value.Color, r.value.TextSize = fg, size

	r.nCode = 0
	if line != nil {
		dark := darkTheme()
		col, runes := 0, 0
		for _, s := range line.Spans {
			if runes >= maxLineRunes {
				break // a very long line is cut; nobody reads that far right
			}
			text, next := expandTabs(s.Text, col)
			runes += next - col
			col = next
			t := rr.codeText(r.nCode)
			t.Text, t.Color, t.TextSize = text, syntaxColor(s.Category, dark, fg), size
			t.TextStyle = fyne.TextStyle{Monospace: true}
			r.nCode++
		}
	}

	r.note.Text = noteText(notes)
	r.note.Color, r.note.TextSize = dim, size

	rr.objects = append(rr.objects[:0], r.bg, r.bar, r.number, r.sw, r.value)
	for _, t := range r.code[:r.nCode] {
		rr.objects = append(rr.objects, t)
	}
	rr.objects = append(rr.objects, r.note)
	rr.Layout(r.Size())
	for _, o := range rr.objects {
		if o != fyne.CanvasObject(r.sw) {
			canvas.Refresh(o)
		}
	}
}

// codeText returns the i-th text of the code, creating it when needed.
func (rr *sourceRowRenderer) codeText(i int) *canvas.Text {
	r := rr.r
	for len(r.code) <= i {
		r.code = append(r.code, canvas.NewText("", color.Black))
	}
	return r.code[i]
}

func (rr *sourceRowRenderer) Objects() []fyne.CanvasObject {
	if rr.objects == nil {
		rr.Refresh()
	}
	return rr.objects
}

func (rr *sourceRowRenderer) Destroy() {}

// noteText names the annotations of a line after its code: the first
// one's value is in the gutter, the others' follow their names.
func noteText(notes []view.SourceNote) string {
	if len(notes) == 0 {
		return ""
	}
	var sb strings.Builder
	sb.WriteString("◂ ")
	for i, n := range notes {
		if i > 0 {
			sb.WriteString(" · ")
		}
		sb.WriteString(n.Kind.String())
		sb.WriteByte(' ')
		sb.WriteString(n.Name)
		if i > 0 {
			sb.WriteByte(' ')
			sb.WriteString(n.Text)
		}
	}
	return sb.String()
}
