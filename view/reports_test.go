package view

import (
	"cubeview/analysis"
	"cubeview/model"
	"cubeview/numfmt"
	"slices"
	"strings"
	"testing"
)

func TestScalingChoices(t *testing.T) {
	for i, name := range XSourceNames {
		if XSourceNamed(name) != XSource(i) {
			t.Errorf("XSourceNamed(%q) = %v", name, XSourceNamed(name))
		}
	}
	if XSourceNamed("?") != XProcesses || len(BasisNames) != int(analysis.BasisSum)+1 {
		t.Error("choices out of step with their types")
	}
	trials := []ScalingTrial{{Name: "a", Exp: handMade()}, {Name: "b", Exp: handMade()}}
	if got := ScalingXPreview(XProcesses, "", trials); got != "x = processes — a: 2, b: 2" {
		t.Errorf("preview %q", got)
	}
	if got := ScalingXPreview(XAttribute, " size ", trials); got != "x = the attribute size of each experiment" {
		t.Errorf("preview %q", got)
	}
	if got := ScalingXPreview(XValues, "1, 2", trials); !strings.Contains(got, "each of the 2 checked experiments") {
		t.Errorf("preview %q", got)
	}
}

func TestReportTables(t *testing.T) {
	a, b := handMade(), handMade()
	rep, err := NewScalingReport([]ScalingTrial{{Name: "a", Exp: a}, {Name: "b", Exp: b}},
		ScalingSpec{Metric: "time", X: XValues, XText: "2, 1"}, numfmt.Cube())
	if err != nil {
		t.Fatal(err)
	}
	// x orders the trials: b (x 1) before a (x 2).
	if got := rep.TrialOrder([]*model.Experiment{a, b}); !slices.Equal(got, []int{1, 0}) {
		t.Errorf("TrialOrder = %v, want [1 0]", got)
	}
	if got := rep.TrialOrder([]*model.Experiment{a}); !slices.Equal(got, []int{-1, 0}) {
		t.Errorf("TrialOrder without b = %v, want [-1 0]", got)
	}
	if rep.Cell(0, 0) != rep.Rows[0][0] || rep.Cell(-1, 0) != "" || rep.Cell(0, len(rep.Columns)) != "" || rep.Cell(len(rep.Rows), 0) != "" {
		t.Error("Cell does not follow Rows or answers outside the table")
	}

	b2 := handMade()
	b2.Metrics = b2.Metrics[:1]
	b2.Metrics[0].UniqName = "only_b"
	if m := PerfDiffMetric(a, b2, "only_b"); m == nil || m != &b2.Metrics[0] {
		t.Errorf("PerfDiffMetric found %v in A, want B's", m)
	}
	if m := PerfDiffMetric(a, b2, "time"); m != &a.Metrics[0] {
		t.Error("PerfDiffMetric does not prefer A's metric")
	}
	if PerfDiffMetric(a, b2, "none") != nil {
		t.Error("PerfDiffMetric found a metric neither has")
	}
}
