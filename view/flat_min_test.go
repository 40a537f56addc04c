package view

import (
	"testing"

	"cubeview/model"
)

// TestFlatSubroutinesOfMinMetric: a MINDOUBLE metric with call-path values
// main 5 → foo 4 → bar 3. The "Subroutines" row of foo is the least of
// what foo calls, 3 (not inclusive − exclusive = 3 − 4 = −1), and the
// system pane shows the same value for it; for main it is min(4, 3) = 3.
func TestFlatSubroutinesOfMinMetric(t *testing.T) {
	e := &model.Experiment{
		Metrics: []model.Metric{{ID: 0, UniqName: "min_time", DataType: "MINDOUBLE", Aggregation: model.Min, Parent: -1}},
		Regions: []model.Region{{ID: 0, Name: "main"}, {ID: 1, Name: "foo"}, {ID: 2, Name: "bar"}},
		Cnodes: []model.Cnode{
			{ID: 0, Region: 0, Parent: -1}, {ID: 1, Region: 1, Parent: 0}, {ID: 2, Region: 2, Parent: 1},
		},
		System: []model.SystemNode{{ID: 0, Kind: model.Group, Parent: -1}, {ID: 0, Kind: model.Leaf, Parent: 0}},
	}
	e.Link()
	e.NumberLocations()
	b := model.NewBlock(3, 1)
	for c, x := range []float64{5, 4, 3} {
		b.SetRow(c, []float64{x})
	}
	e.SetBlock(0, b)
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}

	v := NewView(e)
	v.SetFlat(true)
	for r, name := range []string{"main", "foo"} {
		region, subs := Node{RegionNode, r}, Node{SubroutinesNode, r}
		v.SetExpanded(CallPane, region, true)
		v.Select(CallPane, subs)
		mustUpdate(t, v)
		if got := v.Values().Value(CallPane, subs); got != 3 {
			t.Errorf("%s: Subroutines shows %v, want 3", name, got)
		}
		if got := v.Values().Value(SystemPane, Node{SystemNode, 1}); got != 3 {
			t.Errorf("%s: system pane for Subroutines shows %v, want 3", name, got)
		}
		// Expanded, the region row shows its own value.
		if got, want := v.Values().Value(CallPane, region), []float64{5, 4}[r]; got != want {
			t.Errorf("%s: expanded region shows %v, want %v", name, got, want)
		}
	}
}
