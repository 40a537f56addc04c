package analysisview

import (
	"math/rand"
	"testing"

	"cubeview/model"
	"cubeview/view"
)

// flatGraph builds a call-graph experiment as a big callgrind file gives:
// a flat forest of regions on one location and arcs random arcs with
// calls and an inclusive cost.
func flatGraph(regions, arcs int) *model.Experiment {
	e := &model.Experiment{}
	e.Metrics = []model.Metric{{ID: 0, UniqName: "Ir", DataType: "UINT64", Unit: "occ", Parent: -1}}
	for r := range regions {
		e.Regions = append(e.Regions, model.Region{ID: r, Name: "f" + string(rune('a'+r%26)) + string(rune('a'+r/26%26)), Begin: -1, End: -1})
		e.Cnodes = append(e.Cnodes, model.Cnode{ID: r, Region: r, Parent: -1, CallLine: -1})
	}
	e.System = []model.SystemNode{
		{ID: 0, Kind: model.TreeNode, Class: "machine", Name: "m", Parent: -1},
		{ID: 0, Kind: model.Group, Class: "process", Name: "p", Parent: 0},
		{ID: 0, Kind: model.Leaf, Class: "thread", Name: "t", Parent: 1},
	}
	e.Link()
	e.NumberLocations()
	rng := rand.New(rand.NewSource(1))
	b := model.NewBlock(regions, 1)
	incl := make([]float64, regions)
	for r := range regions {
		v := float64(rng.Intn(1000))
		b.SetRow(r, []float64{v})
		incl[r] = v
	}
	e.SetBlock(0, b)
	g := &model.CallGraph{Inclusive: map[int][]float64{0: incl}}
	for range arcs {
		g.Arcs = append(g.Arcs, model.CallArc{Caller: rng.Intn(regions), Callee: rng.Intn(regions),
			Calls: int64(rng.Intn(100)), Values: map[int]float64{0: float64(rng.Intn(1000))}})
	}
	e.CallGraph = g
	return e
}

// BenchmarkCallGraphReport measures the callers and callees of one
// selection (what the panel computes after each selection change) in a
// graph of 160,000 arcs, the size of a large callgrind profile.
func BenchmarkCallGraphReport(b *testing.B) {
	e := flatGraph(20000, 160000)
	v := view.NewView(e)
	v.SetFlat(true)
	if err := v.Update(); err != nil {
		b.Fatal(err)
	}
	var g CallGraph
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.Select(view.CallPane, view.Node{Kind: view.RegionNode, Index: i % 20000})
		if err := v.Update(); err != nil {
			b.Fatal(err)
		}
		if rep := g.Report(v); rep.Region < 0 {
			b.Fatal("no region")
		}
	}
}

// BenchmarkCallGraphReportOnly is the report alone, without the
// selection's Update.
func BenchmarkCallGraphReportOnly(b *testing.B) {
	e := flatGraph(20000, 160000)
	v := view.NewView(e)
	v.SetFlat(true)
	v.Select(view.CallPane, view.Node{Kind: view.RegionNode, Index: 7})
	if err := v.Update(); err != nil {
		b.Fatal(err)
	}
	var g CallGraph
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rep := g.Report(v); rep.Region != 7 {
			b.Fatal("wrong region")
		}
	}
}
