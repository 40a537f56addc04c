package analysisview

import (
	"fmt"
	"strings"
	"testing"

	"cubeview/analysis"
	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/numfmt"
)

// TestScalingReport compares the hand-made experiment with itself at
// x = 1 and 2: every call path's speedup is 1 and its efficiency 1/2.
func TestScalingReport(t *testing.T) {
	trials := []ScalingTrial{{Name: "one", Exp: handMade()}, {Name: "two", Exp: handMade()}}
	rep, err := newScalingReport(trials, ScalingSpec{Metric: "time", X: XValues, XText: "1, 2"}, numfmt.Cube())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Call path", "value @ 1", "speedup @ 1", "efficiency @ 1", "value @ 2", "speedup @ 2", "efficiency @ 2"}
	if strings.Join(rep.Columns, "|") != strings.Join(want, "|") {
		t.Errorf("columns %q", rep.Columns)
	}
	if rep.Runs != "x 1: one, 2: two" {
		t.Errorf("runs %q", rep.Runs)
	}
	if len(rep.Rows) != 5 || rep.Rows[0][0] != "main" || rep.Rows[0][1] != "25.00" {
		t.Fatalf("rows %q", rep.Rows)
	}
	for _, r := range rep.Rows {
		if r[2] != "1" || r[3] != "1" || r[5] != "1" || r[6] != "0.5" {
			t.Errorf("%s: %q", r[0], r)
		}
	}
	if got := rep.plottedCallPaths(); len(got) != 5 || got[0] != "main" {
		t.Errorf("plotted %q", got)
	}
	if c, err := rep.chart(); err != nil || c == nil {
		t.Errorf("chart: %v", err)
	}
	for _, c := range []struct {
		spec ScalingSpec
		want string
	}{
		{ScalingSpec{Metric: "time", X: XValues, XText: "1"}, "1 given for 2 trials"},
		{ScalingSpec{Metric: "time", X: XAttribute, XText: "size"}, `no attribute "size"`},
		{ScalingSpec{Metric: "time", X: XAttribute}, "name the attribute"},
		{ScalingSpec{Metric: "", X: XProcesses}, "choose a metric"},
		{ScalingSpec{Metric: "nothing", X: XValues, XText: "1,2"}, `no metric "nothing"`},
	} {
		if _, err := newScalingReport(trials, c.spec, numfmt.Cube()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.spec, err, c.want)
		}
	}
	if _, err := newScalingReport(trials[:1], ScalingSpec{Metric: "time"}, numfmt.Cube()); err == nil {
		t.Error("one trial accepted")
	}
	if _, err := newScalingReport(trials, ScalingSpec{Metric: "time", Basis: analysis.BasisMax, Weak: true, X: XValues, XText: "1,2"}, numfmt.Cube()); err != nil {
		t.Error(err)
	}
}

// TestScalingGivenX takes each trial's own x, as repository trials give
// it from an attribute, and names the axis after the attribute.
func TestScalingGivenX(t *testing.T) {
	trials := []ScalingTrial{{Name: "four", Exp: handMade(), X: 4}, {Name: "two", Exp: handMade(), X: 2}}
	rep, err := newScalingReport(trials, ScalingSpec{Metric: "time", X: XGiven, XText: "procs"}, numfmt.Cube())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Runs != "procs 2: two, 4: four" || rep.XLabel != "procs" {
		t.Errorf("runs %q, x label %q", rep.Runs, rep.XLabel)
	}
	for _, r := range rep.Rows {
		if r[2] != "1" || r[3] != "1" || r[5] != "1" || r[6] != "0.5" {
			t.Errorf("%s: %q", r[0], r)
		}
	}
}

// TestScalingReportModels: with 4 runs the table ends with each call
// path's model and adjusted R², the plot draws values and models, and
// efficiency only when x counts processes.
func TestScalingReportModels(t *testing.T) {
	var trials []ScalingTrial
	for _, p := range []int{27, 64, 125, 216} {
		path := testkit.Data(t, "cube4", "lulesh", fmt.Sprintf("lulesh.p%d.size25.r1.cubex", p))
		e, err := format.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		trials = append(trials, ScalingTrial{Name: fmt.Sprint(p), Exp: e})
	}
	rep, err := newScalingReport(trials, ScalingSpec{Metric: "time", X: XProcesses, Weak: true}, numfmt.Cube())
	if err != nil {
		t.Fatal(err)
	}
	n := len(rep.Columns)
	if n != 1+3*4+2 || rep.Columns[n-2] != "model" || rep.Columns[n-1] != "adj. R²" || rep.Numeric(n-2) || !rep.Numeric(n-1) {
		t.Fatalf("columns %q", rep.Columns)
	}
	byCnode := map[int]analysis.SeriesRow{}
	for _, r := range rep.Result.Rows {
		byCnode[r.Cnode] = r
	}
	for i, cells := range rep.Rows {
		r := byCnode[rep.RowCnodes[i]]
		if r.Model == nil || cells[n-2] != r.Model.Format("p") {
			t.Errorf("%s: model cell %q, analysis %+v", cells[0], cells[n-2], r.Model)
		}
	}
	if !rep.plot.ProcessX || rep.plot.Series[0].Model == nil || len(rep.plot.Series[0].Values) != 4 {
		t.Errorf("plot: process x %v, first series %+v", rep.plot.ProcessX, rep.plot.Series[0])
	}
	rep, err = newScalingReport(trials, ScalingSpec{Metric: "time", X: XValues, XText: "1,2,3,4"}, numfmt.Cube())
	if err != nil {
		t.Fatal(err)
	}
	if rep.plot.ProcessX {
		t.Error("x values given: efficiency drawn")
	}
}
