package ui

import (
	"math"
	"testing"

	"cubeview/internal/testkit/handmade"
	"cubeview/model"
	"cubeview/view"
)

func handMade() *model.Experiment { return handmade.Experiment() }

func handDiff() *model.Experiment { return handmade.Diff() }

var (
	mTime   = view.Node{Kind: view.MetricNode, Index: 0}
	mMPI    = view.Node{Kind: view.MetricNode, Index: 1}
	mVisits = view.Node{Kind: view.MetricNode, Index: 2}
	cMain   = view.Node{Kind: view.CnodeNode, Index: 0}
	cFoo    = view.Node{Kind: view.CnodeNode, Index: 1}
	cFoo2   = view.Node{Kind: view.CnodeNode, Index: 2}
	cBar3   = view.Node{Kind: view.CnodeNode, Index: 3}
	cBar    = view.Node{Kind: view.CnodeNode, Index: 4}
	sRoot   = view.Node{Kind: view.SystemNode, Index: 0}
	sNode0  = view.Node{Kind: view.SystemNode, Index: 1}
	sRank0  = view.Node{Kind: view.SystemNode, Index: 2}
	sT00    = view.Node{Kind: view.SystemNode, Index: 3}
	sT01    = view.Node{Kind: view.SystemNode, Index: 4}
	sRank1  = view.Node{Kind: view.SystemNode, Index: 5}
	rMain   = view.Node{Kind: view.RegionNode, Index: 0}
	rFoo    = view.Node{Kind: view.RegionNode, Index: 1}
	rBar    = view.Node{Kind: view.RegionNode, Index: 2}
	uFoo    = view.Node{Kind: view.SubroutinesNode, Index: 1}
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
