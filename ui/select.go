package ui

import "cubeview/view"

// selectNode selects n in pane d; see selectNodes.
func (w *Window) selectNode(d view.Dim, n view.Node) {
	if view.PaneOf(n) == d {
		w.selectNodes(n)
	}
}

// selectNodes selects each valid node in its pane, collapsed (so that it
// shows its inclusive value and the panes to its right see it whole),
// opens its ancestors, scrolls it into view and refreshes the window
// once. The last node's pane becomes the active one.
func (w *Window) selectNodes(nodes ...view.Node) {
	if w.view == nil {
		return
	}
	v := w.view
	var touched []view.Node
	for _, n := range nodes {
		if !n.Valid() {
			continue
		}
		d := view.PaneOf(n)
		for _, a := range v.Ancestors(d, n) {
			v.SetExpanded(d, a, true)
		}
		v.SetExpanded(d, n, false)
		v.Select(d, n)
		w.active = d
		touched = append(touched, n)
	}
	for _, n := range touched {
		w.panes[view.PaneOf(n)].Sync()
	}
	w.refresh()
	for _, n := range touched {
		w.panes[view.PaneOf(n)].ScrollTo(n.ID())
	}
}
