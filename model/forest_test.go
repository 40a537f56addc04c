package model

import "testing"

// overlapping builds a tau2cube-like experiment: two roots whose values
// overlap, time own values A 2 (per location [1 1]) → A/x [6 2], and B
// [1 5]; a MINDOUBLE metric with the same rows.
func overlapping(aggr string) *Experiment {
	e := &Experiment{
		Metrics: []Metric{
			{ID: 0, UniqName: "time", DataType: "DOUBLE", Parent: -1},
			{ID: 1, UniqName: "min", DataType: "MINDOUBLE", Aggregation: Min, Parent: -1},
		},
		Regions: []Region{{ID: 0, Name: "A"}, {ID: 1, Name: "x"}, {ID: 2, Name: "B"}},
		Cnodes:  []Cnode{{ID: 0, Region: 0, Parent: -1}, {ID: 1, Region: 1, Parent: 0}, {ID: 2, Region: 2, Parent: -1}},
		System: []SystemNode{
			{ID: 0, Kind: TreeNode, Parent: -1},
			{ID: 0, Kind: Group, Parent: 0}, {ID: 0, Kind: Leaf, Parent: 1},
			{ID: 1, Kind: Group, Parent: 0}, {ID: 1, Kind: Leaf, Parent: 3},
		},
	}
	if aggr != "" {
		e.Attrs = []Attr{{CallTreeAggrKey, aggr}}
	}
	e.Link()
	e.NumberLocations()
	for m := range e.Metrics {
		b := NewBlock(3, 2)
		b.SetRow(0, []float64{1, 1})
		b.SetRow(1, []float64{6, 2})
		b.SetRow(2, []float64{1, 5})
		e.SetBlock(m, b)
	}
	return e
}

func TestCallTreeAggregation(t *testing.T) {
	tests := []struct {
		aggr      string
		total     float64
		locations []float64
		system    []float64 // machine, rank 0, its thread, rank 1, its thread
	}{
		// SUM: everything added: 2 + 8 + 6.
		{"", 16, []float64{8, 8}, []float64{16, 8, 8, 8, 8}},
		{"SUM", 16, []float64{8, 8}, []float64{16, 8, 8, 8, 8}},
		// MAX: the larger root, A (10) against B (6); per location A [7 3]
		// and B [1 5]; the machine max(10, 6), not 7 + 5.
		{"MAX", 10, []float64{7, 5}, []float64{10, 7, 7, 5, 5}},
		{" max ", 10, []float64{7, 5}, []float64{10, 7, 7, 5, 5}},
	}
	for _, tt := range tests {
		e := overlapping(tt.aggr)
		ms := MetricSel{Metric: 0, Inclusive: true}
		total, err := e.MetricTotal(ms)
		if err != nil {
			t.Fatal(err)
		}
		if total != tt.total {
			t.Errorf("%q: MetricTotal = %v, want %v", tt.aggr, total, tt.total)
		}
		loc, err := e.LocationValues(ms, AllCnodes)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, tt.aggr+" locations", loc, tt.locations)
		sys, err := ForestSystemValues(e, ms)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, tt.aggr+" system", sys, tt.system)
		// One call path selected: CUBE_CT_AGGR does not apply.
		one, _ := e.LocationValues(ms, CnodeSel{Cnode: 0, Inclusive: true})
		equal(t, tt.aggr+" root A", one, []float64{7, 3})

		// A min metric is the minimum of everything either way.
		mt, _ := e.MetricTotal(MetricSel{Metric: 1, Inclusive: true})
		if mt != 1 {
			t.Errorf("%q: min metric total %v, want 1", tt.aggr, mt)
		}
		mloc, _ := e.LocationValues(MetricSel{Metric: 1, Inclusive: true}, AllCnodes)
		equal(t, tt.aggr+" min locations", mloc, []float64{1, 1})
	}
}
