package sourcepanel

import (
	"testing"

	"cubeview/internal/testkit/handmade"
	"cubeview/model"
	"cubeview/view"
)

func handMade() *model.Experiment { return handmade.Experiment() }

// Rows of the hand-made experiment (handmade.Experiment).
var (
	cMain = view.Node{Kind: view.CnodeNode, Index: 0}
	cFoo  = view.Node{Kind: view.CnodeNode, Index: 1}
	cBar3 = view.Node{Kind: view.CnodeNode, Index: 3}
	cBar  = view.Node{Kind: view.CnodeNode, Index: 4}
	rFoo  = view.Node{Kind: view.RegionNode, Index: 1}
)

func mustUpdate(t testing.TB, v *view.View) {
	t.Helper()
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
}
