package synth

import (
	"strconv"

	"cubeview/model"
)

// Chain returns a call chain depth call paths deep, every level its own
// region, over the given number of threads of one process, with one
// time metric whose deepest call path holds the most: the hottest path
// goes down to the bottom. It is the worst case of anything that walks
// along call paths.
func Chain(depth, locations int) *model.Experiment {
	e := &model.Experiment{}
	e.Metrics = []model.Metric{{ID: 0, UniqName: "time", DispName: "Time", DataType: "DOUBLE", Unit: "sec", Parent: -1}}
	for c := 0; c < depth; c++ {
		e.Regions = append(e.Regions, model.Region{ID: c, Name: "f" + strconv.Itoa(c), Begin: -1, End: -1})
		e.Cnodes = append(e.Cnodes, model.Cnode{ID: c, Region: c, Parent: c - 1, CallLine: -1})
	}
	e.System = []model.SystemNode{
		{ID: 0, Kind: model.TreeNode, Class: "machine", Name: "machine", Parent: -1},
		{ID: 1, Kind: model.Group, Class: "process", Name: "rank 0", Parent: 0},
	}
	for l := 0; l < locations; l++ {
		e.System = append(e.System, model.SystemNode{ID: 2 + l, Kind: model.Leaf, Class: "thread", Name: "thread " + strconv.Itoa(l), Rank: l, Parent: 1})
	}
	e.Link()
	e.NumberLocations()
	b := model.NewBlock(depth, locations)
	for c := 0; c < depth; c++ {
		r := b.MutableRow(c)
		for l := range r {
			r[l] = float64(1 + l%3)
			if c == depth-1 {
				r[l] *= 2
			}
		}
	}
	e.SetBlock(0, b)
	return e
}
