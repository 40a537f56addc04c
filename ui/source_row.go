package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/sourcepanel"
	"cubeview/sourceview"
)

const (
	gutterGap = 6 // between the gutter's parts and before the code
	focusBar  = 3 // width of the bar marking the focus line
)

// darkTheme reports whether the current theme draws light text on a dark
// background.
func darkTheme() bool { return sourcepanel.IsDark(theme.Color(theme.ColorNameBackground)) }

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
func (r *sourceRow) notes() []sourcepanel.Note {
	return r.p.m.Notes()[r.line]
}

// MouseIn shows what the line's annotations stand for below the status
// line, as the tree rows do with their descriptions.
func (r *sourceRow) MouseIn(*desktop.MouseEvent) {
	if notes := r.notes(); len(notes) > 0 {
		r.p.w.hint.SetText(sourcepanel.DescribeNotes(r.p.w.view.Experiment(), notes, r.p.m.ValuesInfo()))
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
	if c, ok := sourcepanel.FirstCallSite(r.notes()); ok {
		r.p.w.revealCnode(c)
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
	if lines := p.m.Lines(); r.line >= 1 && r.line <= len(lines) {
		line = &lines[r.line-1]
	}

	r.bg.FillColor = color.Transparent
	r.bar.FillColor = color.Transparent
	if t := p.m.Target(); line != nil && p.m.ShowsTarget() {
		if t.Shaded(r.line) {
			r.bg.FillColor = theme.Color(theme.ColorNameSelection)
		}
		if r.line == t.Focus {
			r.bar.FillColor = theme.Color(theme.ColorNamePrimary)
		}
	}

	r.number.Text = p.m.LineNumber(r.line)
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
		for _, s := range sourcepanel.DrawnSpans(line) {
			t := rr.codeText(r.nCode)
			t.Text, t.Color, t.TextSize = s.Text, sourcepanel.SyntaxColor(s.Category, dark, fg), size
			t.TextStyle = fyne.TextStyle{Monospace: true}
			r.nCode++
		}
	}

	r.note.Text = sourcepanel.NoteText(notes)
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
