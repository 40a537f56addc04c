package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"cubeview/model"
	"cubeview/view"
)

// analysisPanels are the panels of the multi-experiment analyses a window
// may show below its panes.
type analysisPanels struct {
	perfDiff *perfDiffPanel // the last performance difference shown
	stats    *statsPanel    // nil until the statistics are first shown
	scaling  *scalingWindow // the last scaling study started here
}

// showAnalysisPanel puts obj below the panes in place of any other
// panel, giving the panes the share panes of the height.
func (w *Window) showAnalysisPanel(obj fyne.CanvasObject, panes float64) {
	if w.SourceShown() {
		w.ShowSource(false)
	}
	w.SetPanel(obj)
	if s, ok := w.panesArea.Objects[0].(*container.Split); ok {
		s.SetOffset(panes)
	}
	w.rebuildMenu()
}

// panelShows reports whether obj is the panel below the panes.
func (w *Window) panelShows(obj fyne.CanvasObject) bool {
	if len(w.panesArea.Objects) == 0 {
		return false
	}
	s, ok := w.panesArea.Objects[0].(*container.Split)
	return ok && s.Trailing == obj
}

// metricChoice picks one metric among those of some experiments, by
// display name and unique name.
type metricChoice struct {
	sel  *widget.Select
	uniq []string // in the order of sel's options
}

func newMetricChoice() *metricChoice {
	return &metricChoice{sel: widget.NewSelect(nil, nil)}
}

// Offer lists the metrics with values of each document in turn (nil
// documents are skipped), keeping the chosen one when it is still there,
// else choosing the first.
func (c *metricChoice) Offer(docs ...*view.Doc) {
	was := c.Metric()
	exps := make([]*model.Experiment, len(docs))
	for i, d := range docs {
		if d != nil {
			exps[i] = d.Exp
		}
	}
	var options []string
	c.uniq, options = view.MetricChoices(exps...)
	c.sel.Options = options
	c.sel.ClearSelected()
	if !c.Set(was) && len(options) > 0 {
		c.sel.SetSelectedIndex(0)
	}
	c.sel.Refresh()
}

// Metric returns the unique name of the chosen metric, "" when none.
func (c *metricChoice) Metric() string {
	i := c.sel.SelectedIndex()
	if i < 0 || i >= len(c.uniq) {
		return ""
	}
	return c.uniq[i]
}

// Set chooses the metric uniq; false when it is not offered.
func (c *metricChoice) Set(uniq string) bool {
	for i, m := range c.uniq {
		if m == uniq {
			c.sel.SetSelectedIndex(i)
			return true
		}
	}
	return false
}
