package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/algebra"
	"cubeview/view"
)

// newOperationForm returns the dialog of op over the open experiments,
// with this window's experiment as the first operand
// (view.NewOperationForm); its operand pickers open further experiments
// — files or folders — in windows of their own, like File › Open.
func (w *Window) newOperationForm(op algebra.Op) *view.OperationForm {
	return view.NewOperationForm(op, w.doc, view.OperandSource{
		Docs:       w.app.Documents,
		OpenFile:   w.openDialogThen,
		OpenFolder: func(then func(*view.Doc)) { w.chooseFolder(func(path string) { w.app.openFile(path, w, then) }) },
		Compute:    func(r view.Operation) { w.app.Compute(r, w) },
	})
}

func (w *Window) showOperationDialog(op algebra.Op) {
	if w.doc == nil {
		return
	}
	showForm(w.win, w.newOperationForm(op).Form, func(err error) { dialog.ShowError(err, w.win) })
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
