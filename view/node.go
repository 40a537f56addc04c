package view

import (
	"strconv"
	"strings"
)

// Dim names one of the three panes of a window.
type Dim uint8

const (
	// MetricPane shows the metric tree.
	MetricPane Dim = iota
	// CallPane shows the call tree or the flat profile.
	CallPane
	// SystemPane shows the system tree.
	SystemPane
)

// String returns the pane's title.
func (d Dim) String() string {
	switch d {
	case CallPane:
		return "Call tree"
	case SystemPane:
		return "System tree"
	}
	return "Metric tree"
}

// NodeKind tells what a row of a pane stands for.
type NodeKind uint8

const (
	noKind NodeKind = iota
	// MetricNode is a metric (Index into Experiment.Metrics).
	MetricNode
	// CnodeNode is a call path (Index into Experiment.Cnodes).
	CnodeNode
	// RegionNode is a region of the flat profile (Index into Experiment.Regions).
	RegionNode
	// SubroutinesNode is the "Subroutines" child of a flat-profile region
	// (Index of the region).
	SubroutinesNode
	// SystemNode is a system-tree node (Index into Experiment.System).
	SystemNode
)

// Node identifies a row of a pane. The zero Node is no row, which also
// stands for the invisible root above a pane's top-level rows.
type Node struct {
	Kind  NodeKind
	Index int
}

// Valid reports whether n is a row.
func (n Node) Valid() bool { return n.Kind != noKind }

var kindPrefix = [...]string{noKind: "", MetricNode: "m", CnodeNode: "c", RegionNode: "r", SubroutinesNode: "u", SystemNode: "s"}

// ID returns the node's identifier in the tree widget; "" for the root.
func (n Node) ID() string {
	if !n.Valid() {
		return ""
	}
	return kindPrefix[n.Kind] + strconv.Itoa(n.Index)
}

// ParseNode is the inverse of Node.ID; a malformed id yields the zero Node.
func ParseNode(id string) Node {
	if id == "" {
		return Node{}
	}
	for k, p := range kindPrefix {
		if p == "" || !strings.HasPrefix(id, p) {
			continue
		}
		i, err := strconv.Atoi(id[len(p):])
		if err != nil || i < 0 {
			return Node{}
		}
		return Node{Kind: NodeKind(k), Index: i}
	}
	return Node{}
}

// Mode is how a pane expresses its values.
type Mode uint8

const (
	// Absolute shows raw values in the metric's unit.
	Absolute Mode = iota
	// OwnRootPercent shows percent of the inclusive value of the row's
	// own root in the same pane.
	OwnRootPercent
	// MetricRootPercent shows percent of the total of the selected
	// metric's root.
	MetricRootPercent
	// MetricSelectionPercent shows percent of the selected metric's
	// current value.
	MetricSelectionPercent
	// CallSelectionPercent shows percent of the selected call path's
	// current value.
	CallSelectionPercent
	// ExternalPercent shows percent of the same metric's total in an
	// external reference experiment.
	ExternalPercent
	// PeerPercent shows a system node's value in percent of the largest
	// magnitude among its peers: the system nodes of the same level
	// (machines, nodes, processes or threads).
	PeerPercent
	// PeerDistribution shows where a system node's value lies between the
	// smallest (0 %) and the largest (100 %) value among its peers, so
	// that small differences between many locations show in colour.
	PeerDistribution
	// ClusterMode shows absolute values and colours each location by its
	// cluster (Clusters.Set): locations that behave alike share a
	// colour, outliers are black.
	ClusterMode
)

// String returns the mode's name as offered in the selector.
func (m Mode) String() string {
	switch m {
	case OwnRootPercent:
		return "Own root percent"
	case MetricRootPercent:
		return "Metric root percent"
	case MetricSelectionPercent:
		return "Metric selection percent"
	case CallSelectionPercent:
		return "Call selection percent"
	case ExternalPercent:
		return "External percent"
	case PeerPercent:
		return "Peer percent"
	case PeerDistribution:
		return "Peer distribution"
	case ClusterMode:
		return "Clusters"
	}
	return "Absolute"
}

// Modes returns the value modes offered in pane d: a pane can refer to
// the selections of the panes to its left only.
func Modes(d Dim) []Mode {
	switch d {
	case CallPane:
		return []Mode{Absolute, OwnRootPercent, MetricRootPercent, MetricSelectionPercent, ExternalPercent}
	case SystemPane:
		return []Mode{Absolute, OwnRootPercent, MetricRootPercent, MetricSelectionPercent, CallSelectionPercent, PeerPercent, PeerDistribution, ClusterMode, ExternalPercent}
	}
	return []Mode{Absolute, OwnRootPercent, ExternalPercent}
}

// ParseMode returns the mode of pane d named s, as String names it, in
// any case and with dashes for spaces ("peer-distribution").
func ParseMode(d Dim, s string) (Mode, bool) {
	s = strings.ReplaceAll(strings.TrimSpace(s), "-", " ")
	for _, m := range Modes(d) {
		if strings.EqualFold(m.String(), s) {
			return m, true
		}
	}
	return Absolute, false
}

// SortOrder orders the children of every node.
type SortOrder uint8

const (
	// FileOrder keeps the order of the experiment file.
	FileOrder SortOrder = iota
	// ByValue puts the largest inclusive (collapsed) value first, so that
	// expanding a row does not reorder its siblings.
	ByValue
	// ByName sorts labels alphabetically.
	ByName
)

// String returns the order's name.
func (s SortOrder) String() string {
	switch s {
	case ByValue:
		return "By value"
	case ByName:
		return "By name"
	}
	return "File order"
}

// PaneOf returns the pane that shows rows of n's kind.
func PaneOf(n Node) Dim {
	switch n.Kind {
	case CnodeNode, RegionNode, SubroutinesNode:
		return CallPane
	case SystemNode:
		return SystemPane
	}
	return MetricPane
}
