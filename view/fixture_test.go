package view

import (
	"math"
	"testing"

	"cubeview/internal/testkit/handmade"
	"cubeview/model"
)

func handMade() *model.Experiment { return handmade.Experiment() }

func handDiff() *model.Experiment { return handmade.Diff() }

var (
	mTime   = Node{MetricNode, 0}
	mMPI    = Node{MetricNode, 1}
	mVisits = Node{MetricNode, 2}
	cMain   = Node{CnodeNode, 0}
	cFoo    = Node{CnodeNode, 1}
	cFoo2   = Node{CnodeNode, 2}
	cBar3   = Node{CnodeNode, 3}
	cBar    = Node{CnodeNode, 4}
	sRoot   = Node{SystemNode, 0}
	sNode0  = Node{SystemNode, 1}
	sRank0  = Node{SystemNode, 2}
	sT01    = Node{SystemNode, 4}
	rMain   = Node{RegionNode, 0}
	rFoo    = Node{RegionNode, 1}
	rBar    = Node{RegionNode, 2}
	uFoo    = Node{SubroutinesNode, 1}
)

func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b))
}

func mustUpdate(t testing.TB, v *View) {
	t.Helper()
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
}
