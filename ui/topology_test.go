package ui

import (
	"image/color"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"cubeview/view"
)

// TestTopologyPanel shows View › Topology on BT-MZ (Score-P's process ×
// thread topology, 2 × 4): the grid is drawn in the system pane's
// colours, clicking a cell selects its thread in the system pane and
// frames the cell, hovering names it.
func TestTopologyPanel(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube4/quirks/cube4.8_with_checksum_bug.cubex"))
	e := w.Document().Exp
	selectRow(w, view.MetricPane, view.Node{Kind: view.MetricNode, Index: e.MetricByName("time")})
	it := menuItem(w, "View", "Topology")
	if it == nil || it.Disabled || it.Checked {
		t.Fatalf("menu item %+v", it)
	}
	it.Action()
	p := w.panels.topology
	if !w.panels.TopologyShown() || p.grid.Cols != 2 || p.grid.Rows != 4 {
		t.Fatalf("shown %v, grid %d×%d", w.panels.TopologyShown(), p.grid.Cols, p.grid.Rows)
	}
	if !strings.HasPrefix(p.choose.Selected, "Process x Thread") {
		t.Errorf("topology chosen: %q", p.choose.Selected)
	}
	size := fyne.NewSize(400, 200)
	p.cells.Resize(size)
	l := p.grid.Layout(float64(size.Width), float64(size.Height))
	center := func(x, y int) fyne.Position {
		return fyne.NewPos(float32(l.Left+(float64(x)+0.5)*l.Cell), float32(l.Top+(float64(y)+0.5)*l.Cell))
	}
	// The pixels drawn are the cells' colours (the view checks their
	// values against the system pane's).
	img := p.cells.raster.Generator(int(size.Width), int(size.Height))
	for i, c := range p.grid.Cells {
		pos := center(i%p.grid.Cols, i/p.grid.Cols)
		r, g, b, _ := img.At(int(pos.X), int(pos.Y)).RGBA()
		got := color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}
		if got != c.Color || !c.Node.Valid() || c.Color == (color.NRGBA{R: 255, G: 255, B: 255, A: 255}) {
			t.Errorf("cell %d (%s) drawn %v, its colour %v", i, w.view.Label(c.Node), got, c.Color)
		}
	}
	// Clicking cell (1, 2) selects the thread placed there.
	var want view.Node
	for _, co := range e.Topologies[0].Coords {
		if co.Coord[0] == 1 && co.Coord[1] == 2 {
			want = view.Node{Kind: view.SystemNode, Index: co.Node}
		}
	}
	p.tapped(center(1, 2))
	if got := w.view.Selected(view.SystemPane); got != want {
		t.Fatalf("clicking (1, 2) selected %v, want %v", got, want)
	}
	if p.grid.SelectedX != 1 || p.grid.SelectedY != 2 {
		t.Errorf("selected cell (%d, %d), want (1, 2)", p.grid.SelectedX, p.grid.SelectedY)
	}
	p.hovered(center(1, 2))
	if h := w.hint.Text; !strings.Contains(h, "(1, 2)") || !strings.Contains(h, w.view.Label(want)) {
		t.Errorf("hint %q", h)
	}
	menuItem(w, "View", "Topology").Action()
	if w.panels.TopologyShown() {
		t.Error("the menu did not hide the topology")
	}
}
