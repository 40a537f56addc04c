package analysisview

import (
	"math"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
	"cubeview/view"
)

// TestTopologyReal draws the topologies of real experiments: Score-P's
// process × thread grid of BT-MZ (2 × 4) holds each location's value of
// the selected metric × call path as the model computes it; example3
// (no topology) gets a rank × thread grid of its 64 × 16 threads; the
// CubeW test file's four-dimensional topology is cut at the further
// coordinates it uses.
func TestTopologyReal(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "cube4", "quirks", "cube4.8_with_checksum_bug.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	v := view.NewView(e)
	time := e.MetricByName("time")
	v.Select(view.MetricPane, view.Node{Kind: view.MetricNode, Index: time})
	mustUpdate(t, v)
	top := NewTopology(v)
	g := top.Grid()
	if g.Cols != 2 || g.Rows != 4 || g.Slices != 1 || g.Placed != 8 || g.Missing != 0 {
		t.Fatalf("BT-MZ grid %d×%d×%d, %d placed, %d missing", g.Cols, g.Rows, g.Slices, g.Placed, g.Missing)
	}
	want, err := e.LocationValues(model.MetricSel{Metric: time, Inclusive: true}, model.CnodeSel{Cnode: e.CnodeRoots[0], Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, co := range e.Topologies[0].Coords {
		cell := g.Cells[co.Coord[1]*g.Cols+co.Coord[0]]
		l := -1
		for i, s := range e.Locations {
			if s == co.Node {
				l = i
			}
		}
		if cell.Node != (view.Node{Kind: view.SystemNode, Index: co.Node}) || math.Abs(cell.Value-want[l]) > 1e-9*math.Abs(want[l]) {
			t.Errorf("cell %v: %v %g, model location %d %g", co.Coord, cell.Node, cell.Value, l, want[l])
		}
		if cell.Text != v.Values().Text(view.SystemPane, cell.Node) {
			t.Errorf("cell %v reads %q, the system pane %q", co.Coord, cell.Text, v.Values().Text(view.SystemPane, cell.Node))
		}
	}
	// Selecting a location in the system pane marks its cell.
	co := e.Topologies[0].Coords[5]
	view.SelectNodes(v, view.Node{Kind: view.SystemNode, Index: co.Node})
	mustUpdate(t, v)
	g = top.Grid()
	if g.SelectedX != co.Coord[0] || g.SelectedY != co.Coord[1] || !g.Cells[co.Coord[1]*g.Cols+co.Coord[0]].Selected {
		t.Errorf("selected cell (%d, %d), want %v", g.SelectedX, g.SelectedY, co.Coord)
	}
	// Every cell is found again at its middle.
	l := g.Layout(500, 300)
	for i := range g.Cells {
		x := l.Left + (float64(i%g.Cols)+0.5)*l.Cell
		y := l.Top + (float64(i/g.Cols)+0.5)*l.Cell
		if got := l.CellAt(x, y); got != i {
			t.Errorf("cell %d found as %d", i, got)
		}
	}
	if l.CellAt(1, 1) != -1 {
		t.Error("a point outside the grid is a cell")
	}

	e3, err := format.Open(testkit.Data(t, "cube3", "example3.cube"))
	if err != nil {
		t.Fatal(err)
	}
	v3 := view.NewView(e3)
	mustUpdate(t, v3)
	g = NewTopology(v3).Grid()
	if g.Cols != 16 || g.Rows != 64 || g.Placed != 1024 || g.Missing != 0 || !strings.Contains(g.Title, "Rank × thread") {
		t.Errorf("example3: %q %d×%d, %d placed, %d missing", g.Title, g.Cols, g.Rows, g.Placed, g.Missing)
	}

	ew, err := format.Open(testkit.Data(t, "cube3", "cubew-test3.cube"))
	if err != nil {
		t.Fatal(err)
	}
	vw := view.NewView(ew)
	mustUpdate(t, vw)
	tw := NewTopology(vw)
	if names := tw.Names(); len(names) != 4 || !strings.HasPrefix(names[2], "Second (3 × 3 × 3 × 3)") {
		t.Fatalf("topologies %q", names)
	}
	tw.SetTopology(2)
	if rest := tw.Rest(); len(rest) != 1 || rest[0] != "0" {
		t.Errorf("further coordinates %q, want the one the file uses", rest)
	}
	g = tw.Grid()
	if g.Cols != 3 || g.Rows != 3 || g.Slices != 3 || g.Placed != len(ew.Topologies[2].Coords) {
		t.Errorf("Second: %d×%d×%d, %d placed of %d", g.Cols, g.Rows, g.Slices, g.Placed, len(ew.Topologies[2].Coords))
	}
}

// BenchmarkTopologyGrid builds the rank × thread grid of 1,000 locations
// with the system pane's values and colours, as every refresh of a shown
// topology view does, and finds the cell under each of 10,000 points.
func BenchmarkTopologyGrid(b *testing.B) {
	v := view.NewView(big(b))
	mustUpdate(b, v)
	top := NewTopology(v)
	b.ReportAllocs()
	for b.Loop() {
		g := top.Grid()
		l := g.Layout(1300, 300)
		for i := range 10000 {
			l.CellAt(float64(i%1300), float64(i/1300*30))
		}
	}
}
