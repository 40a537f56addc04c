package model

import (
	"fmt"
	"testing"
)

// recursive builds, for each aggregation kind, a metric over one location
// with own values main 5 → foo 4 → foo 6 → bar 3 and main 5 → bar 7.
func recursive(agg Aggregation) *Experiment {
	dtype := map[Aggregation]DataType{Sum: "DOUBLE", Min: "MINDOUBLE", Max: "MAXDOUBLE"}[agg]
	e := &Experiment{
		Metrics: []Metric{{ID: 0, UniqName: "m", DataType: dtype, Aggregation: agg, Parent: -1}},
		Regions: []Region{{ID: 0, Name: "main"}, {ID: 1, Name: "foo"}, {ID: 2, Name: "bar"}},
		Cnodes: []Cnode{
			{ID: 0, Region: 0, Parent: -1}, {ID: 1, Region: 1, Parent: 0}, {ID: 2, Region: 1, Parent: 1},
			{ID: 3, Region: 2, Parent: 2}, {ID: 4, Region: 2, Parent: 0},
		},
		System: []SystemNode{{ID: 0, Kind: Group, Parent: -1}, {ID: 0, Kind: Leaf, Parent: 0}},
	}
	e.Link()
	e.NumberLocations()
	b := NewBlock(5, 1)
	for c, v := range []float64{5, 4, 6, 3, 7} {
		b.SetRow(c, []float64{v})
	}
	e.SetBlock(0, b)
	return e
}

// TestFlatProfileEveryAggregation checks whole, own and callees of each
// region against hand-computed values; for min and max metrics the
// callees value is the min (max) over the callees, which whole − own is
// not (for min: main 3 − 5 = −2 instead of 3).
func TestFlatProfileEveryAggregation(t *testing.T) {
	tests := []struct {
		agg                 Aggregation
		whole, own, callees []float64
		hasCallees          []bool
	}{
		{Sum, []float64{25, 13, 10}, []float64{5, 10, 10}, []float64{20, 3, 0}, []bool{true, true, false}},
		{Min, []float64{3, 3, 3}, []float64{5, 4, 3}, []float64{3, 3, 0}, []bool{true, true, false}},
		{Max, []float64{7, 6, 7}, []float64{5, 6, 7}, []float64{7, 3, 0}, []bool{true, true, false}},
	}
	for _, tt := range tests {
		e := recursive(tt.agg)
		excl, err := e.stored().cnodeValues(MetricSel{Metric: 0, Inclusive: true})
		if err != nil {
			t.Fatal(err)
		}
		f := flatParts(e, excl, tt.agg)
		if g, err := flatOf(e, MetricSel{Metric: 0, Inclusive: true}); err != nil || fmt.Sprint(g) != fmt.Sprint(f) {
			t.Errorf("%v: flatOf %v, %v; want flatParts %v", tt.agg, g, err, f)
		}
		equal(t, tt.agg.String()+" whole", f.Whole, tt.whole)
		equal(t, tt.agg.String()+" own", f.Own, tt.own)
		equal(t, tt.agg.String()+" callees", f.Callees, tt.callees)
		for r, want := range tt.hasCallees {
			if f.HasCallees[r] != want {
				t.Errorf("%v: region %s HasCallees = %v, want %v", tt.agg, e.Regions[r].Name, f.HasCallees[r], want)
			}
		}
		// The system pane's value for a flat row (its call paths over all
		// locations) agrees with the flat profile.
		for r := range e.Regions {
			for _, p := range []RegionPart{RegionWhole, RegionOwn, RegionCallees} {
				if p == RegionCallees && !f.HasCallees[r] {
					continue
				}
				loc, err := locationValuesOver(e, MetricSel{Metric: 0, Inclusive: true}, regionCnodes(e, r, p))
				if err != nil {
					t.Fatal(err)
				}
				if got := systemValue(e, loc, 0, tt.agg); got != f.Value(r, p) {
					t.Errorf("%v: region %s part %d: system value %v, flat profile %v", tt.agg, e.Regions[r].Name, p, got, f.Value(r, p))
				}
			}
		}
	}
}

func TestRegionCnodes(t *testing.T) {
	e := recursive(Sum)
	tests := []struct {
		region int
		part   RegionPart
		want   string
	}{
		{1, RegionOwn, "[1 2]"},
		{1, RegionWhole, "[1 2 3]"},
		{1, RegionCallees, "[3]"},
		{0, RegionCallees, "[1 2 3 4]"},
		{2, RegionWhole, "[3 4]"},
		{2, RegionCallees, "[]"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(regionCnodes(e, tt.region, tt.part)); got != tt.want {
			t.Errorf("regionCnodes(%s, %d) = %s, want %s", e.Regions[tt.region].Name, tt.part, got, tt.want)
		}
	}
}
