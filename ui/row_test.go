package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"cubeview/view"
)

// rowViews returns the row widgets a pane currently shows.
func rowViews(p *TreePane) []*rowView {
	var out []*rowView
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		if r, ok := o.(*rowView); ok {
			out = append(out, r)
			return
		}
		switch x := o.(type) {
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				walk(c)
			}
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		}
	}
	walk(p)
	return out
}

// TestClickingARowSelectsIt clicks rows the way the desktop driver does:
// it hands a click to the innermost object under the pointer that takes
// left or right clicks, which is the row widget itself, not the tree's
// node around it. Every row must therefore take left clicks, and a click
// must select the row in every pane.
func TestClickingARowSelectsIt(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube4/cpi/profile.cubex"))
	for _, d := range []view.Dim{view.MetricPane, view.CallPane, view.SystemPane} {
		expandAll(w, d)
		w.Pane(d).Sync()
		rows := rowViews(w.Pane(d))
		if len(rows) < 2 {
			t.Fatalf("pane %d shows %d rows, want several", d, len(rows))
		}
		clicked := 0
		for _, r := range rows {
			if _, right := any(r).(fyne.SecondaryTappable); !right {
				continue
			}
			left, ok := any(r).(fyne.Tappable)
			if !ok {
				t.Fatalf("pane %d: a row takes right clicks but not left clicks, so clicks never reach the tree", d)
			}
			if !r.row.Node.Valid() || w.view.Selected(d) == r.row.Node {
				continue
			}
			left.Tapped(&fyne.PointEvent{})
			if got := w.view.Selected(d); got != r.row.Node {
				t.Errorf("pane %d: clicking %q selected %v, want %v", d, r.row.Label, got, r.row.Node)
			}
			clicked++
		}
		if clicked == 0 {
			t.Errorf("pane %d: no row could be clicked", d)
		}
	}
}
