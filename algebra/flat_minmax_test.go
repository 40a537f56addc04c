package algebra

import (
	"testing"

	"cubeview/model"
)

// TestFlatProfileKeepsMinMaxValues: flattening the call tree (to combine
// it with a flat profile) merges the call paths of a region; a minimum
// counts only the locations that visited each call path, so f, called on
// two paths visited by one thread each (5 and 7), has the minimum 5, not
// the 0 stored where a thread did not visit a path.
func TestFlatProfileKeepsMinMaxValues(t *testing.T) {
	e := &model.Experiment{
		Metrics: []model.Metric{
			{ID: 0, UniqName: "visits", DataType: "UINT64", Unit: "occ", Parent: -1},
			{ID: 1, UniqName: "min_time", DataType: "MINDOUBLE", Unit: "sec", Parent: -1, Aggregation: model.Min},
		},
		Regions: []model.Region{{ID: 0, Name: "main", Begin: -1, End: -1}, {ID: 1, Name: "f", Begin: -1, End: -1}, {ID: 2, Name: "g", Begin: -1, End: -1}},
		Cnodes: []model.Cnode{
			{ID: 0, Region: 0, Parent: -1, CallLine: -1},
			{ID: 1, Region: 1, Parent: 0, CallLine: -1},
			{ID: 2, Region: 2, Parent: 0, CallLine: -1},
			{ID: 3, Region: 1, Parent: 2, CallLine: -1},
		},
		System: []model.SystemNode{
			{ID: 0, Kind: model.TreeNode, Class: "machine", Name: "m", Parent: -1},
			{ID: 1, Kind: model.Group, Class: "process", Name: "rank 0", Parent: 0},
			{ID: 2, Kind: model.Leaf, Class: "thread", Name: "t0", Parent: 1},
			{ID: 3, Kind: model.Leaf, Class: "thread", Name: "t1", Rank: 1, Parent: 1},
		},
	}
	e.Link()
	e.NumberLocations()
	rows := func(vals [][]float64) *model.Block {
		b := model.NewBlock(4, 2)
		for c, r := range vals {
			copy(b.MutableRow(c), r)
		}
		return b
	}
	e.SetBlock(0, rows([][]float64{{1, 1}, {1, 0}, {1, 1}, {0, 1}}))
	e.SetBlock(1, rows([][]float64{{9, 9}, {5, 0}, {8, 8}, {0, 7}}))
	fe, err := flatProfile(e)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fe.CallTreeValues(model.MetricSel{Metric: 1, Inclusive: true}, false)
	if err != nil {
		t.Fatal(err)
	}
	for c := range fe.Cnodes {
		if fe.CnodeRegion(c).Name == "f" && got[c] != 5 {
			t.Errorf("flat f: min_time %v, want 5", got[c])
		}
	}
}
