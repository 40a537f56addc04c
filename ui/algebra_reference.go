package ui

import (
	"cubeview/dialogform"
	"cubeview/document"
	"cubeview/form"

	"fyne.io/fyne/v2/dialog"

	"cubeview/view"
)

// defaultReference returns the reference External percent starts with
// (document.DefaultReference).
func (w *Window) defaultReference() *document.Doc {
	return document.DefaultReference(w.doc, w.app.docs)
}

// referenceName names the reference of External percent.
func (w *Window) referenceName() string {
	return document.ReferenceName(w.view.Values().External(), w.app.docs)
}

// newReferenceForm returns View › Choose external reference… of this
// window (dialogform.ReferenceForm): Apply sets the reference and, if asked,
// the call pane's mode. Nil when no other experiment is open.
func (dl *dialogs) newReferenceForm() *form.Form {
	w := dl.w
	return dialogform.ReferenceForm(w.doc, w.app.docs, w.view.Values().External(), view.UsesMode(w.view, view.ExternalPercent), func(ref *document.Doc, switchPane bool) {
		w.setExternal(ref)
		if switchPane {
			w.SetMode(view.CallPane, view.ExternalPercent)
		}
	})
}

func (dl *dialogs) showReferenceChooser() {
	w := dl.w
	if w.view == nil {
		return
	}
	f := w.dialogs.newReferenceForm()
	if f == nil {
		dialog.ShowInformation("External reference", "External percent needs a second open experiment: open one with File › Open or compute one with the Algebra menu.", w.win)
		return
	}
	showForm(w.win, f, w.showError)
}
