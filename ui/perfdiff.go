package ui

import (
	"errors"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/algebra"
	"cubeview/analysis"
	"cubeview/model"
	"cubeview/view"
)

// Choices of the δ kind in the Where did it change dialog.
const (
	deltaAbsolute = "absolute, in the metric's unit"
	deltaRelative = "% of the whole-program value"
)

// perfDiffForm is the content of Algebra › Where did it change…: two
// open experiments, a metric and δ. The dialog's Compare button calls
// Submit; tests set the widgets and call Submit the same way.
type perfDiffForm struct {
	w       *Window
	docs    []*view.Doc
	labels  []string
	a, b    *widget.Select
	metric  *metricChoice
	delta   *widget.Entry
	kind    *widget.RadioGroup
	content fyne.CanvasObject
}

func (w *Window) newPerfDiffForm() *perfDiffForm {
	f := &perfDiffForm{w: w, docs: w.app.Documents()}
	f.labels = view.DocLabels(f.docs)
	f.a = widget.NewSelect(f.labels, func(string) { f.updateMetrics() })
	f.b = widget.NewSelect(f.labels, func(string) { f.updateMetrics() })
	f.metric = newMetricChoice()
	f.delta = widget.NewEntry()
	f.delta.SetText("1")
	f.kind = widget.NewRadioGroup([]string{deltaAbsolute, deltaRelative}, nil)
	f.kind.Horizontal = true
	f.kind.Required = true
	f.kind.SetSelected(deltaAbsolute)
	i, j := view.PairChoice(f.docs, w.doc)
	if i >= 0 {
		f.a.SetSelectedIndex(i)
	}
	if j >= 0 {
		f.b.SetSelectedIndex(j)
	}
	f.updateMetrics()
	if n := w.view.Selected(view.MetricPane); n.Kind == view.MetricNode {
		f.metric.Set(w.view.Experiment().Metrics[n.Index].UniqName)
	}
	note := widget.NewLabel("A focus is a call path on a part of the system. Starting at the whole program, every focus\n" +
		"whose values differ by at least δ is refined one step in the call tree and in the system tree.\n" +
		"Significant foci are those no finer focus of which differs. Click a result to select it in the\n" +
		"window of A − B (for a derived metric: in the windows of A and B).")
	note.Importance = widget.LowImportance
	f.content = container.NewVBox(widget.NewForm(
		widget.NewFormItem("Experiment A", f.a),
		widget.NewFormItem("Experiment B", f.b),
		widget.NewFormItem("Metric", f.metric.sel),
		widget.NewFormItem("δ", f.delta),
		widget.NewFormItem("", f.kind)), note)
	return f
}

func (f *perfDiffForm) doc(label string) *view.Doc {
	for i, l := range f.labels {
		if l == label {
			return f.docs[i]
		}
	}
	return nil
}

// updateMetrics offers the metrics of A and B.
func (f *perfDiffForm) updateMetrics() {
	if f.metric != nil {
		f.metric.Offer(f.doc(f.a.Selected), f.doc(f.b.Selected))
	}
}

// perfDiffRequest is what the form describes.
type perfDiffRequest struct {
	A, B *view.Doc
	opt  analysis.PerfDiffOptions
}

// Request returns the comparison the form describes, or why it cannot run.
func (f *perfDiffForm) Request() (perfDiffRequest, error) {
	r := perfDiffRequest{A: f.doc(f.a.Selected), B: f.doc(f.b.Selected)}
	if r.A == nil || r.B == nil {
		return r, errors.New("choose experiments A and B")
	}
	r.opt.Metric = f.metric.Metric()
	if r.opt.Metric == "" {
		return r, errors.New("choose a metric")
	}
	r.opt.Relative = f.kind.Selected == deltaRelative
	var err error
	r.opt.Delta, err = view.ParseDelta(f.delta.Text, r.opt.Relative)
	return r, err
}

// Submit starts the comparison; the result list opens below the panes of
// the window of A − B.
func (f *perfDiffForm) Submit() error {
	r, err := f.Request()
	if err != nil {
		return err
	}
	f.w.app.PerfDiff(r, f.w)
	return nil
}

func (w *Window) showPerfDiffDialog() {
	if w.doc == nil {
		return
	}
	f := w.newPerfDiffForm()
	showFormDialog(w.win, "Where did it change?", "Compare", f.content, 720, f.Submit, func(err error) { dialog.ShowError(err, w.win) })
}

// differenceWindow returns the open window of A − B, nil when none.
func (a *App) differenceWindow(r view.Operation) *Window {
	name := r.Name()
	for _, w := range a.windows {
		d := w.doc
		if d != nil && d.Expression == name && len(d.Sources) == 2 && d.Sources[0] == r.Operands[0] && d.Sources[1] == r.Operands[1] {
			return w
		}
	}
	return nil
}

// derivedIn reports whether metric uniq is a derived metric of d.
func derivedIn(d *view.Doc, uniq string) bool {
	m := d.Exp.MetricByName(uniq)
	return m >= 0 && d.Exp.Metrics[m].IsDerived()
}

// documentWindow returns the window showing d, nil when none.
func (a *App) documentWindow(d *view.Doc) *Window {
	for _, w := range a.windows {
		if w.doc == d {
			return w
		}
	}
	return nil
}

// PerfDiff runs the performance difference of r in the background,
// showing progress in from, and shows the result list in the window of
// A − B, which it computes and opens first when it is not open yet.
//
// A derived metric of A − B would be its formula over the differences of
// its operands, not A's value minus B's; so for a derived metric the list
// goes below A's window instead, and a click selects the focus in the
// windows of A and B, which show the values compared.
func (a *App) PerfDiff(r perfDiffRequest, from *Window) {
	diff := view.Operation{Op: algebra.OpDiff, Operands: []*view.Doc{r.A, r.B}}
	target := a.differenceWindow(diff)
	var follow *view.Doc
	if derivedIn(r.A, r.opt.Metric) || derivedIn(r.B, r.opt.Metric) {
		if target = a.documentWindow(r.A); target == nil {
			target = from
		}
		follow = r.B
	}
	format := from.view.NumberFormat()
	names := view.OperandNames(diff.Operands)
	from.startBusy(fmt.Sprintf("Comparing %s and %s …", names[0], names[1]))
	var rep *view.PerfDiffReport
	var res *model.Experiment
	var err error
	a.async(func() {
		var pd *analysis.PerfDiffResult
		pd, err = analysis.PerfDiff(r.A.Exp, r.B.Exp, r.opt)
		if err != nil {
			return
		}
		m := view.PerfDiffMetric(r.A.Exp, r.B.Exp, r.opt.Metric)
		rep = view.NewPerfDiffReport(pd, m, names[0], names[1], format)
		if target == nil {
			res, err = diff.Evaluate()
		}
	}, func() {
		from.stopBusy()
		if err != nil {
			from.showError(err)
			return
		}
		if target == nil {
			target = a.Show(diff.Result(res))
		}
		target.ShowPerfDiff(rep)
		target.perfDiff.follow = follow
		if follow != nil {
			target.perfDiff.legend.SetText("★ significant: no finer focus differs. " + rep.NameA + " − " + rep.NameB +
				" of a derived metric is each one's value at the focus, subtracted. Click a row to select the focus here and in " +
				rep.NameB + "'s window, a column's title to sort by it.")
		}
		target.win.RequestFocus()
	})
}

// perfDiffPanel is the result list of a performance difference below the
// panes of the difference window.
type perfDiffPanel struct {
	w      *Window
	rep    *view.PerfDiffReport
	sorted *sortedTable
	table  *widget.Table
	legend *widget.Label
	box    fyne.CanvasObject
	// follow is B when the list is below A's window (a derived metric):
	// B's windows select the focus too.
	follow *view.Doc
}

// perfDiffWidths are the widths of the columns of view.PerfDiffReport's table.
var perfDiffWidths = [view.PerfDiffColumns]float32{28, 110, 110, 140, 420, 430}

// ShowPerfDiff shows rep below the panes; clicking a row selects its focus.
func (w *Window) ShowPerfDiff(rep *view.PerfDiffReport) {
	p := &perfDiffPanel{w: w, rep: rep}
	p.sorted = newSortedTable(tableSource{
		rows: func() int { return len(rep.Rows) }, cols: view.PerfDiffColumns,
		title: rep.Header, cell: rep.Cell, key: rep.SortKey, numeric: rep.Numeric, selected: p.Select,
	})
	p.table = p.sorted.table
	for i, width := range perfDiffWidths {
		p.table.SetColumnWidth(i, width)
	}
	head := widget.NewLabel(rep.Headline)
	head.Wrapping = fyne.TextWrapWord
	p.legend = widget.NewLabel("★ significant: no finer focus differs. Click a row to select its metric, call path and system node above, a column's title to sort by it.")
	p.legend.Importance = widget.LowImportance
	p.legend.Wrapping = fyne.TextWrapWord
	closeButton := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { w.SetPanel(nil) })
	p.box = container.NewBorder(container.NewVBox(container.NewBorder(nil, nil, nil, closeButton, head), p.legend), nil, nil, nil, p.table)
	w.perfDiff = p
	w.showAnalysisPanel(p.box, 0.5)
}

func (p *perfDiffPanel) cell(id widget.TableCellID) string { return p.sorted.Cell(id.Row, id.Col) }

// Select selects row i's focus in the window: its metric, call path and
// system node, each collapsed so that the system pane shows A − B there;
// for a derived metric also in B's windows.
func (p *perfDiffPanel) Select(i int) {
	if i < 0 || i >= len(p.rep.Rows) {
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

func (p *perfDiffPanel) selectIn(w *Window, i int) {
	if w.view == nil {
		return
	}
	if w.view.Flat() {
		w.SetFlat(false)
	}
	m, c, s := w.view.FocusNodes(p.rep.Result, p.rep.Rows[i].Focus)
	w.selectNodes(m, c, s)
}
