package ui

import (
	"math"

	"cubeview/internal/testkit/handmade"
	"cubeview/model"
	"cubeview/view"
)

func handMade() *model.Experiment { return handmade.Experiment() }

func handDiff() *model.Experiment { return handmade.Diff() }

var (
	mTime  = view.Node{Kind: view.MetricNode, Index: 0}
	cMain  = view.Node{Kind: view.CnodeNode, Index: 0}
	cFoo   = view.Node{Kind: view.CnodeNode, Index: 1}
	cBar3  = view.Node{Kind: view.CnodeNode, Index: 3}
	cBar   = view.Node{Kind: view.CnodeNode, Index: 4}
	sRank0 = view.Node{Kind: view.SystemNode, Index: 2}
	sRank1 = view.Node{Kind: view.SystemNode, Index: 5}
	rBar   = view.Node{Kind: view.RegionNode, Index: 2}
)

func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b))
}
