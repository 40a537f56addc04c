package hpctoolkit

import (
	"reflect"
	"testing"
)

func TestMetricNames(t *testing.T) {
	tests := []struct {
		name  string
		names []string
		want  []metricName
	}{
		{"unit stripped and converted", []string{"CPUTIME (usec)", "GPUOP"},
			[]metricName{{"CPUTIME", "sec", 1e-6}, {"GPUOP", "occ", 1}}},
		{"two units of one name stay apart, unconverted", []string{"time (usec)", "time (sec)"},
			[]metricName{{"time (usec)", "usec", 1}, {"time (sec)", "sec", 1}}},
		{"a name without unit keeps it", []string{"time (usec)", "time"},
			[]metricName{{"time (usec)", "usec", 1}, {"time", "occ", 1}}},
		{"a name as written that another strips to", []string{"x (usec)", "x (ms)", "x (usec) (s)"},
			[]metricName{{"x (usec)", "usec", 1}, {"x (ms)", "ms", 1}, {"x (usec) (s)", "sec", 1}}},
		{"empty and repeated names still come out unique", []string{"", "a", "a"},
			[]metricName{{"metric #1", "occ", 1}, {"a", "occ", 1}, {"a #3", "occ", 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := metricNames(tt.names); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("metricNames(%q) = %v, want %v", tt.names, got, tt.want)
			}
		})
	}
}
