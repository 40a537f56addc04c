package analysisview

import (
	"slices"
	"strings"
	"testing"

	"cubeview/analysis"
	"cubeview/model"
	"cubeview/numfmt"
)

func TestScalingChoices(t *testing.T) {
	for i, name := range XSourceNames {
		if xSourceNamed(name) != XSource(i) {
			t.Errorf("xSourceNamed(%q) = %v", name, xSourceNamed(name))
		}
	}
	if xSourceNamed("?") != XProcesses || len(basisNames) != int(analysis.BasisSum)+1 {
		t.Error("choices out of step with their types")
	}
	trials := []ScalingTrial{{Name: "a", Exp: handMade()}, {Name: "b", Exp: handMade()}}
	if got := scalingXPreview(XProcesses, "", trials); got != "x = processes — a: 2, b: 2" {
		t.Errorf("preview %q", got)
	}
	if got := scalingXPreview(XAttribute, " size ", trials); got != "x = the attribute size of each experiment" {
		t.Errorf("preview %q", got)
	}
	if got := scalingXPreview(XValues, "1, 2", trials); !strings.Contains(got, "each of the 2 checked experiments") {
		t.Errorf("preview %q", got)
	}
}

func TestReportTables(t *testing.T) {
	a, b := handMade(), handMade()
	rep, err := newScalingReport([]ScalingTrial{{Name: "a", Exp: a}, {Name: "b", Exp: b}},
		ScalingSpec{Metric: "time", X: XValues, XText: "2, 1"}, numfmt.Cube())
	if err != nil {
		t.Fatal(err)
	}
	// x orders the trials: b (x 1) before a (x 2).
	if got := rep.trialOrder([]*model.Experiment{a, b}); !slices.Equal(got, []int{1, 0}) {
		t.Errorf("trialOrder = %v, want [1 0]", got)
	}
	if got := rep.trialOrder([]*model.Experiment{a}); !slices.Equal(got, []int{-1, 0}) {
		t.Errorf("trialOrder without b = %v, want [-1 0]", got)
	}
	if rep.Cell(0, 0) != rep.Rows[0][0] || rep.Cell(-1, 0) != "" || rep.Cell(0, len(rep.Columns)) != "" || rep.Cell(len(rep.Rows), 0) != "" {
		t.Error("Cell does not follow Rows or answers outside the table")
	}

	b2 := handMade()
	b2.Metrics = b2.Metrics[:1]
	b2.Metrics[0].UniqName = "only_b"
	if m := perfDiffMetric([]*model.Experiment{a, b2}, "only_b"); m == nil || m != &b2.Metrics[0] {
		t.Errorf("perfDiffMetric found %v in A, want B's", m)
	}
	if m := perfDiffMetric([]*model.Experiment{a, b2}, "time"); m != &a.Metrics[0] {
		t.Error("perfDiffMetric does not prefer A's metric")
	}
	if perfDiffMetric([]*model.Experiment{a, b2}, "none") != nil {
		t.Error("perfDiffMetric found a metric neither has")
	}
}

// TestReportSortKeys checks that the scaling and perfdiff tables sort by
// the numbers behind their cells, not by the text.
func TestReportSortKeys(t *testing.T) {
	trials := []ScalingTrial{{Name: "one", Exp: handMade(), X: 1}, {Name: "two", Exp: handMade(), X: 2}}
	rep, err := newScalingReport(trials, ScalingSpec{Metric: "time", X: XGiven}, numfmt.Cube())
	if err != nil {
		t.Fatal(err)
	}
	// The report lists the largest first; ascending turns it round.
	order := TableSort{Column: 1}.Order(len(rep.Rows), rep.SortKey)
	for i := 1; i < len(order); i++ {
		if rep.nums[order[i-1]][0] > rep.nums[order[i]][0] {
			t.Errorf("scaling rows %v not by value", order)
		}
	}
	if len(order) < 3 || rep.Rows[order[len(order)-1]][0] != "main" || rep.Rows[0][0] != "main" {
		t.Errorf("ascending: %v", order)
	}
	if !rep.Numeric(1) || rep.Numeric(0) || !rep.SortKey(0, 0).IsText {
		t.Error("scaling columns: call path is text, the others numbers")
	}
}
