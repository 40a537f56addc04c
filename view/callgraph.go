package view

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"

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

// CallGraphRow is one caller or callee of the region of a CallGraphReport.
type CallGraphRow struct {
	// Region is the caller's or callee's region, -1 for calls whose
	// caller the tool does not know (gprof's <spontaneous>).
	Region int
	Label  string
	// Calls is the number of calls along the arc, -1 when unknown;
	// CallsText is it formatted ("" when unknown).
	Calls     int64
	CallsText string
	// Value is the arc's cost of the selected metric in the call pane's
	// value mode; NaN when the tool recorded none. Cell is how it looks.
	Value float64
	Cell
	// Tooltip describes the region and the arc.
	Tooltip string
	// Node is the call-pane row selecting this region selects: its
	// flat-profile row, or in the call tree its first call path; the zero
	// Node when the region has no row.
	Node Node
}

// CallGraphReport is what the call-graph panel shows for the call pane's
// selection: the selected region's own and inclusive value and its
// callers and callees, the largest cost first.
type CallGraphReport struct {
	// Region is the region of the call pane's selection, -1 for none.
	Region int
	// Title names the region and says what the values are.
	Title string
	// Self and Inclusive are the region's flat-profile values in the
	// call pane's mode (Inclusive is the tool's own where it recorded one).
	Self, Inclusive Cell
	Callers         []CallGraphRow
	Callees         []CallGraphRow
	// Note says why the lists are empty, "" when they are not.
	Note string
}

// callGraph is the View's part that reports the callers and callees of
// the call pane's selection.
type callGraph struct {
	v    *View
	arcs *callGraphIndex // built on first use
}

// callGraphIndex lists per region the arcs into it and out of it, so
// that a selection does not scan every arc.
type callGraphIndex struct {
	into, outOf [][]int32 // arc indices by callee and by caller region
}

func (g *callGraph) index() *callGraphIndex {
	v := g.v
	if g.arcs != nil {
		return g.arcs
	}
	n := len(v.exp.Regions)
	x := &callGraphIndex{into: make([][]int32, n), outOf: make([][]int32, n)}
	for i, a := range v.exp.CallGraph.Arcs {
		if a.Callee >= 0 && a.Callee < n {
			x.into[a.Callee] = append(x.into[a.Callee], int32(i))
		}
		if a.Caller >= 0 && a.Caller < n {
			x.outOf[a.Caller] = append(x.outOf[a.Caller], int32(i))
		}
	}
	g.arcs = x
	return x
}

// selectedRegion returns the region of the call pane's selection (a call
// path's region, a flat-profile region or its Subroutines row), or -1.
func (g *callGraph) selectedRegion() int {
	v := g.v
	n := v.panes[CallPane].selected
	switch n.Kind {
	case CnodeNode:
		return v.exp.Cnodes[n.Index].Region
	case RegionNode, SubroutinesNode:
		return n.Index
	}
	return -1
}

// regionRow returns the call-pane row that stands for region r: its
// flat-profile row, or in the call tree its first call path; the zero
// Node when it has none.
func (g *callGraph) regionRow(r int) Node {
	v := g.v
	if r < 0 || r >= len(v.regionCnodes) || len(v.regionCnodes[r]) == 0 {
		return Node{}
	}
	if v.flat {
		return Node{RegionNode, r}
	}
	return Node{CnodeNode, v.regionCnodes[r][0]}
}

// report returns the callers and callees of the selected region with
// the selected metric's values.
func (g *callGraph) report() CallGraphReport {
	v := g.v
	vs := &v.values
	rep := CallGraphReport{Region: g.selectedRegion()}
	switch {
	case !HasCallGraph(v.exp):
		rep.Note = "This experiment records no call graph: its call tree holds the call paths."
		return rep
	case rep.Region < 0:
		rep.Note = "Select a region in the call pane to see its callers and callees."
		return rep
	}
	r := rep.Region
	ms, ok := metricSel(vs.v)
	sel := v.panes[CallPane].selected
	unit := ""
	if m := vs.unitMetric(CallPane, sel); m >= 0 {
		unit = " " + vs.Unit(CallPane, sel)
	}
	self, incl := at(vs.regExcl, r), at(vs.regIncl, r)
	rep.Self = vs.CallCell(g.value(self))
	rep.Inclusive = vs.CallCell(g.value(incl))
	whose := "computed from the call tree"
	if ok {
		if _, tool := v.exp.RegionInclusive(ms.Metric, r); tool {
			whose = "as the tool computed it"
		}
	}
	rep.Title = fmt.Sprintf("%s — self %s%s, inclusive %s%s (%s)", v.exp.Regions[r].Name,
		rep.Self.Text, unit, rep.Inclusive.Text, unit, whose)
	if len(vs.locVals) > 0 && math.IsNaN(vs.locVals[0]) {
		rep.Title += "; per location unknown: the tool recorded it summed over all locations"
	}
	// A recursive arc is both: gprof lists it among callers and callees.
	arcs, x := v.exp.CallGraph.Arcs, g.index()
	for _, i := range x.into[r] {
		// An arc from an artificial region (gprof's "cycle as a whole")
		// lists the cycle's members, which gprof shows under the cycle
		// only, not as a call into the member.
		if a := arcs[i]; !artificial(v.exp, a.Caller) {
			rep.Callers = append(rep.Callers, g.arcRow(a, a.Caller, ms, ok, true))
		}
	}
	for _, i := range x.outOf[r] {
		rep.Callees = append(rep.Callees, g.arcRow(arcs[i], arcs[i].Callee, ms, ok, false))
	}
	sortArcRows(rep.Callers)
	sortArcRows(rep.Callees)
	if len(rep.Callers)+len(rep.Callees) == 0 {
		rep.Note = "The tool recorded no calls into or out of " + v.exp.Regions[r].Name + "."
	}
	return rep
}

// arcRow describes arc a from the side of the other region.
func (g *callGraph) arcRow(a model.CallArc, other int, ms model.MetricSel, haveMetric, caller bool) CallGraphRow {
	v := g.v
	row := CallGraphRow{Region: other, Calls: a.Calls, Value: math.NaN()}
	if other < 0 {
		row.Label = "<spontaneous>"
		row.Tooltip = "calls whose caller the tool does not know"
	} else {
		row.Label = v.exp.Regions[other].Name
		row.Tooltip = regionText(&v.exp.Regions[other])
		row.Node = g.regionRow(other)
	}
	if a.Calls >= 0 {
		row.CallsText = strconv.FormatInt(a.Calls, 10) // exact, as the tools print them
		row.Tooltip += "; " + row.CallsText + " call"
		if a.Calls != 1 {
			row.Tooltip += "s"
		}
	}
	if haveMetric {
		if x, ok := v.exp.ArcValue(a, ms); ok {
			row.Value = g.value(x)
		}
	}
	row.Cell = v.values.CallCell(row.Value)
	if math.IsNaN(row.Value) {
		row.Tooltip += "; no value of the selected metric recorded for this arc"
	} else if caller {
		row.Tooltip += "; cost of the selected region on behalf of this caller"
	} else {
		row.Tooltip += "; cost of this callee on behalf of the selected region"
	}
	return row
}

// value returns an arc's or the region's absolute value x in the call
// pane's mode; the 100 % of own-root percent is the whole call forest, as
// for flat-profile rows.
func (g *callGraph) value(x float64) float64 {
	vs := &g.v.values
	mode := g.v.panes[CallPane].mode
	switch mode {
	case Absolute:
		return x
	case OwnRootPercent:
		return vs.percent(x, vs.callTotal)
	}
	return vs.percent(x, vs.reference(CallPane, g.v.panes[CallPane].selected, mode))
}

// sortArcRows orders rows by the magnitude of their value, then by calls,
// then by name; rows without a value come last.
func sortArcRows(rows []CallGraphRow) {
	key := func(r CallGraphRow) float64 {
		if math.IsNaN(r.Value) {
			return math.Inf(-1)
		}
		return math.Abs(r.Value)
	}
	slices.SortStableFunc(rows, func(a, b CallGraphRow) int {
		if c := cmp.Compare(key(b), key(a)); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Calls, a.Calls); c != 0 {
			return c
		}
		return cmp.Compare(a.Label, b.Label)
	})
}

// artificial reports whether region r is artificial: no code of its own
// but a grouping of other regions, such as gprof's "cycle as a whole".
func artificial(e *model.Experiment, r int) bool {
	return r >= 0 && r < len(e.Regions) && e.Regions[r].Role == "artificial"
}

// CallGraphColumns are the titles of the columns of the caller and callee
// tables; the last one's is "Callers" or "Callees".
var CallGraphColumns = []string{"Cost", "Calls", ""}

// Column returns the text of column c (CallGraphColumns) of r: the cost,
// the calls, the caller's or callee's name.
func (r CallGraphRow) Column(c int) string {
	switch c {
	case 0:
		return r.Text
	case 1:
		return r.CallsText
	}
	return r.Label
}

// NoRow says that r's region has no row in the call pane (its Node is
// not valid), for the hint line.
func (r CallGraphRow) NoRow() string { return r.Label + " has no row in the call pane" }

// systemValues returns the system values of the call selection: sys,
// unless it is a collapsed flat-profile region whose inclusive value is
// the tool's own (a call-graph experiment) and differs from sys, which
// then misses the region's callees. The tool recorded that value summed
// over all locations only, so it is shown where that sum is the value:
// on the only location and its ancestors, or on the only system root;
// other system nodes have no value.
func (g *callGraph) systemValues(ms model.MetricSel, sys []float64) []float64 {
	v := g.v
	n := v.panes[CallPane].selected
	e := v.exp
	if !v.flat || n.Kind != RegionNode || v.expandedBranch(CallPane, n) || e.Metrics[ms.Metric].Aggregation != model.Sum {
		return sys
	}
	if _, tool := e.RegionInclusive(ms.Metric, n.Index); !tool {
		return sys
	}
	incl, total := at(v.values.regIncl, n.Index), 0.0
	for _, r := range e.SystemRoots {
		total += sys[r]
	}
	if total == incl {
		return sys
	}
	out := make([]float64, len(sys))
	if len(e.Locations) == 1 {
		for s := e.Locations[0]; s >= 0; s = e.System[s].Parent {
			out[s] = incl
		}
		return out
	}
	for i := range out {
		out[i] = math.NaN()
	}
	if len(e.SystemRoots) == 1 {
		out[e.SystemRoots[0]] = incl
	}
	return out
}
