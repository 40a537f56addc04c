package model

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// graphExperiment builds a gprof-like experiment: a flat call forest of
// main, work and helper (one location) and a call graph
//
//	<spontaneous> → main (1 call), main → work (3), work → helper (10),
//	work → work (2, recursive)
//
// with the tool's inclusive times main 10, work 8, helper 1.5 for metric
// time, and for its child metric mpi main 4, work 4, helper 0.
func graphExperiment() *Experiment {
	e := &Experiment{}
	e.Metrics = []Metric{
		{ID: 0, UniqName: "time", DataType: "DOUBLE", Unit: "sec", Parent: -1},
		{ID: 1, UniqName: "mpi", DataType: "DOUBLE", Unit: "sec", Parent: 0},
		{ID: 2, UniqName: "visits", DataType: "UINT64", Unit: "occ", Parent: -1},
	}
	e.Regions = []Region{{ID: 0, Name: "main"}, {ID: 1, Name: "work"}, {ID: 2, Name: "helper"}}
	e.Cnodes = []Cnode{
		{ID: 0, Region: 0, Parent: -1, CallLine: -1},
		{ID: 1, Region: 1, Parent: -1, CallLine: -1},
		{ID: 2, Region: 2, Parent: -1, CallLine: -1},
	}
	e.System = []SystemNode{
		{ID: 0, Kind: TreeNode, Class: "machine", Name: "m", Parent: -1},
		{ID: 0, Kind: Group, Class: "process", Name: "p", Parent: 0},
		{ID: 0, Kind: Leaf, Class: "thread", Name: "t", Parent: 1},
	}
	e.Link()
	e.NumberLocations()
	set := func(m int, vals ...float64) {
		b := NewBlock(3, 1)
		for c, v := range vals {
			if v != 0 {
				b.SetRow(c, []float64{v})
			}
		}
		e.SetBlock(m, b)
	}
	set(0, 0.5, 6.5, 1.5) // time includes mpi
	set(1, 0, 4, 0)
	set(2, 1, 3, 10)
	e.CallGraph = &CallGraph{
		Arcs: []CallArc{
			{Caller: -1, Callee: 0, Calls: 1},
			{Caller: 0, Callee: 1, Calls: 3, Values: map[int]float64{0: 8}},
			{Caller: 1, Callee: 2, Calls: 10, Values: map[int]float64{0: 1.5}},
			{Caller: 1, Callee: 1, Calls: 2},
		},
		Inclusive: map[int][]float64{0: {10, 8, 1.5}, 1: {4, 4, 0}},
	}
	return e
}

func TestFlatProfileOfUsesToolInclusive(t *testing.T) {
	e := graphExperiment()
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name       string
		sel        MetricSel
		excl, incl []float64
	}{
		// Collapsed time: exclusive from the flat forest, inclusive the tool's.
		{"time collapsed", MetricSel{0, true}, []float64{0.5, 6.5, 1.5}, []float64{10, 8, 1.5}},
		// Expanded time: time minus mpi on both sides.
		{"time expanded", MetricSel{0, false}, []float64{0.5, 2.5, 1.5}, []float64{6, 4, 1.5}},
		{"mpi", MetricSel{1, true}, []float64{0, 4, 0}, []float64{4, 4, 0}},
		// No tool inclusive for visits: computed from the flat forest.
		{"visits", MetricSel{2, true}, []float64{1, 3, 10}, []float64{1, 3, 10}},
	} {
		ex, in, err := e.FlatProfileOf(tt.sel)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, tt.name+" exclusive", ex, tt.excl)
		equal(t, tt.name+" inclusive", in, tt.incl)
	}
	// Without the graph the same experiment reports the forest's values.
	e.CallGraph = nil
	_, in, _ := e.FlatProfileOf(MetricSel{0, true})
	equal(t, "no graph", in, []float64{0.5, 6.5, 1.5})
}

// TestFlatProfileOfPartialChildInclusive: an expanded metric whose child
// has no tool inclusive subtracts the child's computed inclusive value.
func TestFlatProfileOfPartialChildInclusive(t *testing.T) {
	e := graphExperiment()
	delete(e.CallGraph.Inclusive, 1)
	_, in, err := e.FlatProfileOf(MetricSel{0, false})
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "inclusive", in, []float64{10, 4, 1.5})
}

func TestFlatProfileOfMatchesFlatProfileWithoutGraph(t *testing.T) {
	e := small()
	for m := range e.Metrics {
		for _, incl := range []bool{true, false} {
			sel := MetricSel{m, incl}
			v, _ := e.stored().ownValues(sel) // min/max: no value kept, as FlatProfile needs
			wantEx, wantIn := e.FlatProfile(v, e.Metrics[m].Aggregation)
			ex, in, err := e.FlatProfileOf(sel)
			if err != nil {
				t.Fatal(err)
			}
			equal(t, e.Metrics[m].UniqName+" exclusive", ex, wantEx)
			equal(t, e.Metrics[m].UniqName+" inclusive", in, wantIn)
		}
	}
}

func TestValidateCallGraph(t *testing.T) {
	for _, tt := range []struct {
		name    string
		corrupt func(g *CallGraph)
		want    string
	}{
		{"callee out of range", func(g *CallGraph) { g.Arcs[1].Callee = 7 }, "arc 1 refers to regions 0 → 7"},
		{"caller below -1", func(g *CallGraph) { g.Arcs[0].Caller = -2 }, "arc 0 refers to regions -2"},
		{"calls", func(g *CallGraph) { g.Arcs[2].Calls = -5 }, "arc 2 has -5 calls"},
		{"arc metric", func(g *CallGraph) { g.Arcs[1].Values[9] = 1 }, "metric index 9"},
		{"inclusive metric", func(g *CallGraph) { g.Inclusive[5] = []float64{1, 2, 3} }, "metric index 5"},
		{"inclusive length", func(g *CallGraph) { g.Inclusive[0] = []float64{1} }, `"time" has 1 inclusive values for 3 regions`},
		{"inclusive NaN", func(g *CallGraph) { g.Inclusive[1][2] = math.NaN() }, "region id 2 is NaN"},
	} {
		e := graphExperiment()
		tt.corrupt(e.CallGraph)
		err := e.Validate()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Validate() = %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
}

func TestDumpCallGraph(t *testing.T) {
	e := graphExperiment()
	var buf bytes.Buffer
	if err := e.Dump(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"callgraph arcs=4 inclusive=2\n",
		"  arc caller=- callee=0 calls=1 values={}\n",
		"  arc caller=0 callee=1 calls=3 values={\"time\"=8}\n",
		"  arc caller=1 callee=1 calls=2 values={}\n",
		"  inclusive \"time\"\n    0 10\n    1 8\n    2 1.5\n",
		"  inclusive \"mpi\"\n    0 4\n    1 4\n",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("Dump lacks %q:\n%s", want, buf.String())
		}
	}
	// A different graph gives a different dump.
	e2 := graphExperiment()
	e2.CallGraph.Arcs[1].Calls = 4
	var buf2 bytes.Buffer
	e2.Dump(&buf2)
	if buf.String() == buf2.String() {
		t.Error("Dump does not show arc calls")
	}
}
