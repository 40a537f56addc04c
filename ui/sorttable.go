package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysisview"
	"cubeview/internal/elide"
)

// tableSource is a result table as a report gives it: its size, cells,
// header titles and what each cell sorts by.
type tableSource struct {
	rows    func() int
	cols    int
	title   func(c int) string
	cell    func(r, c int) string
	key     func(r, c int) analysisview.SortKey
	numeric func(c int) bool
	// muted, when set, reports the report's rows drawn in a dimmed
	// colour (differences that are not significant).
	muted func(r int) bool
	// selected is called with the report's row when a row is clicked.
	selected func(r int)
	// path reports the columns that hold paths (nil: none): they elide
	// keeping their leaf, the others in the middle.
	path func(c int) bool
	// short returns a shorter title for column c to show where the title
	// does not fit, "" for none (nil: none).
	short func(c int) string
}

// sortedTable is a table of results whose column headers sort it when
// clicked (again: the other way). The report's rows are not moved; the
// table shows them in order.
type sortedTable struct {
	src   tableSource
	order *analysisview.TableOrder
	table *widget.Table
	// full shows below the table the whole text of the hovered cell, or
	// else the selected row's paths.
	full     *widget.Label
	selected string
}

func newSortedTable(src tableSource) *sortedTable {
	s := &sortedTable{src: src, order: analysisview.NewTableOrder(src.rows, src.key)}
	s.full = widget.NewLabel("")
	s.full.Wrapping = fyne.TextWrapBreak
	s.full.Hide()
	s.table = widget.NewTableWithHeaders(
		func() (int, int) { return s.order.Len(), src.cols },
		func() fyne.CanvasObject { return newElidedCell(s.hovered) },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			c := o.(*elidedCell)
			c.SetElision(s.elision(id.Col))
			r := s.order.Row(id.Row)
			c.SetMuted(src.muted != nil && r >= 0 && src.muted(r))
			c.SetText(s.Cell(id.Row, id.Col), "")
		})
	s.table.ShowHeaderColumn = false
	s.table.CreateHeader = func() fyne.CanvasObject { return newSortHeader() }
	s.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		h := o.(*sortHeader)
		if id.Col < 0 || id.Col >= src.cols {
			h.SetText("", "")
			h.onTap = nil
			return
		}
		c := id.Col
		short := ""
		if src.short != nil {
			if t := src.short(c); t != "" {
				short = s.order.Sort.Title(c, t)
			}
		}
		h.SetElision(s.elision(c))
		h.SetText(s.order.Sort.Title(c, src.title(c)), short)
		h.onTap = func() { s.SortBy(c) }
	}
	s.table.OnSelected = func(id widget.TableCellID) {
		r := s.order.Row(id.Row)
		s.selected = s.rowPaths(r)
		s.showFull(s.selected)
		if r >= 0 && src.selected != nil {
			src.selected(r)
		}
	}
	return s
}

// view returns the table with the line below it that shows whole texts.
func (s *sortedTable) view() fyne.CanvasObject {
	return container.NewBorder(nil, s.full, nil, nil, s.table)
}

// elision returns how column c's texts are shortened.
func (s *sortedTable) elision(c int) elision {
	if s.src.path != nil && s.src.path(c) {
		return elide.Path
	}
	return elide.Middle
}

// hovered shows the whole text of a hovered cell, and the selected row's
// paths again when the pointer leaves it.
func (s *sortedTable) hovered(full string, in bool) {
	if in {
		s.showFull(full)
	} else {
		s.showFull(s.selected)
	}
}

func (s *sortedTable) showFull(text string) {
	if text == "" {
		s.full.Hide()
		return
	}
	s.full.SetText(text)
	s.full.Show()
}

// rowPaths returns the report's row r's path columns, each after its
// title, or "" when r is no row or the table has no paths.
func (s *sortedTable) rowPaths(r int) string {
	if r < 0 || s.src.path == nil {
		return ""
	}
	var parts []string
	for c := 0; c < s.src.cols; c++ {
		if s.src.path(c) {
			parts = append(parts, s.src.title(c)+": "+s.src.cell(r, c))
		}
	}
	return strings.Join(parts, "   ")
}

// Full returns what the line below the table shows, "" when hidden.
func (s *sortedTable) Full() string {
	if !s.full.Visible() {
		return ""
	}
	return s.full.Text
}

// SortBy sorts by column c, as a click on its header does.
func (s *sortedTable) SortBy(c int) {
	s.order.Click(c, s.src.numeric(c))
	s.table.UnselectAll()
	s.table.Refresh()
}

// Reset shows the rows in the report's order again, as after new results.
func (s *sortedTable) Reset() {
	s.order.Reset()
	s.table.UnselectAll()
	s.table.Refresh()
}

// Cell returns the text the table shows at display row r, column c.
func (s *sortedTable) Cell(r, c int) string {
	if row := s.order.Row(r); row >= 0 && c >= 0 && c < s.src.cols {
		return s.src.cell(row, c)
	}
	return ""
}

// Row returns the report's row shown at display row r, or -1.
func (s *sortedTable) Row(r int) int { return s.order.Row(r) }

// sortHeader is a column header that sorts its table when tapped. It is
// not hoverable, so that the table still resizes columns by dragging.
type sortHeader struct {
	elidedText
	onTap func()
}

func newSortHeader() *sortHeader {
	h := &sortHeader{}
	h.init(elide.Middle)
	h.text.TextStyle.Bold = true
	h.ExtendBaseWidget(h)
	return h
}

// Tapped sorts the table.
func (h *sortHeader) Tapped(*fyne.PointEvent) {
	if h.onTap != nil {
		h.onTap()
	}
}
