package analysisview

import (
	"strings"
	"testing"

	"cubeview/analysis"
	"cubeview/numfmt"
	"cubeview/view"
)

// TestStatsOfSelection checks the statistics of the call selection
// against handMade's comment: time over foo's subtree per location is
// {4+2+1, 0+2+1, 1+2+0} = {7, 3, 3}.
func TestStatsOfSelection(t *testing.T) {
	v := view.NewView(handMade())
	v.Select(view.CallPane, cFoo)
	mustUpdate(t, v)
	req, err := statsRequestOf(v, 3)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := req.compute()
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Summary
	if s.Count != 3 || s.Sum != 13 || s.Min != 3 || s.Max != 7 || !near(s.Mean, 13.0/3) || s.Median != 3 || s.ArgMin != 1 || s.ArgMax != 0 {
		t.Errorf("summary %+v", s)
	}
	lines := map[string]string{}
	for _, l := range rep.Lines {
		lines[l.Name] = l.Value
	}
	if lines["Minimum"] != "3.00 sec at rank 0/t1" || lines["Maximum"] != "7.00 sec at rank 0/t0" || lines["Count"] != "3" {
		t.Errorf("lines %v", lines)
	}
	if !strings.Contains(rep.Title, "main/foo (inclusive)") {
		t.Errorf("title %q", rep.Title)
	}
	// Top call paths by own value: main, foo/foo and bar have 6 each.
	var top []int
	for _, x := range rep.Top {
		top = append(top, x.Cnode)
	}
	if len(top) != 3 || top[0] != 0 || top[1] != 2 || top[2] != 4 || len(rep.TopBoxes) != 3 {
		t.Errorf("top call paths %v", top)
	}
	want, _ := analysis.Statistics(v.Experiment(), "time", []int{4}, false)
	if rep.Top[2].Summary != want[0].Summary {
		t.Errorf("bar: %+v, analysis %+v", rep.Top[2].Summary, want[0].Summary)
	}
	sel, topChart, err := rep.charts()
	if err != nil || sel == nil || topChart == nil {
		t.Fatalf("charts %v %v %v", sel, topChart, err)
	}
	img, err := topChart.Image(400, 300)
	if err != nil || img.Bounds().Dx() != 400 || img.Bounds().Dy() != 300 {
		t.Errorf("image %v, %v", img.Bounds(), err)
	}

	// Expanded: foo's own values {4, 0, 1}; without top call paths.
	v.SetExpanded(view.CallPane, cFoo, true)
	mustUpdate(t, v)
	if k := statsKeyOf(v); k.CallIncl {
		t.Error("key of an expanded call path is inclusive")
	}
	req, _ = statsRequestOf(v, 0)
	rep, err = req.compute()
	if err != nil {
		t.Fatal(err)
	}
	if s := rep.Summary; s.Sum != 5 || s.Min != 0 || s.Max != 4 || len(rep.Top) != 0 {
		t.Errorf("expanded foo: %+v, %d top", s, len(rep.Top))
	}
}

// TestStatsKeepDigits checks the statistics of values that differ in the
// third digit: min, median, max and the standard deviation keep
// numfmt.KeptDigits significant digits (they read 2.72/2.73/2.74 and
// 0.01 before, hiding the imbalance).
func TestStatsKeepDigits(t *testing.T) {
	e := handMade()
	req := statsRequest{Exp: e, Metric: 0, MetricIncl: true, Call: "main", CallIncl: true,
		Values: []float64{2.7163, 2.7281, 2.7412}, Format: numfmt.Grouped()}
	rep, err := req.compute()
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]string{}
	for _, l := range rep.Lines {
		lines[l.Name] = l.Value
	}
	want := map[string]string{
		"Minimum": "2.716 sec at rank 0/t0", "Median": "2.728 sec", "Maximum": "2.741 sec at rank 1/t0",
		"Standard deviation": "0.01017 sec",
	}
	for k, v := range want {
		if lines[k] != v {
			t.Errorf("%s: %q, want %q", k, lines[k], v)
		}
	}
}
