package ui

import (
	"strconv"
	"strings"
	"testing"

	"cubeview/view"
)

// TestHideSmallRows chooses View › Hide small rows › 1 % in a LULESH
// window: the call tree's rows drawn include "(n hidden)" rows holding
// the sum of the call paths they hide, opening one draws those call
// paths, the choice is remembered for the next window, and "Show every row" brings every
// row back.
func TestHideSmallRows(t *testing.T) {
	a := newTestApp(t)
	file := dataFile(t, "cube4/lulesh/lulesh.p27.size25.r1.cubex")
	w := openWindow(t, a, file)
	e := w.Document().Exp
	selectRow(w, view.MetricPane, view.Node{Kind: view.MetricNode, Index: e.MetricByName("time")})
	it := menuItem(w, "View", "Below 1 % of the pane's total")
	if it == nil || it.Checked {
		t.Fatalf("menu item %+v", it)
	}
	it.Action()
	if !menuItem(w, "View", "Below 1 % of the pane's total").Checked {
		t.Error("the chosen threshold is not checked in the menu")
	}
	expandAll(w, view.CallPane)
	shown := shownRows(w.Pane(view.CallPane))
	var hidden []view.Row
	for n, r := range shown {
		if n.Kind == view.HiddenNode {
			hidden = append(hidden, r)
		}
	}
	if len(hidden) == 0 {
		t.Fatal("no (n hidden) row drawn in the call tree")
	}
	vs := w.view.Values()
	for _, r := range hidden {
		members := w.view.Children(view.CallPane, r.Node)
		if r.Label != "("+strconv.Itoa(len(members))+" hidden)" {
			t.Errorf("row reads %q for %d call paths", r.Label, len(members))
		}
		sum := 0.0
		for _, m := range members {
			sum += vs.Inclusive(view.CallPane, m)
			if _, drawn := shown[m]; !drawn {
				t.Errorf("%q below the opened %q is not drawn", w.view.Label(m), r.Label)
			}
		}
		if !near(r.Value, sum) || r.Text != vs.Text(view.CallPane, r.Node) {
			t.Errorf("%q shows %g (%q), its call paths sum to %g", r.Label, r.Value, r.Text, sum)
		}
	}
	w.win.Close()

	b := openWindow(t, a, file)
	if got := b.view.SmallRows().Threshold(); got != 0.01 {
		t.Errorf("a new window folds below %g, want the remembered 0.01", got)
	}
	menuItem(b, "View", "Show every row").Action()
	expandAll(b, view.CallPane)
	for n := range shownRows(b.Pane(view.CallPane)) {
		if n.Kind == view.HiddenNode || strings.Contains(b.view.Label(n), "hidden") {
			t.Errorf("row %q drawn with every row shown", b.view.Label(n))
		}
	}
}
