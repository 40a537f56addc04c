package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysisview"
	"cubeview/view"
)

// topologyPanel shows, below the panes, the system entities on the grid
// of a Cartesian topology (analysisview.Topology), coloured by the system pane's
// values of the selected metric × call path; clicking a cell selects its
// entity in the system pane, hovering names it.
type topologyPanel struct {
	w      *Window
	t      *analysisview.Topology
	grid   analysisview.TopoGrid
	title  *widget.Label
	choose *widget.Select
	rest   *widget.Select
	axes   *widget.Label
	cells  *gridImage
	box    fyne.CanvasObject
	quiet  bool // set while the selectors follow the view
}

// emptyCell is the colour of a grid place no entity occupies.
var emptyCell = color.NRGBA{R: 90, G: 90, B: 90, A: 255}

func newTopologyPanel(w *Window) *topologyPanel {
	p := &topologyPanel{w: w, title: truncLabel(""), axes: noteLabel("")}
	p.choose = widget.NewSelect(nil, func(string) {
		if !p.quiet && p.t != nil {
			p.t.SetTopology(p.choose.SelectedIndex())
			p.follow()
		}
	})
	p.rest = widget.NewSelect(nil, func(string) {
		if !p.quiet && p.t != nil {
			p.t.SetRest(p.rest.SelectedIndex())
			p.follow()
		}
	})
	p.rest.PlaceHolder = "further coordinates"
	p.cells = newGridImage(p)
	closeButton := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { w.panels.ShowTopology(false) })
	head := container.NewBorder(nil, nil, container.NewHBox(widget.NewLabel("Topology"), p.choose, p.rest), closeButton, p.title)
	p.box = container.NewBorder(head, p.axes, nil, nil, p.cells)
	return p
}

// TopologyShown reports whether the topology view is shown.
func (pl *panels) TopologyShown() bool {
	return pl.topology != nil && pl.shows(pl.topology.box)
}

// ShowTopology shows or hides the topology view below the panes.
func (pl *panels) ShowTopology(on bool) {
	w := pl.w
	if on == pl.TopologyShown() {
		return
	}
	if pl.topology == nil {
		pl.topology = newTopologyPanel(w)
		w.OnRefresh(pl.topology.follow)
	}
	if on {
		pl.show(pl.topology.box, 0.55)
		pl.topology.follow()
	} else {
		pl.set(nil)
	}
	w.menus.rebuild()
}

// follow draws the grid with the current values and selection.
func (p *topologyPanel) follow() {
	w := p.w
	if w.view == nil || !w.panels.shows(p.box) {
		return
	}
	if p.t == nil || p.t.View() != w.view {
		p.t = analysisview.NewTopology(w.view)
	}
	p.quiet = true
	p.choose.Options = p.t.Names()
	p.choose.SetSelectedIndex(p.t.Chosen())
	p.rest.Options = p.t.Rest()
	if len(p.rest.Options) == 0 {
		p.rest.Hide()
	} else {
		p.rest.Show()
		if p.rest.SelectedIndex() < 0 {
			p.rest.SetSelectedIndex(0)
		}
	}
	p.quiet = false
	p.grid = p.t.Grid()
	p.title.SetText(p.grid.Title)
	p.axes.SetText(analysisview.TopologyAxes(p.grid))
	p.cells.Refresh()
}

// cellAt returns the cell under a position of the grid widget, or −1.
func (p *topologyPanel) cellAt(at fyne.Position) int {
	s := p.cells.Size()
	return p.grid.Layout(float64(s.Width), float64(s.Height)).CellAt(float64(at.X), float64(at.Y))
}

func (p *topologyPanel) tapped(at fyne.Position) {
	if i := p.cellAt(at); i >= 0 && p.grid.Cells[i].Node.Valid() {
		p.w.selectNode(view.SystemPane, p.grid.Cells[i].Node)
	}
}

func (p *topologyPanel) hovered(at fyne.Position) {
	if p.w.view == nil {
		return
	}
	p.w.hint.SetText(analysisview.TopologyCellText(p.w.view, p.grid, p.cellAt(at)))
}

// gridImage draws a topology grid pixel by pixel and reports taps and
// mouse moves.
type gridImage struct {
	widget.BaseWidget
	p      *topologyPanel
	raster *canvas.Raster
}

var (
	_ fyne.Tappable     = (*gridImage)(nil)
	_ desktop.Hoverable = (*gridImage)(nil)
)

func newGridImage(p *topologyPanel) *gridImage {
	g := &gridImage{p: p}
	g.raster = canvas.NewRasterWithPixels(func(x, y, w, h int) color.Color {
		l := p.grid.Layout(float64(w), float64(h))
		c, ok := l.CellColor(float64(x)+0.5, float64(y)+0.5, emptyCell, frameColor())
		if !ok {
			// Not color.Transparent: the first pixel's type sets the
			// image's, and an alpha-only image draws every cell white.
			return color.NRGBA{}
		}
		return c
	})
	g.ExtendBaseWidget(g)
	return g
}

// frameColor marks the selected cell: the theme's foreground.
func frameColor() color.NRGBA {
	r, gr, b, a := theme.Color(theme.ColorNameForeground).RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(gr >> 8), B: uint8(b >> 8), A: uint8(a >> 8)}
}

func (g *gridImage) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(g.raster) }

func (g *gridImage) MinSize() fyne.Size { return fyne.NewSize(200, 100) }

func (g *gridImage) Refresh() { g.raster.Refresh() }

func (g *gridImage) Tapped(ev *fyne.PointEvent) { g.p.tapped(ev.Position) }

func (g *gridImage) MouseIn(ev *desktop.MouseEvent) { g.MouseMoved(ev) }

func (g *gridImage) MouseMoved(ev *desktop.MouseEvent) { g.p.hovered(ev.Position) }

func (g *gridImage) MouseOut() {}
