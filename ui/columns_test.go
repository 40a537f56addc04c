package ui

import (
	"math"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysisview"
	"cubeview/menu"
	"cubeview/model"
	"cubeview/view"
)

// TestMetricColumnsWindow adds metric columns to a real window from the
// metric pane's context menu and the Metric tree menu and checks what a
// user sees: the titles above the call pane, every row's values drawn in
// columns under their titles, a click on a title sorting the call pane
// (again: the other way) and colouring the squares by that column, the
// flat profile and the bottom-up view with the columns, and the next
// session's window opening with them.
func TestMetricColumnsWindow(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // both sessions' preferences
	session := func() *App {
		a := NewApp(test.NewTempApp(t))
		a.async = func(work, done func()) { work(); done() }
		a.fatal = func(err error) { t.Errorf("unexpected error: %v", err) }
		return a
	}
	file := dataFile(t, "cube4/time.p4.n2000.x1.r0/profile.cubex")
	a := session()
	w := openWindow(t, a, file)
	e := w.Document().Exp
	timeM, visits, sent := e.MetricByName("time"), e.MetricByName("visits"), e.MetricByName("bytes_sent")
	if w.cols.head.Visible() {
		t.Fatal("a column header without columns")
	}
	// Visits from its row's context menu, bytes_sent from the menu bar.
	vn := view.Node{Kind: view.MetricNode, Index: visits}
	items := menu.Row(w.view, view.MetricPane, vn)
	i := slices.IndexFunc(items, func(it menu.Item) bool { return it.Command == menu.CmdColumn })
	if i < 0 {
		t.Fatal("no Show as column in a metric row's menu")
	}
	w.menus.handlers(menu.State{}, view.MetricPane, vn)[items[i].Command](items[i].Arg)
	selectRow(w, view.MetricPane, view.Node{Kind: view.MetricNode, Index: sent})
	menuItem(w, "Metric tree", "Show selected metric as column").Action()
	selectRow(w, view.MetricPane, view.Node{Kind: view.MetricNode, Index: timeM})
	expandAll(w, view.CallPane)

	if !w.cols.head.Visible() {
		t.Fatal("no column header")
	}
	titles := func() []string {
		var out []string
		for _, tt := range w.cols.head.titles {
			out = append(out, tt.text.Text)
		}
		return out
	}
	if got := titles(); !slices.Equal(got, []string{"Time (sec)", "Visits (occ)", "bytes_sent (bytes)"}) {
		t.Fatalf("titles %q", got)
	}
	checkRows := func(what string) {
		t.Helper()
		drv := fyne.CurrentApp().Driver()
		rows := rowViews(w.Pane(view.CallPane))
		if len(rows) < 10 {
			t.Fatalf("%s: %d rows drawn", what, len(rows))
		}
		for _, r := range rows {
			want := w.view.Row(view.CallPane, r.row.Node)
			if len(r.cols) < 2 || r.cols[0].Text != want.Columns[0].Text || r.cols[1].Text != want.Columns[1].Text || r.value.Text != want.Text {
				t.Fatalf("%s: row %s draws %q %v, view says %q %v", what, want.Label, r.value.Text, r.cols, want.Text, want.Columns)
			}
			if r.sw.fill != want.Color {
				t.Errorf("%s: row %s square %v, view says %v", what, want.Label, r.sw.fill, want.Color)
			}
			// Visits are integers: each value ends where its title ends.
			title := w.cols.head.titles[1]
			te := drv.AbsolutePositionForObject(title).X + title.Size().Width
			re := drv.AbsolutePositionForObject(r.cols[0]).X + r.cols[0].Size().Width
			if math.Abs(float64(te-re)) > 0.5 {
				t.Errorf("%s: row %s's visits end at %g, the title at %g", what, want.Label, re, te)
			}
			if lr, vl := drv.AbsolutePositionForObject(r.label).X+r.label.Size().Width, drv.AbsolutePositionForObject(r.value).X; lr > vl {
				t.Errorf("%s: the label of %s (to %g) runs into the value (from %g)", what, want.Label, lr, vl)
			}
		}
	}
	checkRows("call tree")

	// A click on the Visits title sorts by visits, largest first, and
	// colours by visits; a second click sorts smallest first.
	parent := view.Node{Kind: view.CnodeNode}
	for i := range e.Cnodes {
		if len(e.Cnodes[i].Children) > len(e.Cnodes[parent.Index].Children) {
			parent.Index = i
		}
	}
	// Sorted by inclusive values, whatever the rows' state (they are
	// expanded here), as sorting by value does.
	inclVisits, err := e.CallTreeValues(model.MetricSel{Metric: visits, Inclusive: true}, true)
	if err != nil {
		t.Fatal(err)
	}
	kidVisits := func() []float64 {
		var out []float64
		for _, id := range w.Pane(view.CallPane).rows.ChildIDs(parent.ID()) {
			out = append(out, inclVisits[view.ParseNode(id).Index])
		}
		return out
	}
	test.Tap(w.cols.head.titles[1])
	if k, sorted, asc := w.view.Columns().Sorted(); k != 0 || !sorted || asc || w.view.Columns().Selected() != 0 {
		t.Fatalf("after a click on Visits: sorted %v by %d ascending %v", sorted, k, asc)
	}
	if got := kidVisits(); !slices.IsSortedFunc(got, func(a, b float64) int { return compare(b, a) }) || len(got) < 3 {
		t.Errorf("children of the root by visits: %v", got)
	}
	if got := titles()[1]; got != "Visits (occ) ▼" || !w.cols.head.titles[1].text.TextStyle.Bold {
		t.Errorf("the sorted title reads %q", got)
	}
	checkRows("sorted by visits")
	test.Tap(w.cols.head.titles[1])
	if got := kidVisits(); !slices.IsSortedFunc(got, compare) {
		t.Errorf("children of the root by visits, ascending: %v", got)
	}

	// The flat profile and the bottom-up view have the columns too.
	w.SetFlat(true)
	checkRows("flat profile")
	w.SetFlat(false)
	menuItem(w, "View", "Bottom-up view").Action()
	p := w.panels.bottomUp
	var heads []string
	for _, o := range p.heads.Objects {
		heads = append(heads, o.(*widget.Label).Text)
	}
	if want := append(slices.Clone(analysisview.BottomUpColumns), "Visits (occ)", "bytes_sent (bytes)"); !slices.Equal(heads, want) {
		t.Errorf("bottom-up titles %q, want %q", heads, want)
	}
	top := p.childIDs("")
	row := p.newRow(false)
	p.updateRow(top[0], false, row)
	cells := row.(*fyne.Container).Objects[2].(*fyne.Container).Objects
	if len(cells) != 5 || cells[3].(*widget.Label).Text != p.b.Row(top[0]).Columns[3] || cells[3].(*widget.Label).Text == "" {
		t.Errorf("bottom-up row draws %d values", len(cells))
	}
	w.win.Close()

	// The next session opens with the columns and the sort.
	b := session()
	w2 := openWindow(t, b, file)
	if got := w2.view.Columns().Metrics(); !slices.Equal(got, []int{visits, sent}) {
		t.Errorf("next session's columns %v", got)
	}
	if k, sorted, asc := w2.view.Columns().Sorted(); k != 0 || !sorted || !asc {
		t.Errorf("next session sorted %v by %d ascending %v", sorted, k, asc)
	}
	if !w2.cols.head.Visible() || len(w2.cols.head.widths) != 3 {
		t.Error("next session shows no column titles")
	}
	menuItem(w2, "Metric tree", "Remove all metric columns").Action()
	if w2.cols.head.Visible() || len(w2.view.Columns().Metrics()) != 0 {
		t.Error("columns left after Remove all metric columns")
	}
	for _, r := range rowViews(w2.Pane(view.CallPane)) {
		if r.columnsShown() {
			t.Fatalf("row %s still shows columns", r.row.Label)
		}
	}
}

func compare(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestBottomUpColumnsFit: a metric column of the bottom-up view is as
// wide as its widest value (Kripke's PAPI_L1_DCM, 17 characters), so that
// values do not run into each other.
func TestBottomUpColumnsFit(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube4/hw_counter/L2_DCM_negative.cubex"))
	e := w.Document().Exp
	selectRow(w, view.MetricPane, view.Node{Kind: view.MetricNode, Index: e.MetricByName("time")})
	w.cols.set(e.MetricByName("PAPI_L1_DCM"), true)
	menuItem(w, "View", "Bottom-up view").Action()
	p := w.panels.bottomUp
	top := p.childIDs("")
	row := p.newRow(false)
	p.updateRow(top[0], false, row)
	c := row.(*fyne.Container)
	c.Resize(fyne.NewSize(1600, 40))
	cells := c.Objects[2].(*fyne.Container).Objects
	l := cells[len(cells)-1].(*widget.Label)
	if l.Text != "3,856,145,991,945" {
		t.Fatalf("PAPI_L1_DCM of the program reads %q", l.Text)
	}
	for i, o := range cells {
		if o.Size().Width < o.MinSize().Width {
			t.Errorf("value %d (%q) gets %g px, needs %g", i, o.(*widget.Label).Text, o.Size().Width, o.MinSize().Width)
		}
	}
	head := p.heads.Objects[len(p.heads.Objects)-1]
	if head.Size().Width != cells[len(cells)-1].Size().Width {
		t.Errorf("title %g px wide, its values %g", head.Size().Width, cells[len(cells)-1].Size().Width)
	}
}
