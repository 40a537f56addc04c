package ui

import (
	"errors"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/algebra"
	"cubeview/view"
)

// algebraMenu returns the Algebra menu: difference, merge and mean of open
// experiments, and cuts of this window's call tree.
func (w *Window) algebraMenu() *fyne.Menu {
	item := func(op algebra.Op) *fyne.MenuItem {
		return fyne.NewMenuItem(op.Title()+"…", func() { w.showOperationDialog(op) })
	}
	diff, merge, mean := item(algebra.OpDiff), item(algebra.OpMerge), item(algebra.OpMean)
	reroot := fyne.NewMenuItem("Reroot here", func() { w.reportCut(false) })
	prune := fyne.NewMenuItem("Prune here", func() { w.reportCut(true) })
	cut := fyne.NewMenuItem("Cut at selected call path", nil)
	cut.ChildMenu = fyne.NewMenu("", reroot, prune)
	where, scaling := w.analysisItems()
	if w.doc == nil {
		for _, it := range []*fyne.MenuItem{diff, merge, mean, cut, reroot, prune, where, scaling} {
			it.Disabled = true
		}
	}
	return fyne.NewMenu("Algebra", diff, merge, mean, fyne.NewMenuItemSeparator(), cut,
		fyne.NewMenuItemSeparator(), where, scaling)
}

// operationForm is the content of an algebra dialog: the operand pickers
// and the integration options. The dialog's Compute button calls Submit;
// tests set the widgets and call Submit the same way.
type operationForm struct {
	w      *Window
	op     algebra.Op
	docs   []*view.Doc
	labels []string

	minuend, subtrahend *widget.Select // Difference
	operands            *operandList   // Merge and Mean
	system              *widget.RadioGroup
	strict              *widget.Check
	strictRoots         *widget.Check // see algebra_rules.go
	renames             *widget.Entry // region renaming rules, one a line
	preview             *widget.Label
	content             fyne.CanvasObject
}

// newOperationForm builds the form of op over the open experiments, with
// this window's experiment preselected as the first operand.
func (w *Window) newOperationForm(op algebra.Op) *operationForm {
	f := &operationForm{w: w, op: op, docs: w.app.Documents()}
	f.labels = view.DocLabels(f.docs)
	f.system = widget.NewRadioGroup(view.SystemModeNames, func(string) {})
	f.system.Horizontal = true
	f.system.Required = true
	f.system.SetSelected(view.SystemModeNames[algebra.SystemAuto])
	f.strict = widget.NewCheck("Strict line matching (regions and call sites must have the same lines)", nil)
	f.newMatchingOptions()
	f.preview = widget.NewLabel("")
	f.preview.Wrapping = fyne.TextWrapWord

	var pick fyne.CanvasObject
	var note string
	switch op {
	case algebra.OpDiff:
		f.minuend = widget.NewSelect(f.labels, func(string) { f.update() })
		f.subtrahend = widget.NewSelect(f.labels, func(string) { f.update() })
		if i := f.index(w.doc); i >= 0 {
			f.minuend.SetSelectedIndex(i)
		}
		if other := f.firstOther(); other >= 0 {
			f.subtrahend.SetSelectedIndex(other)
		}
		pick = widget.NewForm(
			widget.NewFormItem("Minuend", f.withOpen(f.minuend, func(d *view.Doc) { f.choose(f.minuend, d) })),
			widget.NewFormItem("Subtrahend", f.withOpen(f.subtrahend, func(d *view.Doc) { f.choose(f.subtrahend, d) })))
		note = "The result is minuend − subtrahend: positive where the minuend had more."
	default:
		f.operands = newOperandList(f.docs, f.labels, w.doc, f.update)
		pick = container.NewVBox(f.operands.content(), f.openItems())
		if op == algebra.OpMerge {
			note = "Order matters: each metric comes from the first checked experiment that has it. Use the arrows to reorder."
		} else {
			note = "Check two or more experiments; a value missing in one counts as 0 and is still divided by their number."
		}
	}
	noteLabel := widget.NewLabel(note)
	noteLabel.Wrapping = fyne.TextWrapWord
	options := widget.NewForm(
		widget.NewFormItem("System tree", f.system),
		widget.NewFormItem("", f.strict))
	f.addMatchingOptions(options)
	systemHelp := widget.NewLabel("Automatic copies an operand's machine/node hierarchy when every operand's process placement fits it and collapses it to one machine and node otherwise.")
	systemHelp.Wrapping = fyne.TextWrapWord
	systemHelp.Importance = widget.LowImportance
	f.content = container.NewVBox(pick, noteLabel, widget.NewSeparator(), options, systemHelp, widget.NewSeparator(), f.preview)
	f.update()
	return f
}

func (f *operationForm) index(d *view.Doc) int {
	for i, x := range f.docs {
		if x == d {
			return i
		}
	}
	return -1
}

// firstOther returns the document after this window's one, wrapping
// around, so that of a pair opened as before and after each window
// offers the other; this window's own document when it is the only one.
func (f *operationForm) firstOther() int {
	me := f.index(f.w.doc)
	if len(f.docs) > 1 {
		return (me + 1) % len(f.docs)
	}
	return me
}

func (f *operationForm) byLabel(label string) *view.Doc {
	for i, l := range f.labels {
		if l == label {
			return f.docs[i]
		}
	}
	return nil
}

// Options returns the chosen integration options, or why the renaming
// rules cannot be used.
func (f *operationForm) Options() (algebra.Options, error) {
	opt := algebra.Options{StrictLines: f.strict.Checked, StrictRoots: f.strictRoots.Checked, System: view.SystemModeNamed(f.system.Selected)}
	var err error
	opt.Renames, err = view.ParseRenames(f.renames.Text)
	return opt, err
}

// Request returns the operation the form describes, or why it cannot run.
func (f *operationForm) Request() (view.Operation, error) {
	opt, err := f.Options()
	r := view.Operation{Op: f.op, Options: opt}
	if err != nil {
		return r, err
	}
	if f.op == algebra.OpDiff {
		a, b := f.byLabel(f.minuend.Selected), f.byLabel(f.subtrahend.Selected)
		if a == nil || b == nil {
			return r, errors.New("choose a minuend and a subtrahend")
		}
		r.Operands = []*view.Doc{a, b}
	} else {
		r.Operands = f.operands.Selected()
	}
	return r, r.Check()
}

// Submit starts the operation; the result opens in a new window.
func (f *operationForm) Submit() error {
	r, err := f.Request()
	if err != nil {
		return err
	}
	f.w.app.Compute(r, f.w)
	return nil
}

// update shows the expression that Compute would produce.
func (f *operationForm) update() {
	if f.preview == nil {
		return
	}
	r, err := f.Request()
	if err != nil {
		f.preview.SetText("Result: — (" + err.Error() + ")")
		return
	}
	f.preview.SetText("Result: " + r.Name())
}

func (w *Window) showOperationDialog(op algebra.Op) {
	if w.doc == nil {
		return
	}
	f := w.newOperationForm(op)
	showFormDialog(w.win, op.Title(), "Compute", f.content, 640, f.Submit, func(err error) { dialog.ShowError(err, w.win) })
}

// operandList is an ordered list of experiments, each with a check box,
// that can be reordered with up and down buttons.
type operandList struct {
	items   []*operandItem
	box     *fyne.Container
	changed func()
}

type operandItem struct {
	doc   *view.Doc
	check *widget.Check
}

// newOperandList lists docs with first at the top; first and every
// experiment read from a file that is not itself a result are checked.
func newOperandList(docs []*view.Doc, labels []string, first *view.Doc, changed func()) *operandList {
	l := &operandList{box: container.NewVBox(), changed: changed}
	for i, d := range docs {
		it := &operandItem{doc: d}
		it.check = widget.NewCheck(labels[i], func(bool) { l.notify() })
		it.check.Checked = d == first || d.Path != "" && d.Expression == ""
		if d == first {
			l.items = append([]*operandItem{it}, l.items...)
		} else {
			l.items = append(l.items, it)
		}
	}
	l.rebuild()
	return l
}

func (l *operandList) notify() {
	if l.changed != nil {
		l.changed()
	}
}

func (l *operandList) content() fyne.CanvasObject {
	scroll := container.NewVScroll(l.box)
	scroll.SetMinSize(fyne.NewSize(560, min(float32(len(l.items)), 6)*40))
	return scroll
}

func (l *operandList) rebuild() {
	l.box.Objects = nil
	for i, it := range l.items {
		up := widget.NewButtonWithIcon("", theme.MenuDropUpIcon(), func() { l.Move(i, -1) })
		down := widget.NewButtonWithIcon("", theme.MenuDropDownIcon(), func() { l.Move(i, 1) })
		if i == 0 {
			up.Disable()
		}
		if i == len(l.items)-1 {
			down.Disable()
		}
		l.box.Add(container.NewBorder(nil, nil, nil, container.NewHBox(up, down), it.check))
	}
	l.box.Refresh()
}

// Move moves item i by delta places.
func (l *operandList) Move(i, delta int) {
	j := i + delta
	if i < 0 || j < 0 || i >= len(l.items) || j >= len(l.items) {
		return
	}
	l.items[i], l.items[j] = l.items[j], l.items[i]
	l.rebuild()
	l.notify()
}

// SetChecked checks or unchecks d.
func (l *operandList) SetChecked(d *view.Doc, on bool) {
	for _, it := range l.items {
		if it.doc == d {
			it.check.SetChecked(on)
		}
	}
}

// CheckOnly checks exactly docs and puts them first, in their order.
func (l *operandList) CheckOnly(docs ...*view.Doc) {
	var front, rest []*operandItem
	for _, d := range docs {
		for _, it := range l.items {
			if it.doc == d {
				front = append(front, it)
			}
		}
	}
	for _, it := range l.items {
		in := false
		for _, f := range front {
			in = in || f == it
		}
		if !in {
			rest = append(rest, it)
		}
	}
	l.items = append(front, rest...)
	for _, it := range l.items {
		it.check.Checked = false
	}
	for _, it := range front {
		it.check.Checked = true
	}
	l.rebuild()
	for _, it := range l.items {
		it.check.Refresh()
	}
	l.notify()
}

// Selected returns the checked experiments in list order.
func (l *operandList) Selected() []*view.Doc {
	var out []*view.Doc
	for _, it := range l.items {
		if it.check.Checked {
			out = append(out, it.doc)
		}
	}
	return out
}

// reportCut cuts at the selected call path and reports a problem in the
// window.
func (w *Window) reportCut(prune bool) {
	if err := w.CutSelected(prune); err != nil {
		w.hint.SetText(err.Error())
		dialog.ShowError(err, w.win)
	}
}

// CutSelected cuts this window's call tree at the region of the selected
// call path (see view.View.CutOperation); the result opens in a new
// window.
func (w *Window) CutSelected(prune bool) error {
	r, err := w.view.CutOperation(w.doc, prune)
	if err != nil {
		return err
	}
	w.app.Compute(r, w)
	return nil
}

// cutItems returns the cut entries of a call-pane row's context menu.
func (w *Window) cutItems(d view.Dim, n view.Node) []*fyne.MenuItem {
	if d != view.CallPane || (n.Kind != view.CnodeNode && n.Kind != view.RegionNode) {
		return nil
	}
	return []*fyne.MenuItem{
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Reroot here (Algebra › Cut)", func() { w.reportCut(false) }),
		fyne.NewMenuItem("Prune here (Algebra › Cut)", func() { w.reportCut(true) }),
	}
}
