package analysisview

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"

	"cubeview/model"
	"cubeview/view"
)

// Tools that record a call graph but no call paths (gprof, callgrind)
// give experiments with a flat call forest and a model.CallGraph beside
// it (DESIGN §7). For those a window lists the callers and callees of
// the region selected in the call pane, as gprof's call graph and
// KCachegrind's caller and callee lists do: per arc the calls along it
// and the cost of the selected metric spent in the callee on behalf of
// the caller, in the call pane's value mode and colours.

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
	view.Cell
	// Tooltip describes the region and the arc.
	Tooltip string
	// Node is the call-pane row selecting this region selects: its
	// flat-profile row, or in the call tree its first call path; the zero
	// Node when the region has no row.
	Node view.Node
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
	Self, Inclusive view.Cell
	Callers         []CallGraphRow
	Callees         []CallGraphRow
	// Note says why the lists are empty, "" when they are not.
	Note string
}

// CallGraph reports the callers and callees of a window's call-pane
// selection (View › Callers and callees); it keeps an index of the
// experiment's arcs, built on first use.
type CallGraph struct {
	graph       *model.CallGraph // the arcs indexed
	into, outOf [][]int32        // arc indices by callee and by caller region
}

// index returns the arcs into and out of each region of e.
func (g *CallGraph) index(e *model.Experiment) (into, outOf [][]int32) {
	if g.graph == e.CallGraph && g.into != nil {
		return g.into, g.outOf
	}
	n := len(e.Regions)
	g.graph, g.into, g.outOf = e.CallGraph, make([][]int32, n), make([][]int32, n)
	for i, a := range e.CallGraph.Arcs {
		if a.Callee >= 0 && a.Callee < n {
			g.into[a.Callee] = append(g.into[a.Callee], int32(i))
		}
		if a.Caller >= 0 && a.Caller < n {
			g.outOf[a.Caller] = append(g.outOf[a.Caller], int32(i))
		}
	}
	return g.into, g.outOf
}

// selectedRegion returns the region of v's call-pane selection (a call
// path's region, a flat-profile region or its Subroutines row), or -1.
func selectedRegion(v *view.View) int {
	n := v.Selected(view.CallPane)
	switch n.Kind {
	case view.CnodeNode:
		return v.Experiment().Cnodes[n.Index].Region
	case view.RegionNode, view.SubroutinesNode:
		return n.Index
	}
	return -1
}

// regionRow returns v's call-pane row that stands for region r: its
// flat-profile row, or in the call tree its first call path; the zero
// Node when it has none.
func regionRow(v *view.View, r int) view.Node {
	if r < 0 || r >= len(v.Experiment().Regions) {
		return view.Node{}
	}
	cs := view.RegionCallPaths(v, r)
	switch {
	case len(cs) == 0:
		return view.Node{}
	case v.Flat():
		return view.Node{Kind: view.RegionNode, Index: r}
	}
	return view.Node{Kind: view.CnodeNode, Index: cs[0]}
}

// Report returns the callers and callees of the region selected in v
// with the selected metric's values; v must be up to date (Update).
func (g *CallGraph) Report(v *view.View) CallGraphReport {
	e, vals := v.Experiment(), v.Values()
	rep := CallGraphReport{Region: selectedRegion(v)}
	switch {
	case !view.HasCallGraph(e):
		rep.Note = "This experiment records no call graph: its call tree holds the call paths."
		return rep
	case rep.Region < 0:
		rep.Note = "Select a region in the call pane to see its callers and callees."
		return rep
	}
	r := rep.Region
	sel := v.Selection()
	ms, ok := sel.Metric, sel.HasMetric
	unit := ""
	if ok {
		unit = " " + vals.Unit(view.CallPane, sel.Call)
	}
	rn := view.Node{Kind: view.RegionNode, Index: r}
	value := func(x float64) float64 { return vals.ModeValue(view.CallPane, rn, x) }
	rep.Self = vals.CallCell(value(vals.Exclusive(view.CallPane, rn)))
	rep.Inclusive = vals.CallCell(value(vals.Inclusive(view.CallPane, rn)))
	whose := "computed from the call tree"
	if ok {
		if _, tool := e.CallGraph.RegionInclusive(ms.Metric, r); tool {
			whose = "as the tool computed it"
		}
	}
	rep.Title = fmt.Sprintf("%s — self %s%s, inclusive %s%s (%s)", e.Regions[r].Name,
		rep.Self.Text, unit, rep.Inclusive.Text, unit, whose)
	if locs := sel.Locations; len(locs) > 0 && math.IsNaN(locs[0]) {
		rep.Title += "; per location unknown: the tool recorded it summed over all locations"
	}
	// A recursive arc is both: gprof lists it among callers and callees.
	arcs := e.CallGraph.Arcs
	into, outOf := g.index(e)
	row := func(a model.CallArc, other int, caller bool) CallGraphRow {
		return arcRow(v, a, other, value, caller)
	}
	for _, i := range into[r] {
		// An arc from an artificial region (gprof's "cycle as a whole")
		// lists the cycle's members, which gprof shows under the cycle
		// only, not as a call into the member.
		if a := arcs[i]; !artificial(e, a.Caller) {
			rep.Callers = append(rep.Callers, row(a, a.Caller, true))
		}
	}
	for _, i := range outOf[r] {
		rep.Callees = append(rep.Callees, row(arcs[i], arcs[i].Callee, false))
	}
	sortArcRows(rep.Callers)
	sortArcRows(rep.Callees)
	if len(rep.Callers)+len(rep.Callees) == 0 {
		rep.Note = "The tool recorded no calls into or out of " + e.Regions[r].Name + "."
	}
	return rep
}

// arcRow describes arc a from the side of the other region; value puts
// the arc's cost into the call pane's mode.
func arcRow(v *view.View, a model.CallArc, other int, value func(float64) float64, caller bool) CallGraphRow {
	e := v.Experiment()
	row := CallGraphRow{Region: other, Calls: a.Calls, Value: math.NaN()}
	if other < 0 {
		row.Label = "<spontaneous>"
		row.Tooltip = "calls whose caller the tool does not know"
	} else {
		row.Label = e.Regions[other].Name
		row.Tooltip = view.RegionText(&e.Regions[other])
		row.Node = regionRow(v, other)
	}
	if a.Calls >= 0 {
		row.CallsText = strconv.FormatInt(a.Calls, 10) // exact, as the tools print them
		row.Tooltip += "; " + row.CallsText + " call"
		if a.Calls != 1 {
			row.Tooltip += "s"
		}
	}
	if sel := v.Selection(); sel.HasMetric {
		if x, ok := model.ArcValue(e, a, sel.Metric); ok {
			row.Value = value(x)
		}
	}
	row.Cell = v.Values().CallCell(row.Value)
	if math.IsNaN(row.Value) {
		row.Tooltip += "; no value of the selected metric recorded for this arc"
	} else if caller {
		row.Tooltip += "; cost of the selected region on behalf of this caller"
	} else {
		row.Tooltip += "; cost of this callee on behalf of the selected region"
	}
	return row
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
