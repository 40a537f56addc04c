package analysisview

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// SortKey is what a table cell sorts by: a number, or text when IsText.
type SortKey struct {
	Num    float64
	Text   string
	IsText bool
}

// NumKey returns the sort key of a number.
func NumKey(x float64) SortKey { return SortKey{Num: x} }

// TextKey returns the sort key of text, compared byte by byte.
func TextKey(s string) SortKey { return SortKey{Text: s, IsText: true} }

func (k SortKey) undefined() bool { return !k.IsText && math.IsNaN(k.Num) }

// TableSort is how a result table is sorted: by a column, ascending or
// descending. Column < 0 keeps the order the analysis gave.
type TableSort struct {
	Column     int
	Descending bool
}

// Unsorted keeps a table's rows in the order the analysis gave them.
var Unsorted = TableSort{Column: -1}

// Click returns the order after a click on column c's header: the same
// column again reverses it; another column sorts numbers largest first
// and text from A, as it reads best.
func (s TableSort) Click(c int, numeric bool) TableSort {
	if s.Column == c {
		return TableSort{Column: c, Descending: !s.Descending}
	}
	return TableSort{Column: c, Descending: numeric}
}

// Title returns a column header with ▲ or ▼ when the table is sorted by
// column c.
func (s TableSort) Title(c int, title string) string {
	if s.Column != c {
		return title
	}
	if s.Descending {
		return title + " ▼"
	}
	return title + " ▲"
}

// Order returns the rows (0 … n−1) in the order s says, key giving row
// r's key in column c. Equal keys keep the analysis's order; undefined
// numbers (NaN, shown as "–") come last either way.
func (s TableSort) Order(n int, key func(r, c int) SortKey) []int {
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	if s.Column < 0 {
		return rows
	}
	keys := make([]SortKey, n)
	for i := range keys {
		keys[i] = key(i, s.Column)
	}
	slices.SortStableFunc(rows, func(a, b int) int {
		ka, kb := keys[a], keys[b]
		if ua, ub := ka.undefined(), kb.undefined(); ua || ub {
			return cmpBool(ua, ub)
		}
		var c int
		if ka.IsText || kb.IsText {
			c = strings.Compare(ka.Text, kb.Text)
		} else {
			c = cmp.Compare(ka.Num, kb.Num)
		}
		if s.Descending {
			return -c
		}
		return c
	})
	return rows
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
