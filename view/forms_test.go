package view

import (
	"slices"
	"strings"
	"testing"

	"cubeview/analysis"
	"cubeview/model"
	"cubeview/numfmt"
)

func TestMetricChoices(t *testing.T) {
	a, b := handMade(), handMade()
	b.Metrics[2].UniqName, b.Metrics[2].DispName = "bytes", "bytes"
	b.Metrics[3].Unavailable = "not measured"
	uniq, labels := MetricChoices(nil, a, b)
	wantUniq := []string{"time", "mpi", "visits", "min_t", "bytes"}
	wantLabels := []string{"Time (time)", "MPI (mpi)", "Visits (visits)", "Min time (min_t)", "bytes"}
	if !slices.Equal(uniq, wantUniq) || !slices.Equal(labels, wantLabels) {
		t.Errorf("MetricChoices = %q, %q; want %q, %q", uniq, labels, wantUniq, wantLabels)
	}
	if uniq, _ := MetricChoices(b); slices.Contains(uniq, "min_t") {
		t.Error("an unavailable metric is offered")
	}
}

func TestDialogChecks(t *testing.T) {
	e := handMade()
	for name, bad := range map[string]bool{"": true, "  ": true, "time": true, " visits ": true, "ipc": false} {
		if err := CheckMetricName(e, name); (err != nil) != bad {
			t.Errorf("CheckMetricName(%q) = %v", name, err)
		}
	}
	for spec, bad := range map[string]bool{"": false, " ": false, "poor < 0.5 < good": false, "poor <": true} {
		if err := CheckThresholds(spec); (err != nil) != bad {
			t.Errorf("CheckThresholds(%q) = %v", spec, err)
		}
	}
	v := NewView(e)
	if UsesMode(v, ExternalPercent) {
		t.Error("a new view uses External percent")
	}
	v.SetMode(SystemPane, ExternalPercent)
	if !UsesMode(v, ExternalPercent) {
		t.Error("the system pane's mode is not seen")
	}
}

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
