package algebra

import (
	"errors"
	"strings"
	"testing"

	"cubeview/model"
)

// TestMetricIndex: an exact unique name wins over one that matches when
// case is ignored, an operand's own name and a canonical identity name
// the metric matched across tools, and an ambiguous name lists the
// candidates.
func TestMetricIndex(t *testing.T) {
	a := build(t, spec{source: "a", metrics: []string{"time sec DOUBLE", "Time sec DOUBLE", "visits occ UINT64", "flops occ UINT64", "Flops occ UINT64"},
		cnodes: []string{"main"}, system: []string{"m/n/0/0"}})
	b := build(t, spec{source: "b", metrics: []string{"TIMER sec DOUBLE", "calls occ UINT64"},
		cnodes: []string{"main"}, system: []string{"m/n/0/0"}})
	a.Metrics[0].Identity, a.Metrics[2].Identity = model.IdentityTime, model.IdentityVisits
	b.Metrics[0].Identity, b.Metrics[1].Identity = model.IdentityTime, model.IdentityVisits
	ig, err := Integrate([]*model.Experiment{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, want string // want: the result metric, or "ambiguous: …"
	}{
		{"time", "time"},
		{"Time", "Time"},
		{"TIMER", "time"},   // b's own name
		{"calls", "visits"}, // b's own name
		{"VISITS", "visits"},
		{"timer", "time"},
		{"TIME", "time"}, // the canonical identity, in any case
		{"FLOPS", "ambiguous: flops, Flops"},
		{"nothing", "none"},
	} {
		r, err := ig.MetricIndex(tt.name)
		var le *MetricLookupError
		got := ""
		switch {
		case err == nil:
			got = ig.Result.Metrics[r].UniqName
		case errors.As(err, &le) && len(le.Candidates) > 0:
			got = "ambiguous: " + strings.Join(le.Candidates, ", ")
		case errors.As(err, &le):
			got = "none"
		default:
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("MetricIndex(%q) = %s, want %s", tt.name, got, tt.want)
		}
	}
	if m := ig.OperandMetric(1, "time"); m != 0 {
		t.Errorf("OperandMetric(1, time) = %d, want b's TIMER", m)
	}
}
