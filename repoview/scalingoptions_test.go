package repoview

import (
	"slices"
	"testing"

	"cubeview/analysis"
	"cubeview/form"
)

// TestScalingFormOptions: the repository's Scaling… has the command
// line's --per-visit, --rank and --predict, passed on to the study.
func TestScalingFormOptions(t *testing.T) {
	c, _, _, _ := openStandard(t)
	c.B.SetMarked(4, true)
	c.B.SetMarked(5, true)
	f := c.ScalingForm()
	for _, x := range []*form.Field{f.PerVisit, f.Rank, f.Predict} {
		if !slices.Contains(f.Fields, x) {
			t.Errorf("the dialog lacks %q", x.Label)
		}
	}
	f.SetOn(f.PerVisit, true)
	_ = f.Set(f.Predict, "512")
	s, _, err := f.Spec()
	if err != nil || !s.PerVisit || s.Predict != 512 || s.Rank != analysis.RankPredicted {
		t.Errorf("spec %+v, %v", s, err)
	}
}
