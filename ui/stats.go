package ui

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/model"
	"cubeview/view"
)

// statsTop is the number of call paths in the per-metric box plot.
const statsTop = 10

// Pixel sizes the box plots are drawn at; the panel scales them to fit.
const (
	selectedPlotW, selectedPlotH = 640, 200
	topPlotW, topPlotH           = 820, 460
)

// statsPanel shows, below the panes, the statistics of the selected call
// path's values across locations (numbers and a box plot) and a box plot
// of the metric's top call paths. It follows the selection.
type statsPanel struct {
	w       *Window
	shown   bool
	key     view.StatsKey
	topKey  topKey
	gen     int // the latest computation; older results are dropped
	title   *widget.Label
	lines   *fyne.Container
	message *widget.Label
	selImg  *canvas.Image
	topImg  *canvas.Image
	box     fyne.CanvasObject

	rep *view.StatsReport // what is shown
}

type topKey struct {
	exp    *model.Experiment
	metric int
}

func newStatsPanel(w *Window) *statsPanel {
	p := &statsPanel{w: w}
	p.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.title.Wrapping = fyne.TextWrapWord
	// Two name–value pairs a line keep the numbers and the box in view.
	p.lines = container.NewGridWithColumns(4)
	p.message = widget.NewLabel("")
	p.message.Wrapping = fyne.TextWrapWord
	p.message.Hide()
	p.selImg = canvas.NewImageFromImage(nil)
	p.selImg.FillMode = canvas.ImageFillContain
	p.selImg.SetMinSize(fyne.NewSize(380, 115))
	p.topImg = canvas.NewImageFromImage(nil)
	p.topImg.FillMode = canvas.ImageFillContain
	p.topImg.SetMinSize(fyne.NewSize(400, 220))
	closeButton := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { w.ShowStats(false) })
	left := container.NewBorder(
		container.NewBorder(nil, nil, nil, closeButton, p.title), nil, nil, nil,
		container.NewVScroll(container.NewVBox(p.message, p.lines, p.selImg)))
	split := container.NewHSplit(left, p.topImg)
	split.SetOffset(0.5)
	p.box = split
	return p
}

// StatsShown reports whether the statistics panel is shown.
func (w *Window) StatsShown() bool {
	return w.stats != nil && w.stats.shown && w.panelShows(w.stats.box)
}

// ShowStats shows or hides the statistics panel below the panes.
func (w *Window) ShowStats(on bool) {
	if on == w.StatsShown() {
		return
	}
	if w.stats == nil {
		w.stats = newStatsPanel(w)
		w.OnRefresh(w.stats.follow)
	}
	p := w.stats
	p.shown = on
	if on {
		w.showAnalysisPanel(p.box, 0.42)
		p.key, p.topKey = view.StatsKey{}, topKey{}
		p.follow()
	} else {
		p.gen++ // drop results on their way
		w.SetPanel(nil)
	}
	w.rebuildMenu()
}

// follow recomputes the statistics when the selection changed.
func (p *statsPanel) follow() {
	w := p.w
	if !p.shown || w.view == nil || !w.panelShows(p.box) {
		return
	}
	key := w.view.StatsKey()
	if key == p.key {
		return
	}
	p.key = key
	tk := topKey{key.Exp, key.Metric}
	top := 0
	if tk != p.topKey {
		top = statsTop
	}
	req, err := w.view.StatsRequest(top)
	if err != nil {
		p.showMessage(err.Error())
		return
	}
	p.gen++
	gen := p.gen
	w.startBusy("Statistics of " + req.Call + " …")
	var rep *view.StatsReport
	var sel, topImg image.Image
	w.app.async(func() {
		if rep, err = req.Compute(); err != nil {
			return
		}
		selected, topChart, cerr := rep.Charts()
		if err = cerr; err != nil {
			return
		}
		if selected != nil {
			if sel, err = selected.Image(selectedPlotW, selectedPlotH); err != nil {
				return
			}
		}
		if topChart != nil {
			topImg, err = topChart.Image(topPlotW, topPlotH)
		}
	}, func() {
		w.stopBusy()
		if gen != p.gen {
			return // a newer selection is on its way
		}
		if err != nil {
			p.key = view.StatsKey{}
			p.showMessage(err.Error())
			return
		}
		if top > 0 {
			p.topKey = tk
			p.topImg.Image = topImg
			p.topImg.Refresh()
		} else if p.rep != nil {
			rep.Top, rep.TopBoxes, rep.TopTitle = p.rep.Top, p.rep.TopBoxes, p.rep.TopTitle
		}
		p.show(rep, sel)
	})
}

func (p *statsPanel) showMessage(text string) {
	p.message.SetText(text)
	p.message.Show()
	p.lines.Hide()
	p.selImg.Hide()
}

func (p *statsPanel) show(rep *view.StatsReport, sel image.Image) {
	p.rep = rep
	p.message.Hide()
	p.title.SetText(rep.Title)
	p.lines.Objects = nil
	for _, l := range rep.Lines {
		name := widget.NewLabel(l.Name)
		name.Importance = widget.LowImportance
		value := widget.NewLabel(l.Value)
		value.Selectable = true
		p.lines.Objects = append(p.lines.Objects, name, value)
	}
	p.lines.Show()
	p.lines.Refresh()
	p.selImg.Image = sel
	p.selImg.Show()
	p.selImg.Refresh()
}
