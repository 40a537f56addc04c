package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
)

// Experiments come as files (CUBE, gprof, mpiP, pprof, callgrind reports)
// or as folders (TAU profile directories, HPCToolkit databases):
// format.Open recognises either by its content, so every way into the
// application — File › Open…, File › Open folder…, the operand pickers of
// the algebra dialogs and drag and drop — accepts both.

// dropped opens the files and folders dropped on the window.
func (w *Window) dropped(uris []fyne.URI) {
	for _, u := range uris {
		if u.Scheme() == "file" {
			w.app.OpenFile(u.Path(), w)
		}
	}
}

// openFolderDialog is File › Open folder….
func (w *Window) openFolderDialog() {
	w.chooseFolder(func(path string) { w.app.OpenFile(path, w) })
}

// chooseFile asks for an experiment file and calls then with its path.
func (w *Window) chooseFile(then func(path string)) {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			w.showError(err)
			return
		}
		if r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		then(path)
	}, w.win)
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
}

// chooseFolder asks for an experiment folder (a TAU profile directory, an
// HPCToolkit database) and calls then with its path.
func (w *Window) chooseFolder(then func(path string)) {
	d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		if err != nil {
			w.showError(err)
			return
		}
		if u == nil {
			return
		}
		then(u.Path())
	}, w.win)
	d.SetConfirmText("Open folder")
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
}
