package ui

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysisview"
	"cubeview/dialogform"
	"cubeview/document"
	"cubeview/repoview"
	"cubeview/view"
)

func (dl *dialogs) showScalingDialog() {
	w := dl.w
	if w.doc == nil {
		return
	}
	showForm(w.win, w.dialogs.newScalingForm().Form, w.showError)
}

// newScalingForm returns Algebra › Scaling… over the open experiments,
// this window's first; submitting runs App.Scaling.
func (dl *dialogs) newScalingForm() *analysisview.ScalingForm {
	w := dl.w
	run := func(docs []*document.Doc, spec analysisview.ScalingSpec) { w.app.Scaling(docs, spec, w) }
	return analysisview.NewScalingForm(w.app.Documents(), w.doc, dialogform.SelectedMetric(w.view), run)
}

// Scaling runs the study in the background, showing progress in from,
// and opens its table and plot in a new window.
func (a *App) Scaling(docs []*document.Doc, spec analysisview.ScalingSpec, from *Window) {
	done := func(rep *analysisview.ScalingReport, img image.Image, err error) {
		if err != nil {
			from.showError(err)
			return
		}
		from.panels.scaling = a.showScaling(rep, img, docs)
	}
	analysisview.RunScaling(a.async, from.busy.with, docs, spec, from.view.Appearance().NumberFormat(), done)
}

// scalingWindow shows a scaling study: the table of call paths and the
// plot.
type scalingWindow struct {
	app    *App
	win    fyne.Window
	rep    *analysisview.ScalingReport
	docs   []*document.Doc // the experiments, in the order of the result's trials
	sorted *sortedTable
	table  *widget.Table
	plot   *canvas.Image
}

func (a *App) showScaling(rep *analysisview.ScalingReport, img image.Image, docs []*document.Doc) *scalingWindow {
	s := &scalingWindow{app: a, rep: rep, docs: rep.StudyDocs(docs), win: a.fy.NewWindow(rep.WindowTitle())}
	s.sorted = newSortedTable(tableSource{
		rows: func() int { return len(rep.Rows) }, cols: len(rep.Columns),
		title: func(c int) string { return rep.Columns[c] },
		cell:  rep.Cell,
		key:   rep.SortKey, numeric: rep.Numeric, selected: s.Select,
		path: func(c int) bool { return c == 0 },
	})
	s.table = s.sorted.table
	s.table.SetColumnWidth(0, 360)
	for c := 1; c < len(rep.Columns); c++ {
		s.table.SetColumnWidth(c, 125)
	}
	s.plot = canvas.NewImageFromImage(img)
	s.plot.FillMode = canvas.ImageFillContain
	s.plot.SetMinSize(fyne.NewSize(480, 280))
	title := titleLabel(rep.Title)
	title.Wrapping = fyne.TextWrapWord
	hint := noteLabel(rep.Hint())
	split := container.NewVSplit(s.plot, s.sorted.view())
	split.SetOffset(0.6)
	s.win.SetContent(container.NewBorder(container.NewVBox(title, hint), nil, nil, nil, split))
	s.win.Resize(fyne.NewSize(1200, 800))
	s.win.Show()
	return s
}

// Select selects row i's call path in the window of every experiment of
// the study that has it.
func (s *scalingWindow) Select(i int) {
	if i < 0 || i >= len(s.rep.RowCnodes) {
		return
	}
	c := s.rep.RowCnodes[i]
	for _, w := range s.app.windows {
		if w.view == nil || !s.has(w.doc) {
			continue
		}
		if w.view.Flat() {
			w.SetFlat(false)
		}
		if x := analysisview.MatchCnode(w.view.Experiment(), s.rep.Result.Domain, c); x >= 0 {
			w.selectNode(view.CallPane, view.Node{Kind: view.CnodeNode, Index: x})
		}
	}
}

// has reports whether d is one of the study's experiments: the same
// document, or the same repository trial opened again.
func (s *scalingWindow) has(d *document.Doc) bool {
	for _, x := range s.docs {
		if x == d || repoview.SameTrial(x, d) {
			return true
		}
	}
	return false
}
