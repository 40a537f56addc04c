package dialogform

import (
	"slices"
	"testing"
)

func TestMetricChoices(t *testing.T) {
	a, b := handMade(), handMade()
	b.Metrics[2].UniqName, b.Metrics[2].DispName = "bytes", "bytes"
	b.Metrics[3].Unavailable = "not measured"
	uniq, labels := metricChoices(nil, a, b)
	wantUniq := []string{"time", "mpi", "visits", "min_t", "bytes"}
	wantLabels := []string{"Time (time)", "MPI (mpi)", "Visits (visits)", "Min time (min_t)", "bytes"}
	if !slices.Equal(uniq, wantUniq) || !slices.Equal(labels, wantLabels) {
		t.Errorf("metricChoices = %q, %q; want %q, %q", uniq, labels, wantUniq, wantLabels)
	}
	if uniq, _ := metricChoices(b); slices.Contains(uniq, "min_t") {
		t.Error("an unavailable metric is offered")
	}
}

func TestDialogChecks(t *testing.T) {
	e := handMade()
	for name, bad := range map[string]bool{"": true, "  ": true, "time": true, " visits ": true, "ipc": false} {
		if err := checkMetricName(e, name); (err != nil) != bad {
			t.Errorf("checkMetricName(%q) = %v", name, err)
		}
	}
	for spec, bad := range map[string]bool{"": false, " ": false, "poor < 0.5 < good": false, "poor <": true} {
		if err := checkThresholds(spec); (err != nil) != bad {
			t.Errorf("checkThresholds(%q) = %v", spec, err)
		}
	}
}
