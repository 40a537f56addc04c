package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysisview"
	"cubeview/view"
)

// callGraphPanel lists the callers and callees of the region selected in
// the call pane, for experiments with a call graph (gprof, callgrind):
// analysisview computes the rows, the panel draws them and a click selects the
// caller's or callee's region.
type callGraphPanel struct {
	w                *Window
	graph            analysisview.CallGraph
	rep              analysisview.CallGraphReport
	title            *widget.Label
	note             *widget.Label
	callers, callees *widget.Table
	box              fyne.CanvasObject
}

// callGraphWidths are the widths of analysisview.CallGraphColumns.
var callGraphWidths = []float32{150, 100, 420}

func newCallGraphPanel(w *Window) *callGraphPanel {
	p := &callGraphPanel{w: w, title: truncLabel(""), note: noteLabel("")}
	p.title.TextStyle.Bold = true
	p.callers = p.newTable("Callers", func() []analysisview.CallGraphRow { return p.rep.Callers })
	p.callees = p.newTable("Callees", func() []analysisview.CallGraphRow { return p.rep.Callees })
	closeButton := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { w.panels.ShowCallGraph(false) })
	lists := container.NewHSplit(p.callers, p.callees)
	head := container.NewVBox(container.NewBorder(nil, nil, nil, closeButton, p.title), p.note)
	p.box = container.NewBorder(head, nil, nil, nil, lists)
	return p
}

// newTable returns a table of the rows rows returns, headed by what.
func (p *callGraphPanel) newTable(what string, rows func() []analysisview.CallGraphRow) *widget.Table {
	t := widget.NewTableWithHeaders(
		func() (int, int) { return len(rows()), len(analysisview.CallGraphColumns) },
		func() fyne.CanvasObject { return container.NewBorder(nil, nil, newSwatch(), nil, truncLabel("")) },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			c := o.(*fyne.Container)
			l, s := c.Objects[0].(*widget.Label), c.Objects[1].(*swatch)
			rs := rows()
			if id.Row >= len(rs) {
				return
			}
			r := rs[id.Row]
			s.Hide()
			if id.Col == 0 {
				s.set(r.Color, r.Relief)
				s.Show()
			}
			l.TextStyle.Monospace = id.Col < 2
			l.Alignment = fyne.TextAlignLeading
			if id.Col < 2 {
				l.Alignment = fyne.TextAlignTrailing
			}
			l.SetText(r.Column(id.Col))
		})
	t.ShowHeaderColumn = false
	t.CreateHeader = func() fyne.CanvasObject { return titleLabel("") }
	t.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col < 0 {
			return
		}
		title := analysisview.CallGraphColumns[id.Col]
		if title == "" {
			title = what
		}
		o.(*widget.Label).SetText(title)
	}
	for i, width := range callGraphWidths {
		t.SetColumnWidth(i, width)
	}
	t.OnSelected = func(id widget.TableCellID) {
		t.UnselectAll()
		if rs := rows(); id.Row >= 0 && id.Row < len(rs) {
			p.choose(rs[id.Row])
		}
	}
	return t
}

// choose selects the region of row r in the call pane.
func (p *callGraphPanel) choose(r analysisview.CallGraphRow) {
	if !r.Node.Valid() {
		p.w.hint.SetText(r.NoRow())
		return
	}
	p.w.selectNode(view.CallPane, r.Node)
}

// CallGraphShown reports whether the callers and callees are shown.
func (pl *panels) CallGraphShown() bool {
	w := pl.w
	return w.panels.callGraph != nil && w.panels.shows(w.panels.callGraph.box)
}

// ShowCallGraph shows or hides the callers and callees below the panes.
func (pl *panels) ShowCallGraph(on bool) {
	w := pl.w
	if on == w.panels.CallGraphShown() {
		return
	}
	if w.panels.callGraph == nil {
		w.panels.callGraph = newCallGraphPanel(w)
		w.OnRefresh(w.panels.callGraph.follow)
	}
	if on {
		w.panels.show(w.panels.callGraph.box, 0.6)
		w.panels.callGraph.follow()
	} else {
		w.panels.set(nil)
	}
	w.menus.rebuild()
}

// follow shows the callers and callees of the current selection.
func (p *callGraphPanel) follow() {
	w := p.w
	if w.view == nil || !w.panels.shows(p.box) {
		return
	}
	p.rep = p.graph.Report(w.view)
	p.title.SetText(p.rep.Title)
	p.note.SetText(p.rep.Note)
	if p.rep.Note == "" {
		p.note.Hide()
	} else {
		p.note.Show()
	}
	p.callers.Refresh()
	p.callees.Refresh()
}

// showCallGraphDefaults opens an experiment of a tool that records a call
// graph the way the tool shows it: as a flat profile (the only display of
// its inclusive values) with the callers and callees of the selection.
func (pl *panels) showCallGraphDefaults() {
	w := pl.w
	if view.PrefersFlat(w.view.Experiment()) {
		w.SetFlat(true)
	}
	if view.HasCallGraph(w.view.Experiment()) {
		w.panels.ShowCallGraph(true)
	}
}
