package view

import (
	"fmt"
	"math"
	"strings"

	"cubeview/model"
	"cubeview/numfmt"
)

// rowKind is what one sort of row knows: where it hangs in its pane, what
// it is called and which values it shows. Each NodeKind has one; the View
// asks it instead of switching over kinds.
type rowKind interface {
	children(v *View, i int) []Node
	parent(v *View, i int) Node
	isBranch(v *View, i int) bool
	label(v *View, i int) string
	description(v *View, i int) string
	// inclusive is the collapsed value; exclusive the value of an
	// expanded row (NaN: none of its own).
	inclusive(v *View, i int) float64
	exclusive(v *View, i int) float64
	// ownRoot is the 100 % of OwnRootPercent.
	ownRoot(v *View, i int) float64
	// presence is the operands of a derived experiment that had the row.
	presence(v *View, i int) model.Mask
	// callPath names the row as a call-pane selection ("-" elsewhere).
	callPath(v *View, i int) string
	// cnodes returns the call paths the row stands for as the call-pane
	// selection (every call path for rows of other panes).
	cnodes(v *View, i int) []int
	// metricOf returns the metric whose unit and type the row's values
	// have, or -1.
	metricOf(v *View, i int) int
	// scaleMax returns the largest magnitude of the row's colour scale in
	// absolute mode.
	scaleMax(v *View, d Dim, i int) float64
	// explain describes the selected row for the status line; head is
	// its state and value, "(inclusive): 12.3 sec".
	explain(v *View, i int, head string) []string
	// expandedState says what an expanded row shows.
	expandedState() string
	// pane returns the pane that shows rows of this kind in the current
	// view (ok false: none does).
	pane(v *View) (d Dim, ok bool)
	// valid reports whether i is a row of this kind.
	valid(v *View, i int) bool
	// roots returns the top-level rows, unsorted, of a pane of this kind;
	// rows the rows whose values the pane's colour scale and value column
	// take into account (nil before the values are known).
	roots(v *View) []Node
	rows(v *View) []Node
}

// paneKind returns the kind of row at the top of pane d: the one place
// that maps panes to row kinds.
func paneKind(v *View, d Dim) rowKind {
	switch {
	case d == MetricPane:
		return metricRow{}
	case d == CallPane && v.flat:
		return regionRow{}
	case d == CallPane:
		return cnodeRow{}
	case d == SystemPane:
		return systemRow{}
	}
	return noRow{}
}

// rowDefaults is what most kinds share: values of the selected metric over
// every call path, scaled to the pane's largest magnitude.
type rowDefaults struct{}

func (rowDefaults) callPath(*View, int) string { return "-" }

func (rowDefaults) cnodes(v *View, _ int) []int { return v.exp.CnodeOrder() }

func (rowDefaults) metricOf(v *View, _ int) int {
	if s := v.panes[MetricPane].selected; s.Kind == MetricNode {
		return s.Index
	}
	return -1
}

func (rowDefaults) scaleMax(v *View, d Dim, _ int) float64 { return v.values.columns[d].max }
func (rowDefaults) expandedState() string                  { return "exclusive" }

var rowKinds = [...]rowKind{
	noKind:          noRow{},
	MetricNode:      metricRow{},
	CnodeNode:       cnodeRow{},
	RegionNode:      regionRow{},
	SubroutinesNode: subroutinesRow{},
	SystemNode:      systemRow{},
	HiddenNode:      hiddenRow{},
}

func kindOf(n Node) rowKind {
	if int(n.Kind) < len(rowKinds) {
		return rowKinds[n.Kind]
	}
	return noRow{}
}

// noRow is the zero Node: no row.
type noRow struct{ rowDefaults }

func (noRow) children(*View, int) []Node     { return nil }
func (noRow) parent(*View, int) Node         { return Node{} }
func (noRow) isBranch(*View, int) bool       { return false }
func (noRow) label(*View, int) string        { return "" }
func (noRow) description(*View, int) string  { return "" }
func (noRow) inclusive(*View, int) float64   { return math.NaN() }
func (noRow) exclusive(*View, int) float64   { return math.NaN() }
func (noRow) ownRoot(*View, int) float64     { return math.NaN() }
func (noRow) presence(*View, int) model.Mask { return 0 }
func (noRow) metricOf(*View, int) int        { return -1 }
func (noRow) scaleMax(*View, Dim, int) float64 {
	return 0
}
func (noRow) explain(*View, int, string) []string { return nil }
func (noRow) pane(*View) (Dim, bool)              { return 0, false }
func (noRow) valid(*View, int) bool               { return false }
func (noRow) roots(*View) []Node                  { return nil }
func (noRow) rows(*View) []Node                   { return nil }

// metricRow is a metric; VOID metrics are hidden.
type metricRow struct{ rowDefaults }

func (metricRow) children(v *View, i int) []Node {
	var out []Node
	for _, ch := range v.exp.Metrics[i].Children {
		if !v.exp.Metrics[ch].Hidden() {
			out = append(out, Node{MetricNode, ch})
		}
	}
	return out
}

func (metricRow) parent(v *View, i int) Node {
	if p := v.exp.Metrics[i].Parent; p >= 0 {
		return Node{MetricNode, p}
	}
	return Node{}
}

func (k metricRow) isBranch(v *View, i int) bool {
	for _, ch := range v.exp.Metrics[i].Children {
		if !v.exp.Metrics[ch].Hidden() {
			return true
		}
	}
	return false
}

func (metricRow) label(v *View, i int) string {
	m := &v.exp.Metrics[i]
	if m.DispName != "" {
		return m.DispName
	}
	return m.UniqName
}

func (k metricRow) description(v *View, i int) string {
	m := &v.exp.Metrics[i]
	s := k.label(v, i)
	if m.Unit != "" {
		s += " [" + m.Unit + "]"
	}
	s += fmt.Sprintf(" (%s, %s", m.UniqName, m.DataType)
	if m.Aggregation != model.Sum {
		s += ", aggregated by " + m.Aggregation.String()
	}
	s += ")"
	if m.Approximate {
		s += "; aggregated values are approximate"
	}
	if m.Unavailable != "" {
		s += "; no values: " + m.Unavailable
	}
	if m.Descr != "" {
		s += ": " + m.Descr
	}
	if u := MetricURL(v, Node{MetricNode, i}); u != "" {
		s += " · documentation: " + u + " (right-click › Open documentation)"
	}
	return s
}

func (metricRow) inclusive(v *View, i int) float64 { return v.values.metricIncl[i] }
func (metricRow) exclusive(v *View, i int) float64 { return v.values.metricExcl[i] }
func (metricRow) ownRoot(v *View, i int) float64   { return v.values.metricIncl[v.metricRoot[i]] }
func (metricRow) presence(v *View, i int) model.Mask {
	return v.exp.Metrics[i].Present
}
func (metricRow) metricOf(_ *View, i int) int { return i }
func (metricRow) pane(*View) (Dim, bool)      { return MetricPane, true }
func (metricRow) valid(v *View, i int) bool   { return i < len(v.exp.Metrics) }
func (metricRow) roots(v *View) []Node        { return nodes(MetricNode, v.metricRoots) }
func (metricRow) rows(v *View) []Node         { return nodes(MetricNode, v.values.visibleMetrics()) }

// scaleMax: each root metric has its own scale (their units differ).
func (metricRow) scaleMax(v *View, _ Dim, i int) float64 {
	return v.values.metricRootMax[v.metricRoot[i]]
}

func (k metricRow) explain(v *View, i int, head string) []string {
	return []string{fmt.Sprintf("Metric %s %s, over all call paths and locations", k.label(v, i), head)}
}

// callRow is what the rows of the call pane share: they are described
// with the metric selection, over all locations.
type callRow struct{ rowDefaults }

func (callRow) explainCall(v *View, what, head string) []string {
	parts := []string{what + " " + head}
	if ms := v.panes[MetricPane].selected; ms.Kind == MetricNode {
		parts = append(parts, metricState(v, ms))
	}
	return append(parts, "all locations")
}

// cnodeRow is a call path of the call tree.
type cnodeRow struct{ callRow }

func (cnodeRow) children(v *View, i int) []Node { return nodes(CnodeNode, v.exp.Cnodes[i].Children) }

func (cnodeRow) parent(v *View, i int) Node {
	if p := v.exp.Cnodes[i].Parent; p >= 0 {
		return Node{CnodeNode, p}
	}
	return Node{}
}

func (cnodeRow) isBranch(v *View, i int) bool { return len(v.exp.Cnodes[i].Children) > 0 }

func (cnodeRow) label(v *View, i int) string {
	c := &v.exp.Cnodes[i]
	name := v.exp.Regions[c.Region].Name
	if len(c.Params) > 0 {
		var ps []string
		for _, p := range c.Params {
			ps = append(ps, p.Key+"="+p.Value)
		}
		name += " (" + strings.Join(ps, ", ") + ")"
	}
	return name
}

func (cnodeRow) description(v *View, i int) string {
	c := &v.exp.Cnodes[i]
	s := RegionText(&v.exp.Regions[c.Region])
	if c.CallFile != "" && c.CallLine > 0 {
		s += fmt.Sprintf("; called from %s:%d", c.CallFile, c.CallLine)
	} else if c.CallLine > 0 {
		s += fmt.Sprintf("; called from line %d", c.CallLine)
	}
	return s
}

func (cnodeRow) inclusive(v *View, i int) float64   { return at(v.values.callIncl, i) }
func (cnodeRow) exclusive(v *View, i int) float64   { return at(v.values.callExcl, i) }
func (cnodeRow) ownRoot(v *View, i int) float64     { return at(v.values.callIncl, v.cnodeRoot[i]) }
func (cnodeRow) presence(v *View, i int) model.Mask { return v.exp.Cnodes[i].Present }
func (cnodeRow) callPath(v *View, i int) string     { return v.exp.CallPath(i) }
func (cnodeRow) pane(v *View) (Dim, bool)           { return CallPane, !v.flat }
func (cnodeRow) valid(v *View, i int) bool          { return i < len(v.exp.Cnodes) }
func (cnodeRow) roots(v *View) []Node               { return nodes(CnodeNode, v.exp.CnodeRoots) }

func (cnodeRow) rows(v *View) []Node {
	if v.values.callExcl == nil {
		return nil
	}
	return v.values.allNodes(CnodeNode, len(v.exp.Cnodes))
}

// cnodes: a collapsed call path with its subtree, an expanded one alone.
func (cnodeRow) cnodes(v *View, i int) []int {
	return v.exp.CnodeSubtree(model.CnodeSel{Cnode: i, Inclusive: !v.expandedBranch(CallPane, Node{CnodeNode, i})})
}

func (k cnodeRow) explain(v *View, i int, head string) []string {
	return k.explainCall(v, "call path "+statusPath(k.callPath(v, i)), head)
}

// regionRow is a region of the flat profile; its only child is
// "Subroutines" when it calls anything.
type regionRow struct{ callRow }

func (regionRow) children(v *View, i int) []Node {
	if v.regionCalls[i] {
		return []Node{{SubroutinesNode, i}}
	}
	return nil
}

func (regionRow) parent(*View, int) Node           { return Node{} }
func (regionRow) isBranch(v *View, i int) bool     { return v.regionCalls[i] }
func (regionRow) label(v *View, i int) string      { return v.exp.Regions[i].Name }
func (regionRow) inclusive(v *View, i int) float64 { return at(v.values.regIncl, i) }
func (regionRow) exclusive(v *View, i int) float64 { return at(v.values.regExcl, i) }

func (regionRow) description(v *View, i int) string {
	n := len(v.regionCnodes[i])
	return RegionText(&v.exp.Regions[i]) + "; " + Count(n, "call path")
}

// ownRoot: every region is a root of the flat profile; the whole call
// forest is the more useful 100 %.
func (regionRow) ownRoot(v *View, _ int) float64 { return v.values.callTotal }

// presence: a region was in every operand that had one of its call paths.
func (regionRow) presence(v *View, i int) model.Mask {
	var m model.Mask
	for _, c := range v.regionCnodes[i] {
		m |= v.exp.Cnodes[c].Present
	}
	return m
}

func (regionRow) callPath(v *View, i int) string { return "region " + v.exp.Regions[i].Name }
func (regionRow) pane(v *View) (Dim, bool)       { return CallPane, v.flat }
func (regionRow) valid(v *View, i int) bool      { return i < len(v.exp.Regions) }
func (regionRow) roots(v *View) []Node           { return nodes(RegionNode, v.flatRegions) }

// rows of the flat profile: every region shown and its Subroutines row.
func (regionRow) rows(v *View) []Node {
	if v.values.callExcl == nil {
		return nil
	}
	var out []Node
	for _, r := range v.flatRegions {
		out = append(out, Node{RegionNode, r})
		if v.regionCalls[r] {
			out = append(out, Node{SubroutinesNode, r})
		}
	}
	return out
}

func (regionRow) cnodes(v *View, i int) []int { return regionSelection(v, Node{RegionNode, i}) }

func (k regionRow) explain(v *View, i int, head string) []string {
	return k.explainCall(v, k.callPath(v, i), head)
}

// subroutinesRow is the "Subroutines" child of flat-profile region i:
// everything the region calls.
type subroutinesRow struct{ callRow }

func (subroutinesRow) children(*View, int) []Node     { return nil }
func (subroutinesRow) parent(_ *View, i int) Node     { return Node{RegionNode, i} }
func (subroutinesRow) isBranch(*View, int) bool       { return false }
func (subroutinesRow) label(*View, int) string        { return "Subroutines" }
func (subroutinesRow) pane(v *View) (Dim, bool)       { return CallPane, v.flat }
func (subroutinesRow) valid(v *View, i int) bool      { return i < len(v.exp.Regions) }
func (subroutinesRow) roots(*View) []Node             { return nil }
func (subroutinesRow) rows(*View) []Node              { return nil }
func (subroutinesRow) presence(*View, int) model.Mask { return 0 }
func (subroutinesRow) ownRoot(v *View, _ int) float64 { return v.values.callTotal }

func (subroutinesRow) description(v *View, i int) string {
	return "everything called from " + v.exp.Regions[i].Name + ", without its own recursive calls"
}

// inclusive is what the region calls, aggregated as the metric is (for a
// min metric the least of the callees, not whole − own).
func (subroutinesRow) inclusive(v *View, i int) float64 { return at(v.values.regCallees, i) }

func (k subroutinesRow) exclusive(v *View, i int) float64 { return k.inclusive(v, i) }

func (subroutinesRow) callPath(v *View, i int) string {
	return "subroutines of " + v.exp.Regions[i].Name
}

func (subroutinesRow) cnodes(v *View, i int) []int {
	return regionSelection(v, Node{SubroutinesNode, i})
}

func (k subroutinesRow) explain(v *View, i int, head string) []string {
	return k.explainCall(v, k.callPath(v, i), head)
}

// systemRow is a node of the system tree; threads are hidden below
// processes when the experiment has one thread per process.
type systemRow struct{ rowDefaults }

func (systemRow) children(v *View, i int) []Node {
	s := &v.exp.System[i]
	if v.threadsHidden && s.Kind == model.Group {
		return nil
	}
	return nodes(SystemNode, s.Children)
}

func (systemRow) parent(v *View, i int) Node {
	if p := v.exp.System[i].Parent; p >= 0 {
		return Node{SystemNode, p}
	}
	return Node{}
}

func (systemRow) isBranch(v *View, i int) bool {
	s := &v.exp.System[i]
	return len(s.Children) > 0 && !(v.threadsHidden && s.Kind == model.Group)
}

func (systemRow) label(v *View, i int) string {
	s := &v.exp.System[i]
	if s.Name != "" {
		return s.Name
	}
	return fmt.Sprintf("%s %d", s.Class, s.Rank)
}

func (k systemRow) description(v *View, i int) string {
	s := &v.exp.System[i]
	class := levelName(v.exp, i)
	t := fmt.Sprintf("%s %s", class, s.Name)
	if s.Name == "" || strings.HasPrefix(strings.ToLower(s.Name), strings.ToLower(class)) {
		t = k.label(v, i) // "node jrc0280", not "node node jrc0280"
	}
	switch {
	case s.Kind == model.Leaf && s.Parent >= 0 && v.exp.System[s.Parent].Kind == model.Group:
		// A thread's rank counts threads within its process: name the
		// process's rank too, or "rank 1" reads as the MPI rank.
		t += fmt.Sprintf(", thread %d of process rank %d", s.Rank, v.exp.System[s.Parent].Rank)
	case s.Kind != model.TreeNode:
		t += fmt.Sprintf(", rank %d", s.Rank)
	}
	if s.Descr != "" {
		t += ": " + s.Descr
	}
	return t
}

func (systemRow) inclusive(v *View, i int) float64 { return at(v.values.sysVals, i) }

// exclusive: an expanded system node has no value of its own.
func (systemRow) exclusive(*View, int) float64       { return math.NaN() }
func (systemRow) ownRoot(v *View, i int) float64     { return at(v.values.sysVals, v.systemRoot[i]) }
func (systemRow) presence(v *View, i int) model.Mask { return v.exp.System[i].Present }
func (systemRow) expandedState() string              { return "expanded: no value of its own" }
func (systemRow) pane(*View) (Dim, bool)             { return SystemPane, true }
func (systemRow) valid(v *View, i int) bool          { return i < len(v.exp.System) }
func (systemRow) roots(v *View) []Node               { return nodes(SystemNode, v.exp.SystemRoots) }

func (systemRow) rows(v *View) []Node {
	if v.values.sysVals == nil {
		return nil
	}
	return v.values.allNodes(SystemNode, len(v.exp.System))
}

func (k systemRow) explain(v *View, i int, head string) []string {
	parts := []string{k.label(v, i) + " " + head}
	if n := (Node{SystemNode, i}); v.expandedBranch(SystemPane, n) {
		kids := k.children(v, i)
		unit := ""
		if m := k.metricOf(v, i); m >= 0 {
			unit = " " + v.exp.Metrics[m].Unit
		}
		carry, total := "carry the values", "their total"
		if len(kids) == 1 {
			carry, total = "carries the values", "its value"
		}
		parts[0] = fmt.Sprintf("%s (expanded): - · a %s has no value of its own: its %s %s (collapsed, it shows %s, %s%s)",
			k.label(v, i), levelName(v.exp, i), Count(len(kids), levelName(v.exp, kids[0].Index)), carry, total, v.look.format.Format(k.inclusive(v, i), v.values.Integer(SystemPane, n)), unit)
	}
	if ms := v.panes[MetricPane].selected; ms.Kind == MetricNode {
		parts = append(parts, metricState(v, ms))
	}
	if cs := v.panes[CallPane].selected; cs.Valid() {
		parts = append(parts, fmt.Sprintf("call path %s (%s)", statusPath(kindOf(cs).callPath(v, cs.Index)), rowState(v, CallPane, cs)))
	}
	if m := v.panes[SystemPane].mode; (m == PeerPercent || m == PeerDistribution) && v.values.sysVals != nil {
		unit := ""
		if m := k.metricOf(v, i); m >= 0 {
			unit = v.exp.Metrics[m].Unit
		}
		parts = append(parts, v.values.peers.describe(v.exp, i, v.look.format, unit))
	}
	return parts
}

// plural returns word, or its plural unless n is 1.
func plural(n int, word string) string {
	switch {
	case n == 1:
		return word
	case strings.HasSuffix(word, "s"):
		return word + "es" // process, processes
	}
	return word + "s"
}

// Count returns "1 call path", "1,024 call paths": n (digits grouped)
// and word, in the plural unless n is 1.
func Count(n int, word string) string {
	return numfmt.Grouped().Format(float64(n), true) + " " + plural(n, word)
}

// nodes returns the nodes of kind k with indices idx.
func nodes(k NodeKind, idx []int) []Node {
	out := make([]Node, len(idx))
	for i, x := range idx {
		out[i] = Node{k, x}
	}
	return out
}

// RegionText describes a region for tooltips: its name, file and lines
// and description.
func RegionText(r *model.Region) string {
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
