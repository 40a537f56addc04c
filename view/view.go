package view

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"cubeview/colormap"
	"cubeview/model"
)

// View is the state of one window without any widgets: selections,
// expanded nodes, value modes and the sort order of the three panes. It
// composes the parts that do the rest — Values (the values shown,
// recomputed by Update), Appearance (number format and colour scale),
// Finder (the search), Markers (operand badges of a derived experiment)
// and HotPath (the hottest path) — and keeps them in step: a change of
// selection marks values stale, Update recomputes what changed, and the
// row accessors (Row, Values().Text) format only the rows a widget asks
// for. A View is used from one goroutine.
type View struct {
	exp *model.Experiment
	shape

	flat  bool
	order SortOrder
	// flatOrder sorts the flat profile, by value unless the user chose.
	flatOrder SortOrder
	panes     [3]paneState
	// treeSel and flatSel remember the call-pane selection of the view
	// not shown, so that switching back restores it.
	treeSel, flatSel Node

	values  Values
	look    Appearance
	finder  Finder
	markers Markers
	hot     HotPath
	small   SmallRows
	cols    Columns
	// clusters colour the system pane in ClusterMode; a cluster selected
	// as a whole is what the metric and call panes show.
	clusters Clusters
}

type paneState struct {
	mode      Mode
	selected  Node
	expanded  map[Node]bool
	userRange *colormap.Range
}

// NewView returns the view of e with the first root metric, the first
// root call path and the first system root selected, all collapsed.
func NewView(e *model.Experiment) *View {
	v := &View{exp: e, look: newAppearance(), flatOrder: ByValue, clusters: Clusters{selected: -2}}
	v.values.v, v.finder.v, v.markers.v, v.hot.v, v.clusters.v, v.small.v = v, v, v, v, v, v
	v.values.reset(len(e.Metrics))
	v.cols = Columns{v: v, selected: -1, sortBy: -1}
	for d := range v.panes {
		v.panes[d].expanded = map[Node]bool{}
	}
	v.shape = newShape(e)
	if len(v.metricRoots) > 0 {
		v.panes[MetricPane].selected = Node{MetricNode, v.metricRoots[0]}
	}
	if len(e.CnodeRoots) > 0 {
		v.treeSel = Node{CnodeNode, e.CnodeRoots[0]}
	}
	if len(v.flatRegions) > 0 {
		v.flatSel = Node{RegionNode, v.flatRegions[0]}
	}
	v.panes[CallPane].selected = v.treeSel
	if len(e.SystemRoots) > 0 {
		v.panes[SystemPane].selected = Node{SystemNode, e.SystemRoots[0]}
	}
	return v
}

// SetExperiment shows e instead of the current experiment; e must be the
// current one with metrics added at the end or metric attributes changed
// (model.Experiment.WithDerived, model.WithThresholds): the same call tree,
// regions and system tree, so that every node keeps its index. Selections,
// expansions, modes and options stay; the search is cleared.
func (v *View) SetExperiment(e *model.Experiment) error {
	old := v.exp
	if len(e.Cnodes) != len(old.Cnodes) || len(e.Regions) != len(old.Regions) ||
		len(e.System) != len(old.System) || len(e.Metrics) < len(old.Metrics) {
		return errors.New("view: the new experiment does not extend the one shown")
	}
	for i := range old.Metrics {
		if e.Metrics[i].UniqName != old.Metrics[i].UniqName {
			return fmt.Errorf("view: metric %d is %q, was %q", i, e.Metrics[i].UniqName, old.Metrics[i].UniqName)
		}
	}
	v.exp = e
	v.shape = newShape(e)
	v.values.reset(len(e.Metrics))
	v.finder.Clear()
	v.clusters.drop() // its subset has the old metrics
	return nil
}

// Experiment returns the experiment shown.
func (v *View) Experiment() *model.Experiment { return v.exp }

// Values returns the values the panes show.
func (v *View) Values() *Values { return &v.values }

// Appearance returns the number format and colour scale.
func (v *View) Appearance() *Appearance { return &v.look }

// Finder returns the search of the panes' labels.
func (v *View) Finder() *Finder { return &v.finder }

// Markers returns the operand badges of a derived experiment's rows.
func (v *View) Markers() *Markers { return &v.markers }

// HotPath returns the hottest-path part.
func (v *View) HotPath() *HotPath { return &v.hot }

// Flat reports whether the call pane shows the flat profile.
func (v *View) Flat() bool { return v.flat }

// SetFlat switches the call pane between call tree and flat profile; each
// keeps its own selection.
func (v *View) SetFlat(flat bool) {
	if flat == v.flat {
		return
	}
	if v.flat {
		v.flatSel = v.panes[CallPane].selected
		v.panes[CallPane].selected = v.treeSel
	} else {
		v.treeSel = v.panes[CallPane].selected
		v.panes[CallPane].selected = v.flatSel
	}
	v.flat = flat
	v.values.invalidate(MetricPane)
}

// Order returns the sort order of children; the flat profile, while
// shown, is sorted by value unless the user chose another order.
func (v *View) Order() SortOrder {
	if v.flat {
		return v.flatOrder
	}
	return v.order
}

// SetOrder sets the sort order of children in every pane.
func (v *View) SetOrder(o SortOrder) {
	v.order, v.flatOrder = o, o
	v.cols.clearSort()
}

// Mode returns pane d's value mode.
func (v *View) Mode(d Dim) Mode { return v.panes[d].mode }

// UsesMode reports whether any pane of v shows values in mode m.
func UsesMode(v *View, m Mode) bool {
	for d := MetricPane; d <= SystemPane; d++ {
		if v.Mode(d) == m {
			return true
		}
	}
	return false
}

// SetMode sets pane d's value mode; a mode the pane does not offer is ignored.
func (v *View) SetMode(d Dim, m Mode) {
	if slices.Contains(Modes(d), m) {
		v.panes[d].mode = m
	}
}

// UserRange returns pane d's user-defined colour range, or nil.
func (v *View) UserRange(d Dim) *colormap.Range { return v.panes[d].userRange }

// SetUserRange sets pane d's colour range; nil restores the automatic one.
func (v *View) setUserRange(d Dim, r *colormap.Range) { v.panes[d].userRange = r }

// Selected returns pane d's selected node.
func (v *View) Selected(d Dim) Node { return v.panes[d].selected }

// Select makes n the selected node of pane d.
func (v *View) Select(d Dim, n Node) {
	k := kindOf(n)
	pane, ok := paneOf(v, n)
	if !ok || pane != d || n.Index < 0 || !k.valid(v, n.Index) || v.panes[d].selected == n {
		return
	}
	v.panes[d].selected = n
	v.values.invalidate(d)
}

// Expanded reports whether n is expanded in pane d.
func (v *View) Expanded(d Dim, n Node) bool { return v.panes[d].expanded[n] }

// SetExpanded expands or collapses n in pane d. Only branches expand.
func (v *View) SetExpanded(d Dim, n Node, open bool) {
	if open && !v.IsBranch(d, n) {
		return
	}
	if v.panes[d].expanded[n] == open {
		return
	}
	if open {
		v.panes[d].expanded[n] = true
	} else {
		delete(v.panes[d].expanded, n)
	}
	if v.panes[d].selected == n {
		v.values.invalidate(d)
	}
}

// expandedBranch reports whether n is an expanded branch of pane d: a
// row that shows its exclusive value.
func (v *View) expandedBranch(d Dim, n Node) bool {
	return v.panes[d].expanded[n] && v.IsBranch(d, n)
}

// Selection is what the current selection stands for, for the analyses
// of the selected values (statistics): the metric selection (exclusive
// when the metric is expanded), the call-pane selection and its name
// ("main/foo", "region foo"), whether it includes its callees, and after
// Update its values per location (data-column order).
type Selection struct {
	Metric    model.MetricSel
	HasMetric bool
	Call      Node
	CallName  string
	CallIncl  bool
	Locations []float64
}

// Selection returns what the current selection stands for.
func (v *View) Selection() Selection {
	s := Selection{Call: v.panes[CallPane].selected, Locations: v.values.locVals}
	s.Metric, s.HasMetric = metricSel(v)
	s.CallName = kindOf(s.Call).callPath(v, s.Call.Index)
	s.CallIncl = !v.expandedBranch(CallPane, s.Call)
	return s
}

// Showing returns the row that shows node n of the experiment in the
// current view: n itself, a call path's region in the flat profile, a
// thread's process when the thread level is hidden; the zero Node when
// the experiment has no node n.
func (v *View) Showing(n Node) Node {
	if n.Index < 0 || !kindOf(n).valid(v, n.Index) {
		return Node{}
	}
	e := v.exp
	switch n.Kind {
	case CnodeNode:
		if v.flat {
			return Node{RegionNode, e.Cnodes[n.Index].Region}
		}
	case SystemNode:
		s := &e.System[n.Index]
		if v.threadsHidden && s.Kind == model.Leaf && s.Parent >= 0 && e.System[s.Parent].Kind == model.Group {
			return Node{SystemNode, s.Parent}
		}
	}
	return n
}

// Update recomputes the values that the last changes made stale. Metric
// data not yet in memory are loaded here; see Values.Missing.
func (v *View) Update() error {
	v.small.forget()
	return v.values.update()
}

// Row is everything a tree widget shows for one node.
type Row struct {
	Node    Node
	Label   string
	Text    string  // formatted value
	Pad     int     // character widths from the text's end to the value column's edge: decimal points align
	Value   float64 // value in the pane's mode; NaN when undefined
	Color   color.NRGBA
	Relief  colormap.Relief
	Tooltip string
	Marker  string // which operands of a derived experiment had the node; "" when all
	Find    FindMark
	Columns []ColumnCell // the metric columns' values (call pane only)
}

// Row returns the display data of n in pane d.
func (v *View) Row(d Dim, n Node) Row {
	c, val := v.values.cell(d, n)
	c = v.clusters.cell(d, n, c)
	r := Row{
		Node:    n,
		Label:   v.Label(n) + thresholdSuffix(v, d, n),
		Text:    c.Text,
		Pad:     v.values.pad(d, c.Text),
		Value:   val,
		Color:   c.Color,
		Relief:  c.Relief,
		Tooltip: v.Tooltip(n),
		Marker:  v.markers.badge(n),
		Find:    v.finder.mark(d, n),
	}
	v.cols.addTo(&r, d, n)
	return r
}

// Label returns the name shown for n.
func (v *View) Label(n Node) string { return kindOf(n).label(v, n.Index) }

// Tooltip returns the description of n (a metric's unit and description,
// a region's file and lines, a location's rank) and, in a derived
// experiment, which operands had n and which did not: "only in A
// (before), not in B (after)".
func (v *View) Tooltip(n Node) string {
	s := kindOf(n).description(v, n.Index)
	note := v.markers.note(n)
	switch {
	case note == "":
		return s
	case s == "":
		return note
	}
	return s + " · " + note
}

// Roots returns the top-level rows of pane d.
func (v *View) Roots(d Dim) []Node {
	out := paneKind(v, d).roots(v)
	sortRows(v, d, out)
	return v.small.fold(d, Node{}, out)
}

// Children returns the rows below n in pane d, in the current sort order;
// the zero Node yields the roots.
func (v *View) Children(d Dim, n Node) []Node {
	if !n.Valid() {
		return v.Roots(d)
	}
	out := kindOf(n).children(v, n.Index)
	sortRows(v, d, out)
	return v.small.fold(d, n, out)
}

// IsBranch reports whether n has rows below it in pane d.
func (v *View) IsBranch(d Dim, n Node) bool { return kindOf(n).isBranch(v, n.Index) }

// Parent returns the row above n in pane d, or the zero Node for a root:
// the "(n hidden)" row when n is folded into one.
func (v *View) Parent(d Dim, n Node) Node {
	p := kindOf(n).parent(v, n.Index)
	if h, ok := v.small.holding(d, p, n); ok {
		return h
	}
	return p
}

// Ancestors returns the rows above n, the root first.
func (v *View) Ancestors(d Dim, n Node) []Node {
	var out []Node
	for p := v.Parent(d, n); p.Valid(); p = v.Parent(d, p) {
		out = append(out, p)
	}
	slices.Reverse(out)
	return out
}

// Reveal expands the rows above n in pane d and selects n.
func (v *View) Reveal(d Dim, n Node) {
	for _, a := range v.Ancestors(d, n) {
		v.SetExpanded(d, a, true)
	}
	v.Select(d, n)
}

// sortRows sorts rows ns of pane d in the view's order: by inclusive
// value (undefined values last) or by name.
func sortRows(v *View, d Dim, ns []Node) {
	if d == CallPane && v.cols.sorted {
		v.cols.sort(ns)
		return
	}
	o := v.order
	if v.flat && d == CallPane {
		o = v.flatOrder
	}
	switch o {
	case ByValue:
		key := func(n Node) float64 {
			x := v.values.Inclusive(d, n)
			if math.IsNaN(x) {
				return math.Inf(-1)
			}
			return x
		}
		slices.SortStableFunc(ns, func(a, b Node) int {
			x, y := key(a), key(b)
			switch {
			case x > y:
				return -1
			case x < y:
				return 1
			}
			return 0
		})
	case ByName:
		slices.SortStableFunc(ns, func(a, b Node) int { return strings.Compare(v.Label(a), v.Label(b)) })
	}
}

// Explain describes the selected value of pane d for the status line:
// what the value is, of which metric, call path and location, in which
// mode, inclusive or exclusive.
func (v *View) Explain(d Dim) string {
	n := v.panes[d].selected
	if !n.Valid() {
		return "Nothing selected in the " + strings.ToLower(d.String())
	}
	unit := ""
	if m := v.values.unitMetric(d, n); m >= 0 {
		unit = v.exp.Metrics[m].Unit
	}
	val := v.values.Text(d, n)
	if v.panes[d].mode.absolute() {
		val += " " + unit
	} else {
		val += " % (" + v.panes[d].mode.String() + "; absolute " + v.look.format.Format(v.values.absolute(d, n), false) + " " + unit + ")"
	}
	parts := kindOf(n).explain(v, n.Index, "("+rowState(v, d, n)+"): "+val)
	if why := v.hot.note(d, n); why != "" {
		parts = append([]string{why}, parts...)
	}
	if t := v.Tooltip(n); t != "" {
		parts = append(parts, t)
	}
	if c := v.cols.explain(n); c != "" && d == CallPane {
		parts = append(parts, c)
	}
	return strings.Join(parts, " · ")
}

// rowState says which of its values row n of pane d shows.
func rowState(v *View, d Dim, n Node) string {
	if v.expandedBranch(d, n) {
		return kindOf(n).expandedState()
	}
	if v.IsBranch(d, n) {
		return "inclusive"
	}
	return "leaf"
}

// metricState names the selected metric and its state.
func metricState(v *View, ms Node) string {
	return fmt.Sprintf("metric %s (%s)", v.Label(ms), rowState(v, MetricPane, ms))
}
