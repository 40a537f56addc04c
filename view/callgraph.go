package view

import (
	"cubeview/model"
)

// Tools that record a call graph but no call paths (gprof, callgrind)
// give experiments with a flat call forest and a model.CallGraph beside
// it (DESIGN §7). For those the display lists the callers and callees of
// the region selected in the call pane, as gprof's call graph and
// KCachegrind's caller and callee lists do: per arc the calls along it
// and the cost of the selected metric spent in the callee on behalf of
// the caller, in the call pane's value mode and colours.

// HasCallGraph reports whether e records caller → callee arcs.
func HasCallGraph(e *model.Experiment) bool {
	return e.CallGraph != nil && len(e.CallGraph.Arcs) > 0
}

// PrefersFlat reports whether e is best shown as a flat profile at first:
// its call forest has no call paths below its roots and a call graph
// holds the tool's inclusive values, which only the flat profile shows.
func PrefersFlat(e *model.Experiment) bool {
	if e.CallGraph == nil {
		return false
	}
	for _, r := range e.CnodeRoots {
		if len(e.Cnodes[r].Children) > 0 {
			return false
		}
	}
	return len(e.CnodeRoots) > 0
}
