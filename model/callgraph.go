package model

// CallGraph holds what tools that record a call graph but no call paths
// (gprof, callgrind) know about callers and callees. Such experiments have
// a flat call forest — one single-node root per region carrying the
// region's own values — and this graph beside it; no call path is invented
// (DESIGN §7).
type CallGraph struct {
	// Arcs are the caller → callee edges, each listed once.
	Arcs []CallArc
	// Inclusive maps a metric's index to each region's inclusive value as
	// the tool computed it, indexed by region; a metric without an entry
	// has no tool-computed inclusive value.
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
// tool computed it, when the experiment has a call graph that records one.
func (e *Experiment) RegionInclusive(m, r int) (float64, bool) {
	if e.CallGraph == nil {
		return 0, false
	}
	v, ok := e.CallGraph.Inclusive[m]
	if !ok || r < 0 || r >= len(v) {
		return 0, false
	}
	return v[r], true
}

// Callers returns the arcs whose callee is region r.
func (g *CallGraph) Callers(r int) []CallArc {
	var out []CallArc
	for _, a := range g.Arcs {
		if a.Callee == r {
			out = append(out, a)
		}
	}
	return out
}

// Callees returns the arcs whose caller is region r.
func (g *CallGraph) Callees(r int) []CallArc {
	var out []CallArc
	for _, a := range g.Arcs {
		if a.Caller == r {
			out = append(out, a)
		}
	}
	return out
}
