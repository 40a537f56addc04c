package view

import (
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
)

// TestMetricDescriptionUnit: a metric's description names its unit in
// brackets, and shows no empty brackets for a metric without one (TAU's
// atomic-event counts, derived ratios).
func TestMetricDescriptionUnit(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size25.r1.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	v := NewView(e)
	tm := e.MetricByName("time")
	if s := (metricRow{}).description(v, tm); !strings.HasPrefix(s, "Time [sec] (time, ") {
		t.Errorf("time: %q", s)
	}
	e.Metrics[tm].Unit = ""
	if s := (metricRow{}).description(v, tm); !strings.HasPrefix(s, "Time (time, ") {
		t.Errorf("time without a unit: %q", s)
	}
}
