package ui

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysisview"
	"cubeview/internal/elide"
	"cubeview/view"
)

// Metric columns of the call pane (view.View.ColumnHeads): a header of
// clickable titles above the pane and, in each row, the values at the
// row's right edge, aligned under the titles whatever the row's depth.

const (
	columnGap      = 14  // between two value columns
	maxColumnTitle = 170 // a longer title elides
)

// columnMargin is the room kept right of the columns for the pane's
// scroll bar.
func columnMargin() float32 { return theme.Size(theme.SizeNameScrollBar) + 2 }

// columnsShown reports whether the row shows metric columns.
func (r *rowView) columnsShown() bool {
	return len(r.row.Columns) > 0 && len(r.colWidths) == len(r.row.Columns)+1
}

// setColumns takes the metric columns' texts of row.
func (r *rowView) setColumns(row view.Row) {
	for len(r.cols) < len(row.Columns) {
		t := canvas.NewText("", theme.Color(theme.ColorNameForeground))
		t.TextStyle = fyne.TextStyle{Monospace: true}
		t.Alignment = fyne.TextAlignTrailing
		r.cols = append(r.cols, t)
	}
	for i, t := range r.cols {
		t.Text = ""
		if i < len(row.Columns) {
			t.Text = row.Columns[i].Text
		}
	}
}

// columnsWidth returns the width of the value columns and the margin.
func (r *rowView) columnsWidth() float32 {
	w := columnMargin()
	for _, c := range r.colWidths {
		w += c
	}
	return w
}

// layoutColumns lays out a row with metric columns: colour square, badge
// and label from x on, the values in their columns at the right edge.
func (rr *rowRenderer) layoutColumns(size fyne.Size, x float32) {
	r := rr.r
	right := size.Width - r.columnsWidth()
	place := func(t *canvas.Text, left, width float32, pad int) {
		ts := t.MinSize()
		t.Move(fyne.NewPos(left, (size.Height-ts.Height)/2))
		t.Resize(fyne.NewSize(max(width-float32(pad)*r.digitWidth, ts.Width), ts.Height))
	}
	left := right
	place(r.value, left, r.colWidths[0], r.row.Pad)
	left += r.colWidths[0]
	for i, c := range r.row.Columns {
		place(r.cols[i], left, r.colWidths[i+1], c.Pad)
		left += r.colWidths[i+1]
	}
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
	avail := max(right-rowGap-x, 0)
	if r.labelFor != r.row.Label || r.labelAt != avail {
		size, style := r.label.TextSize, r.label.TextStyle
		r.label.Text = elide.Middle(r.row.Label, func(s string) bool { return fyne.MeasureText(s, size, style).Width <= avail })
		r.labelFor, r.labelAt = r.row.Label, avail
	}
	ls := r.label.MinSize()
	r.label.Move(fyne.NewPos(x, (size.Height-ls.Height)/2))
	r.label.Resize(ls)
}

// columnTitle is the clickable title of a value column.
type columnTitle struct {
	widget.BaseWidget
	text    *canvas.Text
	full    string // the title unelided
	tooltip string
	onTap   func()
	onHover func(text string)
}

func newColumnTitle() *columnTitle {
	t := &columnTitle{text: canvas.NewText("", theme.Color(theme.ColorNameForeground))}
	t.text.Alignment = fyne.TextAlignTrailing
	t.ExtendBaseWidget(t)
	return t
}

// Tapped sorts by the column.
func (t *columnTitle) Tapped(*fyne.PointEvent) {
	if t.onTap != nil {
		t.onTap()
	}
}

// MouseIn shows the column's description.
func (t *columnTitle) MouseIn(*desktop.MouseEvent) {
	if t.onHover != nil {
		t.onHover(t.full + ": " + t.tooltip)
	}
}

// MouseMoved is part of desktop.Hoverable.
func (t *columnTitle) MouseMoved(*desktop.MouseEvent) {}

// MouseOut ends the hover.
func (t *columnTitle) MouseOut() {
	if t.onHover != nil {
		t.onHover("")
	}
}

func (t *columnTitle) MinSize() fyne.Size { return fyne.NewSize(10, t.text.MinSize().Height) }

func (t *columnTitle) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(t.text)
}

// columnHeader is the row of column titles above the call pane, laid out
// as the rows lay out their values: from the right edge, less the margin.
type columnHeader struct {
	widget.BaseWidget
	w      *Window
	titles []*columnTitle
	widths []float32
}

func newColumnHeader(w *Window) *columnHeader {
	h := &columnHeader{w: w}
	h.ExtendBaseWidget(h)
	h.Hide()
	return h
}

func (h *columnHeader) CreateRenderer() fyne.WidgetRenderer {
	return &columnHeaderRenderer{h: h}
}

type columnHeaderRenderer struct{ h *columnHeader }

func (r *columnHeaderRenderer) Layout(size fyne.Size) {
	h := r.h
	x := size.Width - columnMargin()
	for _, w := range h.widths {
		x -= w
	}
	for i, t := range h.titles {
		if i >= len(h.widths) {
			t.Hide()
			continue
		}
		t.Show()
		t.Move(fyne.NewPos(x, 0))
		t.Resize(fyne.NewSize(h.widths[i], size.Height))
		x += h.widths[i]
	}
}

func (r *columnHeaderRenderer) MinSize() fyne.Size {
	h := fyne.MeasureText("Ag", theme.Size(theme.SizeNameText), fyne.TextStyle{Bold: true}).Height
	return fyne.NewSize(0, h+theme.Size(theme.SizeNamePadding))
}

func (r *columnHeaderRenderer) Refresh() {
	r.Layout(r.h.Size())
	for _, t := range r.h.titles {
		canvas.Refresh(t.text)
	}
}

func (r *columnHeaderRenderer) Objects() []fyne.CanvasObject {
	objs := make([]fyne.CanvasObject, len(r.h.titles))
	for i, t := range r.h.titles {
		objs[i] = t
	}
	return objs
}

func (r *columnHeaderRenderer) Destroy() {}

// columnsUI shows the metric columns of a window's call pane.
type columnsUI struct {
	w    *Window
	head *columnHeader
}

// sync brings the call pane's value columns and their header up to date
// with the view, after an Update.
func (c *columnsUI) sync() {
	w := c.w
	p := w.panes[view.CallPane]
	heads := w.view.Columns().Heads()
	h := c.head
	if len(heads) == 0 {
		p.columnWidths = nil
		if h.Visible() {
			h.Hide()
		}
		return
	}
	p.valueWidth() // measures the digit width once
	size := theme.Size(theme.SizeNameText)
	widths := make([]float32, len(heads))
	for len(h.titles) < len(heads) {
		t := newColumnTitle()
		k := len(h.titles) - 1
		t.onTap = func() { c.sortBy(k) }
		t.onHover = func(s string) { w.hint.SetText(s) }
		h.titles = append(h.titles, t)
	}
	for i, hd := range heads {
		chars := w.view.Values().ValueChars(view.CallPane)
		if i > 0 {
			chars = w.view.Columns().Chars(i - 1)
		}
		t := h.titles[i]
		style := fyne.TextStyle{Bold: hd.Selected}
		label := hd.Label()
		titleWidth := min(fyne.MeasureText(label, size, style).Width, maxColumnTitle)
		widths[i] = max(float32(chars)*p.digitWidth, titleWidth) + columnGap
		t.full, t.tooltip = label, hd.Tooltip
		t.text.TextStyle = style
		t.text.Text = elide.Middle(label, func(s string) bool { return fyne.MeasureText(s, size, style).Width <= titleWidth })
		t.text.Color = theme.Color(theme.ColorNameForeground)
	}
	p.columnWidths = widths
	h.widths = widths
	if !h.Visible() {
		h.Show()
	}
	h.Refresh()
}

// sortBy sorts the call pane by value column k (-1: the main one) and
// colours its squares by it; again, in the other direction.
func (c *columnsUI) sortBy(k int) {
	w := c.w
	if w.view == nil {
		return
	}
	w.view.Columns().SortBy(k)
	view.SaveColumns(w.app.prefs, w.view)
	w.panes[view.CallPane].Reload()
	w.menus.rebuild()
	w.refresh()
}

// set shows metric m as a column of the call pane, or removes it.
func (c *columnsUI) set(m int, on bool) {
	w := c.w
	if w.view == nil || !w.view.Columns().Set(m, on) {
		return
	}
	view.SaveColumns(w.app.prefs, w.view)
	w.panes[view.CallPane].Reload()
	w.menus.rebuild()
	w.refresh()
	w.splits.refit()
}

// clear removes every metric column.
func (c *columnsUI) clear() {
	w := c.w
	if w.view == nil || len(w.view.Columns().Metrics()) == 0 {
		return
	}
	w.view.Columns().SetAll(nil)
	view.SaveColumns(w.app.prefs, w.view)
	w.panes[view.CallPane].Reload()
	w.menus.rebuild()
	w.refresh()
	w.splits.refit()
}

// need returns the width the call pane needs for its metric columns and
// a label of a few levels deep rows; 0 without metric columns.
func (c *columnsUI) need() float32 {
	p := c.w.panes[view.CallPane]
	if len(p.columnWidths) == 0 {
		return 0
	}
	pad, icon := theme.Size(theme.SizeNamePadding), theme.Size(theme.SizeNameInlineIcon)
	need := 4*(icon+pad) + swatchSize + rowGap + 160 + columnMargin()
	for _, c := range p.columnWidths {
		need += c
	}
	return need
}

// syncHeads shows the titles of the bottom-up view's value columns, its
// own and the metric columns', and makes each metric column as wide as
// its widest value at the top (the largest there) or its title.
func (p *bottomUpPanel) syncHeads() {
	cols := p.b.Columns()
	for len(p.heads.Objects) < len(cols) {
		p.heads.Add(widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}))
	}
	p.heads.Objects = p.heads.Objects[:len(cols)]
	size := theme.Size(theme.SizeNameText)
	pad := 2*theme.Size(theme.SizeNameInnerPadding) + 4
	widths := make([]float32, len(cols))
	for i, c := range cols {
		l := p.heads.Objects[i].(*widget.Label)
		if l.Text != c {
			l.SetText(c)
		}
		widths[i] = bottomUpColumnWidth
		if i >= len(analysisview.BottomUpColumns) {
			widths[i] = max(widths[i], fyne.MeasureText(c, size, fyne.TextStyle{Bold: true}).Width+pad)
		}
	}
	if len(cols) > len(analysisview.BottomUpColumns) {
		for _, id := range p.b.ChildIDs("") {
			for i, text := range p.b.Row(id).Columns {
				if i >= len(analysisview.BottomUpColumns) && i < len(widths) {
					widths[i] = max(widths[i], fyne.MeasureText(text, size, fyne.TextStyle{Monospace: true}).Width+pad)
				}
			}
		}
	}
	if !slices.Equal(widths, p.colws.w) {
		p.colws.w = widths
		p.heads.Layout = &p.colws
		p.box.Refresh()
	}
}

// ensureValueLabels gives bottom-up row c (newRow's) n value labels in
// the panel's columns.
func (p *bottomUpPanel) ensureValueLabels(c *fyne.Container, n int) {
	values := c.Objects[2].(*fyne.Container)
	values.Layout = &p.colws
	for len(values.Objects) < n {
		l := widget.NewLabel("")
		l.Alignment = fyne.TextAlignTrailing
		l.TextStyle.Monospace = true
		values.Add(l)
	}
	values.Objects = values.Objects[:n]
	c.Refresh()
}

// columnWidths lays its objects out side by side in columns of the
// widths w (bottomUpColumnWidth beyond them), so that the columns of a
// table's rows line up.
type columnWidths struct{ w []float32 }

func (l *columnWidths) width(i int) float32 {
	if i < len(l.w) {
		return l.w[i]
	}
	return bottomUpColumnWidth
}

func (l *columnWidths) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var w, h float32
	for i, o := range objs {
		w += l.width(i)
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(w, h)
}

func (l *columnWidths) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	var x float32
	for i, o := range objs {
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(l.width(i), size.Height))
		x += l.width(i)
	}
}
