package model

import (
	"fmt"
	"testing"
)

// chain builds main → foo → bar with own values 5, 4, 3 on one location,
// the case of a min metric whose "Subroutines" row whole − own got wrong.
func chain(agg Aggregation) *Experiment {
	dtype := map[Aggregation]DataType{Sum: "DOUBLE", Min: "MINDOUBLE", Max: "MAXDOUBLE"}[agg]
	e := &Experiment{
		Metrics: []Metric{{ID: 0, UniqName: "m", DataType: dtype, Aggregation: agg, Parent: -1}},
		Regions: []Region{{ID: 0, Name: "main"}, {ID: 1, Name: "foo"}, {ID: 2, Name: "bar"}},
		Cnodes:  []Cnode{{ID: 0, Region: 0, Parent: -1}, {ID: 1, Region: 1, Parent: 0}, {ID: 2, Region: 2, Parent: 1}},
		System:  []SystemNode{{ID: 0, Kind: Group, Parent: -1}, {ID: 0, Kind: Leaf, Parent: 0}},
	}
	e.Link()
	e.NumberLocations()
	b := NewBlock(3, 1)
	for c, v := range []float64{5, 4, 3} {
		b.SetRow(c, []float64{v})
	}
	e.SetBlock(0, b)
	return e
}

// TestRegionProfileCallees: the callees ("Subroutines") of each region,
// hand-computed for every aggregation kind, from RegionProfile (the
// flat-profile pane's query), for a stored and a derived metric.
func TestRegionProfileCallees(t *testing.T) {
	tests := []struct {
		agg                 Aggregation
		whole, own, callees []float64
	}{
		// foo: whole − own would be 7 − 4 = 3 for a sum, but 3 − 4 = −1
		// for a min metric, whose callees are min(3) = 3.
		{Sum, []float64{12, 7, 3}, []float64{5, 4, 3}, []float64{7, 3, 0}},
		{Min, []float64{3, 3, 3}, []float64{5, 4, 3}, []float64{3, 3, 0}},
		{Max, []float64{5, 4, 3}, []float64{5, 4, 3}, []float64{4, 3, 0}},
	}
	for _, tt := range tests {
		e := chain(tt.agg)
		f, err := RegionProfile(e, MetricSel{Metric: 0, Inclusive: true})
		if err != nil {
			t.Fatal(err)
		}
		equal(t, tt.agg.String()+" whole", f.Whole, tt.whole)
		equal(t, tt.agg.String()+" own", f.Own, tt.own)
		equal(t, tt.agg.String()+" callees", f.Callees, tt.callees)
		if got := fmt.Sprint(f.HasCallees); got != "[true true false]" {
			t.Errorf("%v: HasCallees %s", tt.agg, got)
		}
		excl, incl, err := e.FlatProfileOf(MetricSel{Metric: 0, Inclusive: true})
		if err != nil || fmt.Sprint(excl, incl) != fmt.Sprint(f.Own, f.Whole) {
			t.Errorf("%v: FlatProfileOf %v %v, %v; want own and whole of RegionProfile", tt.agg, excl, incl, err)
		}

		// A derived metric 2·m + 1 applies its formula to each part.
		formula, err := ParseFormula("2 * m + 1")
		if err != nil {
			t.Fatal(err)
		}
		d, err := e.WithDerived(DerivedMetric{UniqName: "d", Formula: formula})
		if err != nil {
			t.Fatal(err)
		}
		df, err := RegionProfile(d, MetricSel{Metric: d.MetricByName("d"), Inclusive: true})
		if err != nil {
			t.Fatal(err)
		}
		twice := func(v []float64) []float64 {
			out := make([]float64, len(v))
			for i, x := range v {
				out[i] = 2*x + 1
			}
			return out
		}
		equal(t, tt.agg.String()+" derived whole", df.Whole, twice(tt.whole))
		equal(t, tt.agg.String()+" derived own", df.Own, twice(tt.own))
		equal(t, tt.agg.String()+" derived callees", df.Callees, twice(tt.callees))
		if fmt.Sprint(df.HasCallees) != fmt.Sprint(f.HasCallees) {
			t.Errorf("%v: derived HasCallees %v", tt.agg, df.HasCallees)
		}
	}
}

// TestRegionProfileGraphInclusive: where a call-graph tool records a
// region's inclusive value, a sum metric's callees are that value minus
// the own value, so that the rows add up as the tool's report does.
func TestRegionProfileGraphInclusive(t *testing.T) {
	e := chain(Sum)
	e.CallGraph = &CallGraph{Inclusive: map[int][]float64{0: {20, 9, 3}}}
	f, err := RegionProfile(e, MetricSel{Metric: 0, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "whole", f.Whole, []float64{20, 9, 3})
	equal(t, "callees", f.Callees, []float64{15, 5, 0})
}
