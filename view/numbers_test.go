package view

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// TestSmallValuesColumn checks that a column of values far below the
// format's last decimal place (gprof's seconds per call, microseconds)
// reads as numbers, not 0.00, each with numfmt.KeptDigits significant
// digits, aligned on the decimal point.
func TestSmallValuesColumn(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "gprof", "gnu1.prof"))
	if err != nil {
		t.Fatal(err)
	}
	m := e.MetricByName("s/call")
	if m < 0 {
		t.Fatal("gnu1.prof has no metric s/call")
	}
	v := NewView(e)
	v.SetFlat(true)
	v.Select(MetricPane, Node{MetricNode, m})
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
	point := -1
	nonZero := 0
	for _, n := range v.Roots(CallPane) {
		r := v.Row(CallPane, n)
		if r.Value != r.Value || r.Value == 0 { // NaN: undefined
			continue
		}
		text := strings.ReplaceAll(r.Text, ",", "")
		_, frac, _ := strings.Cut(text, ".")
		// The decimal point is Pad + len(frac)+1 characters from the edge.
		at := r.Pad + len(frac) + 1
		if point < 0 {
			point = at
		} else if at != point {
			t.Errorf("%s: %q with pad %d has its point %d from the edge, the column %d", r.Label, r.Text, r.Pad, at, point)
		}
		if at > v.Values().ValueChars(CallPane) {
			t.Errorf("%s: %q wider than the column (%d)", r.Label, r.Text, v.Values().ValueChars(CallPane))
		}
		got, err := strconv.ParseFloat(text, 64)
		if err != nil {
			t.Errorf("%s: %q is not a plain number", r.Label, r.Text)
			continue
		}
		if got != 0 {
			nonZero++
		}
		// KeptDigits significant digits: within half a unit of the 4th.
		if rel := math.Abs(got-r.Value) / math.Abs(r.Value); rel > 5e-4 {
			t.Errorf("%s: %q for %g (relative error %.2g)", r.Label, r.Text, r.Value, rel)
		}
	}
	if nonZero == 0 {
		t.Error("every value of the column reads 0")
	}
	if got := v.Row(MetricPane, Node{MetricNode, m}).Text; strings.Trim(got, "0.,") == "" {
		t.Errorf("metric pane: s/call reads %q", got)
	}
}

// smallValueExperiment has call paths main (100 s of its own) and main/tiny
// (2.0134e-5 s) on one location.
func smallValueExperiment() *model.Experiment {
	e := &model.Experiment{Source: "small values"}
	e.Metrics = []model.Metric{{ID: 0, UniqName: "time", DispName: "Time", DataType: "DOUBLE", Unit: "sec", Parent: -1}}
	e.Regions = []model.Region{{ID: 0, Name: "main", Begin: -1, End: -1}, {ID: 1, Name: "tiny", Begin: -1, End: -1}}
	e.Cnodes = []model.Cnode{{ID: 0, Region: 0, Parent: -1, CallLine: -1}, {ID: 1, Region: 1, Parent: 0, CallLine: -1}}
	e.System = []model.SystemNode{
		{ID: 0, Kind: model.Group, Class: "process", Name: "rank 0", Parent: -1},
		{ID: 0, Kind: model.Leaf, Class: "thread", Name: "t0", Parent: 0},
	}
	e.Link()
	e.NumberLocations()
	b := model.NewBlock(2, 1)
	b.SetRow(0, []float64{100})
	b.SetRow(1, []float64{2.0134e-5})
	e.SetBlock(0, b)
	return e
}

// TestStatusLineKeepsDigits checks that the pane and the status line show
// a small value beside a large one with the same significant digits (the
// status line read 0.00 where the pane read 0.000020).
func TestStatusLineKeepsDigits(t *testing.T) {
	v := NewView(smallValueExperiment())
	tiny := Node{CnodeNode, 1}
	v.SetExpanded(CallPane, Node{CnodeNode, 0}, true)
	v.Select(CallPane, tiny)
	mustUpdate(t, v)
	if got := v.Row(CallPane, tiny).Text; got != "0.00002013" {
		t.Errorf("pane shows %q, want 0.00002013", got)
	}
	if got := v.Explain(CallPane); !strings.Contains(got, ": 0.00002013 sec") {
		t.Errorf("status line %q does not show 0.00002013 sec", got)
	}
	v.SetMode(CallPane, OwnRootPercent)
	mustUpdate(t, v)
	if got := v.Explain(CallPane); !strings.Contains(got, "absolute 0.00002013 sec") || !strings.Contains(got, "0.00002013 %") {
		t.Errorf("status line in percent %q does not show 0.00002013 %% and absolute 0.00002013 sec", got)
	}
	if got := v.Row(CallPane, Node{CnodeNode, 0}).Text; got != "100.00" {
		t.Errorf("main shows %q, want 100.00", got)
	}
}
