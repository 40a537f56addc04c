package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"cubeview/dialogform"
	"cubeview/form"
)

// File › Save as… asks for a typed path (dialogform.SaveForm; see
// dialogform.SaveQuestion for why and what it asks before replacing a file).

// saveForm returns File › Save as… of this window's experiment.
func (dl *dialogs) saveForm() *form.Form {
	w := dl.w
	return dialogform.SaveForm(w.doc, w.app.startFolder(), w.dialogs.chooseFolder, w.dialogs.RequestSave)
}

func (dl *dialogs) saveDialog() {
	w := dl.w
	if w.doc == nil {
		return
	}
	showForm(w.win, w.dialogs.saveForm(), w.showError)
}

// RequestSave writes the experiment to path once it is known to be
// writable (dialogform.CheckSavePath), asking first where that would replace a
// file (dialogform.SaveQuestion).
func (dl *dialogs) RequestSave(path string) {
	w := dl.w
	if w.doc == nil {
		return
	}
	path = strings.TrimSpace(path)
	if err := dialogform.CheckSavePath(path); err != nil {
		w.showError(err)
		return
	}
	if title, text, yes := dialogform.SaveQuestion(w.doc, path); title != "" {
		w.dialogs.ask(title, text, yes, func() { w.SaveAs(path) })
		return
	}
	w.SaveAs(path)
}

// ask shows a question with a button that runs yes; Cancel does nothing.
func (dl *dialogs) ask(title, text, yes string, then func()) {
	w := dl.w
	msg := widget.NewLabel(text)
	msg.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomConfirm(title, yes, "Cancel", msg, func(ok bool) {
		if ok {
			then()
		}
	}, w.win)
	d.SetConfirmImportance(widget.DangerImportance)
	d.Resize(fyne.NewSize(560, 0).Max(d.MinSize()))
	d.Show()
}
