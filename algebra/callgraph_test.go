package algebra

import (
	"testing"

	"cubeview/model"
)

// flatGraph builds a gprof-like operand: a flat forest of the named
// regions (one location) with their own times and calls, the tool's
// inclusive times, and arcs "caller>callee" with calls and inclusive cost.
func flatGraph(t *testing.T, source string, own, incl, visits map[string]float64, arcs map[string][2]float64) *model.Experiment {
	t.Helper()
	s := spec{
		source:  source,
		metrics: []string{"time sec DOUBLE", "visits occ UINT64"},
		system:  []string{"m/n/0/0"},
		data:    map[string]map[string][]float64{"time": {}, "visits": {}},
	}
	var names []string
	for _, n := range []string{"main", "work", "helper", "extra"} {
		if _, ok := own[n]; ok {
			names = append(names, n)
			s.cnodes = append(s.cnodes, n)
			s.data["time"][n] = []float64{own[n]}
			s.data["visits"][n] = []float64{visits[n]}
		}
	}
	e := build(t, s)
	region := func(n string) int {
		for r := range e.Regions {
			if e.Regions[r].Name == n {
				return r
			}
		}
		t.Fatalf("no region %s", n)
		return -1
	}
	g := &model.CallGraph{Inclusive: map[int][]float64{0: make([]float64, len(e.Regions))}}
	for _, n := range names {
		g.Inclusive[0][region(n)] = incl[n]
	}
	for _, key := range []string{">main", "main>work", "work>helper", "work>work", "main>extra"} {
		a, ok := arcs[key]
		if !ok {
			continue
		}
		arc := model.CallArc{Caller: -1, Calls: int64(a[0])}
		for i := range key {
			if key[i] == '>' {
				if i > 0 {
					arc.Caller = region(key[:i])
				}
				arc.Callee = region(key[i+1:])
			}
		}
		if a[1] != 0 {
			arc.Values = map[int]float64{0: a[1]}
		}
		g.Arcs = append(g.Arcs, arc)
	}
	e.CallGraph = g
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	return e
}

func graphA(t *testing.T) *model.Experiment {
	return flatGraph(t, "a",
		map[string]float64{"main": 1, "work": 4, "helper": 2},
		map[string]float64{"main": 7, "work": 6, "helper": 2},
		map[string]float64{"main": 1, "work": 3, "helper": 10},
		map[string][2]float64{">main": {1, 0}, "main>work": {3, 6}, "work>helper": {10, 2}, "work>work": {2, 0}})
}

func graphB(t *testing.T) *model.Experiment {
	return flatGraph(t, "b",
		map[string]float64{"main": 1, "work": 2, "extra": 0.5},
		map[string]float64{"main": 3.5, "work": 2, "extra": 0.5},
		map[string]float64{"main": 1, "work": 5, "extra": 1},
		map[string][2]float64{">main": {1, 0}, "main>work": {5, 2}, "main>extra": {1, 0.5}})
}

// flatOf returns region name → (exclusive, inclusive) of metric uniq.
func flatOf(t *testing.T, e *model.Experiment, uniq string) map[string][2]float64 {
	t.Helper()
	ex, in, err := e.FlatProfileOf(model.MetricSel{Metric: e.MetricByName(uniq), Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][2]float64{}
	for r := range e.Regions {
		out[e.Regions[r].Name] = [2]float64{ex[r], in[r]}
	}
	return out
}

// arcsOf returns "caller>callee" → (calls, time cost) of e's call graph.
func arcsOf(e *model.Experiment) map[string][2]float64 {
	out := map[string][2]float64{}
	for _, a := range e.CallGraph.Arcs {
		key := ">" + e.Regions[a.Callee].Name
		if a.Caller >= 0 {
			key = e.Regions[a.Caller].Name + key
		}
		out[key] = [2]float64{float64(a.Calls), a.Values[e.MetricByName("time")]}
	}
	return out
}

func checkMap(t *testing.T, what string, got, want map[string][2]float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d entries %v, want %d %v", what, len(got), got, len(want), want)
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || g != w {
			t.Errorf("%s[%s] = %v (present %v), want %v", what, k, g, ok, w)
		}
	}
}

func TestCallGraphDiff(t *testing.T) {
	a, b := graphA(t), graphB(t)
	d, err := Diff(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Every flat-profile value is the difference of the operands' values.
	checkMap(t, "flat", flatOf(t, d, "time"), map[string][2]float64{
		"main": {0, 3.5}, "work": {2, 4}, "helper": {2, 2}, "extra": {-0.5, -0.5},
	})
	// Calls that stay whole non-negative numbers are kept, others unknown.
	checkMap(t, "arcs", arcsOf(d), map[string][2]float64{
		">main": {0, 0}, "main>work": {-1, 4}, "work>helper": {10, 2}, "work>work": {2, 0}, "main>extra": {-1, -0.5},
	})
	// Diff(a, a) is zero everywhere, the graph included.
	z, err := Diff(a, a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range flatOf(t, z, "time") {
		if v != [2]float64{} {
			t.Errorf("Diff(a, a): %s = %v", name, v)
		}
	}
	for key, v := range arcsOf(z) {
		if v != [2]float64{} {
			t.Errorf("Diff(a, a): arc %s = %v", key, v)
		}
	}
}

func TestCallGraphMean(t *testing.T) {
	a, b := graphA(t), graphB(t)
	m, err := Mean(Options{}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	checkMap(t, "flat", flatOf(t, m, "time"), map[string][2]float64{
		"main": {1, 5.25}, "work": {3, 4}, "helper": {1, 1}, "extra": {0.25, 0.25},
	})
	checkMap(t, "arcs", arcsOf(m), map[string][2]float64{
		">main": {1, 0}, "main>work": {4, 4}, "work>helper": {5, 1}, "work>work": {1, 0}, "main>extra": {-1, 0.25},
	})
	// Mean(a, a) = a, graph included.
	aa, err := Mean(Options{}, a, a)
	if err != nil {
		t.Fatal(err)
	}
	checkMap(t, "Mean(a, a) flat", flatOf(t, aa, "time"), flatOf(t, a, "time"))
	checkMap(t, "Mean(a, a) arcs", arcsOf(aa), arcsOf(a))
}

func TestCallGraphMerge(t *testing.T) {
	a, b := graphA(t), graphB(t)
	m, err := Merge(Options{}, b, a)
	if err != nil {
		t.Fatal(err)
	}
	// Each metric from the first operand that has it: b.
	checkMap(t, "flat", flatOf(t, m, "time"), map[string][2]float64{
		"main": {1, 3.5}, "work": {2, 2}, "helper": {0, 0}, "extra": {0.5, 0.5},
	})
	// Arcs: the union; calls from the first operand with the arc, costs
	// from b, whose time data the result has.
	checkMap(t, "arcs", arcsOf(m), map[string][2]float64{
		">main": {1, 0}, "main>work": {5, 2}, "main>extra": {1, 0.5}, "work>helper": {10, 0}, "work>work": {2, 0},
	})
}

// TestCallGraphWithCallTreeOperand: an operand without a graph contributes
// the inclusive values computed from its call tree.
func TestCallGraphWithCallTreeOperand(t *testing.T) {
	a := graphA(t)
	tree := build(t, spec{
		source:  "tree",
		metrics: []string{"time sec DOUBLE", "visits occ UINT64"},
		cnodes:  []string{"main", "main/work", "main/work/helper"},
		system:  []string{"m/n/0/0"},
		data: map[string]map[string][]float64{
			"time": {"main": {1}, "main/work": {2}, "main/work/helper": {3}},
		},
	})
	d, err := Diff(a, tree, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := flatOf(t, d, "time")
	// main: a's tool inclusive 7 − tree's 6; work 6 − 5; helper 2 − 3.
	for name, want := range map[string]float64{"main": 1, "work": 1, "helper": -1} {
		if got[name][1] != want {
			t.Errorf("%s inclusive = %v, want %v", name, got[name][1], want)
		}
	}
	// Without a graph in any operand the result has none.
	d2, err := Diff(tree, tree, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d2.CallGraph != nil {
		t.Error("a result of operands without call graphs has one")
	}
}

func TestCutDropsCallGraph(t *testing.T) {
	a := graphA(t)
	c, err := Cut(a, CutOptions{Reroot: []string{"work"}})
	if err != nil {
		t.Fatal(err)
	}
	if c.CallGraph != nil {
		t.Error("cut keeps the call graph of the whole program")
	}
}
