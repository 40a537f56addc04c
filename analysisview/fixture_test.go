package analysisview

import (
	"math"
	"sync"
	"testing"

	"cubeview/internal/synth"
	"cubeview/internal/testkit/handmade"
	"cubeview/model"
	"cubeview/view"
)

func handMade() *model.Experiment { return handmade.Experiment() }

func handDiff() *model.Experiment { return handmade.Diff() }

// Rows of the hand-made experiment (handmade.Experiment).
var (
	mTime = view.Node{Kind: view.MetricNode, Index: 0}
	cMain = view.Node{Kind: view.CnodeNode, Index: 0}
	cFoo  = view.Node{Kind: view.CnodeNode, Index: 1}
	cFoo2 = view.Node{Kind: view.CnodeNode, Index: 2}
	cBar3 = view.Node{Kind: view.CnodeNode, Index: 3}
	cBar  = view.Node{Kind: view.CnodeNode, Index: 4}
)

func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b))
}

func mustUpdate(t testing.TB, v *view.View) {
	t.Helper()
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
}

var (
	bigOnce sync.Once
	bigExp  *model.Experiment
)

// big returns a generated experiment of 10,000 call paths × 1,000
// locations (8 threads per process on 8 nodes) with data in 30 % of the
// rows of each metric, as the view package's benchmarks use.
func big(tb testing.TB) *model.Experiment {
	bigOnce.Do(func() {
		bigExp = synth.Generate(synth.Config{
			Cnodes: 10000, Locations: 1000, Threads: 8, Nodes: 8,
			Metrics: 3, Density: 0.3, Seed: 7,
		})
	})
	return bigExp
}
