package document

import (
	"testing"

	"cubeview/internal/testkit/handmade"
	"cubeview/model"
	"cubeview/view"
)

func handMade() *model.Experiment { return handmade.Experiment() }

func handDiff() *model.Experiment { return handmade.Diff() }

// withProvenance returns handMade carrying the provenance of
// diff(/runs/before.cubex, /runs/after.cubex) as a result file does.
func withProvenance() *model.Experiment { return handmade.WithProvenance() }

func mustUpdate(t testing.TB, v *view.View) {
	t.Helper()
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
}

// Rows of the hand-made experiment the tests select.
var (
	cMain = view.Node{Kind: view.CnodeNode, Index: 0}
	cFoo  = view.Node{Kind: view.CnodeNode, Index: 1}
	cBar3 = view.Node{Kind: view.CnodeNode, Index: 3}
	rFoo  = view.Node{Kind: view.RegionNode, Index: 1}
	uFoo  = view.Node{Kind: view.SubroutinesNode, Index: 1}
)
