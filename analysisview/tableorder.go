package analysisview

// TableOrder is the order in which a result table shows its report's
// rows, sorted as Sort says; the report's rows themselves are not moved.
type TableOrder struct {
	// Sort is the column the table is sorted by, and which way.
	Sort TableSort
	rows []int
	n    func() int
	key  func(r, c int) SortKey
}

// NewTableOrder returns the unsorted order of a report with n() rows,
// whose row r sorts by key(r, c) in column c.
func NewTableOrder(n func() int, key func(r, c int) SortKey) *TableOrder {
	o := &TableOrder{Sort: Unsorted, n: n, key: key}
	o.Reset()
	return o
}

// Click sorts by column c, as a click on its header does (see
// TableSort.Click).
func (o *TableOrder) Click(c int, numeric bool) {
	o.Sort = o.Sort.Click(c, numeric)
	o.rows = o.Sort.Order(o.n(), o.key)
}

// Reset shows the rows in the report's order again, as after new results.
func (o *TableOrder) Reset() {
	o.Sort = Unsorted
	o.rows = o.Sort.Order(o.n(), o.key)
}

// Len returns the number of rows shown.
func (o *TableOrder) Len() int { return len(o.rows) }

// Row returns the report's row shown at display row i, or -1 when there is
// none.
func (o *TableOrder) Row(i int) int {
	if i < 0 || i >= len(o.rows) {
		return -1
	}
	return o.rows[i]
}
