package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"

	"cubeview/view"
)

// Every way into the application accepts files and experiment folders
// alike (see view/open.go).

// dropped opens the files and folders dropped on the window.
func (w *Window) dropped(uris []fyne.URI) {
	for _, u := range uris {
		if u.Scheme() == "file" {
			w.app.OpenFile(u.Path(), w)
		}
	}
}

// newOpenForm returns File › Open… (view.OpenForm), starting in the
// folder used last; then, if set, receives the experiment once it shows
// in its window.
func (w *Window) newOpenForm(then func(*view.Doc)) *view.Form {
	return view.OpenForm(w.app.startFolder(), func(path string) { w.app.openFile(path, w, then) }, w.browse)
}

// startFolder returns the folder used last, else the current directory.
func (a *App) startFolder() string { return view.StartFolder(view.LastFolder(a.prefs)) }

// browse shows the file picker in folder dir and hands the file picked
// to picked.
func (w *Window) browse(dir string, picked func(path string)) {
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
		picked(path)
	}, w.win)
	setLocation(d, dir)
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
}

// setLocation starts file dialog d in folder dir.
func setLocation(d *dialog.FileDialog, dir string) {
	if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
		d.SetLocation(l)
	}
}

// openDialog is File › Open….
func (w *Window) openDialog() { w.openDialogThen(nil) }

// openDialogThen asks for an experiment to open; then, if set, receives
// it once it shows in its window.
func (w *Window) openDialogThen(then func(*view.Doc)) {
	showForm(w.win, w.newOpenForm(then), w.showError)
}

// openFolderDialog is File › Open folder….
func (w *Window) openFolderDialog() {
	w.chooseFolder(func(path string) { w.app.OpenFile(path, w) })
}

// chooseFolder asks for a folder — an experiment folder (a TAU profile
// directory, an HPCToolkit database), or where Save as writes — starting
// in the folder used last, and calls then with its path.
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
	setLocation(d, w.app.startFolder())
	d.SetConfirmText("Choose folder")
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
}
