package model

import "testing"

func TestArcValue(t *testing.T) {
	e := graphExperiment()
	withMPI := CallArc{Caller: 0, Callee: 1, Calls: 3, Values: map[int]float64{0: 8, 1: 3}}
	for _, tt := range []struct {
		name string
		arc  CallArc
		sel  MetricSel
		want float64
		ok   bool
	}{
		{"time collapsed", e.CallGraph.Arcs[1], MetricSel{0, true}, 8, true},
		// Expanded time is time without mpi, which this arc does not record.
		{"time expanded, no mpi", e.CallGraph.Arcs[1], MetricSel{0, false}, 0, false},
		{"time expanded", withMPI, MetricSel{0, false}, 5, true},
		{"mpi", withMPI, MetricSel{1, true}, 3, true},
		{"visits not recorded", withMPI, MetricSel{2, true}, 0, false},
		{"calls only", e.CallGraph.Arcs[3], MetricSel{0, true}, 0, false},
		{"no metric", withMPI, MetricSel{7, true}, 0, false},
	} {
		got, ok := ArcValue(e, tt.arc, tt.sel)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: %v, %v; want %v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}
