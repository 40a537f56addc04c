package analysisview

import (
	"testing"

	"cubeview/numfmt"
)

// TestScalingStudy returns the report of newScalingReport and its plot at
// the plot size; too few trials are an error, with no plot.
func TestScalingStudy(t *testing.T) {
	trials := []ScalingTrial{{Name: "two", Exp: handMade(), X: 2}, {Name: "four", Exp: handMade(), X: 4}}
	spec := ScalingSpec{Metric: "time", X: XGiven, XText: "procs"}
	rep, img, err := ScalingStudy(trials, spec, numfmt.Cube())
	if err != nil {
		t.Fatal(err)
	}
	want, err := newScalingReport(trials, spec, numfmt.Cube())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Runs != want.Runs || len(rep.Rows) != len(want.Rows) || len(rep.Rows) == 0 {
		t.Errorf("report runs %q with %d rows, want %q with %d", rep.Runs, len(rep.Rows), want.Runs, len(want.Rows))
	}
	if b := img.Bounds(); b.Dx() != ScalingPlotW || b.Dy() != ScalingPlotH {
		t.Errorf("plot %v, want %dx%d", b, ScalingPlotW, ScalingPlotH)
	}
	if _, img, err := ScalingStudy(trials[:1], spec, numfmt.Cube()); err == nil || img != nil {
		t.Errorf("one trial: %v, plot %v", err, img)
	}
}
