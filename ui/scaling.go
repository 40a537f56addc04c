package ui

import (
	"errors"
	"fmt"
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysis"
	"cubeview/model"
	"cubeview/repoview"
	"cubeview/view"
)

// basisChoices are the choices of a scaling study's basis (the
// repository window's Scaling… offers them too).
var basisChoices = view.BasisNames

// scalingForm is the content of Algebra › Scaling…: the experiments of
// the study, the metric, where x comes from and how to compare. The
// dialog's Compute button calls Submit; tests set the widgets and call
// Submit the same way.
type scalingForm struct {
	w         *Window
	docs      []*view.Doc
	operands  *operandList
	metric    *metricChoice
	x         *widget.RadioGroup
	xText     *widget.Entry
	weak      *widget.Check
	exclusive *widget.Check
	basis     *widget.Select
	preview   *widget.Label
	content   fyne.CanvasObject
}

func (w *Window) newScalingForm() *scalingForm {
	f := &scalingForm{w: w, docs: w.app.Documents()}
	f.metric = newMetricChoice()
	f.xText = widget.NewEntry()
	f.xText.SetPlaceHolder("attribute name, or one value per experiment: 16, 32, 64")
	f.x = widget.NewRadioGroup(view.XSourceNames, func(string) { f.update() })
	f.x.Horizontal = true
	f.x.Required = true
	f.x.SetSelected(view.XSourceNames[view.XProcesses])
	f.xText.OnChanged = func(string) { f.update() }
	f.weak = widget.NewCheck("Weak scaling (the work grows with x): ratio to the first run, ideal 1", nil)
	f.exclusive = widget.NewCheck("Own values of each call path (exclusive) instead of inclusive ones", nil)
	f.basis = widget.NewSelect(basisChoices, nil)
	f.basis.SetSelectedIndex(int(analysis.BasisMean))
	f.preview = widget.NewLabel("")
	f.preview.Wrapping = fyne.TextWrapWord
	f.operands = newOperandList(f.docs, view.DocLabels(f.docs), w.doc, f.update)
	f.update()
	if n := w.view.Selected(view.MetricPane); n.Kind == view.MetricNode {
		f.metric.Set(w.view.Experiment().Metrics[n.Index].UniqName)
	}
	note := widget.NewLabel("Per call path: its value in each experiment (ordered by x), the speedup and parallel efficiency\n" +
		"against the first one, and a plot of the largest call paths. Click a call path to select it in the\n" +
		"experiments' windows. Trials of the repository: check them in File › Repository… and press Scaling….")
	note.Importance = widget.LowImportance
	f.content = container.NewVBox(
		widget.NewLabel("Experiments (check two or more):"), f.operands.content(),
		widget.NewForm(
			widget.NewFormItem("Metric", f.metric.sel),
			widget.NewFormItem("x", f.x),
			widget.NewFormItem("", f.xText),
			widget.NewFormItem("Compare", f.basis),
			widget.NewFormItem("", f.weak),
			widget.NewFormItem("", f.exclusive)),
		f.preview, note)
	return f
}

// update offers the metrics of the checked experiments and shows x.
func (f *scalingForm) update() {
	if f.metric == nil || f.preview == nil || f.operands == nil {
		return
	}
	docs := f.operands.Selected()
	f.metric.Offer(docs...)
	trials := make([]view.ScalingTrial, len(docs))
	for i, d := range docs {
		trials[i] = view.ScalingTrial{Name: d.Name, Exp: d.Exp}
	}
	f.preview.SetText(view.ScalingXPreview(f.xSource(), f.xText.Text, trials))
}

func (f *scalingForm) xSource() view.XSource { return view.XSourceNamed(f.x.Selected) }

// Spec returns the study the form describes and its experiments.
func (f *scalingForm) Spec() ([]*view.Doc, view.ScalingSpec, error) {
	docs := f.operands.Selected()
	s := view.ScalingSpec{
		Metric: f.metric.Metric(), X: f.xSource(), XText: f.xText.Text,
		Weak: f.weak.Checked, Exclusive: f.exclusive.Checked, Basis: analysis.Basis(max(f.basis.SelectedIndex(), 0)),
	}
	if len(docs) < 2 {
		return docs, s, errors.New("scaling: check at least two experiments")
	}
	return docs, s, nil
}

// Submit starts the study; its table and plot open in a new window.
func (f *scalingForm) Submit() error {
	docs, spec, err := f.Spec()
	if err != nil {
		return err
	}
	f.w.app.Scaling(docs, spec, f.w)
	return nil
}

func (w *Window) showScalingDialog() {
	if w.doc == nil {
		return
	}
	f := w.newScalingForm()
	showFormDialog(w.win, "Scaling", "Compute", f.content, 720, f.Submit, func(err error) { dialog.ShowError(err, w.win) })
}

// Scaling runs the study in the background, showing progress in from,
// and opens its table and plot in a new window.
func (a *App) Scaling(docs []*view.Doc, spec view.ScalingSpec, from *Window) {
	labels := view.DocLabels(docs)
	trials := make([]view.ScalingTrial, len(docs))
	for i, d := range docs {
		trials[i] = view.ScalingTrial{Name: labels[i], Exp: d.Exp}
	}
	format := from.view.NumberFormat()
	from.startBusy(fmt.Sprintf("Scaling of %d experiments …", len(docs)))
	var rep *view.ScalingReport
	var img image.Image
	var err error
	a.async(func() { rep, img, err = view.ScalingStudy(trials, spec, format) }, func() {
		from.stopBusy()
		if err != nil {
			from.showError(err)
			return
		}
		from.scaling = a.showScaling(rep, img, docs)
	})
}

// scalingWindow shows a scaling study: the table of call paths and the
// plot.
type scalingWindow struct {
	app    *App
	win    fyne.Window
	rep    *view.ScalingReport
	docs   []*view.Doc // the experiments, in the order of the result's trials
	sorted *sortedTable
	table  *widget.Table
	plot   *canvas.Image
}

func (a *App) showScaling(rep *view.ScalingReport, img image.Image, docs []*view.Doc) *scalingWindow {
	s := &scalingWindow{app: a, rep: rep, win: a.fy.NewWindow("cubeview — scaling: " + rep.Result.Metric)}
	// The result orders trials by x; keep the documents in that order.
	exps := make([]*model.Experiment, len(docs))
	for i, d := range docs {
		exps[i] = d.Exp
	}
	for _, i := range rep.TrialOrder(exps) {
		if i >= 0 {
			s.docs = append(s.docs, docs[i])
		}
	}
	s.sorted = newSortedTable(tableSource{
		rows: func() int { return len(rep.Rows) }, cols: len(rep.Columns),
		title: func(c int) string { return rep.Columns[c] },
		cell:  rep.Cell,
		key:   rep.SortKey, numeric: rep.Numeric, selected: s.Select,
	})
	s.table = s.sorted.table
	s.table.SetColumnWidth(0, 360)
	for c := 1; c < len(rep.Columns); c++ {
		s.table.SetColumnWidth(c, 125)
	}
	s.plot = canvas.NewImageFromImage(img)
	s.plot.FillMode = canvas.ImageFillContain
	s.plot.SetMinSize(fyne.NewSize(480, 280))
	title := widget.NewLabelWithStyle(rep.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Wrapping = fyne.TextWrapWord
	hint := widget.NewLabel(rep.Runs + ". Click a call path to select it in the experiments' windows, a column's title to sort by it; the plot shows the largest ones.")
	hint.Wrapping = fyne.TextWrapWord
	hint.Importance = widget.LowImportance
	split := container.NewVSplit(s.plot, s.table)
	split.SetOffset(0.6)
	s.win.SetContent(container.NewBorder(container.NewVBox(title, hint), nil, nil, nil, split))
	s.win.Resize(fyne.NewSize(1200, 800))
	s.win.Show()
	return s
}

func (s *scalingWindow) cell(id widget.TableCellID) string { return s.sorted.Cell(id.Row, id.Col) }

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
		if x := w.view.MatchCnode(s.rep.Result.Domain, c); x >= 0 {
			w.selectNode(view.CallPane, view.Node{Kind: view.CnodeNode, Index: x})
		}
	}
}

// has reports whether d is one of the study's experiments: the same
// document, or the same repository trial opened again.
func (s *scalingWindow) has(d *view.Doc) bool {
	for _, x := range s.docs {
		if x == d || repoview.SameTrial(x, d) {
			return true
		}
	}
	return false
}
