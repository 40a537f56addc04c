package model

import "testing"

// TestMinMaxCountOnlyVisitedLocations: a min or max over locations counts
// the locations that visited the call path, known from the visits metric
// where it has a row, else from a non-zero value; an unvisited location
// is no value, not 0 — on the call pane, the system pane and a location
// that visited nothing.
func TestMinMaxCountOnlyVisitedLocations(t *testing.T) {
	e := smallMeta() // 3 locations: rank 0 (t0, t1), rank 1
	e.Metrics = append(e.Metrics, Metric{ID: 4, UniqName: "max_t", DispName: "Max", DataType: "MAXDOUBLE", Parent: -1, Aggregation: Max})
	e.Link()
	blocks := map[int]map[int][]float64{
		0: {0: {1, 1, 1}},
		// visits: main by every location; foo (1) by t0 and rank 1 only,
		// a true minimum of 0 there; bar under main (4) has no visits row,
		// as TAU's atomic events have none.
		2: {0: {1, 1, 1}, 1: {2, 0, 5}},
		// TAU message size: every visitor's minimum is 4 (t1 never
		// visited main's callee bar: 0 stored); mpiP-like 1 µs at main.
		3: {0: {1e-6, 2e-6, 3e-6}, 1: {0, 0, 7}, 4: {4, 0, 4}},
		// negative maxima (derived differences) with an unvisited 0
		4: {4: {-2, 0, -3}},
	}
	for m, rows := range blocks {
		b := NewBlock(len(e.Cnodes), len(e.Locations))
		for c, r := range rows {
			b.SetRow(c, r)
		}
		e.SetBlock(m, b)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	cn, err := e.stored().cnodeValues(MetricSel{Metric: 3, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	// main: 1 µs; foo: 0 (t0 visited it with minimum 0); bar under main: 4
	equal(t, "min per call path", cn, []float64{1e-6, 0, 0, 0, 4})
	mx, err := e.stored().cnodeValues(MetricSel{Metric: 4, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "max per call path", mx, []float64{0, 0, 0, 0, -2})

	// System pane for bar under main alone: t1 has no value (shown 0, but
	// not taken into rank 0's or the machine's minimum).
	sys, err := e.SystemTreeValues(MetricSel{Metric: 3, Inclusive: true}, []int{4})
	if err != nil {
		t.Fatal(err)
	}
	// system nodes: cluster, node0, rank 0, t0, t1, rank 1, t0
	equal(t, "system min at bar", sys, []float64{4, 4, 4, 4, 0, 4, 4})
	sys, err = e.SystemTreeValues(MetricSel{Metric: 4, Inclusive: true}, []int{4})
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "system max at bar", sys, []float64{-2, -2, -2, -2, 0, -3, -3})
	// foo: t1 did not visit it; t0 did, with a true minimum of 0.
	sys, err = e.SystemTreeValues(MetricSel{Metric: 3, Inclusive: true}, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "system min at foo", sys, []float64{0, 0, 0, 0, 0, 7, 7})
	loc, err := e.LocationValues(MetricSel{Metric: 3, Inclusive: true}, CnodeSel{Cnode: 4})
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "locations at bar", loc, []float64{4, 0, 4})
}
