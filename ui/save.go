package ui

import (
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/view"
)

// File › Save as… asks for a typed path; see view.SaveQuestion for why
// and what it asks before replacing a file.

// saveForm is the content of the Save as dialog.
type saveForm struct {
	w       *Window
	path    *widget.Entry
	content fyne.CanvasObject
}

func (w *Window) newSaveForm() *saveForm {
	f := &saveForm{w: w, path: widget.NewEntry()}
	f.path.SetText(w.defaultSavePath())
	folder := widget.NewButtonWithIcon("Folder…", theme.FolderOpenIcon(), func() {
		w.chooseFolder(func(dir string) {
			f.path.SetText(filepath.Join(dir, filepath.Base(f.path.Text)))
		})
	})
	help := widget.NewLabel(view.SaveHelp())
	help.Wrapping = fyne.TextWrapWord
	help.Importance = widget.LowImportance
	f.content = container.NewVBox(container.NewBorder(nil, nil, nil, folder, f.path), help)
	return f
}

// defaultSavePath proposes where Save as writes (view.DefaultSavePath).
func (w *Window) defaultSavePath() string {
	return view.DefaultSavePath(w.doc, w.app.startFolder())
}

func (w *Window) saveDialog() {
	if w.doc == nil {
		return
	}
	f := w.newSaveForm()
	d := dialog.NewCustomConfirm("Save "+w.doc.Name+" as", "Save", "Cancel", f.content, func(ok bool) {
		if ok {
			w.RequestSave(f.path.Text)
		}
	}, w.win)
	f.path.OnSubmitted = func(string) { d.Confirm() }
	d.Resize(fyne.NewSize(720, 0).Max(d.MinSize()))
	d.Show()
	w.win.Canvas().Focus(f.path)
}

// RequestSave writes the experiment to path once it is known to be
// writable, asking first where that would replace a file — with a
// warning of its own when the file is one of the window's inputs (the
// same file also through another path or a link, or a file inside an
// input folder).
func (w *Window) RequestSave(path string) {
	if w.doc == nil {
		return
	}
	path = strings.TrimSpace(path)
	if err := view.CheckSavePath(path); err != nil {
		w.showError(err)
		return
	}
	if title, text, yes := view.SaveQuestion(w.doc, path); title != "" {
		w.ask(title, text, yes, func() { w.SaveAs(path) })
		return
	}
	w.SaveAs(path)
}

// ask shows a question with a button that runs yes; Cancel does nothing.
func (w *Window) ask(title, text, yes string, then func()) {
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
