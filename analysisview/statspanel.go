package analysisview

import (
	"image"
	"image/color"

	"cubeview/chart"
	"cubeview/model"
	"cubeview/view"
)

// StatsTop is the number of call paths in the statistics panel's
// per-metric box plot.
const StatsTop = 10

// Pixel sizes the statistics panel's box plots are drawn at; the panel
// scales them to fit.
const (
	selectedPlotW, selectedPlotH = 640, 200
	topPlotW, topPlotH           = 820, 460
)

// StatsPanel is the state of the statistics panel below a window's
// panes: it follows the selection, computing in the background the
// statistics of the selected call path across locations with their box
// plot, and the box plot of the metric's top call paths when the metric
// changed. The widgets show what Show and Message give them.
type StatsPanel struct {
	Run  view.Runner
	View func() *view.View // the window's view; nil while no experiment is open
	// Visible reports whether the panel is on screen; a hidden one does
	// not compute.
	Visible func() bool
	Busy    func(text string) // long work starts
	Idle    func()            // and ends
	// Show shows a report with the plot of the selection and that of the
	// metric's top call paths.
	Show    func(rep *StatsReport, selected, top image.Image)
	Message func(text string) // shown instead of the numbers
	// Paper returns the background of a dark window, which the plots
	// take (light text and lines on it); nil, or a nil colour: black on
	// white.
	Paper func() color.Color

	key    statsKey
	topKey statsTopKey
	gen    int          // the latest computation; older results are dropped
	rep    *StatsReport // what is shown
	top    image.Image  // the plot of the top call paths shown
}

type statsTopKey struct {
	exp    *model.Experiment
	metric int
}

// Report returns the report shown, nil before the first.
func (p *StatsPanel) Report() *StatsReport { return p.rep }

// Reset forgets what is shown, so that the next Follow computes afresh
// (the panel is shown again).
func (p *StatsPanel) Reset() { p.key, p.topKey = statsKey{}, statsTopKey{} }

// Drop drops the results on their way (the panel is hidden).
func (p *StatsPanel) Drop() { p.gen++ }

// Follow recomputes the statistics when the selection changed; the window
// calls it after every refresh.
func (p *StatsPanel) Follow() {
	v := p.View()
	if v == nil || !p.Visible() {
		return
	}
	key := statsKeyOf(v)
	if key == p.key {
		return
	}
	p.key = key
	tk := statsTopKey{key.Exp, key.Metric}
	top := 0
	if tk != p.topKey {
		top = StatsTop
	}
	req, err := statsRequestOf(v, top)
	if p.Paper != nil {
		req.paper = p.Paper()
	}
	if err != nil {
		p.Message(err.Error())
		return
	}
	p.gen++
	gen := p.gen
	p.Busy("Statistics of " + req.Call + " …")
	var rep *StatsReport
	var sel, topImg image.Image
	p.Run(func() { rep, sel, topImg, err = req.draw() }, func() {
		p.Idle()
		if gen != p.gen {
			return // a newer selection is on its way
		}
		if err != nil {
			p.key = statsKey{}
			p.Message(err.Error())
			return
		}
		if top > 0 {
			p.topKey, p.top = tk, topImg
		} else if p.rep != nil {
			rep.Top, rep.TopBoxes, rep.TopTitle = p.rep.Top, p.rep.TopBoxes, p.rep.TopTitle
		}
		p.rep = rep
		p.Show(rep, sel, p.top)
	})
}

// draw computes the statistics and draws their plots; call it off the UI
// goroutine.
func (r statsRequest) draw() (rep *StatsReport, sel, top image.Image, err error) {
	if rep, err = r.compute(); err != nil {
		return nil, nil, nil, err
	}
	selected, topChart, err := rep.charts()
	if err != nil {
		return nil, nil, nil, err
	}
	if r.paper != nil {
		for _, c := range []*chart.Chart{selected, topChart} {
			if c != nil {
				c.SetDark(r.paper)
			}
		}
	}
	if selected != nil {
		if sel, err = selected.Image(selectedPlotW, selectedPlotH); err != nil {
			return nil, nil, nil, err
		}
	}
	if topChart != nil {
		top, err = topChart.Image(topPlotW, topPlotH)
	}
	return rep, sel, top, err
}
