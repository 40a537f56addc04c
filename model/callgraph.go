package model

import (
	"fmt"
	"math"
)

// CallGraph holds what tools that record a call graph but no call paths
// (gprof, callgrind) know about callers and callees, and the inclusive
// values such tools compute per region. Such experiments have a flat call
// forest — one single-node root per region carrying the region's own
// values — and this graph beside it; no call path is invented (DESIGN §7).
// A profile that records inclusive values but neither paths nor arcs (a
// flat TAU profile) has a graph without arcs.
//
// The graph is metadata of an immutable experiment: it must not be
// changed once the experiment is handed out.
type CallGraph struct {
	// Arcs are the caller → callee edges, each listed once.
	Arcs []CallArc
	// Inclusive maps a metric's index to each region's inclusive value as
	// the tool computed it, indexed by region and aggregated over all
	// locations by the metric's aggregation; a metric without an entry
	// has no tool-computed inclusive value. Along the metric tree the
	// values have the stored meaning (a parent metric's value includes
	// its children's).
	Inclusive map[int][]float64
}

// CallArc is one caller → callee edge of a CallGraph.
type CallArc struct {
	// Caller and Callee are region indices; Caller is -1 for calls whose
	// caller is unknown (gprof's <spontaneous>).
	Caller, Callee int
	// Calls is the number of calls along the arc, -1 when unknown.
	Calls int64
	// Values maps a metric's index to the cost of the callee and its
	// callees spent on behalf of this caller (the arc's inclusive cost).
	Values map[int]float64
}

// RegionInclusive returns region r's inclusive value of metric m as the
// tool computed it, when the graph records one; a nil graph records none.
func (g *CallGraph) RegionInclusive(m, r int) (float64, bool) {
	if g == nil {
		return 0, false
	}
	v, ok := g.Inclusive[m]
	if !ok || r < 0 || r >= len(v) {
		return 0, false
	}
	return v[r], true
}

// FlatProfileOf returns the flat profile of a metric selection: per region,
// the exclusive value (its call paths' own values) and the inclusive value.
// The inclusive value is the tool's own where the experiment's call graph
// records one for the metric (and, for an expanded metric, for the child
// metrics subtracted from it); otherwise it is computed from the call tree
// as FlatProfile does. Displays and reports use this (or RegionProfile,
// which adds the callees) rather than FlatProfile so that every inclusive
// value shown equals the tool's. It holds for stored and derived metrics
// alike: a derived metric's parts are its formula over the operands'.
func (e *Experiment) FlatProfileOf(ms MetricSel) (regExcl, regIncl []float64, err error) {
	f, err := RegionProfile(e, ms)
	if err != nil {
		return nil, nil, err
	}
	return f.Own, f.Whole, nil
}

// graphInclusive overwrites the per-region inclusive values regIncl of a
// metric selection with the tool's own, where the call graph records them.
func graphInclusive(e *Experiment, ms MetricSel, regIncl []float64) error {
	if e.CallGraph == nil || len(e.CallGraph.Inclusive) == 0 {
		return nil
	}
	own, ok := e.CallGraph.Inclusive[ms.Metric]
	if !ok {
		return nil
	}
	copy(regIncl, own)
	if ms.Inclusive {
		return nil
	}
	for _, ch := range subtracted(e, ms.Metric) {
		sub, ok := e.CallGraph.Inclusive[ch]
		if !ok {
			cv, err := e.stored().cnodeValues(MetricSel{Metric: ch, Inclusive: true})
			if err != nil {
				return err
			}
			_, sub = e.FlatProfile(cv, e.Metrics[ch].Aggregation)
		}
		for r := range regIncl {
			regIncl[r] -= sub[r]
		}
	}
	return nil
}

// validateCallGraph reports references out of range and values that are
// not finite.
func validateCallGraph(e *Experiment, bad func(string, ...any)) {
	g := e.CallGraph
	if g == nil {
		return
	}
	nr, nm := len(e.Regions), len(e.Metrics)
	for i, a := range g.Arcs {
		if a.Caller < -1 || a.Caller >= nr || a.Callee < 0 || a.Callee >= nr {
			bad("call graph arc %d refers to regions %d → %d of %d", i, a.Caller, a.Callee, nr)
		}
		if a.Calls < -1 {
			bad("call graph arc %d has %d calls", i, a.Calls)
		}
		for m, v := range a.Values {
			if m < 0 || m >= nm {
				bad("call graph arc %d has a value for metric index %d of %d", i, m, nm)
			} else if math.IsNaN(v) || math.IsInf(v, 0) {
				bad("call graph arc %d: metric %q value is %v", i, e.Metrics[m].UniqName, v)
			}
		}
	}
	for m, vals := range g.Inclusive {
		if m < 0 || m >= nm {
			bad("call graph has inclusive values for metric index %d of %d", m, nm)
			continue
		}
		if len(vals) != nr {
			bad("call graph: metric %q has %d inclusive values for %d regions", e.Metrics[m].UniqName, len(vals), nr)
			continue
		}
		for r, v := range vals {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				bad("call graph: metric %q inclusive value of region id %d is %v", e.Metrics[m].UniqName, e.Regions[r].ID, v)
			}
		}
	}
}

// arcValuesString renders an arc' values for Dump, in metric order.
func arcValuesString(e *Experiment, vals map[int]float64) string {
	s := "{"
	first := true
	for _, m := range e.MetricOrder() {
		v, ok := vals[m]
		if !ok {
			continue
		}
		if !first {
			s += " "
		}
		first = false
		s += fmt.Sprintf("%q=%s", e.Metrics[m].UniqName, formatDumpFloat(v))
	}
	return s + "}"
}
