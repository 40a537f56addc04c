package ui

import (
	"image"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysisview"
	"cubeview/chart"
	"cubeview/dialogform"
	"cubeview/view"
)

// locationPanel shows, below the panes, the per-location chart of the
// selected metric × call path (analysisview.LocationChart): a bar per
// location with minimum, mean and maximum lines. It is drawn in the
// background when the selection changes; clicking a bar selects its
// location in the system pane, hovering names it.
type locationPanel struct {
	w       *Window
	title   *widget.Label
	message *widget.Label
	plot    *chartImage
	box     fyne.CanvasObject

	rep   *analysisview.LocationChart // what is shown
	drawn *chart.LocationChart        // its drawing, for Hit
	key   analysisview.LocationKey
	size  fyne.Size
	gen   int // the latest drawing; older ones are dropped
}

func newLocationPanel(w *Window) *locationPanel {
	p := &locationPanel{w: w, title: truncLabel(""), message: noteLabel("")}
	p.message.Hide()
	p.plot = newChartImage()
	p.plot.onTap = p.tapped
	p.plot.onHover = p.hovered
	p.plot.onResize = func() { p.follow() }
	closeButton := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { w.panels.ShowLocations(false) })
	save := widget.NewButtonWithIcon("Save image…", theme.DocumentSaveIcon(), p.saveImage)
	head := container.NewVBox(container.NewBorder(nil, nil, nil, container.NewHBox(save, closeButton), p.title), p.message)
	p.box = container.NewBorder(head, nil, nil, nil, p.plot)
	return p
}

// LocationsShown reports whether the per-location chart is shown.
func (pl *panels) LocationsShown() bool {
	return pl.locations != nil && pl.shows(pl.locations.box)
}

// ShowLocations shows or hides the per-location chart below the panes.
func (pl *panels) ShowLocations(on bool) {
	w := pl.w
	if on == pl.LocationsShown() {
		return
	}
	if pl.locations == nil {
		pl.locations = newLocationPanel(w)
		w.OnRefresh(pl.locations.follow)
	}
	if on {
		pl.locations.key = analysisview.LocationKey{}
		pl.show(pl.locations.box, 0.55)
		pl.locations.follow()
	} else {
		pl.locations.gen++
		pl.set(nil)
	}
	w.menus.rebuild()
}

// follow draws the chart of the current selection, in the background,
// when the selection or the panel's size changed.
func (p *locationPanel) follow() {
	w := p.w
	if w.view == nil || !w.panels.shows(p.box) {
		return
	}
	size := p.plot.Size()
	if size.Width < 50 || size.Height < 50 {
		return // not laid out yet; onResize follows
	}
	key := analysisview.KeyOf(w.view)
	if key == p.key && size == p.size {
		return
	}
	p.key, p.size = key, size
	rep, err := analysisview.LocationChartOf(w.view)
	if err != nil {
		p.message.SetText(err.Error())
		p.message.Show()
		return
	}
	p.message.Hide()
	scale := w.win.Canvas().Scale()
	width, height := max(100, int(size.Width*scale)), max(100, int(size.Height*scale))
	p.gen++
	gen := p.gen
	var drawn *chart.LocationChart
	var img image.Image
	w.busy.start("Drawing the per-location chart …")
	w.app.async(func() { drawn, img, err = rep.Draw(width, height) }, func() {
		w.busy.stop()
		if gen != p.gen {
			return
		}
		if err != nil {
			p.message.SetText(err.Error())
			p.message.Show()
			return
		}
		p.rep, p.drawn = rep, drawn
		p.title.SetText(rep.SummaryText())
		p.plot.set(img)
	})
}

// pixel turns a position in the chart widget into image pixels.
func (p *locationPanel) pixel(at fyne.Position) (x, y float64) {
	s := p.w.win.Canvas().Scale()
	return float64(at.X * s), float64(at.Y * s)
}

func (p *locationPanel) tapped(at fyne.Position) {
	if p.drawn == nil || p.w.view == nil {
		return
	}
	i := p.drawn.Hit(p.pixel(at))
	if n := p.rep.Location(p.w.view, i); n.Valid() {
		p.w.selectNode(view.SystemPane, n)
		p.w.hint.SetText(p.rep.Describe(i))
	}
}

func (p *locationPanel) hovered(at fyne.Position) {
	if p.drawn == nil {
		return
	}
	p.w.hint.SetText(p.rep.Describe(p.drawn.Hit(p.pixel(at))))
}

// chartImage shows a chart's image at its own size and reports taps,
// mouse moves and resizes.
type chartImage struct {
	widget.BaseWidget
	img      *canvas.Image
	onTap    func(fyne.Position)
	onHover  func(fyne.Position)
	onResize func()
}

var (
	_ fyne.Tappable     = (*chartImage)(nil)
	_ desktop.Hoverable = (*chartImage)(nil)
)

func newChartImage() *chartImage {
	c := &chartImage{img: canvas.NewImageFromImage(nil)}
	c.img.FillMode = canvas.ImageFillStretch
	c.img.ScaleMode = canvas.ImageScaleFastest
	c.ExtendBaseWidget(c)
	return c
}

func (c *chartImage) set(img image.Image) {
	c.img.Image = img
	c.img.Refresh()
}

func (c *chartImage) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(c.img)
}

func (c *chartImage) MinSize() fyne.Size { return fyne.NewSize(200, 120) }

func (c *chartImage) Resize(s fyne.Size) {
	old := c.Size()
	c.BaseWidget.Resize(s)
	if s != old && c.onResize != nil {
		c.onResize()
	}
}

func (c *chartImage) Tapped(ev *fyne.PointEvent) {
	if c.onTap != nil {
		c.onTap(ev.Position)
	}
}

func (c *chartImage) MouseIn(ev *desktop.MouseEvent) { c.MouseMoved(ev) }

func (c *chartImage) MouseMoved(ev *desktop.MouseEvent) {
	if c.onHover != nil {
		c.onHover(ev.Position)
	}
}

func (c *chartImage) MouseOut() {}

// saveImage asks where to write the chart shown, as PNG or SVG.
func (p *locationPanel) saveImage() {
	w := p.w
	if p.rep == nil {
		return
	}
	rep := p.rep
	w.dialogs.export("the per-location chart as PNG or SVG", dialogform.ExportName(w.doc, "locations", ".png"), []string{".png", ".svg"}, func(path string) {
		w.busy.start("Writing " + filepath.Base(path) + " …")
		var err error
		w.app.async(func() { err = rep.Save(path) }, func() {
			w.busy.stop()
			if err != nil {
				w.showError(err)
				return
			}
			w.hint.SetText("Exported " + path)
		})
	})
}
