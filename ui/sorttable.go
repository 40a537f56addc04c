package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysisview"
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
}

// sortedTable is a table of results whose column headers sort it when
// clicked (again: the other way). The report's rows are not moved; the
// table shows them in order.
type sortedTable struct {
	src   tableSource
	order *analysisview.TableOrder
	table *widget.Table
}

func newSortedTable(src tableSource) *sortedTable {
	s := &sortedTable{src: src, order: analysisview.NewTableOrder(src.rows, src.key)}
	s.table = widget.NewTableWithHeaders(
		func() (int, int) { return s.order.Len(), src.cols },
		func() fyne.CanvasObject { return truncLabel("") },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			l.Importance = widget.MediumImportance
			if r := s.order.Row(id.Row); src.muted != nil && r >= 0 && src.muted(r) {
				l.Importance = widget.LowImportance
			}
			l.SetText(s.Cell(id.Row, id.Col))
		})
	s.table.ShowHeaderColumn = false
	s.table.CreateHeader = func() fyne.CanvasObject { return newSortHeader() }
	s.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		h := o.(*sortHeader)
		if id.Col < 0 || id.Col >= src.cols {
			h.SetText("")
			h.onTap = nil
			return
		}
		c := id.Col
		h.SetText(s.order.Sort.Title(c, src.title(c)))
		h.onTap = func() { s.SortBy(c) }
	}
	s.table.OnSelected = func(id widget.TableCellID) {
		if r := s.order.Row(id.Row); r >= 0 && src.selected != nil {
			src.selected(r)
		}
	}
	return s
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
	widget.Label
	onTap func()
}

func newSortHeader() *sortHeader {
	h := &sortHeader{}
	h.TextStyle.Bold = true
	h.Truncation = fyne.TextTruncateEllipsis
	h.ExtendBaseWidget(h)
	return h
}

// Tapped sorts the table.
func (h *sortHeader) Tapped(*fyne.PointEvent) {
	if h.onTap != nil {
		h.onTap()
	}
}
