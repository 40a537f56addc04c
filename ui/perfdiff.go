package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysisview"
	"cubeview/dialogform"
	"cubeview/document"
	"cubeview/view"
)

func (dl *dialogs) showPerfDiffDialog() {
	w := dl.w
	if w.doc == nil {
		return
	}
	showForm(w.win, w.dialogs.newPerfDiffForm().Form, w.showError)
}

// newPerfDiffForm returns Algebra › Where did it change… over the open
// experiments, this window's first; submitting runs App.PerfDiff.
func (dl *dialogs) newPerfDiffForm() *analysisview.PerfDiffForm {
	w := dl.w
	run := func(r analysisview.PerfDiffRequest) { w.app.PerfDiff(r, w) }
	f := analysisview.NewPerfDiffForm(w.app.Documents(), w.doc, dialogform.SelectedMetric(w.view), run)
	f.OfferOpen(dl.openDialogThen, func(then func(*document.Doc)) {
		dl.chooseFolder(func(path string) { w.app.openFile(path, w, then) })
	})
	return f
}

// documentWindow returns the window showing d, nil when none.
func (a *App) documentWindow(d *document.Doc) *Window {
	for _, w := range a.windows {
		if d != nil && w.doc == d {
			return w
		}
	}
	return nil
}

// PerfDiff runs the performance difference of r in the background,
// showing progress in from, and shows the result list where
// view.PerfDiffJob says: in the window of A − B (of groups: mean(A) −
// mean(B)), which it computes and opens first when it is not open yet,
// or for a derived metric below A's window, a click selecting the focus
// in B's windows too.
func (a *App) PerfDiff(r analysisview.PerfDiffRequest, from *Window) {
	j := analysisview.NewPerfDiffJob(r, a.Documents())
	target := a.documentWindow(j.InDifference)
	if j.Derived {
		if target = a.documentWindow(r.A[0]); target == nil {
			target = from
		}
	}
	j.Run(a.async, from.busy.with, from.view.Appearance().NumberFormat(), func(err error) {
		if err != nil {
			from.showError(err)
			return
		}
		if target == nil {
			target = a.Show(j.ResultDoc())
		}
		target.panels.ShowPerfDiff(j)
		target.win.RequestFocus()
	})
}

// perfDiffPanel is the result list of a performance difference below the
// panes of the difference window.
type perfDiffPanel struct {
	w      *Window
	rep    *analysisview.PerfDiffReport
	sorted *sortedTable
	table  *widget.Table
	// structure lists what only one experiment has (nil when nothing).
	structure *sortedTable
	// follow is B when the list is below A's window (a derived metric):
	// B's windows select the focus too.
	follow *document.Doc
	// hide leaves out the foci where groups of runs do not differ
	// significantly (nil for two experiments).
	hide *widget.Check
}

// perfDiffWidths are the widths of the kinds of columns of
// analysisview.PerfDiffReport's table.
var perfDiffWidths = [analysisview.PerfDiffKinds]float32{
	analysisview.PerfDiffMostSpecific: 28, analysisview.PerfDiffA: 110, analysisview.PerfDiffB: 110,
	analysisview.PerfDiffDelta: 180, analysisview.PerfDiffChange: 130, analysisview.PerfDiffCallPath: 420,
	analysisview.PerfDiffSystem: 430, analysisview.PerfDiffSignificant: 104, analysisview.PerfDiffCI: 190,
	analysisview.PerfDiffP: 80, analysisview.PerfDiffQ: 80, analysisview.PerfDiffEffect: 70,
}

// groupedWidths are the widths of columns of a comparison of groups
// other than perfDiffWidths: the value columns show mean ± sd.
var groupedWidths = map[int]float32{analysisview.PerfDiffMostSpecific: 36, analysisview.PerfDiffSignificant: 104,
	analysisview.PerfDiffA: 150, analysisview.PerfDiffB: 150, analysisview.PerfDiffDelta: 110}

// structureWidths are the widths of the columns of the structural
// differences' table.
var structureWidths = [analysisview.StructureColumns]float32{138, 110, 110, 880}

// ShowPerfDiff shows the result list of j below the panes; clicking a row
// selects its focus.
func (pl *panels) ShowPerfDiff(j *analysisview.PerfDiffJob) {
	w := pl.w
	rep := j.Report
	p := &perfDiffPanel{w: w, rep: rep}
	if j.Derived {
		p.follow = j.B[0]
	}
	src := tableSource{
		rows: rep.Len, cols: len(rep.Columns),
		title: rep.Header, cell: rep.Cell, key: rep.SortKey, numeric: rep.Numeric, selected: p.Select,
		path: rep.PathColumn, short: rep.ShortHeader,
	}
	if rep.Grouped() {
		src.muted = rep.Muted
	}
	p.sorted = newSortedTable(src)
	p.table = p.sorted.table
	for i, kind := range rep.Columns {
		width, ok := groupedWidths[kind]
		if !ok || !rep.Grouped() {
			width = perfDiffWidths[kind]
		}
		p.table.SetColumnWidth(i, width)
	}
	head := widget.NewLabel(rep.Headline)
	head.Wrapping = fyne.TextWrapWord
	top := container.NewVBox(container.NewBorder(nil, nil, nil, widget.NewButtonWithIcon("", theme.CancelIcon(), func() { w.panels.set(nil) }), head))
	for _, n := range rep.Notes {
		top.Add(noteLabel(n))
	}
	if rep.Grouped() {
		p.hide = significantFilter(rep.SetHideNotSignificant, p.sorted)
		top.Add(p.hide)
	}
	top.Add(noteLabel(j.Legend()))
	body := p.sorted.view()
	if len(rep.Structure) > 0 {
		p.structure = newSortedTable(tableSource{
			rows: func() int { return len(rep.Structure) }, cols: analysisview.StructureColumns,
			title: rep.StructureHeader, cell: rep.StructureCell, key: rep.StructureSortKey, numeric: rep.StructureNumeric,
			selected: p.selectStructure, path: rep.StructurePathColumn,
		})
		for i, width := range structureWidths {
			p.structure.table.SetColumnWidth(i, width)
		}
		apart := container.NewBorder(titleLabel(fmt.Sprintf("Only in one experiment: %d, left out of the comparison (not ranked)", len(rep.Structure))),
			nil, nil, nil, p.structure.view())
		split := container.NewVSplit(apart, container.NewBorder(titleLabel("Performance differences over the common part"), nil, nil, nil, body))
		split.Offset = 0.25
		body = split
	}
	box := container.NewBorder(top, nil, nil, nil, body)
	w.panels.perfDiff = p
	w.panels.show(box, 0.5)
}

// Select selects row i's focus in the window: its metric, call path and
// system node, each collapsed so that the system pane shows A − B there;
// for a derived metric also in B's windows.
func (p *perfDiffPanel) Select(i int) {
	if i < 0 || i >= p.rep.Len() {
		return
	}
	p.selectIn(p.w, i)
	if p.follow == nil {
		return
	}
	for _, w := range p.w.app.windows {
		if w != p.w && w.doc == p.follow {
			p.selectIn(w, i)
		}
	}
}

// selectStructure selects structural row i's call path (on all
// locations) or system node (on the whole program) in the window.
func (p *perfDiffPanel) selectStructure(i int) {
	if i < 0 || i >= len(p.rep.Structure) {
		return
	}
	f := p.rep.StructureFocus(i)
	p.selectFocus(p.w, f.Self, func() (m, c, s view.Node) { return analysisview.FocusNodes(p.w.view, p.rep.Result, f) })
}

func (p *perfDiffPanel) selectIn(w *Window, i int) {
	f := p.rep.Row(i).Focus
	p.selectFocus(w, f.Self, func() (m, c, s view.Node) { return analysisview.FocusNodes(w.view, p.rep.Result, f) })
}

// selectFocus selects the nodes of a focus in w; a call path's own part
// (self) selects the call path expanded, so that the other panes show its
// own value. nodes is called after the window left the flat profile.
func (p *perfDiffPanel) selectFocus(w *Window, self bool, nodes func() (m, c, s view.Node)) {
	if w.view == nil {
		return
	}
	if w.view.Flat() {
		w.SetFlat(false)
	}
	m, c, s := nodes()
	w.selectNodes(m, c, s)
	if self && c.Valid() {
		w.view.SetExpanded(view.CallPane, c, true)
		w.panes[view.CallPane].Sync()
		w.refresh()
	}
}
