package dialogform

import (
	"cubeview/internal/testkit/handmade"
	"cubeview/model"
	"cubeview/view"
	"testing"
)

func handMade() *model.Experiment { return handmade.Experiment() }
func handDiff() *model.Experiment { return handmade.Diff() }

func mustUpdate(t testing.TB, v *view.View) {
	t.Helper()
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
}

var mTime = view.Node{Kind: view.MetricNode, Index: 0}

func withProvenance() *model.Experiment { return handmade.WithProvenance() }
