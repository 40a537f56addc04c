package view

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"cubeview/model"
)

// SmallRows folds insignificant rows: in every pane, the rows below one
// parent whose inclusive magnitude is under a share (the threshold) of
// the pane's total become one "(n hidden)" row after the others. That
// row shows the sum of the rows it hides, in either state, and opening
// it shows them. Only values that add up fold — metrics aggregated by
// sum that are not derived, in the metric pane only the children of the
// parent's unit — since the sum of a ratio, a minimum or values of
// different units says nothing. The threshold 0 folds nothing.
type SmallRows struct {
	v         *View
	threshold float64
	groups    []smallKey       // the hidden rows by Node.Index
	index     map[smallKey]int // and their indices
	splits    map[smallKey]smallSplit
}

// smallKey identifies a hidden row: the pane, the call pane's layout and
// the parent whose small rows it holds (the zero Node: the top level).
type smallKey struct {
	d      Dim
	flat   bool
	parent Node
}

// smallSplit is how a parent's rows split, in the sort order of the time.
type smallSplit struct {
	order       SortOrder
	keep, small []Node
}

// MinHidden is the fewest small rows worth a "(n hidden)" row: one row
// would only be replaced by another.
const MinHidden = 2

// SmallRows returns the folding of insignificant rows.
func (v *View) SmallRows() *SmallRows { return &v.small }

// Threshold returns the share of the pane's total below which rows fold,
// 0 when none do.
func (s *SmallRows) Threshold() float64 { return s.threshold }

// SetThreshold sets the share of the pane's total below which rows fold;
// values outside (0, 1) turn folding off.
func (s *SmallRows) SetThreshold(t float64) {
	if !(t > 0 && t < 1) {
		t = 0
	}
	s.threshold = t
	s.forget()
}

// forget drops the splits computed: the values may have changed.
func (s *SmallRows) forget() { clear(s.splits) }

// fold returns ns, the sorted rows below parent in pane d, with their
// small rows replaced by one hidden row at the end.
func (s *SmallRows) fold(d Dim, parent Node, ns []Node) []Node {
	if s.threshold == 0 || parent.Kind == HiddenNode {
		return ns
	}
	sp := s.split(d, parent, ns)
	if len(sp.small) == 0 {
		return ns
	}
	return append(slices.Clip(sp.keep), Node{HiddenNode, s.group(s.key(d, parent))})
}

func (s *SmallRows) key(d Dim, parent Node) smallKey {
	return smallKey{d: d, flat: d == CallPane && s.v.flat, parent: parent}
}

// split divides ns, the sorted rows below parent in pane d, into those
// shown and the small ones, which stay empty when fewer than MinHidden.
func (s *SmallRows) split(d Dim, parent Node, ns []Node) smallSplit {
	v := s.v
	k := s.key(d, parent)
	if sp, ok := s.splits[k]; ok && sp.order == v.Order() && len(sp.keep)+len(sp.small) == len(ns) {
		return sp
	}
	sp := smallSplit{order: v.Order(), keep: ns}
	if ref := s.total(d, parent); ref > 0 {
		if d == MetricPane {
			// The children of a collapsed metric have no values yet.
			for _, n := range ns {
				v.values.metricValues(n.Index)
			}
			sortRows(v, d, ns)
		}
		var keep, small []Node
		for _, n := range ns {
			x := math.Abs(v.values.Inclusive(d, n))
			if s.foldable(d, parent, n) && x < s.threshold*ref {
				small = append(small, n)
			} else {
				keep = append(keep, n)
			}
		}
		if len(small) >= MinHidden {
			sp.keep, sp.small = keep, small
		}
	}
	if s.splits == nil {
		s.splits = map[smallKey]smallSplit{}
	}
	s.splits[k] = sp
	return sp
}

// foldable reports whether row n below parent may fold: in the metric
// pane a sum metric of its parent's unit, elsewhere any row with a value.
func (s *SmallRows) foldable(d Dim, parent Node, n Node) bool {
	v := s.v
	if math.IsNaN(v.values.Inclusive(d, n)) {
		return false
	}
	if d != MetricPane {
		return true
	}
	if parent.Kind != MetricNode || n.Kind != MetricNode {
		return false
	}
	m, p := &v.exp.Metrics[n.Index], &v.exp.Metrics[parent.Index]
	return AddsUp(m) && m.Unit == p.Unit
}

// AddsUp reports whether values of metric m may be summed across rows
// (sum aggregation, not derived): only such rows fold.
func AddsUp(m *model.Metric) bool { return m.Aggregation == model.Sum && m.Formula == nil }

// total returns the magnitude rows of pane d below parent are compared
// with: the root metric's total in the metric pane, the selected
// metric's total in the call and system panes; 0 when rows there do not
// fold.
func (s *SmallRows) total(d Dim, parent Node) float64 {
	v := s.v
	vs := &v.values
	var t float64
	switch d {
	case MetricPane:
		if parent.Kind != MetricNode {
			return 0
		}
		t = vs.metricIncl[v.metricRoot[parent.Index]]
	case CallPane, SystemPane:
		m := v.panes[MetricPane].selected
		if m.Kind != MetricNode || !AddsUp(&v.exp.Metrics[m.Index]) {
			return 0
		}
		if d == CallPane {
			t = vs.callTotal
			break
		}
		for _, r := range v.exp.SystemRoots {
			t += at(vs.sysVals, r)
		}
	}
	t = math.Abs(t)
	if math.IsNaN(t) || math.IsInf(t, 0) {
		return 0
	}
	return t
}

// group returns the index of the hidden row of key k.
func (s *SmallRows) group(k smallKey) int {
	if i, ok := s.index[k]; ok {
		return i
	}
	if s.index == nil {
		s.index = map[smallKey]int{}
	}
	s.index[k] = len(s.groups)
	s.groups = append(s.groups, k)
	return len(s.groups) - 1
}

// rowsBelow returns the rows pane d shows below parent before folding,
// sorted.
func (s *SmallRows) rowsBelow(d Dim, parent Node) []Node {
	v := s.v
	var ns []Node
	if parent.Valid() {
		ns = kindOf(parent).children(v, parent.Index)
	} else {
		ns = paneKind(v, d).roots(v)
	}
	sortRows(v, d, ns)
	return ns
}

// hidden returns the rows hidden row i holds, sorted; none when the
// view no longer shows it (another layout, folding off, rows grown).
func (s *SmallRows) hidden(i int) []Node {
	k, ok := s.live(i)
	if !ok {
		return nil
	}
	return s.split(k.d, k.parent, s.rowsBelow(k.d, k.parent)).small
}

// live returns hidden row i's key when the view can show it.
func (s *SmallRows) live(i int) (smallKey, bool) {
	if i < 0 || i >= len(s.groups) || s.threshold == 0 {
		return smallKey{}, false
	}
	k := s.groups[i]
	return k, k.d != CallPane || k.flat == s.v.flat
}

// holding returns the hidden row that holds n, a row below parent in
// pane d, when n is folded.
func (s *SmallRows) holding(d Dim, parent, n Node) (Node, bool) {
	if s.threshold == 0 || n.Kind == HiddenNode || !n.Valid() {
		return Node{}, false
	}
	if !parent.Valid() && kindOf(n) != paneKind(s.v, d) {
		return Node{}, false // not a top-level row of this pane
	}
	sp := s.split(d, parent, s.rowsBelow(d, parent))
	if slices.Contains(sp.small, n) {
		return Node{HiddenNode, s.group(s.key(d, parent))}, true
	}
	return Node{}, false
}

// pane returns the pane hidden row i may be selected in: the call and
// system panes (the metric pane's selection must be a metric).
func (s *SmallRows) pane(i int) (Dim, bool) {
	k, ok := s.live(i)
	return k.d, ok && k.d != MetricPane
}

// paneOf returns the pane that shows row n in the current view.
func paneOf(v *View, n Node) (Dim, bool) {
	if n.Kind == HiddenNode {
		return v.SmallRows().pane(n.Index)
	}
	return kindOf(n).pane(v)
}

// hiddenRow is a "(n hidden)" row: the small rows below one parent.
type hiddenRow struct{}

func (hiddenRow) children(v *View, i int) []Node { return slices.Clone(v.SmallRows().hidden(i)) }

func (hiddenRow) parent(v *View, i int) Node {
	k, _ := v.SmallRows().live(i)
	return k.parent
}

func (hiddenRow) isBranch(v *View, i int) bool { return len(v.SmallRows().hidden(i)) > 0 }

func (hiddenRow) label(v *View, i int) string {
	return "(" + strconv.Itoa(len(v.SmallRows().hidden(i))) + " hidden)"
}

func (k hiddenRow) description(v *View, i int) string {
	s := v.SmallRows()
	key, _ := s.live(i)
	ns := s.hidden(i)
	word := "row"
	if len(ns) > 0 {
		word = rowNoun(v, ns[0])
	}
	return fmt.Sprintf("%s below %s %% of the pane's total, folded into one row that shows their sum (View › Hide small rows; open it to see them)",
		Count(len(ns), word), strconv.FormatFloat(100*s.threshold, 'g', -1, 64)) + parentSuffix(v, key)
}

// parentSuffix names the parent of a hidden row for its description.
func parentSuffix(v *View, k smallKey) string {
	if !k.parent.Valid() {
		return ""
	}
	return "; below " + v.Label(k.parent)
}

// rowNoun names what row n is: metric, call path, region, location…
func rowNoun(v *View, n Node) string {
	switch n.Kind {
	case MetricNode:
		return "metric"
	case CnodeNode:
		return "call path"
	case RegionNode:
		return "region"
	case SystemNode:
		return levelName(v.exp, n.Index)
	}
	return "row"
}

// inclusive is the sum of the hidden rows' collapsed values.
func (hiddenRow) inclusive(v *View, i int) float64 {
	k, ok := v.SmallRows().live(i)
	if !ok {
		return math.NaN()
	}
	sum := 0.0
	for _, n := range v.SmallRows().hidden(i) {
		sum += v.values.Inclusive(k.d, n)
	}
	return sum
}

// exclusive: a hidden row stands for its rows whatever its state.
func (h hiddenRow) exclusive(v *View, i int) float64 { return h.inclusive(v, i) }

func (hiddenRow) ownRoot(v *View, i int) float64 {
	k, _ := v.SmallRows().live(i)
	if k.parent.Valid() {
		return kindOf(k.parent).ownRoot(v, k.parent.Index)
	}
	return v.SmallRows().total(k.d, Node{})
}

func (hiddenRow) presence(*View, int) model.Mask { return 0 }

func (hiddenRow) callPath(v *View, i int) string {
	k, _ := v.SmallRows().live(i)
	ns := v.SmallRows().hidden(i)
	what := Count(len(ns), "small call path")
	if k.flat {
		what = Count(len(ns), "small region")
	}
	if k.parent.Valid() {
		return what + " below " + kindOf(k.parent).callPath(v, k.parent.Index)
	}
	return what
}

// cnodes: as the call-pane selection, every call path of the hidden
// rows, each once.
func (hiddenRow) cnodes(v *View, i int) []int {
	k, _ := v.SmallRows().live(i)
	if k.d != CallPane {
		return v.exp.CnodeOrder()
	}
	seen := make([]bool, len(v.exp.Cnodes))
	var out []int
	for _, n := range v.SmallRows().hidden(i) {
		for _, c := range kindOf(n).cnodes(v, n.Index) {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}

func (hiddenRow) metricOf(v *View, i int) int {
	if k, _ := v.SmallRows().live(i); k.d == MetricPane {
		return k.parent.Index
	}
	return rowDefaults{}.metricOf(v, i)
}

func (hiddenRow) scaleMax(v *View, d Dim, i int) float64 {
	if k, _ := v.SmallRows().live(i); k.d == MetricPane && k.parent.Kind == MetricNode {
		return metricRow{}.scaleMax(v, d, k.parent.Index)
	}
	return v.values.columns[d].max
}

func (h hiddenRow) explain(v *View, i int, head string) []string {
	parts := []string{h.label(v, i) + " " + head}
	k, _ := v.SmallRows().live(i)
	if k.d == SystemPane {
		if ms := v.panes[MetricPane].selected; ms.Kind == MetricNode {
			parts = append(parts, metricState(v, ms))
		}
		if cs := v.panes[CallPane].selected; cs.Valid() {
			parts = append(parts, fmt.Sprintf("call path %s (%s)", statusPath(kindOf(cs).callPath(v, cs.Index)), rowState(v, CallPane, cs)))
		}
	} else if k.d == CallPane {
		if ms := v.panes[MetricPane].selected; ms.Kind == MetricNode {
			parts = append(parts, metricState(v, ms))
		}
		parts = append(parts, "all locations")
	}
	return parts
}

func (hiddenRow) expandedState() string  { return "expanded: the sum of the rows it hides" }
func (hiddenRow) pane(*View) (Dim, bool) { return 0, false } // see paneOf
func (hiddenRow) valid(v *View, i int) bool {
	_, ok := v.SmallRows().live(i)
	return ok
}
func (hiddenRow) roots(*View) []Node { return nil }
func (hiddenRow) rows(*View) []Node  { return nil }

// RowsFollowValues reports whether which rows a pane shows, or their
// order, changes with the values: sorted by value or small rows folded.
func (v *View) RowsFollowValues() bool { return v.Order() == ByValue || v.small.threshold > 0 }
