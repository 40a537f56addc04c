package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// show puts obj below the panes in place of any other
// panel, giving the panes the share panes of the height.
func (pl *panels) show(obj fyne.CanvasObject, panes float64) {
	w := pl.w
	if w.panels.SourceShown() {
		w.panels.ShowSource(false)
	}
	w.panels.set(obj)
	if s, ok := w.panesArea.Objects[0].(*container.Split); ok {
		s.SetOffset(panes)
	}
	w.menus.rebuild()
}

// shows reports whether obj is the panel below the panes.
func (pl *panels) shows(obj fyne.CanvasObject) bool {
	w := pl.w
	if len(w.panesArea.Objects) == 0 {
		return false
	}
	s, ok := w.panesArea.Objects[0].(*container.Split)
	return ok && s.Trailing == obj
}
