package ui

import (
	"testing"

	"fyne.io/fyne/v2/widget"

	"cubeview/view"
)

// TestCallGraphPanel opens a gprof report: the window starts with the flat
// profile and the callers and callees of the selection below; clicking a
// callee selects its region, whose callers then list the region before.
func TestCallGraphPanel(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "gprof/gnu1.prof"))
	if !w.view.Flat() || !w.panels.CallGraphShown() {
		t.Fatalf("flat %v, callers and callees shown %v", w.view.Flat(), w.panels.CallGraphShown())
	}
	e := w.Document().Exp
	main := view.Node{Kind: view.RegionNode, Index: 0}
	if e.Regions[0].Name != "main" {
		t.Fatalf("region 0 is %s", e.Regions[0].Name)
	}
	w.selectNode(view.CallPane, main)
	p := w.panels.callGraph
	if p.rep.Region != 0 || p.title.Text == "" {
		t.Fatalf("panel shows region %d, title %q", p.rep.Region, p.title.Text)
	}
	if rows, cols := p.callees.Length(); rows != 28 || cols != 3 {
		t.Errorf("callee table %d×%d, want main's 28 callees × 3", rows, cols)
	}
	first := p.rep.Callees[0]
	if first.Label != "read_all_makefiles" {
		t.Fatalf("first callee %s", first.Label)
	}
	p.callees.OnSelected(widget.TableCellID{Row: 0, Col: 2})
	if got := w.view.Selected(view.CallPane); got != first.Node {
		t.Fatalf("clicking a callee selected %v, want %v", got, first.Node)
	}
	if p.rep.Region != first.Region || len(p.rep.Callers) != 1 || p.rep.Callers[0].Label != "main" {
		t.Errorf("after the click: region %d, callers %+v", p.rep.Region, p.rep.Callers)
	}
	// The value column shows the arc's cost as the call pane would.
	if got := p.rep.Callers[0]; got.Text != "0.18" || got.CallsText != "5" {
		t.Errorf("caller main of read_all_makefiles: %q, %q calls; gprof says 0.00+0.18, 5/5", got.Text, got.CallsText)
	}
	// The menu toggles the panel; a CUBE file has no call graph to show.
	it := menuItem(w, "View", "Callers and callees")
	if it == nil || !it.Checked || it.Disabled {
		t.Fatalf("menu item %+v", it)
	}
	it.Action()
	if w.panels.CallGraphShown() {
		t.Error("the menu did not hide the panel")
	}
	c := openWindow(t, a, dataFile(t, "cube4/cpi/profile.cubex"))
	if c.view.Flat() || c.panels.CallGraphShown() || !menuItem(c, "View", "Callers and callees").Disabled {
		t.Errorf("a CUBE file: flat %v, panel %v", c.view.Flat(), c.panels.CallGraphShown())
	}
}
