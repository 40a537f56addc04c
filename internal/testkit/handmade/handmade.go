package handmade

import "cubeview/model"

// Experiment builds a small experiment whose displayed values are worked
// out by hand in the tests:
//
//	metrics: time (sec) > mpi; visits (UINT64); min_t (MINDOUBLE)
//	calls:   c0 main > c1 foo > c2 foo > c3 bar;  c0 main > c4 bar
//	system:  cluster > node0 > {rank 0: t0, t1; rank 1: t0}  (locations 0, 1, 2)
//
// time per cnode and location (inclusive of mpi, as CUBE stores it):
//
//	c0 {1,2,3}  c1 {4,0,1}  c2 {2,2,2}  c3 {1,1,0}  c4 {0,5,1}
//
// so time's own values per cnode are c0 6, c1 5, c2 6, c3 2, c4 6 (total
// 25) and inclusive along the call tree c0 25, c1 13, c2 8, c3 2, c4 6.
// mpi: c0 {0,1,0}, c3 {1,0,0}, c4 {0,2,1} (total 5).
// visits: c0 {1,1,1}, c1 {3,0,1}, c4 {0,7,2} (total 16).
func Experiment() *model.Experiment {
	e := &model.Experiment{Source: "hand-made"}
	e.Metrics = []model.Metric{
		{ID: 0, UniqName: "time", DispName: "Time", DataType: "DOUBLE", Unit: "sec", Parent: -1, Descr: "Total time"},
		{ID: 1, UniqName: "mpi", DispName: "MPI", DataType: "DOUBLE", Unit: "sec", Parent: 0},
		{ID: 2, UniqName: "visits", DispName: "Visits", DataType: "UINT64", Unit: "occ", Parent: -1},
		{ID: 3, UniqName: "min_t", DispName: "Min time", DataType: "MINDOUBLE", Unit: "sec", Parent: -1, Aggregation: model.Min},
	}
	e.Regions = []model.Region{
		{ID: 0, Name: "main", Module: "main.c", Begin: 1, End: 40},
		{ID: 1, Name: "foo", Module: "foo.c", Begin: 3, End: 9},
		{ID: 2, Name: "bar", Module: "bar.c", Begin: 5, End: 7},
	}
	e.Cnodes = []model.Cnode{
		{ID: 0, Region: 0, Parent: -1, CallLine: -1},
		{ID: 1, Region: 1, Parent: 0, CallFile: "main.c", CallLine: 10},
		{ID: 2, Region: 1, Parent: 1, CallFile: "foo.c", CallLine: 5},
		{ID: 3, Region: 2, Parent: 2, CallFile: "foo.c", CallLine: 6},
		{ID: 4, Region: 2, Parent: 0, CallFile: "main.c", CallLine: 11},
	}
	e.System = []model.SystemNode{
		{ID: 0, Kind: model.TreeNode, Class: "machine", Name: "cluster", Parent: -1},
		{ID: 1, Kind: model.TreeNode, Class: "node", Name: "node0", Parent: 0},
		{ID: 0, Kind: model.Group, Class: "process", Name: "rank 0", Rank: 0, Parent: 1},
		{ID: 0, Kind: model.Leaf, Class: "thread", Name: "t0", Rank: 0, Parent: 2},
		{ID: 1, Kind: model.Leaf, Class: "thread", Name: "t1", Rank: 1, Parent: 2},
		{ID: 1, Kind: model.Group, Class: "process", Name: "rank 1", Rank: 1, Parent: 1},
		{ID: 2, Kind: model.Leaf, Class: "thread", Name: "t0", Rank: 0, Parent: 5},
	}
	e.Link()
	e.NumberLocations()
	set := func(m int, rows map[int][]float64) {
		b := model.NewBlock(len(e.Cnodes), len(e.Locations))
		for c, r := range rows {
			b.SetRow(c, r)
		}
		e.SetBlock(m, b)
	}
	set(0, map[int][]float64{0: {1, 2, 3}, 1: {4, 0, 1}, 2: {2, 2, 2}, 3: {1, 1, 0}, 4: {0, 5, 1}})
	set(1, map[int][]float64{0: {0, 1, 0}, 3: {1, 0, 0}, 4: {0, 2, 1}})
	set(2, map[int][]float64{0: {1, 1, 1}, 1: {3, 0, 1}, 4: {0, 7, 2}})
	set(3, map[int][]float64{0: {0.5, 0.2, 0.9}, 2: {0.3, 0.4, 0.6}})
	return e
}

// Diff is Experiment with time at bar (c4) made negative on location 1,
// as a difference of two runs would give: c4's time is 0 − 5 + 1 = −4.
func Diff() *model.Experiment {
	e := Experiment()
	b := model.NewBlock(len(e.Cnodes), len(e.Locations))
	for c, r := range map[int][]float64{0: {1, 2, 3}, 1: {4, 0, 1}, 2: {2, 2, 2}, 3: {1, 1, 0}, 4: {0, -5, 1}} {
		b.SetRow(c, r)
	}
	e.SetBlock(0, b)
	mpi := model.NewBlock(len(e.Cnodes), len(e.Locations))
	e.SetBlock(1, mpi)
	return e
}
