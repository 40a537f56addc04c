package ui

import "cubeview/view"

// selectNode selects n in pane d; see selectNodes.
func (w *Window) selectNode(d view.Dim, n view.Node) {
	if view.PaneOf(n) == d {
		w.selectNodes(n)
	}
}

// selectNodes selects each valid node in its pane as view.SelectNodes
// does, opens its ancestors, scrolls it into view and refreshes the window
// once. The last node's pane becomes the active one.
func (w *Window) selectNodes(nodes ...view.Node) {
	if w.view == nil {
		return
	}
	selected := view.SelectNodes(w.view, nodes...)
	for _, n := range selected {
		w.active = view.PaneOf(n)
		w.panes[w.active].Sync()
	}
	w.refresh()
	for _, n := range selected {
		w.panes[view.PaneOf(n)].ScrollTo(n.ID())
	}
}
