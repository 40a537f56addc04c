package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysis"
	"cubeview/analysisview"
	"cubeview/document"
)

// shownCell lays out cell (r, c) of s at width as the table does and
// returns it.
func shownCell(s *sortedTable, r, c int, width float32) *elidedCell {
	o := s.table.CreateCell()
	s.table.UpdateCell(widget.TableCellID{Row: r, Col: c}, o)
	o.Resize(fyne.NewSize(width, o.MinSize().Height))
	return o.(*elidedCell)
}

// shownHeader lays out column c's title of s at width.
func shownHeader(s *sortedTable, c int, width float32) string {
	h := s.table.CreateHeader()
	s.table.UpdateHeader(widget.TableCellID{Row: -1, Col: c}, h)
	h.Resize(fyne.NewSize(width, h.MinSize().Height))
	return h.(*sortHeader).Shown()
}

// TestResultTableNames checks that Where did it change… between two runs
// whose names share a long start and end titles its value columns by
// what tells the runs apart (all read "scorep_tea_..." before), that a
// narrow call path keeps its leaf, and that hovering a cell or selecting
// a row shows the whole text below the table.
func TestResultTableNames(t *testing.T) {
	a := newTestApp(t)
	before, after := longNamedPair(t)
	bw, aw := openWindow(t, a, before), openWindow(t, a, after)
	a.PerfDiff(analysisview.PerfDiffRequest{A: []*document.Doc{bw.doc}, B: []*document.Doc{aw.doc}, Options: analysis.PerfDiffOptions{Metric: "mpi_barrier_wait", Delta: 1}}, bw)
	w := lastWindow(t, a)
	p := w.panels.perfDiff
	if p == nil || len(p.rep.Rows) == 0 {
		t.Fatal("no result list")
	}
	s := p.sorted
	for c, want := range map[int][]string{
		analysisview.PerfDiffA:     {"baseline"},
		analysisview.PerfDiffB:     {"optimized"},
		analysisview.PerfDiffDelta: {"baseline", "optimized"},
	} {
		got := shownHeader(s, c, perfDiffWidths[c])
		for _, part := range want {
			if !strings.Contains(got, part) {
				t.Errorf("column %d (%q) is titled %q at %v px, without %q", c, p.rep.Header(c), got, perfDiffWidths[c], part)
			}
		}
	}
	if a, b := shownHeader(s, analysisview.PerfDiffA, perfDiffWidths[1]), shownHeader(s, analysisview.PerfDiffB, perfDiffWidths[2]); a == b {
		t.Errorf("A and B are both titled %q", a)
	}

	row := -1
	for i, r := range p.rep.Rows {
		if strings.Count(r.CallPath, "/") >= 2 {
			row = i
			break
		}
	}
	if row < 0 {
		t.Fatal("no call path two levels deep")
	}
	full := p.rep.Rows[row].CallPath
	leaf := full[strings.LastIndex(full, "/")+1:]
	cell := shownCell(s, row, analysisview.PerfDiffCallPath, 150)
	if got := cell.Shown(); got == full || !strings.HasSuffix(got, "…/"+leaf) {
		t.Errorf("call path %q shows as %q at 150 px, want it elided before its leaf %q", full, got, leaf)
	}
	cell.MouseIn(nil)
	if got := s.Full(); got != full {
		t.Errorf("hovering %q shows %q below the table", full, got)
	}
	cell.MouseOut()
	if got := s.Full(); got != "" {
		t.Errorf("nothing selected, nothing hovered: below the table %q", got)
	}
	s.table.Select(widget.TableCellID{Row: row, Col: analysisview.PerfDiffA})
	if got := s.Full(); !strings.Contains(got, full) || !strings.Contains(got, p.rep.Rows[row].System) {
		t.Errorf("row %d selected, below the table %q, want its call path %q and system node %q", row, got, full, p.rep.Rows[row].System)
	}
}
