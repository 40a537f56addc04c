package view

import (
	"fmt"
	"image/color"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"cubeview/colormap"
	"cubeview/model"
	"cubeview/numfmt"
)

// View is the state of one window without any widgets: selections,
// expanded nodes, value modes and display options of the three panes, and
// the values they show. A change of state marks values stale; Update
// recomputes what changed with the model's queries, and the row accessors
// (Row, Value, Text) read the result, formatting only the rows a widget
// asks for. A View is used from one goroutine.
type View struct {
	exp      *model.Experiment
	external *model.Experiment

	flat  bool
	order SortOrder
	// flatOrder sorts the flat profile, by value unless the user chose.
	flatOrder SortOrder
	format    numfmt.Format
	scale     colormap.Scale
	panes     [3]paneState
	// treeSel and flatSel remember the call-pane selection of the view
	// not shown, so that switching back restores it.
	treeSel, flatSel Node

	// Structure derived once from the experiment.
	metricRoots   []int // visible (not VOID) root metrics
	metricRoot    []int // root of each metric
	cnodeRoot     []int // root of each cnode
	systemRoot    []int // root of each system node
	regionCnodes  [][]int
	regionCalls   []bool // the region has callees: its flat row has "Subroutines"
	flatRegions   []int  // regions with at least one call path
	threadsHidden bool

	// Metric pane values, computed once per metric (NaN: not yet).
	metricIncl, metricExcl []float64
	extTotals              map[string]float64

	// Call pane values for callKey.
	callKey             metricKey
	callValid           bool
	callExcl, callIncl  []float64
	regExcl, regIncl    []float64
	regCallees          []float64 // flat profile "Subroutines" values (model.Flat.Callees)
	callTotal           float64   // the whole call forest
	locVals, sysVals    []float64
	sysKey              systemKey
	sysValid            bool
	columns             [3]column
	nodeBuf             []Node
	metricRootMax       map[int]float64
	metricRootFormat    map[int]numfmt.Format // per root metric: ForColumn of its values shown
	lastErr             error
	formatted           int // rows formatted since the last Update, for tests and benchmarks
	findMatches         map[Node]bool
	findAncestors       map[Node]bool
	findCurrent         Node
	findDim             Dim
	findActive          bool
	findList            []Node
	findIndex           int
	findPattern         string
	markerNames         []string
	markerAll           model.Mask
	markerOperandsKnown bool
	peerLevel           []int       // level of each system node, an index into peers
	peers               []peerRange // per level, for the current system values
	hotThreshold        float64     // 0: DefaultHotThreshold
	hot                 hotNote
	callGraphArcs       *callGraphIndex // built on first use, see callgraph.go
}

type paneState struct {
	mode      Mode
	selected  Node
	expanded  map[Node]bool
	userRange *colormap.Range
}

type metricKey struct {
	metric    int
	inclusive bool
}

type systemKey struct {
	metric metricKey
	call   Node
	incl   bool
}

// NewView returns the view of e with the first root metric, the first
// root call path and the first system root selected, all collapsed.
func NewView(e *model.Experiment) *View {
	v := &View{exp: e, format: numfmt.Grouped(), scale: colormap.Default(), flatOrder: ByValue}
	for d := range v.panes {
		v.panes[d].expanded = map[Node]bool{}
	}
	v.derive()
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

func (v *View) derive() {
	e := v.exp
	for _, m := range e.MetricRoots {
		if !e.Metrics[m].Hidden() {
			v.metricRoots = append(v.metricRoots, m)
		}
	}
	v.metricRoot = rootsOf(len(e.Metrics), func(i int) int { return e.Metrics[i].Parent })
	v.cnodeRoot = rootsOf(len(e.Cnodes), func(i int) int { return e.Cnodes[i].Parent })
	v.systemRoot = rootsOf(len(e.System), func(i int) int { return e.System[i].Parent })
	v.regionCnodes = make([][]int, len(e.Regions))
	v.regionCalls = make([]bool, len(e.Regions))
	for _, c := range e.CnodeOrder() {
		r := e.Cnodes[c].Region
		v.regionCnodes[r] = append(v.regionCnodes[r], c)
		if len(e.Cnodes[c].Children) > 0 {
			v.regionCalls[r] = true
		}
	}
	for r, cs := range v.regionCnodes {
		if len(cs) > 0 {
			v.flatRegions = append(v.flatRegions, r)
		}
	}
	v.threadsHidden = e.ThreadLevelHidden()
	v.metricIncl = nanSlice(len(e.Metrics))
	v.metricExcl = nanSlice(len(e.Metrics))
	v.extTotals = map[string]float64{}
}

// rootsOf returns the root of every node of a forest given by parent links.
func rootsOf(n int, parent func(int) int) []int {
	root := make([]int, n)
	for i := range root {
		root[i] = -1
	}
	var find func(i, depth int) int
	find = func(i, depth int) int {
		if root[i] >= 0 {
			return root[i]
		}
		p := parent(i)
		if p < 0 || p >= n || depth > n {
			root[i] = i
		} else {
			root[i] = find(p, depth+1)
		}
		return root[i]
	}
	for i := range root {
		find(i, 0)
	}
	return root
}

func nanSlice(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = math.NaN()
	}
	return s
}

// Experiment returns the experiment shown.
func (v *View) Experiment() *model.Experiment { return v.exp }

// External returns the reference experiment of ExternalPercent, or nil.
func (v *View) External() *model.Experiment { return v.external }

// SetExternal sets the reference experiment of ExternalPercent (nil: none).
func (v *View) SetExternal(x *model.Experiment) {
	if x != v.external {
		v.external = x
		v.extTotals = map[string]float64{}
	}
}

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
	v.callValid, v.sysValid = false, false
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
func (v *View) SetOrder(o SortOrder) { v.order, v.flatOrder = o, o }

// NumberFormat returns the number format.
func (v *View) NumberFormat() numfmt.Format { return v.format }

// SetNumberFormat sets the number format.
func (v *View) SetNumberFormat(f numfmt.Format) { v.format = f }

// Scale returns the colour scale.
func (v *View) Scale() colormap.Scale { return v.scale }

// SetScale sets the colour scale.
func (v *View) SetScale(s colormap.Scale) { v.scale = s }

// Mode returns pane d's value mode.
func (v *View) Mode(d Dim) Mode { return v.panes[d].mode }

// SetMode sets pane d's value mode; a mode the pane does not offer is ignored.
func (v *View) SetMode(d Dim, m Mode) {
	if slices.Contains(Modes(d), m) {
		v.panes[d].mode = m
	}
}

// UserRange returns pane d's user-defined colour range, or nil.
func (v *View) UserRange(d Dim) *colormap.Range { return v.panes[d].userRange }

// SetUserRange sets pane d's colour range; nil restores the automatic one.
func (v *View) SetUserRange(d Dim, r *colormap.Range) { v.panes[d].userRange = r }

// Selected returns pane d's selected node.
func (v *View) Selected(d Dim) Node { return v.panes[d].selected }

// Select makes n the selected node of pane d.
func (v *View) Select(d Dim, n Node) {
	if !v.belongs(d, n) || v.panes[d].selected == n {
		return
	}
	v.panes[d].selected = n
	v.invalidateRight(d)
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
		v.invalidateRight(d)
	}
}

func (v *View) invalidateRight(d Dim) {
	switch d {
	case MetricPane:
		v.callValid, v.sysValid = false, false
	case CallPane:
		v.sysValid = false
	}
}

// belongs reports whether n is a row of pane d in the current view.
func (v *View) belongs(d Dim, n Node) bool {
	k := kindOf(n)
	pane, ok := k.pane(v)
	return ok && pane == d && n.Index >= 0 && k.valid(v, n.Index)
}

// metricSel returns the metric selection driving the call pane: the
// selected metric, exclusive when it is expanded.
func (v *View) metricSel() (model.MetricSel, bool) {
	n := v.panes[MetricPane].selected
	if n.Kind != MetricNode {
		return model.MetricSel{}, false
	}
	return model.MetricSel{Metric: n.Index, Inclusive: !v.expandedBranch(MetricPane, n)}, true
}

func (v *View) expandedBranch(d Dim, n Node) bool {
	return v.panes[d].expanded[n] && v.IsBranch(d, n)
}

// BlockRef names one metric's data of one experiment.
type BlockRef struct {
	Exp    *model.Experiment
	Metric int
	// Rows: the rows themselves are needed (per-location values of a
	// selection that is not the whole call forest), not only the
	// metric's aggregates.
	Rows bool
}

// Missing returns the metric data the next Update needs that are not
// ready yet, so that a window can load them in the background first:
// for most metrics only their aggregates (one pass over the file), for
// the selected one its rows when the call selection needs them.
func (v *View) Missing() []BlockRef {
	var out []BlockRef
	seen := map[BlockRef]bool{}
	rows := v.selectionNeedsRows()
	add := func(x *model.Experiment, m int) {
		for _, m := range storedOperands(x, m) {
			r := BlockRef{Exp: x, Metric: m}
			if seen[r] || x.Loaded(m) || x.Summarized(m) {
				continue
			}
			seen[r] = true
			out = append(out, r)
		}
	}
	addRows := func(x *model.Experiment, m int) {
		if !rows {
			add(x, m)
			return
		}
		for _, m := range storedOperands(x, m) {
			r := BlockRef{Exp: x, Metric: m, Rows: true}
			if seen[r] || x.Loaded(m) {
				continue
			}
			seen[r] = true
			out = append(out, r)
		}
	}
	ext := v.usesExternal()
	for _, m := range v.visibleMetrics() {
		add(v.exp, m)
		if ext && v.panes[MetricPane].mode == ExternalPercent {
			add(v.external, v.external.MetricByName(v.exp.Metrics[m].UniqName))
		}
	}
	if ms, ok := v.metricSel(); ok {
		addRows(v.exp, ms.Metric)
		if !ms.Inclusive {
			for _, ch := range v.exp.Metrics[ms.Metric].Children {
				addRows(v.exp, ch)
			}
		}
		if ext {
			add(v.external, v.external.MetricByName(v.exp.Metrics[ms.Metric].UniqName))
		}
	}
	return out
}

// Prefetch returns the selected metric's data (with its child metrics when
// it is expanded) whose rows are not in memory yet: a window reads them in
// the background once values are shown, so that a later call selection
// needs no reading (a metric above the memory budget gets a block that
// reads its rows on demand, which costs nothing ahead).
func (v *View) Prefetch() []BlockRef {
	ms, ok := v.metricSel()
	if !ok {
		return nil
	}
	ms2 := []int{ms.Metric}
	if !ms.Inclusive {
		ms2 = append(ms2, v.exp.Metrics[ms.Metric].Children...)
	}
	var out []BlockRef
	for _, m := range ms2 {
		if v.exp.Metrics[m].Unavailable == "" && !v.exp.Loaded(m) {
			out = append(out, BlockRef{Exp: v.exp, Metric: m, Rows: true})
		}
	}
	return out
}

// selectionNeedsRows reports whether the system pane's values for the
// current call selection need the selected metric's rows: every selection
// but the whole call forest (or a collapsed single root) does.
func (v *View) selectionNeedsRows() bool {
	cs := v.panes[CallPane].selected
	switch cs.Kind {
	case CnodeNode:
		whole := len(v.exp.CnodeRoots) == 1 && v.exp.Cnodes[cs.Index].Parent < 0 && !v.expandedBranch(CallPane, cs)
		return !whole
	case RegionNode, SubroutinesNode:
		return true
	}
	return false
}

// MissingUnder returns the metric data below metric m (inclusive) not yet
// in memory; expanding the hottest path of the metric pane needs them.
func (v *View) MissingUnder(m int) []BlockRef {
	var out []BlockRef
	for _, i := range model.DepthFirst([]int{m}, func(i int) []int { return v.exp.Metrics[i].Children }) {
		for _, s := range storedOperands(v.exp, i) {
			if !v.exp.Loaded(s) && !v.exp.Summarized(s) {
				out = append(out, BlockRef{Exp: v.exp, Metric: s})
			}
		}
	}
	return out
}

func (v *View) usesExternal() bool {
	if v.external == nil {
		return false
	}
	for d := range v.panes {
		if v.panes[d].mode == ExternalPercent {
			return true
		}
	}
	return false
}

// visibleMetrics returns the metrics whose rows are shown: roots and the
// children of expanded metrics.
func (v *View) visibleMetrics() []int {
	var out []int
	var walk func(ms []int)
	walk = func(ms []int) {
		for _, m := range ms {
			if v.exp.Metrics[m].Hidden() {
				continue
			}
			out = append(out, m)
			if v.panes[MetricPane].expanded[Node{MetricNode, m}] {
				walk(v.exp.Metrics[m].Children)
			}
		}
	}
	walk(v.metricRoots)
	return out
}

// Update recomputes the values that the last changes made stale. Metric
// data not yet in memory are loaded here; see Missing.
func (v *View) Update() error {
	v.lastErr = nil
	v.formatted = 0
	for _, m := range v.visibleMetrics() {
		v.metricValues(m)
	}
	ms, ok := v.metricSel()
	if ok {
		v.metricValues(ms.Metric)
	}
	key := metricKey{ms.Metric, ms.Inclusive}
	if !ok {
		key = metricKey{-1, true}
	}
	if !v.callValid || v.callKey != key {
		v.computeCall(ms, ok)
		v.callKey, v.callValid = key, true
		v.sysValid = false
	}
	cs := v.panes[CallPane].selected
	skey := systemKey{metric: key, call: cs, incl: !v.expandedBranch(CallPane, cs)}
	if !v.sysValid || v.sysKey != skey {
		v.computeSystem(ms, ok)
		v.sysKey, v.sysValid = skey, true
	}
	v.computeScales()
	if v.usesExternal() {
		for _, m := range v.visibleMetrics() {
			v.externalTotal(v.exp.Metrics[m].UniqName)
		}
		if ok {
			v.externalTotal(v.exp.Metrics[ms.Metric].UniqName)
		}
	}
	return v.lastErr
}

func (v *View) fail(err error) {
	if err != nil && v.lastErr == nil {
		v.lastErr = err
	}
}

// metricValues computes metric m's inclusive and exclusive totals once.
func (v *View) metricValues(m int) {
	if !math.IsNaN(v.metricIncl[m]) || v.exp.Metrics[m].Unavailable != "" {
		return
	}
	in, err := v.exp.MetricTotal(model.MetricSel{Metric: m, Inclusive: true})
	if err != nil {
		v.fail(fmt.Errorf("metric %q: %w", v.exp.Metrics[m].UniqName, err))
		return
	}
	ex, err := v.exp.MetricTotal(model.MetricSel{Metric: m, Inclusive: false})
	if err != nil {
		v.fail(fmt.Errorf("metric %q: %w", v.exp.Metrics[m].UniqName, err))
		return
	}
	v.metricIncl[m], v.metricExcl[m] = in, ex
}

func (v *View) computeCall(ms model.MetricSel, ok bool) {
	v.callExcl, v.callIncl, v.regExcl, v.regIncl, v.regCallees = nil, nil, nil, nil, nil
	v.callTotal = math.NaN()
	if !ok || v.exp.Metrics[ms.Metric].Unavailable != "" {
		return
	}
	// The after-aggregation queries answer for stored and derived metrics.
	excl, err := v.exp.CallTreeValues(ms, false)
	var incl []float64
	var flat model.Flat
	total := math.NaN()
	if err == nil {
		incl, err = v.exp.CallTreeValues(ms, true)
	}
	if err == nil {
		flat, err = v.exp.RegionProfile(ms)
	}
	if err == nil {
		total, err = v.exp.MetricTotal(ms)
	}
	if err != nil {
		v.fail(fmt.Errorf("metric %q: %w", v.exp.Metrics[ms.Metric].UniqName, err))
		return
	}
	v.callExcl, v.callIncl, v.callTotal = excl, incl, total
	v.regExcl, v.regIncl, v.regCallees = flat.Own, flat.Whole, flat.Callees
}

func (v *View) computeSystem(ms model.MetricSel, ok bool) {
	v.locVals, v.sysVals = nil, nil
	if !ok || v.callExcl == nil {
		return
	}
	sys, err := v.exp.SystemTreeValues(ms, v.callCnodes(v.panes[CallPane].selected))
	if err != nil {
		v.fail(fmt.Errorf("metric %q: %w", v.exp.Metrics[ms.Metric].UniqName, err))
		return
	}
	sys = v.toolSystemValues(ms, sys)
	v.sysVals = sys
	v.locVals = v.exp.LocationsOf(sys)
	v.computePeers()
}

// peerRange is the range of the collapsed values of one level of the
// system tree.
type peerRange struct {
	min, max, maxAbs float64
	count            int
}

// peerLevels assigns every system node its level: nodes of the same kind
// and class (machine, node, process, thread) are peers.
func (v *View) peerLevels() {
	type key struct {
		kind  model.SystemKind
		class string
	}
	ids := map[key]int{}
	v.peerLevel = make([]int, len(v.exp.System))
	for i := range v.exp.System {
		s := &v.exp.System[i]
		k := key{s.Kind, s.Class}
		id, ok := ids[k]
		if !ok {
			id = len(ids)
			ids[k] = id
		}
		v.peerLevel[i] = id
	}
	v.peers = make([]peerRange, len(ids))
}

// computePeers finds the range of the system values of every level; a
// level hidden from the display (threads of single-threaded processes)
// takes part all the same.
func (v *View) computePeers() {
	if v.peerLevel == nil {
		v.peerLevels()
	}
	for i := range v.peers {
		v.peers[i] = peerRange{min: math.Inf(1), max: math.Inf(-1)}
	}
	for s, x := range v.sysVals {
		if math.IsNaN(x) {
			continue
		}
		p := &v.peers[v.peerLevel[s]]
		p.min, p.max, p.maxAbs = math.Min(p.min, x), math.Max(p.max, x), math.Max(p.maxAbs, math.Abs(x))
		p.count++
	}
}

// peerPosition returns where x, the absolute value of system node n, lies
// between the smallest and the largest value of its peers, in percent:
// 0 when all peers are equal.
func (v *View) peerPosition(n Node, x float64) float64 {
	if n.Kind != SystemNode || math.IsNaN(x) || v.sysVals == nil {
		return math.NaN()
	}
	p := v.peers[v.peerLevel[n.Index]]
	if !(p.max > p.min) || v.format.IsZero(p.max-p.min) {
		return 0
	}
	return 100 * (x - p.min) / (p.max - p.min)
}

// regionSelection returns the call paths a flat-profile row stands for:
// an expanded region its own call paths, a collapsed one the union of
// their subtrees, "Subroutines" that union without the region's own paths.
func (v *View) regionSelection(n Node) []int {
	own := v.regionCnodes[n.Index]
	if n.Kind == RegionNode && v.expandedBranch(CallPane, n) {
		return own
	}
	seen := make([]bool, len(v.exp.Cnodes))
	var out []int
	for _, c := range own {
		if seen[c] {
			continue
		}
		for _, d := range v.exp.CnodeSubtree(model.CnodeSel{Cnode: c, Inclusive: true}) {
			if !seen[d] {
				seen[d] = true
				if n.Kind == RegionNode || v.exp.Cnodes[d].Region != n.Index {
					out = append(out, d)
				}
			}
		}
	}
	return out
}

func (v *View) externalTotal(uniq string) float64 {
	if t, ok := v.extTotals[uniq]; ok {
		return t
	}
	t := math.NaN()
	if v.external != nil {
		if m := v.external.MetricByName(uniq); m >= 0 && v.external.Metrics[m].Unavailable == "" {
			x, err := v.external.MetricTotal(model.MetricSel{Metric: m, Inclusive: true})
			if err != nil {
				v.fail(fmt.Errorf("external experiment, metric %q: %w", uniq, err))
			} else {
				t = x
			}
		}
	}
	v.extTotals[uniq] = t
	return t
}

// computeScales finds, per pane, the largest magnitude shown in absolute
// mode (per root metric in the metric pane, whose roots have different
// units), whether negative values show, and the widest value text.
func (v *View) computeScales() {
	v.metricRootMax = map[int]float64{}
	for d := range v.panes {
		v.columns[d] = column{}
	}
	for _, n := range v.rowsWithValues(MetricPane) {
		a := math.Abs(v.absolute(MetricPane, n))
		if !math.IsNaN(a) {
			r := v.metricRoot[n.Index]
			v.metricRootMax[r] = math.Max(v.metricRootMax[r], a)
		}
	}
	// The metric pane's roots have units of their own: each root's
	// values get a format of their own (numfmt.Format.ForColumn).
	rootShown := map[int]float64{}
	for _, n := range v.rowsWithValues(MetricPane) {
		r := v.metricRoot[n.Index]
		rootShown[r] = maxAbs(rootShown[r], v.Value(MetricPane, n))
	}
	v.metricRootFormat = map[int]numfmt.Format{}
	for r, x := range rootShown {
		v.metricRootFormat[r] = v.format.ForColumn(x)
	}
	for d := range v.panes {
		c := &v.columns[d]
		widest := 0.0
		for _, n := range v.rowsWithValues(Dim(d)) {
			c.max = maxAbs(c.max, v.absolute(Dim(d), n))
			x := v.Value(Dim(d), n)
			if x < 0 && !v.format.IsZero(x) {
				c.negative = true
			}
			if d == int(MetricPane) {
				c.chars = max(c.chars, utf8.RuneCountInString(v.valueFormat(Dim(d), n).Format(x, v.integer(Dim(d), n))))
			} else {
				widest = maxAbs(widest, x)
			}
		}
		c.format = v.format.ForColumn(widest)
		if d != int(MetricPane) {
			if c.negative {
				widest = -widest
			}
			n := v.panes[d].selected
			c.chars = utf8.RuneCountInString(c.format.Format(widest, v.integer(Dim(d), n)))
		}
		c.chars = max(c.chars, 1)
	}
}

// valueFormat returns the number format of row n's value in pane d: the
// chosen format, with more decimals where the pane's (or, in the metric
// pane, the row's root metric's) values would otherwise all read 0.00.
func (v *View) valueFormat(d Dim, n Node) numfmt.Format {
	if d == MetricPane {
		if n.Index >= 0 && n.Index < len(v.metricRoot) {
			if f, ok := v.metricRootFormat[v.metricRoot[n.Index]]; ok {
				return f
			}
		}
		return v.format
	}
	if v.columns[d].format == (numfmt.Format{}) {
		return v.format
	}
	return v.columns[d].format
}

// column is what a pane's values have in common: the largest magnitude in
// absolute mode, whether negative values show, and the widest text.
type column struct {
	max      float64
	negative bool
	chars    int
	format   numfmt.Format // v.format.ForColumn of the largest value shown
}

// rowsWithValues returns every row of pane d whose value the colour scale
// and the value column take into account: the metrics shown, every call
// path or flat-profile row, every system node.
func (v *View) rowsWithValues(d Dim) []Node { return v.paneKind(d).rows(v) }

// allNodes returns the nodes of kind k with indices 0 … n−1, reusing a
// buffer: rowsWithValues runs on every Update.
func (v *View) allNodes(k NodeKind, n int) []Node {
	if cap(v.nodeBuf) < n {
		v.nodeBuf = make([]Node, n)
	}
	out := v.nodeBuf[:n]
	for i := range out {
		out[i] = Node{k, i}
	}
	return out
}

// ValueChars returns the width of pane d's value column in characters:
// the widest value text the pane can show in its current mode and format,
// so that the column does not change while scrolling.
func (v *View) ValueChars(d Dim) int { return v.columns[d].chars }

func maxAbs(m, x float64) float64 {
	if a := math.Abs(x); a > m {
		return a
	}
	return m
}

// Inclusive returns the collapsed (inclusive) absolute value of n in pane
// d, whatever its state; NaN when undefined.
func (v *View) Inclusive(d Dim, n Node) float64 { return kindOf(n).inclusive(v, n.Index) }

// Absolute returns the absolute value n shows in its current state:
// inclusive when collapsed, exclusive when expanded, undefined (NaN) for
// an expanded system node, which has no value of its own.
func (v *View) Absolute(d Dim, n Node) float64 { return v.absolute(d, n) }

func (v *View) absolute(d Dim, n Node) float64 {
	if v.expandedBranch(d, n) {
		return kindOf(n).exclusive(v, n.Index)
	}
	return kindOf(n).inclusive(v, n.Index)
}

func at(s []float64, i int) float64 {
	if s == nil || i < 0 || i >= len(s) {
		return math.NaN()
	}
	return s[i]
}

// Value returns what n shows in pane d's value mode (NaN: undefined).
func (v *View) Value(d Dim, n Node) float64 {
	a := v.absolute(d, n)
	mode := v.panes[d].mode
	switch mode {
	case Absolute:
		return a
	case PeerDistribution:
		return v.peerPosition(n, a)
	}
	return v.percent(a, v.reference(d, n, mode))
}

// percent returns 100·x/ref, treating magnitudes below the zero
// threshold as zero; a zero reference leaves non-zero values undefined.
func (v *View) percent(x, ref float64) float64 {
	if math.IsNaN(x) || math.IsNaN(ref) {
		return math.NaN()
	}
	z := v.format.ZeroThreshold()
	if math.Abs(x) < z {
		x = 0
	}
	if math.Abs(ref) < z {
		if x == 0 {
			return 0
		}
		return math.NaN()
	}
	return 100 * x / ref
}

// reference returns the 100 % value of mode for row n of pane d.
func (v *View) reference(d Dim, n Node, mode Mode) float64 {
	switch mode {
	case OwnRootPercent:
		return kindOf(n).ownRoot(v, n.Index)
	case MetricRootPercent:
		if s := v.panes[MetricPane].selected; s.Kind == MetricNode {
			return v.metricIncl[v.metricRoot[s.Index]]
		}
	case MetricSelectionPercent:
		if s := v.panes[MetricPane].selected; s.Kind == MetricNode {
			return v.absolute(MetricPane, s)
		}
	case CallSelectionPercent:
		if s := v.panes[CallPane].selected; s.Valid() {
			return v.absolute(CallPane, s)
		}
	case PeerPercent:
		if n.Kind == SystemNode {
			return v.peers[v.peerLevel[n.Index]].maxAbs
		}
	case ExternalPercent:
		m := v.panes[MetricPane].selected
		if d == MetricPane {
			m = n
		}
		if m.Kind == MetricNode && v.external != nil {
			return v.externalTotal(v.exp.Metrics[m.Index].UniqName)
		}
	}
	return math.NaN()
}

// ScaleRange returns the colour range of row n in pane d: a user range if
// set, 0–100 in percent modes, else 0 to the largest magnitude of the pane
// (of the row's root metric in the metric pane).
func (v *View) ScaleRange(d Dim, n Node) colormap.Range {
	if r := v.panes[d].userRange; r != nil {
		return *r
	}
	if v.panes[d].mode != Absolute {
		return colormap.Range{Max: 100}
	}
	return colormap.Range{Max: kindOf(n).scaleMax(v, d, n.Index)}
}

// unitMetric returns the metric whose unit and type the values of pane d
// (row n) have, or -1.
func (v *View) unitMetric(d Dim, n Node) int { return kindOf(n).metricOf(v, n.Index) }

// Text returns the formatted value of n in pane d.
func (v *View) Text(d Dim, n Node) string {
	v.formatted++
	return v.valueFormat(d, n).Format(v.Value(d, n), v.integer(d, n))
}

// ScaleInfo describes pane d's colour scale and where its selection lies
// on it, for the line below the pane.
func (v *View) ScaleInfo(d Dim) string {
	n := v.panes[d].selected
	if !n.Valid() {
		return ""
	}
	r := v.ScaleRange(d, n)
	f := v.valueFormat(d, n)
	lo := f.Format(r.Min, false)
	if v.signed(d) {
		// Colours rank magnitudes; the sign shows as relief (or hue).
		lo = f.Format(-r.Max, false)
	}
	s := fmt.Sprintf("scale %s – %s %s · selected %s", lo, f.Format(r.Max, false), v.Unit(d, n), v.Text(d, n))
	if val := v.Value(d, n); !math.IsNaN(val) && r.Max > r.Min {
		s += fmt.Sprintf(" (%.0f %% of scale)", 100*(math.Abs(val)-r.Min)/(r.Max-r.Min))
	}
	return s
}

// signed reports whether pane d's scale runs from −max to max: when it
// shows negative values or the colours diverge.
func (v *View) signed(d Dim) bool {
	return v.columns[d].negative || (v.scale.Diverging && v.panes[d].userRange == nil)
}

// LegendEntry is one swatch of the legend: how a kind of value looks in
// the panes and what it means.
type LegendEntry struct {
	Color   color.NRGBA
	Relief  colormap.Relief
	Meaning string
}

// Legend returns what the legend shows: the ends of the colour bar, a
// swatch for each kind of value exactly as the panes draw it, and in a
// derived experiment the letters of its operands' badges ("A before").
func (v *View) Legend() (low, high string, entries []LegendEntry, operands []string) {
	low, high = "0", "max"
	if v.scale.Diverging {
		low, high = "−max", "+max"
	}
	unit := colormap.Range{Max: 1}
	entries = []LegendEntry{
		{colormap.White, colormap.Flat, "zero or undefined"},
		{colormap.Gray, colormap.Flat, "outside the range"},
		{v.scale.Color(1, unit), colormap.Raised, "positive (raised)"},
		{v.scale.Color(-1, unit), colormap.Sunken, "negative (sunken)"},
	}
	if !v.scale.Diverging {
		// One spectrum for both signs: only the relief tells them apart.
		entries[3].Meaning = "negative (sunken, coloured by size)"
	}
	if v.markerOperandsKnown {
		for i, name := range v.markerNames {
			operands = append(operands, operandLetter(i)+" "+name)
		}
	}
	return low, high, entries, operands
}

// CallValue returns what the source panel shows for a call path or
// region n: its inclusive value of the selected metric in the call pane's
// value mode, whatever n's state in the pane.
func (v *View) CallValue(n Node) float64 {
	x := v.Inclusive(CallPane, n)
	if mode := v.panes[CallPane].mode; mode != Absolute {
		return v.percent(x, v.reference(CallPane, n, mode))
	}
	return x
}

// CallCell returns how a CallValue looks: in the call pane's colour range,
// larger magnitudes (a region's inclusive value above an expanded call
// path) taking the end colour unless the user set the range, so that equal
// values look alike in the pane and beside the source.
func (v *View) CallCell(x float64) Cell {
	sel := v.panes[CallPane].selected
	return v.appearance(v.valueFormat(CallPane, sel), x, v.integer(CallPane, sel), v.ScaleRange(CallPane, sel), v.panes[CallPane].userRange == nil)
}

// RegionCallPaths returns the call paths of region r, in call-tree order.
func (v *View) RegionCallPaths(r int) []int { return v.regionCnodes[r] }

// Formatted returns how many values were formatted since the last Update.
func (v *View) Formatted() int { return v.formatted }

// Row is everything a tree widget shows for one node.
type Row struct {
	Node    Node
	Label   string
	Text    string  // formatted value
	Value   float64 // value in the pane's mode; NaN when undefined
	Color   color.NRGBA
	Relief  colormap.Relief
	Tooltip string
	Marker  string // which operands of a derived experiment had the node; "" when all
	Find    FindMark
}

// FindMark says how a row takes part in the current search.
type FindMark uint8

const (
	// NotFound rows do not match.
	NotFound FindMark = iota
	// Found rows match.
	Found
	// FoundBelow rows are collapsed and hide a match.
	FoundBelow
	// FoundCurrent is the match last moved to.
	FoundCurrent
)

// Cell is how one value looks: its text, colour and relief.
type Cell struct {
	Text   string
	Color  color.NRGBA
	Relief colormap.Relief
}

// Appearance returns how value x (NaN: undefined) looks in the current
// number format and colour scale with colour range rng: values that print
// as zero are white and flat. With clamp, magnitudes beyond rng.Max take
// the end colour instead of the out-of-range one.
func (v *View) Appearance(x float64, integer bool, rng colormap.Range, clamp bool) Cell {
	return v.appearance(v.format, x, integer, rng, clamp)
}

// appearance is Appearance with the text in format f (a column's).
func (v *View) appearance(f numfmt.Format, x float64, integer bool, rng colormap.Range, clamp bool) Cell {
	c := Cell{Text: f.Format(x, integer), Relief: colormap.ReliefOf(x, v.format.ZeroThreshold())}
	switch {
	case v.format.IsZero(x):
		c.Color = colormap.White
	case clamp && math.Abs(x) > rng.Max:
		c.Color = v.scale.Color(math.Copysign(rng.Max, x), rng)
	default:
		c.Color = v.scale.Color(x, rng)
	}
	return c
}

// integer reports whether pane d shows values of an integer metric as they
// are (absolute mode), printed without decimals.
func (v *View) integer(d Dim, n Node) bool {
	m := v.unitMetric(d, n)
	return m >= 0 && v.panes[d].mode == Absolute && v.exp.Metrics[m].IsInteger()
}

// Unit returns the unit of the values pane d shows for n: the metric's
// unit in absolute mode, "%" in the others.
func (v *View) Unit(d Dim, n Node) string {
	if v.panes[d].mode != Absolute {
		return "%"
	}
	if m := v.unitMetric(d, n); m >= 0 {
		return v.exp.Metrics[m].Unit
	}
	return ""
}

// Row returns the display data of n in pane d.
func (v *View) Row(d Dim, n Node) Row {
	val := v.Value(d, n)
	v.formatted++
	c := v.appearance(v.valueFormat(d, n), val, v.integer(d, n), v.ScaleRange(d, n), false)
	r := Row{
		Node:    n,
		Label:   v.Label(n) + v.thresholdSuffix(d, n),
		Text:    c.Text,
		Value:   val,
		Color:   c.Color,
		Relief:  c.Relief,
		Tooltip: v.Tooltip(n),
		Marker:  v.Marker(n),
	}
	if v.findActive && v.findDim == d {
		switch {
		case n == v.findCurrent:
			r.Find = FoundCurrent
		case v.findMatches[n]:
			r.Find = Found
		case v.findAncestors[n] && !v.panes[d].expanded[n]:
			r.Find = FoundBelow
		}
	}
	return r
}

// Label returns the name shown for n.
func (v *View) Label(n Node) string { return kindOf(n).label(v, n.Index) }

// description returns what a tooltip would say of n: a metric's unit and
// description, a region's file and lines, a location's rank. Tooltip adds
// the operands of a derived experiment.
func (v *View) description(n Node) string { return kindOf(n).description(v, n.Index) }

func regionText(r *model.Region) string {
	s := r.Name
	switch {
	case r.Module != "" && r.Begin > 0 && r.End > 0:
		s += fmt.Sprintf(" — %s:%d–%d", r.Module, r.Begin, r.End)
	case r.Module != "" && r.Begin > 0:
		s += fmt.Sprintf(" — %s:%d", r.Module, r.Begin)
	case r.Module != "":
		s += " — " + r.Module
	}
	if r.Descr != "" {
		s += ": " + r.Descr
	}
	return s
}

// Roots returns the top-level rows of pane d.
func (v *View) Roots(d Dim) []Node {
	out := v.paneKind(d).roots(v)
	v.sort(d, out)
	return out
}

// Children returns the rows below n in pane d, in the current sort order;
// the zero Node yields the roots.
func (v *View) Children(d Dim, n Node) []Node {
	if !n.Valid() {
		return v.Roots(d)
	}
	out := kindOf(n).children(v, n.Index)
	v.sort(d, out)
	return out
}

// IsBranch reports whether n has rows below it in pane d.
func (v *View) IsBranch(d Dim, n Node) bool { return kindOf(n).isBranch(v, n.Index) }

// Parent returns the row above n in pane d, or the zero Node for a root.
func (v *View) Parent(d Dim, n Node) Node { return kindOf(n).parent(v, n.Index) }

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

func nodes(k NodeKind, idx []int) []Node {
	out := make([]Node, len(idx))
	for i, x := range idx {
		out[i] = Node{k, x}
	}
	return out
}

func (v *View) sort(d Dim, ns []Node) {
	o := v.order
	if v.flat && d == CallPane {
		o = v.flatOrder
	}
	switch o {
	case ByValue:
		slices.SortStableFunc(ns, func(a, b Node) int {
			x, y := v.sortKey(d, a), v.sortKey(d, b)
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

// sortKey is the inclusive value with undefined values last.
func (v *View) sortKey(d Dim, n Node) float64 {
	x := v.Inclusive(d, n)
	if math.IsNaN(x) {
		return math.Inf(-1)
	}
	return x
}

// DefaultHotThreshold is the share of a node's value a child must exceed
// for the hottest path to go on into it (hpcviewer's hot-path rule).
const DefaultHotThreshold = 0.5

// HotThreshold returns the share (0 < t < 1) a child must exceed for the
// hottest path to descend into it.
func (v *View) HotThreshold() float64 {
	if v.hotThreshold <= 0 {
		return DefaultHotThreshold
	}
	return v.hotThreshold
}

// SetHotThreshold sets the share a child must exceed for the hottest path
// to descend into it; values outside (0, 1) restore the default.
func (v *View) SetHotThreshold(t float64) {
	if !(t > 0 && t < 1) {
		t = 0
	}
	v.hotThreshold = t
}

// HottestPath returns the path from n that follows, at each level, the
// child with the largest inclusive magnitude (the first one on ties) for
// as long as that child holds more than HotThreshold of its parent's
// value; where no child does, the node's own code or the spread of its
// children dominates and the path stops. why says where and why it
// stopped; Explain repeats it while the path's end stays selected.
// Expanding every node but the last shows where the value goes.
func (v *View) HottestPath(d Dim, n Node) (path []Node, why string) {
	path = []Node{n}
	thr := v.HotThreshold()
	for {
		kids := v.Children(d, n)
		for _, ch := range kids {
			if ch.Kind == MetricNode {
				v.metricValues(ch.Index) // children of a collapsed metric may not be computed yet
			}
		}
		var best Node
		bestVal := math.Inf(-1)
		for _, ch := range kids {
			x := math.Abs(v.Inclusive(d, ch))
			if math.IsNaN(x) {
				x = math.Inf(-1)
			}
			if !best.Valid() || x > bestVal {
				best, bestVal = ch, x
			}
		}
		if !best.Valid() {
			why = v.Label(n) + ": nothing below it"
			break
		}
		total := math.Abs(v.Inclusive(d, n))
		if total > 0 && bestVal > thr*total {
			path = append(path, best)
			n = best
			continue
		}
		why = v.hotStop(d, n, best, bestVal, total, thr)
		break
	}
	v.hot = hotNote{d: d, end: n, why: "Hottest path stops at " + why}
	return path, v.hot.why
}

// hotNote remembers why the last hottest path stopped, for Explain.
type hotNote struct {
	d   Dim
	end Node
	why string
}

// hotStop explains why the hottest path stops at n, whose largest child
// best holds bestVal of n's magnitude total, below the share thr.
func (v *View) hotStop(d Dim, n, best Node, bestVal, total, thr float64) string {
	unit := ""
	if m := v.unitMetric(d, n); m >= 0 {
		unit = " " + v.exp.Metrics[m].Unit
	}
	num := func(x float64) string { return v.format.Format(x, v.integer(d, n)) + unit }
	if !(total > 0) {
		return fmt.Sprintf("%s: its value is %s", v.Label(n), num(v.Inclusive(d, n)))
	}
	s := fmt.Sprintf("%s (%s): no child holds more than %.0f %% of it; the largest, %s, holds %s (%.1f %%)",
		v.Label(n), num(v.Inclusive(d, n)), 100*thr, v.Label(best), num(v.Inclusive(d, best)), 100*bestVal/total)
	if own := kindOf(n).exclusive(v, n.Index); !math.IsNaN(own) {
		s += fmt.Sprintf("; its own value is %s (%.1f %%)", num(own), 100*math.Abs(own)/total)
	}
	return s
}

// Find searches the labels of pane d for pattern (a case-insensitive
// regular expression, or literal text if it is not one) and returns the
// matching rows in display order. The matches are marked in Row until
// ClearFind; the first becomes current.
func (v *View) Find(d Dim, pattern string) []Node {
	v.ClearFind()
	if pattern == "" {
		return nil
	}
	re, err := regexp.Compile("(?i)" + pattern)
	if err != nil {
		re = regexp.MustCompile("(?i)" + regexp.QuoteMeta(pattern))
	}
	v.findActive, v.findDim, v.findPattern = true, d, pattern
	v.findMatches, v.findAncestors = map[Node]bool{}, map[Node]bool{}
	var walk func(ns []Node)
	walk = func(ns []Node) {
		for _, n := range ns {
			if re.MatchString(v.Label(n)) {
				v.findMatches[n] = true
				v.findList = append(v.findList, n)
				for _, a := range v.Ancestors(d, n) {
					v.findAncestors[a] = true
				}
			}
			walk(v.Children(d, n))
		}
	}
	walk(v.Roots(d))
	if len(v.findList) > 0 {
		v.findCurrent, v.findIndex = v.findList[0], 0
	}
	return v.findList
}

// FindStep moves the current match forward (delta 1) or back (−1),
// wrapping around, and returns it with its position (1-based) and the
// number of matches; ok is false without matches.
func (v *View) FindStep(delta int) (n Node, pos, total int, ok bool) {
	if !v.findActive || len(v.findList) == 0 {
		return Node{}, 0, 0, false
	}
	k := len(v.findList)
	v.findIndex = ((v.findIndex+delta)%k + k) % k
	v.findCurrent = v.findList[v.findIndex]
	return v.findCurrent, v.findIndex + 1, k, true
}

// FindState returns the pane and pattern of the current search.
func (v *View) FindState() (d Dim, pattern string, active bool) {
	return v.findDim, v.findPattern, v.findActive
}

// ClearFind removes the marks of the last search.
func (v *View) ClearFind() {
	v.findActive, v.findList, v.findIndex, v.findCurrent, v.findPattern = false, nil, 0, Node{}, ""
	v.findMatches, v.findAncestors = nil, nil
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
	if m := v.unitMetric(d, n); m >= 0 {
		unit = v.exp.Metrics[m].Unit
	}
	val := v.Text(d, n)
	if v.panes[d].mode == Absolute {
		val += " " + unit
	} else {
		val += " % (" + v.panes[d].mode.String() + "; absolute " + v.format.Format(v.absolute(d, n), false) + " " + unit + ")"
	}
	parts := kindOf(n).explain(v, n.Index, "("+v.state(d, n)+"): "+val)
	if v.hot.why != "" && v.hot.d == d && v.hot.end == n {
		parts = append([]string{v.hot.why}, parts...)
	}
	if t := v.Tooltip(n); t != "" {
		parts = append(parts, t)
	}
	return strings.Join(parts, " · ")
}

// state says which of its values row n of pane d shows.
func (v *View) state(d Dim, n Node) string {
	if v.expandedBranch(d, n) {
		return kindOf(n).expandedState()
	}
	if v.IsBranch(d, n) {
		return "inclusive"
	}
	return "leaf"
}

// metricState names the selected metric and its state.
func (v *View) metricState(ms Node) string {
	return fmt.Sprintf("metric %s (%s)", v.Label(ms), v.state(MetricPane, ms))
}

func (v *View) callPath(n Node) string { return kindOf(n).callPath(v, n.Index) }
