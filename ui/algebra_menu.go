package ui

import (
	"cubeview/algebra"
	"cubeview/dialogform"
	"cubeview/document"
)

// newOperationForm returns the dialog of op over the open experiments,
// with this window's experiment as the first operand
// (dialogform.NewOperationForm); its operand pickers open further experiments
// — files or folders — in windows of their own, like File › Open.
func (dl *dialogs) newOperationForm(op algebra.Op) *dialogform.OperationForm {
	w := dl.w
	return dialogform.NewOperationForm(op, w.doc, dialogform.OperandSource{
		Docs:     w.app.Documents,
		OpenFile: w.dialogs.openDialogThen,
		OpenFolder: func(then func(*document.Doc)) {
			w.dialogs.chooseFolder(func(path string) { w.app.openFile(path, w, then) })
		},
		Compute: func(r document.Operation) { w.app.Compute(r, w) },
	})
}

func (dl *dialogs) showOperationDialog(op algebra.Op) {
	w := dl.w
	if w.doc == nil {
		return
	}
	showForm(w.win, w.dialogs.newOperationForm(op).Form, func(err error) { showErrorDialog(err, w.win) })
}

// reportCut cuts at the selected call path and reports a problem in the
// window.
func (dl *dialogs) reportCut(prune bool) {
	w := dl.w
	if err := w.dialogs.CutSelected(prune); err != nil {
		w.hint.SetText(err.Error())
		showErrorDialog(err, w.win)
	}
}

// CutSelected cuts this window's call tree at the region of the selected
// call path (see view.View.CutOperation); the result opens in a new
// window.
func (dl *dialogs) CutSelected(prune bool) error {
	w := dl.w
	r, err := document.CutOperation(w.view, w.doc, prune)
	if err != nil {
		return err
	}
	w.app.Compute(r, w)
	return nil
}
