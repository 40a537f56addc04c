package model

import "strings"

// CallTreeAggrKey is the experiment attribute that says how values
// aggregate over the whole call forest: "SUM" (the default) or "MAX".
// tau2cube writes MAX: its roots are TAU events whose values overlap (a
// leaf path holds an inclusive value), so adding the roots would count
// the same time several times.
const CallTreeAggrKey = "CUBE_CT_AGGR"

// ForestMax reports whether the experiment declares CUBE_CT_AGGR MAX: the
// whole call forest is worth as much as its largest root, not the sum of
// all call paths.
func ForestMax(e *Experiment) bool {
	v, _ := e.Attr(CallTreeAggrKey)
	return strings.EqualFold(strings.TrimSpace(v), "MAX")
}

// forestMax reports whether metric m aggregates over the whole forest by
// the largest root: a sum metric of a ForestMax experiment with several
// roots. Min and max metrics are unaffected, overlapping roots do not
// change a minimum or a maximum.
func forestMax(e *Experiment, m int) bool {
	return len(e.CnodeRoots) > 1 && m >= 0 && m < len(e.Metrics) &&
		e.Metrics[m].Aggregation == Sum && ForestMax(e)
}

// ForestValue aggregates per-cnode exclusive values (cnodeValues) over the
// whole call forest as the experiment declares (CUBE_CT_AGGR): for a sum
// metric the sum of all call paths, or with MAX the largest inclusive
// value of a root; for a min or max metric the minimum or maximum of all.
func ForestValue(e *Experiment, excl []float64, agg Aggregation) float64 {
	if agg != Sum || len(e.CnodeRoots) < 2 || !ForestMax(e) {
		return ForestTotal(excl, agg)
	}
	incl := e.CallInclusive(excl, agg)
	best := incl[e.CnodeRoots[0]]
	for _, r := range e.CnodeRoots[1:] {
		best = max(best, incl[r])
	}
	return best
}

// ForestSystemValues returns, for every system node, the selected metric
// over the whole call forest and the node's locations. With CUBE_CT_AGGR
// MAX it is, per node, the largest of the roots' inclusive values there
// (as in CubeLib), which is not the sum of its locations' values.
func ForestSystemValues(e *Experiment, ms MetricSel) ([]float64, error) {
	agg := e.Metrics[ms.Metric].Aggregation
	if agg != Sum {
		return e.SystemTreeValues(ms, e.CnodeOrder()) // passes over no value
	}
	if !forestMax(e, ms.Metric) {
		loc, err := e.LocationValues(ms, AllCnodes)
		if err != nil {
			return nil, err
		}
		return systemValues(e, loc, agg), nil
	}
	var out []float64
	for _, r := range e.CnodeRoots {
		loc, err := e.LocationValues(ms, CnodeSel{Cnode: r, Inclusive: true})
		if err != nil {
			return nil, err
		}
		v := systemValues(e, loc, agg)
		if out == nil {
			out = v
			continue
		}
		for s, x := range v {
			out[s] = max(out[s], x)
		}
	}
	return out, nil
}
