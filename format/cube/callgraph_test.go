package cube

import (
	"bytes"
	"strings"
	"testing"

	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// withCallGraph returns a generated experiment with a call graph that uses
// every feature: an unknown caller, recursion, arc values for two metrics,
// an unknown call count, and tool inclusive values for two metrics.
func withCallGraph() *model.Experiment {
	e := synth.Generate(synth.Config{Cnodes: 12, Locations: 4, Threads: 2, Metrics: 4, Seed: 3})
	for i := range e.Regions { // ids that are not indices
		e.Regions[i].ID = 100 + 7*i
	}
	nr := len(e.Regions)
	incl0, incl2 := make([]float64, nr), make([]float64, nr)
	for r := range incl0 {
		incl0[r] = float64(r) * 1.25
		incl2[r] = 1.0 / float64(r+3)
	}
	e.CallGraph = &model.CallGraph{
		Arcs: []model.CallArc{
			{Caller: -1, Callee: 0, Calls: 1},
			{Caller: 0, Callee: 1, Calls: 12, Values: map[int]float64{0: 3.5, 2: 1e-9}},
			{Caller: 1, Callee: 1, Calls: 4},
			{Caller: 1, Callee: nr - 1, Calls: -1, Values: map[int]float64{0: 0.1 + 0.2}},
		},
		Inclusive: map[int][]float64{0: incl0, 2: incl2},
	}
	return e
}

func TestCallGraphRoundTrip(t *testing.T) {
	e := withCallGraph()
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	want := xmlDump(t, e)
	if !strings.Contains(want, "callgraph arcs=4 inclusive=2") {
		t.Fatalf("dump does not show the call graph:\n%s", want)
	}

	var x bytes.Buffer
	if err := WriteXML(&x, e); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(x.Bytes(), []byte(`key="cubeview::callgraph"`)) {
		t.Error("CUBE 3 file lacks the call-graph attribute")
	}
	back, err := ReadXML(bytes.NewReader(x.Bytes()), "graph.cube")
	if err != nil {
		t.Fatal(err)
	}
	if d := testkit.Diff(want, xmlDump(t, back)); d != "" {
		t.Errorf("CUBE 3 round trip: %s", d)
	}
	if _, ok := back.Attr(callGraphKey); ok {
		t.Error("the call-graph attribute stays an ordinary attribute after reading")
	}

	var cx bytes.Buffer
	if err := WriteCubex(&cx, back); err != nil {
		t.Fatal(err)
	}
	back2, err := ReadCubex(bytes.NewReader(cx.Bytes()), int64(cx.Len()), "graph.cubex")
	if err != nil {
		t.Fatal(err)
	}
	if d := testkit.Diff(want, xmlDump(t, back2)); d != "" {
		t.Errorf(".cubex round trip: %s", d)
	}
}

// TestCallGraphStaleEntries: arcs and values naming regions or metrics the
// file no longer has are dropped; a malformed attribute is an error naming it.
func TestCallGraphStaleEntries(t *testing.T) {
	e := withCallGraph()
	var x bytes.Buffer
	if err := WriteXML(&x, e); err != nil {
		t.Fatal(err)
	}
	doc := x.String()
	// Rename region id 107 (the arcs' region 1) in the attribute only.
	i := strings.Index(doc, `key="cubeview::callgraph"`)
	end := i + strings.Index(doc[i:], "/>")
	attr := strings.ReplaceAll(doc[i:end], "107", "999")
	back, err := ReadXML(strings.NewReader(doc[:i]+attr+doc[end:]), "stale.cube")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(back.CallGraph.Arcs); n != 1 {
		t.Errorf("%d arcs kept, want 1 (the others name region id 999)", n)
	}
	if v := back.CallGraph.Inclusive[0][1]; v != 0 {
		t.Errorf("inclusive value of the renamed region = %v, want dropped", v)
	}

	bad := doc[:i] + `key="cubeview::callgraph" value="{&quot;arcs&quot;:7}"` + doc[end:]
	if _, err := ReadXML(strings.NewReader(bad), "bad.cube"); err == nil || !strings.Contains(err.Error(), "cubeview::callgraph") {
		t.Errorf("malformed call graph: error %v, want one naming the attribute", err)
	}
}
