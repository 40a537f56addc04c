package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"cubeview/view"
)

// TestBottomUpPanel opens LULESH, shows the bottom-up view from the menu
// and checks the rows a user sees against the call pane: the largest
// regions are the program and main with the call pane's inclusive values, its row lists its
// caller, clicking a caller row selects that call path in the call pane,
// and a change of metric changes the rows.
func TestBottomUpPanel(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube4/lulesh/lulesh.p27.size25.r1.cubex"))
	e := w.Document().Exp
	selectRow(w, view.MetricPane, view.Node{Kind: view.MetricNode, Index: e.MetricByName("time")})
	it := menuItem(w, "View", "Bottom-up view")
	if it == nil || it.Disabled || it.Checked {
		t.Fatalf("menu item %+v", it)
	}
	it.Action()
	if !w.panels.BottomUpShown() {
		t.Fatal("the menu did not show the bottom-up view")
	}
	p := w.panels.bottomUp
	top := p.childIDs("")
	if len(top) != 12 || !strings.Contains(p.title.Text, "Time") {
		t.Fatalf("%d top rows, title %q", len(top), p.title.Text)
	}
	// The rows drawn hold the model's values as the call pane shows them.
	main := e.CnodeByPath("lulesh2.0/int main(int, char**)")
	if main < 0 {
		t.Fatal("no call path main")
	}
	for i, c := range []int{e.CnodeRoots[0], main} {
		incl, _, _ := p.b.Values(top[i])
		want := w.view.Values().Inclusive(view.CallPane, view.Node{Kind: view.CnodeNode, Index: c})
		if !near(incl, want) {
			t.Errorf("row %d (%s) holds %g, call path %s %g", i, top[i], incl, e.CallPath(c), want)
		}
	}
	row := p.newRow(true)
	p.updateRow(top[1], true, row)
	cells := row.(*fyne.Container)
	if got := cells.Objects[0].(*widget.Label).Text; got != "int main(int, char**)" {
		t.Errorf("second row reads %q", got)
	}
	value := cells.Objects[2].(*fyne.Container).Objects[0].(*widget.Label).Text
	if want := w.view.Values().Text(view.CallPane, view.Node{Kind: view.CnodeNode, Index: main}); value != want {
		t.Errorf("main's inclusive value reads %q, the call pane %q", value, want)
	}
	// The callers of the region with most exclusive time beneath main.
	var leaf string
	for _, id := range top {
		if p.isBranch(id) && id != top[0] && id != top[1] {
			leaf = id
			break
		}
	}
	callers := p.childIDs(leaf)
	if len(callers) == 0 {
		t.Fatalf("%s has no callers", leaf)
	}
	p.tree.OpenBranch(leaf)
	p.tree.Select(callers[0])
	sel := w.view.Selected(view.CallPane)
	if sel.Kind != view.CnodeNode || e.CnodeRegion(sel.Index).Name != strings.TrimPrefix(p.b.Row(callers[0]).Label, "← ") {
		t.Errorf("clicking caller row %s selected %v (%s)", callers[0], sel, w.view.Label(sel))
	}
	// Another metric: the rows follow.
	selectRow(w, view.MetricPane, view.Node{Kind: view.MetricNode, Index: e.MetricByName("visits")})
	if !strings.Contains(p.title.Text, "Visits") {
		t.Errorf("title after selecting visits: %q", p.title.Text)
	}
	menuItem(w, "View", "Bottom-up view").Action()
	if w.panels.BottomUpShown() {
		t.Error("the menu did not hide the bottom-up view")
	}
}
