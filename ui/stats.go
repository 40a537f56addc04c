package ui

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysisview"
	"cubeview/view"
)

// statsPanel shows, below the panes, the statistics of the selected call
// path's values across locations (numbers and a box plot) and a box plot
// of the metric's top call paths; view.StatsPanel follows the selection.
type statsPanel struct {
	m       analysisview.StatsPanel
	shown   bool
	title   *widget.Label
	lines   *fyne.Container
	message *widget.Label
	selImg  *canvas.Image
	topImg  *canvas.Image
	box     fyne.CanvasObject
}

func newStatsPanel(w *Window) *statsPanel {
	p := &statsPanel{}
	p.m = analysisview.StatsPanel{
		Run:     w.app.async,
		View:    func() *view.View { return w.view },
		Visible: func() bool { return p.shown && w.panels.shows(p.box) },
		Busy:    w.busy.start,
		Idle:    w.busy.stop,
		Show:    p.show,
		Message: p.showMessage,
		Paper:   darkPaper,
	}
	p.title = titleLabel("")
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
	closeButton := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { w.panels.ShowStats(false) })
	left := container.NewBorder(
		container.NewBorder(nil, nil, nil, closeButton, p.title), nil, nil, nil,
		container.NewVScroll(container.NewVBox(p.message, p.lines, p.selImg)))
	split := container.NewHSplit(left, p.topImg)
	split.SetOffset(0.5)
	p.box = split
	return p
}

// StatsShown reports whether the statistics panel is shown.
func (pl *panels) StatsShown() bool {
	w := pl.w
	return w.panels.stats != nil && w.panels.stats.shown && w.panels.shows(w.panels.stats.box)
}

// ShowStats shows or hides the statistics panel below the panes.
func (pl *panels) ShowStats(on bool) {
	w := pl.w
	if on == w.panels.StatsShown() {
		return
	}
	if w.panels.stats == nil {
		w.panels.stats = newStatsPanel(w)
		w.OnRefresh(w.panels.stats.m.Follow)
	}
	p := w.panels.stats
	p.shown = on
	if on {
		w.panels.show(p.box, 0.42)
		p.m.Reset()
		p.m.Follow()
	} else {
		p.m.Drop()
		w.panels.set(nil)
	}
	w.menus.rebuild()
}

func (p *statsPanel) showMessage(text string) {
	p.message.SetText(text)
	p.message.Show()
	p.lines.Hide()
	p.selImg.Hide()
}

func (p *statsPanel) show(rep *analysisview.StatsReport, sel, top image.Image) {
	p.topImg.Image = top
	p.topImg.Refresh()
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
