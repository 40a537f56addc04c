package view

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"cubeview/colormap"
	"cubeview/model"
	"cubeview/numfmt"
)

// Values are the values a View's panes show, computed with the model's
// queries: per metric its totals, for the selected metric its values
// over the call tree or flat profile, for the call selection its values
// over the system tree, each row's value in its pane's mode, the colour
// ranges and the width of the value columns. A change of the view's
// state marks them stale; View.Update recomputes only what changed.
type Values struct {
	v        *View
	external *model.Experiment // the reference of ExternalPercent, or nil

	// Metric pane values, computed once per metric (NaN: not yet).
	metricIncl, metricExcl []float64
	extTotals              map[string]float64

	// Call pane values for callKey.
	callKey            metricKey
	callValid          bool
	callExcl, callIncl []float64
	regExcl, regIncl   []float64
	regCallees         []float64 // flat profile "Subroutines" values (model.Flat.Callees)
	callTotal          float64   // the whole call forest
	locVals, sysVals   []float64
	sysKey             systemKey
	sysValid           bool
	peers              peerRanges

	columns       [3]column
	nodeBuf       []Node
	metricRootMax map[int]float64
	lastErr       error
	formatted     int // rows formatted since the last Update, for tests and benchmarks

	first SelectedFirst
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

// column is what a pane's values have in common: the largest magnitude in
// absolute mode, whether negative values show, and the widths of their
// texts.
type column struct {
	max      float64
	negative bool
	width    valueWidth
}

// reset forgets every value computed, for an experiment of n metrics.
func (vs *Values) reset(n int) {
	vs.metricIncl = nanSlice(n)
	vs.metricExcl = nanSlice(n)
	vs.extTotals = map[string]float64{}
	vs.callValid, vs.sysValid = false, false
}

// invalidate marks stale the values that depend on the selection in
// pane d: those of the panes to its right.
func (vs *Values) invalidate(d Dim) {
	switch d {
	case MetricPane:
		vs.callValid, vs.sysValid = false, false
	case CallPane:
		vs.sysValid = false
	}
}

func nanSlice(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = math.NaN()
	}
	return s
}

// External returns the reference experiment of ExternalPercent, or nil.
func (vs *Values) External() *model.Experiment { return vs.external }

// SetExternal sets the reference experiment of ExternalPercent (nil: none).
func (vs *Values) SetExternal(x *model.Experiment) {
	if x != vs.external {
		vs.external = x
		vs.extTotals = map[string]float64{}
	}
}

// metricSel returns the metric selection of v driving the call pane:
// the selected metric, exclusive when it is expanded.
func metricSel(v *View) (model.MetricSel, bool) {
	n := v.panes[MetricPane].selected
	if n.Kind != MetricNode {
		return model.MetricSel{}, false
	}
	return model.MetricSel{Metric: n.Index, Inclusive: !v.expandedBranch(MetricPane, n)}, true
}

func (vs *Values) usesExternal() bool {
	if vs.external == nil {
		return false
	}
	for d := range vs.v.panes {
		if vs.v.panes[d].mode == ExternalPercent {
			return true
		}
	}
	return false
}

// visibleMetrics returns the metrics whose rows are shown: roots and the
// children of expanded metrics.
func (vs *Values) visibleMetrics() []int {
	v := vs.v
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

// update recomputes the values that the last changes made stale.
func (vs *Values) update() error {
	v := vs.v
	vs.lastErr = nil
	vs.formatted = 0
	for _, m := range vs.visibleMetrics() {
		vs.metricValues(m)
	}
	ms, ok := metricSel(vs.v)
	if ok {
		vs.metricValues(ms.Metric)
	}
	key := metricKey{ms.Metric, ms.Inclusive}
	if !ok {
		key = metricKey{-1, true}
	}
	if !vs.callValid || vs.callKey != key {
		vs.computeCall(ms, ok)
		vs.callKey, vs.callValid = key, true
		vs.sysValid = false
	}
	cs := v.panes[CallPane].selected
	skey := systemKey{metric: key, call: cs, incl: !v.expandedBranch(CallPane, cs)}
	if !vs.sysValid || vs.sysKey != skey {
		vs.computeSystem(ms, ok)
		vs.sysKey, vs.sysValid = skey, true
	}
	vs.computeScales()
	vs.v.cols.update()
	if vs.usesExternal() {
		for _, m := range vs.visibleMetrics() {
			vs.externalTotal(v.exp.Metrics[m].UniqName)
		}
		if ok {
			vs.externalTotal(v.exp.Metrics[ms.Metric].UniqName)
		}
	}
	return vs.lastErr
}

func (vs *Values) fail(err error) {
	if err != nil && vs.lastErr == nil {
		vs.lastErr = err
	}
}

// metricValues computes metric m's inclusive and exclusive totals once.
func (vs *Values) metricValues(m int) {
	e := vs.v.clusters.source()
	if !math.IsNaN(vs.metricIncl[m]) || e.Metrics[m].Unavailable != "" || vs.first.pending(m) {
		return
	}
	in, err := e.MetricTotal(model.MetricSel{Metric: m, Inclusive: true})
	if err != nil {
		vs.fail(fmt.Errorf("metric %q: %w", e.Metrics[m].UniqName, err))
		return
	}
	ex, err := e.MetricTotal(model.MetricSel{Metric: m, Inclusive: false})
	if err != nil {
		vs.fail(fmt.Errorf("metric %q: %w", e.Metrics[m].UniqName, err))
		return
	}
	vs.metricIncl[m], vs.metricExcl[m] = in, ex
}

func (vs *Values) computeCall(ms model.MetricSel, ok bool) {
	e := vs.v.clusters.source()
	vs.callExcl, vs.callIncl, vs.regExcl, vs.regIncl, vs.regCallees = nil, nil, nil, nil, nil
	vs.callTotal = math.NaN()
	if !ok || e.Metrics[ms.Metric].Unavailable != "" {
		return
	}
	// The after-aggregation queries answer for stored and derived metrics.
	excl, err := e.CallTreeValues(ms, false)
	var incl []float64
	var flat model.Flat
	total := math.NaN()
	if err == nil {
		incl, err = e.CallTreeValues(ms, true)
	}
	if err == nil {
		flat, err = model.RegionProfile(e, ms)
	}
	if err == nil {
		total, err = e.MetricTotal(ms)
	}
	if err != nil {
		vs.fail(fmt.Errorf("metric %q: %w", e.Metrics[ms.Metric].UniqName, err))
		return
	}
	vs.callExcl, vs.callIncl, vs.callTotal = excl, incl, total
	vs.regExcl, vs.regIncl, vs.regCallees = flat.Own, flat.Whole, flat.Callees
}

// CallTree returns the call pane's values of the selected metric after
// Update: per cnode exclusive and inclusive, and the whole call forest's;
// nil when there is none. They must not be modified.
func (vs *Values) CallTree() (excl, incl []float64, total float64) {
	return vs.callExcl, vs.callIncl, vs.callTotal
}

func (vs *Values) computeSystem(ms model.MetricSel, ok bool) {
	v := vs.v
	vs.locVals, vs.sysVals = nil, nil
	if !ok || vs.callExcl == nil {
		return
	}
	cs := v.panes[CallPane].selected
	sys, err := v.exp.SystemTreeValues(ms, kindOf(cs).cnodes(v, cs.Index))
	if err != nil {
		vs.fail(fmt.Errorf("metric %q: %w", v.exp.Metrics[ms.Metric].UniqName, err))
		return
	}
	sys = toolSystemValues(v, ms, sys)
	vs.sysVals = sys
	vs.locVals = model.LocationsOf(v.exp, sys)
	vs.peers.compute(v.exp, sys)
}

// toolSystemValues returns the system values of the call selection: sys,
// unless it is a collapsed flat-profile region whose inclusive value is
// the tool's own (a call-graph experiment) and differs from sys, which
// then misses the region's callees. The tool recorded that value summed
// over all locations only, so it is shown where that sum is the value:
// on the only location and its ancestors, or on the only system root;
// other system nodes have no value.
func toolSystemValues(v *View, ms model.MetricSel, sys []float64) []float64 {
	n := v.panes[CallPane].selected
	e := v.exp
	if !v.flat || n.Kind != RegionNode || v.expandedBranch(CallPane, n) || e.Metrics[ms.Metric].Aggregation != model.Sum {
		return sys
	}
	if _, tool := e.CallGraph.RegionInclusive(ms.Metric, n.Index); !tool {
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

// regionSelection returns the call paths a flat-profile row stands for:
// an expanded region its own call paths, a collapsed one the union of
// their subtrees, "Subroutines" that union without the region's own paths.
func regionSelection(v *View, n Node) []int {
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

func (vs *Values) externalTotal(uniq string) float64 {
	if t, ok := vs.extTotals[uniq]; ok {
		return t
	}
	t := math.NaN()
	if x := vs.external; x != nil {
		if m := x.MetricByName(uniq); m >= 0 && x.Metrics[m].Unavailable == "" {
			total, err := x.MetricTotal(model.MetricSel{Metric: m, Inclusive: true})
			if err != nil {
				vs.fail(fmt.Errorf("external experiment, metric %q: %w", uniq, err))
			} else {
				t = total
			}
		}
	}
	vs.extTotals[uniq] = t
	return t
}

// computeScales finds, per pane, the largest magnitude shown in absolute
// mode (per root metric in the metric pane, whose roots have different
// units), whether negative values show, and the widths of the value
// column, over every row whose value counts (rowKind.rows): the metrics
// shown, every call path or flat-profile row, every system node.
func (vs *Values) computeScales() {
	v := vs.v
	format := v.look.format
	vs.metricRootMax = map[int]float64{}
	for d := range v.panes {
		vs.columns[d] = column{}
	}
	for _, n := range paneKind(v, MetricPane).rows(v) {
		a := math.Abs(vs.absolute(MetricPane, n))
		if !math.IsNaN(a) {
			r := v.metricRoot[n.Index]
			vs.metricRootMax[r] = math.Max(vs.metricRootMax[r], a)
		}
	}
	for d := range v.panes {
		c := &vs.columns[d]
		var span valueSpan
		for _, n := range paneKind(v, Dim(d)).rows(v) {
			c.max = maxAbs(c.max, vs.absolute(Dim(d), n))
			x := vs.Value(Dim(d), n)
			span.add(x, format)
			if d == int(MetricPane) {
				// A few rows of different units: measure each text.
				c.width.add(format.Format(x, vs.Integer(Dim(d), n)))
			}
		}
		c.negative = span.negative
		if d != int(MetricPane) {
			c.width = span.width(format, vs.Integer(Dim(d), v.panes[d].selected))
		}
		if c.width.whole+c.width.frac == 0 {
			c.width.whole = 1
		}
	}
}

// valueWidth is the width of a column of values aligned on the decimal
// point: the most characters before the point (or exponent) and from it
// on.
type valueWidth struct{ whole, frac int }

// add widens w to hold text.
func (w *valueWidth) add(text string) {
	whole, frac := splitNumber(text)
	w.whole, w.frac = max(w.whole, whole), max(w.frac, frac)
}

// splitNumber returns the characters of a value's text before its decimal
// point (or exponent) and from it on.
func splitNumber(text string) (whole, frac int) {
	i := strings.IndexAny(text, ".e")
	if i < 0 {
		return utf8.RuneCountInString(text), 0
	}
	return utf8.RuneCountInString(text[:i]), utf8.RuneCountInString(text[i:])
}

// valueSpan is the range of magnitudes of a column's values, from which
// its width follows without formatting every value: the whole part is
// widest at the largest magnitude, the fraction at the smallest non-zero
// one (numfmt keeps significant digits).
type valueSpan struct {
	largest, smallest float64 // smallest: of the non-zero magnitudes
	negative, any     bool
}

func (s *valueSpan) add(x float64, f numfmt.Format) {
	if math.IsNaN(x) || f.IsZero(x) {
		return
	}
	a := math.Abs(x)
	if x < 0 {
		s.negative = true
	}
	if !s.any || a > s.largest {
		s.largest = a
	}
	if !s.any || a < s.smallest {
		s.smallest = a
	}
	s.any = true
}

// width returns the width of the column's texts in format f.
func (s *valueSpan) width(f numfmt.Format, integer bool) valueWidth {
	var w valueWidth
	w.add(f.Format(0, integer))
	if !s.any {
		return w
	}
	sign := 1.0
	if s.negative {
		sign = -1
	}
	w.add(f.Format(sign*s.largest, integer))
	w.add(f.Format(sign*s.smallest, integer))
	if t := f.Format(s.smallest, integer); !integer && f.MinDigits > 0 && !strings.Contains(t, "e") {
		// Trailing zeros dropped, a value between may need more decimals
		// than the smallest shows: take the most the rule gives.
		w.frac = max(w.frac, 1+max(f.Decimals, numfmt.SignificantDecimals(s.smallest, f.MinDigits)))
	}
	return w
}

// allNodes returns the nodes of kind k with indices 0 … n−1, reusing a
// buffer: rowsWithValues runs on every Update.
func (vs *Values) allNodes(k NodeKind, n int) []Node {
	if cap(vs.nodeBuf) < n {
		vs.nodeBuf = make([]Node, n)
	}
	out := vs.nodeBuf[:n]
	for i := range out {
		out[i] = Node{k, i}
	}
	return out
}

// ValueChars returns the width of pane d's value column in characters:
// the widest value text the pane can show in its current mode and format,
// aligned on the decimal point, so that the column does not change while
// scrolling.
func (vs *Values) ValueChars(d Dim) int { return vs.columns[d].width.whole + vs.columns[d].width.frac }

// pad returns how many character widths the value text of a row of pane
// d ends before the column's right edge, so that decimal points align.
func (vs *Values) pad(d Dim, text string) int {
	_, frac := splitNumber(text)
	return max(vs.columns[d].width.frac-frac, 0)
}

func maxAbs(m, x float64) float64 {
	if a := math.Abs(x); a > m {
		return a
	}
	return m
}

// Inclusive returns the collapsed (inclusive) absolute value of n in pane
// d, whatever its state; NaN when undefined.
func (vs *Values) Inclusive(d Dim, n Node) float64 { return kindOf(n).inclusive(vs.v, n.Index) }

// Exclusive returns the absolute value n shows in pane d when expanded
// (a call path's or region's own), whatever its state; NaN when
// undefined, as for system nodes, which have no value of their own.
func (vs *Values) Exclusive(d Dim, n Node) float64 { return kindOf(n).exclusive(vs.v, n.Index) }

// absolute returns the absolute value n shows in its current state:
// inclusive when collapsed, exclusive when expanded, undefined (NaN) for
// an expanded system node, which has no value of its own.
func (vs *Values) absolute(d Dim, n Node) float64 {
	if vs.v.expandedBranch(d, n) {
		return kindOf(n).exclusive(vs.v, n.Index)
	}
	return kindOf(n).inclusive(vs.v, n.Index)
}

func at(s []float64, i int) float64 {
	if s == nil || i < 0 || i >= len(s) {
		return math.NaN()
	}
	return s[i]
}

// Value returns what n shows in pane d's value mode (NaN: undefined).
func (vs *Values) Value(d Dim, n Node) float64 { return vs.ModeValue(d, n, vs.absolute(d, n)) }

// ModeValue returns x, an absolute value of row n of pane d (its own,
// its inclusive one whatever its state, an arc's cost into it), in pane
// d's value mode: x itself, a percentage of the mode's reference, a
// position among n's peers.
func (vs *Values) ModeValue(d Dim, n Node, x float64) float64 {
	mode := vs.v.panes[d].mode
	switch mode {
	case Absolute, ClusterMode: // see Mode.absolute
		return x
	case PeerDistribution:
		if n.Kind != SystemNode || vs.sysVals == nil {
			return math.NaN()
		}
		return vs.peers.position(n.Index, x, vs.v.look.format)
	}
	return vs.percent(x, vs.reference(d, n, mode))
}

// percent returns 100·x/ref, treating magnitudes below the zero
// threshold as zero; a zero reference leaves non-zero values undefined.
func (vs *Values) percent(x, ref float64) float64 {
	if math.IsNaN(x) || math.IsNaN(ref) {
		return math.NaN()
	}
	z := vs.v.look.format.ZeroThreshold()
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
func (vs *Values) reference(d Dim, n Node, mode Mode) float64 {
	v := vs.v
	switch mode {
	case OwnRootPercent:
		return kindOf(n).ownRoot(v, n.Index)
	case MetricRootPercent:
		if s := v.panes[MetricPane].selected; s.Kind == MetricNode {
			return vs.metricIncl[v.metricRoot[s.Index]]
		}
	case MetricSelectionPercent:
		if s := v.panes[MetricPane].selected; s.Kind == MetricNode {
			return vs.absolute(MetricPane, s)
		}
	case CallSelectionPercent:
		if s := v.panes[CallPane].selected; s.Valid() {
			return vs.absolute(CallPane, s)
		}
	case PeerPercent:
		if n.Kind == SystemNode {
			return vs.peers.maxAbs(n.Index)
		}
	case ExternalPercent:
		m := v.panes[MetricPane].selected
		if d == MetricPane {
			m = n
		}
		if m.Kind == MetricNode && vs.external != nil {
			return vs.externalTotal(v.exp.Metrics[m.Index].UniqName)
		}
	}
	return math.NaN()
}

// ScaleRange returns the colour range of row n in pane d: a user range if
// set, 0–100 in percent modes, else 0 to the largest magnitude of the pane
// (of the row's root metric in the metric pane).
func (vs *Values) scaleRange(d Dim, n Node) colormap.Range {
	v := vs.v
	if r := v.panes[d].userRange; r != nil {
		return *r
	}
	if !v.panes[d].mode.absolute() {
		return colormap.Range{Max: 100}
	}
	return colormap.Range{Max: kindOf(n).scaleMax(v, d, n.Index)}
}

// unitMetric returns the metric whose unit and type the values of pane d
// (row n) have, or -1.
func (vs *Values) unitMetric(d Dim, n Node) int { return kindOf(n).metricOf(vs.v, n.Index) }

// Text returns the formatted value of n in pane d.
func (vs *Values) Text(d Dim, n Node) string {
	if vs.first.pendingRow(d, n) {
		return pendingText
	}
	vs.formatted++
	return vs.v.look.format.Format(vs.Value(d, n), vs.Integer(d, n))
}

// cell returns how n's value in pane d looks, and the value.
func (vs *Values) cell(d Dim, n Node) (Cell, float64) {
	val := vs.Value(d, n)
	if vs.first.pendingRow(d, n) {
		return Cell{Text: pendingText, Color: colormap.White}, val
	}
	vs.formatted++
	return vs.v.look.Cell(vs.v.look.format, val, vs.Integer(d, n), vs.scaleRange(d, n), false), val
}

// PaneInfo is the line below pane d: its colour scale and where its
// selection lies on it, and the external reference (named ref) in
// External percent.
func (vs *Values) PaneInfo(d Dim, ref string) string {
	n := vs.v.panes[d].selected
	if !n.Valid() {
		return ""
	}
	if d == CallPane && vs.v.cols.selected >= 0 {
		return vs.v.cols.info()
	}
	r := vs.scaleRange(d, n)
	f := vs.v.look.format
	lo := f.Format(r.Min, false)
	if vs.signed(d) {
		// Colours rank magnitudes; the sign shows as relief (or hue).
		lo = f.Format(-r.Max, false)
	}
	s := fmt.Sprintf("scale %s – %s %s · selected %s", lo, f.Format(r.Max, false), vs.Unit(d, n), vs.Text(d, n))
	if val := vs.Value(d, n); !math.IsNaN(val) && r.Max > r.Min {
		s += fmt.Sprintf(" (%.0f %% of scale)", 100*(math.Abs(val)-r.Min)/(r.Max-r.Min))
	}
	if vs.v.panes[d].mode == ExternalPercent {
		s += " · reference " + ref
	}
	return s
}

// signed reports whether pane d's scale runs from −max to max: when it
// shows negative values or the colours diverge.
func (vs *Values) signed(d Dim) bool {
	return vs.columns[d].negative || (vs.v.look.scale.Diverging && vs.v.panes[d].userRange == nil)
}

// Integer reports whether pane d shows values of an integer metric as they
// are (absolute mode), printed without decimals.
func (vs *Values) Integer(d Dim, n Node) bool {
	m := vs.unitMetric(d, n)
	return m >= 0 && vs.v.panes[d].mode.absolute() && vs.v.exp.Metrics[m].IsInteger()
}

// Unit returns the unit of the values pane d shows for n: the metric's
// unit in absolute mode, "%" in the others.
func (vs *Values) Unit(d Dim, n Node) string {
	if !vs.v.panes[d].mode.absolute() {
		return "%"
	}
	if m := vs.unitMetric(d, n); m >= 0 {
		return vs.v.exp.Metrics[m].Unit
	}
	return ""
}

// CallCell returns how a value x of the call pane's mode looks outside
// the pane (an arc's cost, a source line's inclusive value): in the call
// pane's colour range,
// larger magnitudes (a region's inclusive value above an expanded call
// path) taking the end colour unless the user set the range, so that equal
// values look alike in the pane and beside the source.
func (vs *Values) CallCell(x float64) Cell {
	v := vs.v
	sel := v.panes[CallPane].selected
	return v.look.Cell(v.look.format, x, vs.Integer(CallPane, sel), vs.scaleRange(CallPane, sel), v.panes[CallPane].userRange == nil)
}

// Formatted returns how many values were formatted since the last Update.
func (vs *Values) Formatted() int { return vs.formatted }

// thresholdLabel returns the name of the range row n's absolute value
// falls in, whatever the value mode, when the metric of the row's values
// has thresholds (model.Metric.Thresholds); "" otherwise or when the row
// shows no value.
func thresholdLabel(v *View, d Dim, n Node) string {
	m := v.values.unitMetric(d, n)
	if m < 0 {
		return ""
	}
	t, err := v.exp.Metrics[m].Thresholds()
	if err != nil || t == nil {
		return "" // Validate reports a malformed attribute
	}
	x := v.values.absolute(d, n)
	if math.IsNaN(x) {
		return ""
	}
	return t.Label(x)
}

// thresholdSuffix is thresholdLabel as the row label's suffix, " [good]".
func thresholdSuffix(v *View, d Dim, n Node) string {
	if l := thresholdLabel(v, d, n); l != "" {
		return " [" + l + "]"
	}
	return ""
}

// peerRanges are the ranges of the system values of each level of the
// system tree: nodes of the same kind and class (machine, node, process,
// thread) are peers.
type peerRanges struct {
	level  []int       // level of each system node, an index into ranges
	ranges []peerRange // per level, for the current system values
}

// peerRange is the range of the collapsed values of one level of the
// system tree.
type peerRange struct {
	min, max, maxAbs float64
	count            int
}

// compute finds the range of the system values sys of every level; a
// level hidden from the display (threads of single-threaded processes)
// takes part all the same.
func (p *peerRanges) compute(e *model.Experiment, sys []float64) {
	if p.level == nil {
		type key struct {
			kind  model.SystemKind
			class string
		}
		ids := map[key]int{}
		p.level = make([]int, len(e.System))
		for i := range e.System {
			s := &e.System[i]
			k := key{s.Kind, s.Class}
			id, ok := ids[k]
			if !ok {
				id = len(ids)
				ids[k] = id
			}
			p.level[i] = id
		}
		p.ranges = make([]peerRange, len(ids))
	}
	for i := range p.ranges {
		p.ranges[i] = peerRange{min: math.Inf(1), max: math.Inf(-1)}
	}
	for s, x := range sys {
		if math.IsNaN(x) {
			continue
		}
		r := &p.ranges[p.level[s]]
		r.min, r.max, r.maxAbs = math.Min(r.min, x), math.Max(r.max, x), math.Max(r.maxAbs, math.Abs(x))
		r.count++
	}
}

// of returns the range of system node s's level; undefined (NaN) before
// the system values are computed (a window that opens in a peer mode
// draws rows before its first metric is read).
func (p *peerRanges) of(s int) peerRange {
	if s < 0 || s >= len(p.level) {
		return peerRange{min: math.NaN(), max: math.NaN(), maxAbs: math.NaN()}
	}
	return p.ranges[p.level[s]]
}

// maxAbs returns the largest magnitude among system node s's peers.
func (p *peerRanges) maxAbs(s int) float64 { return p.of(s).maxAbs }

// position returns where x, the absolute value of system node s, lies
// between the smallest and the largest value of its peers, in percent:
// 0 when all peers are equal (in format f).
func (p *peerRanges) position(s int, x float64, f numfmt.Format) float64 {
	if math.IsNaN(x) {
		return math.NaN()
	}
	r := p.of(s)
	if !(r.max > r.min) || f.IsZero(r.max-r.min) {
		return 0
	}
	return 100 * (x - r.min) / (r.max - r.min)
}

// describe says how far the values of system node s's level range, for
// the status line.
func (p *peerRanges) describe(e *model.Experiment, s int, f numfmt.Format, unit string) string {
	r := p.of(s)
	return fmt.Sprintf("%s of its level from %s to %s %s", Count(r.count, levelName(e, s)),
		f.Format(r.min, false), f.Format(r.max, false), unit)
}
