package analysisview

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"cubeview/colormap"
	"cubeview/model"
	"cubeview/view"
)

// The topology view (Cube's) draws the system entities on the grid of a
// Cartesian topology of the experiment, each cell coloured by its value
// for the selected metric × call path as the system pane shows it, and
// follows and sets the system pane's selection. The first two dimensions
// span a slice; the slices along a third are drawn side by side, and
// dimensions beyond the third are fixed at one of the combinations the
// topology uses. An experiment without a topology gets a rank × thread
// grid from its system tree.

// Topology is the topology view's state: which topology and, for more
// than three dimensions, which combination of the further coordinates.
type Topology struct {
	v     *view.View
	carts []model.Cart // the experiment's, or the rank × thread grid
	cart  int
	rest  int // index into restCombos
	// restCombos are the combinations of coordinates beyond the third
	// that the chosen topology uses, in order ("" when it has ≤ 3 dims).
	restCombos []string
}

// NewTopology returns the topology view of v, showing its first topology.
func NewTopology(v *view.View) *Topology {
	t := &Topology{v: v, carts: v.Experiment().Topologies}
	if len(t.carts) == 0 {
		t.carts = []model.Cart{rankThreadGrid(v.Experiment())}
	}
	t.SetTopology(0)
	return t
}

// View returns the view whose system tree t draws.
func (t *Topology) View() *view.View { return t.v }

// rankThreadGrid places each location at (its process, its place among
// the process's threads): the grid of experiments without a topology.
func rankThreadGrid(e *model.Experiment) model.Cart {
	c := model.Cart{Name: "Rank × thread (from the system tree)"}
	row := map[int]int{} // parent → row
	threads := 1
	for _, s := range e.Locations {
		p := e.System[s].Parent
		r, ok := row[p]
		if !ok {
			r = len(row)
			row[p] = r
		}
		pos := 0
		if p >= 0 {
			pos = slices.Index(e.System[p].Children, s)
		}
		threads = max(threads, pos+1)
		c.Coords = append(c.Coords, model.CartCoord{Node: s, Coord: []int{pos, r}})
	}
	c.Dims = []model.CartDim{{Name: "thread", Size: threads}, {Name: "rank", Size: max(1, len(row))}}
	return c
}

// Names returns the topologies offered, by name ("topology 2" when unnamed).
func (t *Topology) Names() []string {
	out := make([]string, len(t.carts))
	for i, c := range t.carts {
		out[i] = c.Name
		if strings.TrimSpace(c.Name) == "" {
			out[i] = "topology " + strconv.Itoa(i+1)
		}
		out[i] += " (" + dimsText(c.Dims) + ")"
	}
	return out
}

func dimsText(dims []model.CartDim) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = strconv.Itoa(d.Size)
		if d.Name != "" {
			parts[i] = d.Name + " " + parts[i]
		}
	}
	return strings.Join(parts, " × ")
}

// Chosen returns the index of the topology shown.
func (t *Topology) Chosen() int { return t.cart }

// SetTopology shows topology i.
func (t *Topology) SetTopology(i int) {
	if i < 0 || i >= len(t.carts) {
		return
	}
	t.cart, t.rest = i, 0
	t.restCombos = nil
	seen := map[string]bool{}
	for _, c := range t.carts[i].Coords {
		if len(c.Coord) <= 3 {
			continue
		}
		k := restKey(c.Coord[3:])
		if !seen[k] {
			seen[k] = true
			t.restCombos = append(t.restCombos, k)
		}
	}
	slices.Sort(t.restCombos)
}

func restKey(c []int) string {
	parts := make([]string, len(c))
	for i, x := range c {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ",")
}

// Rest returns the combinations of the coordinates beyond the third that
// the topology uses ("1,0,2"), empty for up to three dimensions.
func (t *Topology) Rest() []string { return t.restCombos }

// SetRest shows the slices at combination i of Rest.
func (t *Topology) SetRest(i int) {
	if i >= 0 && i < len(t.restCombos) {
		t.rest = i
	}
}

// TopoCell is one cell of a topology grid.
type TopoCell struct {
	Node     view.Node // the system entity there; the zero Node when none is
	Value    float64
	Text     string
	Color    color.NRGBA
	Selected bool
}

// TopoGrid is what the topology view draws: Slices grids of Cols × Rows
// cells side by side, cell (slice, x, y) at Cells[(slice*Rows+y)*Cols+x].
type TopoGrid struct {
	Title                string
	Cols, Rows, Slices   int
	XName, YName, ZName  string
	Cells                []TopoCell
	Placed, Missing      int // entities on the grid, and system leaves not on it
	Periodic             []bool
	SelectedX, SelectedY int // −1 when the selection is not on the grid
}

// Grid returns the grid of the chosen topology with the values of the
// system pane (its mode and colours); v must be up to date (Update).
func (t *Topology) Grid() TopoGrid {
	v := t.v
	e := v.Experiment()
	c := t.carts[t.cart]
	size := func(d int) int {
		if d < len(c.Dims) {
			return max(1, c.Dims[d].Size)
		}
		return 1
	}
	name := func(d int) string {
		if d >= len(c.Dims) {
			return ""
		}
		if c.Dims[d].Name != "" {
			return c.Dims[d].Name
		}
		return "dimension " + strconv.Itoa(d+1)
	}
	g := TopoGrid{Cols: size(0), Rows: size(1), Slices: size(2), XName: name(0), YName: name(1), ZName: name(2), SelectedX: -1, SelectedY: -1}
	// Guard against absurd sizes in a file: at most 1<<20 cells.
	if g.Cols*g.Rows*g.Slices > 1<<20 || g.Cols*g.Rows*g.Slices <= 0 {
		g.Title = "the topology " + t.Names()[t.cart] + " is too large to draw"
		g.Cols, g.Rows, g.Slices = 0, 0, 0
		return g
	}
	for _, d := range c.Dims {
		g.Periodic = append(g.Periodic, d.Periodic)
	}
	g.Cells = make([]TopoCell, g.Cols*g.Rows*g.Slices)
	for i := range g.Cells {
		g.Cells[i].Value = math.NaN()
	}
	sel := v.Selected(view.SystemPane)
	rest := ""
	if len(t.restCombos) > 0 {
		rest = t.restCombos[t.rest]
	}
	onGrid := map[int]bool{}
	largest := 0.0
	for _, co := range c.Coords {
		if co.Node < 0 || co.Node >= len(e.System) || len(co.Coord) == 0 {
			continue
		}
		at := func(d int) int {
			if d < len(co.Coord) {
				return co.Coord[d]
			}
			return 0
		}
		x, y, z := at(0), at(1), at(2)
		if x < 0 || x >= g.Cols || y < 0 || y >= g.Rows || z < 0 || z >= g.Slices {
			continue
		}
		if len(co.Coord) > 3 && restKey(co.Coord[3:]) != rest {
			continue
		}
		n := v.Showing(view.Node{Kind: view.SystemNode, Index: co.Node})
		cell := &g.Cells[(z*g.Rows+y)*g.Cols+x]
		cell.Node = n
		cell.Value = v.Values().Value(view.SystemPane, n)
		cell.Selected = n == sel
		if cell.Selected {
			g.SelectedX, g.SelectedY = x, y
		}
		if !math.IsNaN(cell.Value) {
			largest = math.Max(largest, math.Abs(cell.Value))
		}
		onGrid[co.Node] = true
		g.Placed++
	}
	for _, s := range e.Locations {
		if !onGrid[s] {
			g.Missing++
		}
	}
	// The cells' own range, so that a small grid of threads shows its
	// differences; the user's range of the system pane wins.
	rng := colormap.Range{Max: largest}
	if r := v.UserRange(view.SystemPane); r != nil {
		rng = *r
	} else if v.Mode(view.SystemPane) != view.Absolute && largest == 0 {
		rng = colormap.Range{Max: 100}
	}
	for i := range g.Cells {
		cell := &g.Cells[i]
		if !cell.Node.Valid() {
			continue
		}
		cl := v.Appearance().Cell(v.Appearance().NumberFormat(), cell.Value, v.Values().Integer(view.SystemPane, cell.Node), rng, true)
		cell.Text, cell.Color = cl.Text, cl.Color
	}
	g.Title = t.Names()[t.cart]
	if rest != "" {
		g.Title += " at (…, " + rest + ")"
	}
	if g.Missing > 0 {
		g.Title += fmt.Sprintf(" · %s not on the grid", view.Count(g.Missing, "location"))
	}
	return g
}

// Layout is where a grid's cells lie in an area of Width × Height: square
// cells of side Cell from Left, Top, slices Gap apart.
type Layout struct {
	Left, Top, Cell, Gap float64
	g                    *TopoGrid
}

// Layout fits g into an area of width × height.
func (g *TopoGrid) Layout(width, height float64) Layout {
	if g.Cols == 0 || g.Rows == 0 || g.Slices == 0 {
		return Layout{g: g}
	}
	gapCells := 0.5
	across := float64(g.Slices*g.Cols) + gapCells*float64(g.Slices-1)
	cell := math.Min(width/across, height/float64(g.Rows))
	cell = math.Min(cell, 64) // a few cells stay squares, not panels
	l := Layout{Cell: cell, Gap: cell * gapCells, g: g}
	l.Left = (width - cell*across) / 2
	l.Top = (height - cell*float64(g.Rows)) / 2
	return l
}

// CellAt returns the index in Cells of the cell at x, y, or −1 (outside
// the grid, between slices).
func (l Layout) CellAt(x, y float64) int {
	g := l.g
	if g == nil || l.Cell <= 0 {
		return -1
	}
	x, y = x-l.Left, y-l.Top
	if x < 0 || y < 0 {
		return -1
	}
	row := int(y / l.Cell)
	span := float64(g.Cols)*l.Cell + l.Gap
	slice := int(x / span)
	col := int((x - float64(slice)*span) / l.Cell)
	if row >= g.Rows || slice >= g.Slices || col >= g.Cols {
		return -1
	}
	return (slice*g.Rows+row)*g.Cols + col
}

// CellColor returns the colour at x, y: a cell's (the background of an
// empty one), a frame round the selected cell, or transparent.
func (l Layout) CellColor(x, y float64, empty, frame color.NRGBA) (color.NRGBA, bool) {
	i := l.CellAt(x, y)
	if i < 0 {
		return color.NRGBA{}, false
	}
	c := l.g.Cells[i]
	// A thin gap between cells when they are large enough to show it.
	x0 := math.Mod(x-l.Left, float64(l.g.Cols)*l.Cell+l.Gap)
	fx, fy := math.Mod(x0, l.Cell), math.Mod(y-l.Top, l.Cell)
	edge := math.Max(1, l.Cell/10)
	if c.Selected && (fx < edge || fy < edge || fx > l.Cell-edge || fy > l.Cell-edge) {
		return frame, true
	}
	if l.Cell >= 6 && (fx < 1 || fy < 1) {
		return color.NRGBA{}, false
	}
	if !c.Node.Valid() {
		return empty, true
	}
	return c.Color, true
}

// TopologyAxes describes the axes of a grid for the line below it.
func TopologyAxes(g TopoGrid) string {
	if g.Cols == 0 {
		return ""
	}
	s := fmt.Sprintf("across: %s (%d) · down: %s (%d)", g.XName, g.Cols, g.YName, g.Rows)
	if g.Slices > 1 {
		s += fmt.Sprintf(" · slices side by side: %s (%d)", g.ZName, g.Slices)
	}
	return s + " · click a cell to select it in the system tree"
}

// TopologyCellText names cell i of g, its coordinates and value, for a
// hint; "" for no cell.
func TopologyCellText(v *view.View, g TopoGrid, i int) string {
	if i < 0 || i >= len(g.Cells) {
		return ""
	}
	x, y, z := i%g.Cols, (i/g.Cols)%g.Rows, i/(g.Cols*g.Rows)
	at := fmt.Sprintf("(%d, %d)", x, y)
	if g.Slices > 1 {
		at = fmt.Sprintf("(%d, %d, %d)", x, y, z)
	}
	c := g.Cells[i]
	if !c.Node.Valid() {
		return at + ": no location"
	}
	return fmt.Sprintf("%s: %s · %s %s", at, v.Label(c.Node), c.Text, v.Values().Unit(view.SystemPane, c.Node))
}
