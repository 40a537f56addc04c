package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"cubeview/analysis"
	"cubeview/model"
	"cubeview/view"
)

// TestLocationPanel shows View › Per-location chart on LULESH (27
// processes): the bars are the model's values of the selected metric ×
// call path per location, the summary line names the model's minimum and
// maximum, clicking a bar selects its location in the system pane (which
// the chart then highlights), and a change of call path redraws it.
func TestLocationPanel(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube4/lulesh/lulesh.p27.size25.r1.cubex"))
	e := w.Document().Exp
	time := e.MetricByName("time")
	selectRow(w, view.MetricPane, view.Node{Kind: view.MetricNode, Index: time})
	it := menuItem(w, "View", "Per-location chart")
	if it == nil || it.Disabled || it.Checked {
		t.Fatalf("menu item %+v", it)
	}
	it.Action()
	p := w.panels.locations
	if !w.panels.LocationsShown() || p.rep == nil || p.drawn == nil {
		t.Fatalf("shown %v, chart %v", w.panels.LocationsShown(), p.rep)
	}
	check := func(c int, inclusive bool) {
		t.Helper()
		want, err := e.LocationValues(model.MetricSel{Metric: time, Inclusive: true}, model.CnodeSel{Cnode: c, Inclusive: inclusive})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.rep.Values) != 27 || len(want) != 27 {
			t.Fatalf("%d bars, model %d locations", len(p.rep.Values), len(want))
		}
		for i := range want {
			if !near(p.rep.Values[i], want[i]) {
				t.Errorf("%s bar %d: %g, model %g", e.CallPath(c), i, p.rep.Values[i], want[i])
			}
		}
		s := analysis.Summarize(want)
		line := p.title.Text
		for _, part := range []string{"27 locations", "at " + analysis.LocationName(e, s.ArgMin), "at " + analysis.LocationName(e, s.ArgMax)} {
			if !strings.Contains(line, part) {
				t.Errorf("summary %q misses %q", line, part)
			}
		}
		if !near(p.rep.Summary.Mean, s.Mean) || !near(p.rep.Summary.Max, s.Max) || !near(p.rep.Summary.Min, s.Min) {
			t.Errorf("summary %+v, model %+v", p.rep.Summary, s)
		}
	}
	check(e.CnodeRoots[0], true)
	// Clicking bar 5 selects location 5.
	x, y := p.drawn.BarCenter(5)
	scale := w.win.Canvas().Scale()
	p.tapped(fyne.NewPos(float32(x)/scale, float32(y)/scale))
	want := w.view.Showing(view.Node{Kind: view.SystemNode, Index: e.Locations[5]})
	if got := w.view.Selected(view.SystemPane); got != want {
		t.Fatalf("clicking bar 5 selected %v (%s), want %v", got, w.view.Label(got), want)
	}
	if p.rep.Selected != 5 {
		t.Errorf("the chart highlights bar %d, want 5", p.rep.Selected)
	}
	// Another call path: main, exclusive once expanded.
	main := e.CnodeByPath("lulesh2.0/int main(int, char**)")
	selectRow(w, view.CallPane, view.Node{Kind: view.CnodeNode, Index: main})
	check(main, true)
	w.view.SetExpanded(view.CallPane, view.Node{Kind: view.CnodeNode, Index: main}, true)
	w.refresh()
	check(main, false)
	menuItem(w, "View", "Per-location chart").Action()
	if w.panels.LocationsShown() {
		t.Error("the menu did not hide the chart")
	}
}
