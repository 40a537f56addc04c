package repoview

import (
	"testing"

	"cubeview/internal/testkit/testrepo"
)

// TestTableCells: the table has the tree column and one per Column, with
// their titles and widths; a trial's row shows its id and attributes, a
// group's row only its tree text.
func TestTableCells(t *testing.T) {
	r, _ := testrepo.Filled(t, testrepo.Standard)
	b := load(t, r, "")
	rows, cols := b.TableSize()
	if rows != len(b.Rows()) || cols != 1+len(b.Columns()) || cols < 4 {
		t.Fatalf("table %d×%d for %d rows and %d columns", rows, cols, len(b.Rows()), len(b.Columns()))
	}
	if b.ColumnTitle(0) != "application / experiment / trial" || b.ColumnWidth(0) != 380 {
		t.Errorf("tree column %q, %v wide", b.ColumnTitle(0), b.ColumnWidth(0))
	}
	for c := 1; c < cols; c++ {
		title := b.Columns()[c-1].Title
		want := map[string]float32{"id": 50, "format": 170, "imported": 150}[title]
		if want == 0 {
			want = 90
		}
		if b.ColumnTitle(c) != title || b.ColumnWidth(c) != want {
			t.Errorf("column %d: %q, %v wide; want %q, %v", c, b.ColumnTitle(c), b.ColumnWidth(c), title, want)
		}
	}
	if b.ColumnTitle(cols) != "" || b.ColumnTitle(-1) != "" {
		t.Error("a column past the table has a title")
	}
	row := b.RowOf(5)
	procs := 0
	for c := 1; c < cols; c++ {
		if b.ColumnTitle(c) == "procs" {
			procs = c
		}
	}
	if b.CellText(row, 0) != b.Rows()[row].TreeText() || b.CellText(row, 1) != "5" || procs == 0 || b.CellText(row, procs) != "64" {
		t.Errorf("trial 5's row: %q, id %q, procs %q", b.CellText(row, 0), b.CellText(row, 1), b.CellText(row, procs))
	}
	if b.CellText(0, 0) != "▾ lulesh (3 trials)" || b.CellText(0, 1) != "" || b.CellText(rows, 0) != "" || b.CellText(row, cols) != "" {
		t.Errorf("group row %q / %q; past the table %q", b.CellText(0, 0), b.CellText(0, 1), b.CellText(rows, 0))
	}
	var none *HitTable
	if none.Column(0) != "" || !none.Numeric(2) || none.Numeric(1) {
		t.Error("no hits: a column title, or the wrong numeric columns")
	}
}
