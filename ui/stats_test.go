package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysis"
	"cubeview/analysisview"
	"cubeview/view"
)

// TestStatisticsPanel shows View › Statistics on a real experiment with
// 1,024 locations and checks the numbers against analysis.Statistics of
// the selected call path, inclusive when collapsed and exclusive when
// expanded; the top call paths against analysis.Statistics of every call
// path; and that the plots are drawn.
func TestStatisticsPanel(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube3/example3.cube"))
	it := menuItem(w, "View", "Statistics")
	if it == nil || it.Disabled {
		t.Fatalf("View › Statistics missing or disabled: %+v", it)
	}
	it.Action()
	if !w.panels.StatsShown() || w.panels.stats.m.Report() == nil {
		t.Fatal("the statistics panel is not shown")
	}
	e := w.Document().Exp
	v := w.view
	check := func(uniq string, c view.Node, inclusive bool) {
		t.Helper()
		got := w.panels.stats.m.Report()
		want, err := analysis.Statistics(e, uniq, []int{c.Index}, inclusive)
		if err != nil {
			t.Fatal(err)
		}
		s := want[0].Summary
		if got.Summary.Count != s.Count || !near(got.Summary.Sum, s.Sum) || !near(got.Summary.Min, s.Min) ||
			!near(got.Summary.Max, s.Max) || !near(got.Summary.Mean, s.Mean) || !near(got.Summary.Median, s.Median) ||
			!near(got.Summary.Q1, s.Q1) || !near(got.Summary.Q3, s.Q3) || !near(got.Summary.StdDev, s.StdDev) ||
			got.Summary.ArgMin != s.ArgMin || got.Summary.ArgMax != s.ArgMax {
			t.Errorf("%s at %s (inclusive %v): panel %+v, analysis %+v", uniq, e.CallPath(c.Index), inclusive, got.Summary, s)
		}
		f := v.Appearance().NumberFormat()
		m := &e.Metrics[e.MetricByName(uniq)]
		lines := map[string]string{}
		for _, l := range got.Lines {
			lines[l.Name] = l.Value
		}
		for name, want := range map[string]string{
			"Count":              fmt.Sprint(s.Count),
			"Sum":                f.Format(s.Sum, m.IsInteger()) + " " + m.Unit,
			"Maximum":            f.Format(s.Max, m.IsInteger()) + " " + m.Unit + " at " + analysis.LocationName(e, s.ArgMax),
			"Minimum":            f.Format(s.Min, m.IsInteger()) + " " + m.Unit + " at " + analysis.LocationName(e, s.ArgMin),
			"Median":             f.Format(s.Median, false) + " " + m.Unit,
			"Standard deviation": f.Format(s.StdDev, false) + " " + m.Unit,
		} {
			if lines[name] != want {
				t.Errorf("%s: %s shows %q, want %q", e.CallPath(c.Index), name, lines[name], want)
			}
		}
		// What the panel shows is what its widgets hold.
		shown := map[string]bool{}
		for _, o := range w.panels.stats.lines.Objects {
			shown[labelText(o)] = true
		}
		for _, l := range got.Lines {
			if !shown[l.Value] {
				t.Errorf("value %q of %s is not drawn", l.Value, l.Name)
			}
		}
		if w.panels.stats.selImg.Image == nil || w.panels.stats.topImg.Image == nil {
			t.Error("a box plot is missing")
		}
	}
	uniq := e.Metrics[v.Selected(view.MetricPane).Index].UniqName
	root := v.Selected(view.CallPane)
	check(uniq, root, true)

	// Top call paths: the largest own sums of analysis.Statistics.
	all, err := analysis.Statistics(e, uniq, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	top := w.panels.stats.m.Report().Top
	if len(top) == 0 || len(top) > analysisview.StatsTop || len(w.panels.stats.m.Report().TopBoxes) != len(top) {
		t.Fatalf("%d top call paths, %d boxes", len(top), len(w.panels.stats.m.Report().TopBoxes))
	}
	for _, s := range all {
		if abs(s.Sum) > abs(top[len(top)-1].Sum) {
			found := false
			for _, x := range top {
				found = found || x.Cnode == s.Cnode
			}
			if !found {
				t.Errorf("%s (sum %v) is missing from the top call paths", e.CallPath(s.Cnode), s.Sum)
			}
		}
	}
	for i := 1; i < len(top); i++ {
		if abs(top[i].Sum) > abs(top[i-1].Sum) {
			t.Errorf("top call paths not ordered: %v after %v", top[i].Sum, top[i-1].Sum)
		}
	}

	// Follow the selection: another call path, collapsed then expanded,
	// and another metric.
	kids := v.Children(view.CallPane, root)
	if len(kids) == 0 {
		t.Fatal("the root has no children")
	}
	c := kids[len(kids)-1]
	w.selectNode(view.CallPane, c)
	check(uniq, c, true)
	if v.IsBranch(view.CallPane, c) {
		w.Pane(view.CallPane).OpenBranch(c.ID())
		check(uniq, c, false)
	}
	for _, m := range v.Roots(view.MetricPane) {
		if m != v.Selected(view.MetricPane) && e.Metrics[m.Index].Unavailable == "" {
			w.selectNode(view.MetricPane, m)
			check(e.Metrics[m.Index].UniqName, c, !v.Expanded(view.CallPane, c))
			break
		}
	}
	// Hiding it stops following; Ctrl+I's item toggles.
	menuItem(w, "View", "Statistics").Action()
	if w.panels.StatsShown() {
		t.Error("the panel is still shown")
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func labelText(o fyne.CanvasObject) string {
	if l, ok := o.(*widget.Label); ok {
		return l.Text
	}
	return ""
}
