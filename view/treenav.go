package view

import "slices"

// TreeKey is a key that moves through a tree pane.
type TreeKey int

// The keys of a tree pane. Right and + expand the selected node, Left and
// − collapse it; Right on an open node goes to its first child and Left
// on a closed node goes to its parent.
const (
	KeyUp TreeKey = iota
	KeyDown
	KeyHome
	KeyEnd
	KeyPageUp
	KeyPageDown
	KeyRight
	KeyPlus
	KeyLeft
	KeyMinus
)

// pageRows is how many rows Page Up and Page Down move.
const pageRows = 20

// TreeAction is what a key does in a tree pane: select a node, open a
// branch or close one. At most one of them is valid; none when the key
// does nothing.
type TreeAction struct {
	Select, Open, Close Node
}

// Navigate returns what key does in pane d when rows are the rows shown,
// in order, and open reports whether a node's branch is open. Up, Down,
// Home, End, Page Up and Page Down move from the selected row (from the
// first when the selection is not shown) and stop at either end.
func Navigate(v *View, d Dim, rows []Node, open func(Node) bool, key TreeKey) TreeAction {
	cur := v.Selected(d)
	switch key {
	case KeyRight, KeyPlus:
		if !cur.Valid() || !v.IsBranch(d, cur) {
			return TreeAction{}
		}
		if !open(cur) {
			return TreeAction{Open: cur}
		}
		if kids := v.Children(d, cur); key == KeyRight && len(kids) > 0 {
			return TreeAction{Select: kids[0]}
		}
		return TreeAction{}
	case KeyLeft, KeyMinus:
		if !cur.Valid() {
			return TreeAction{}
		}
		if open(cur) {
			return TreeAction{Close: cur}
		}
		if key == KeyLeft {
			return TreeAction{Select: v.Parent(d, cur)}
		}
		return TreeAction{}
	}
	if len(rows) == 0 {
		return TreeAction{}
	}
	i := max(0, slices.Index(rows, cur))
	switch key {
	case KeyUp:
		i--
	case KeyDown:
		i++
	case KeyHome:
		i = 0
	case KeyEnd:
		i = len(rows) - 1
	case KeyPageUp:
		i -= pageRows
	case KeyPageDown:
		i += pageRows
	}
	return TreeAction{Select: rows[max(0, min(i, len(rows)-1))]}
}

// SelectNodes selects each valid node in its pane (PaneOf) collapsed, so
// that it shows its inclusive value and the panes to its right see it
// whole, and expands its ancestors. It returns the nodes it selected.
func SelectNodes(v *View, nodes ...Node) []Node {
	var selected []Node
	for _, n := range nodes {
		if !n.Valid() {
			continue
		}
		d := PaneOf(n)
		for _, a := range v.Ancestors(d, n) {
			v.SetExpanded(d, a, true)
		}
		v.SetExpanded(d, n, false)
		v.Select(d, n)
		selected = append(selected, n)
	}
	return selected
}
