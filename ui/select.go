package ui

import "cubeview/view"

// selectNode selects n in pane d collapsed (so that it shows its
// inclusive value and the panes to its right see it whole), opens its
// ancestors, scrolls it into view and refreshes the window.
func (w *Window) selectNode(d view.Dim, n view.Node) {
	if w.view == nil || !n.Valid() {
		return
	}
	v := w.view
	for _, a := range v.Ancestors(d, n) {
		v.SetExpanded(d, a, true)
	}
	v.SetExpanded(d, n, false)
	v.Select(d, n)
	w.active = d
	w.panes[d].Sync()
	w.refresh()
	w.panes[d].ScrollTo(n.ID())
}
