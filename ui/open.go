package ui

import (
	"cubeview/dialogform"
	"cubeview/document"
	"cubeview/form"

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

// newOpenForm returns File › Open… (dialogform.OpenForm), starting in the
// folder used last; then, if set, receives the experiment once it shows
// in its window.
func (dl *dialogs) newOpenForm(then func(*document.Doc)) *form.Form {
	w := dl.w
	return dialogform.OpenForm(w.app.startFolder(), func(path string) { w.app.openFile(path, w, then) }, w.dialogs.browse)
}

// startFolder returns the folder used last, else the current directory.
func (a *App) startFolder() string { return dialogform.StartFolder(view.LastFolder(a.prefs)) }

// browse shows the file picker in folder dir and hands the file picked
// to picked.
func (dl *dialogs) browse(dir string, picked func(path string)) {
	w := dl.w
	pickPath(w.win, false, dir, picked, w.showError)
}

// pickPath asks in a large dialog over win for a file, or with folder
// for a folder, starting in dir unless it is "", and passes its path to
// use; an error goes to showErr.
func pickPath(win fyne.Window, folder bool, dir string, use func(path string), showErr func(error)) *dialog.FileDialog {
	got := func(u fyne.URI, err error) {
		switch {
		case err != nil:
			showErr(err)
		case u != nil:
			use(u.Path())
		}
	}
	var d *dialog.FileDialog
	if folder {
		d = dialog.NewFolderOpen(func(u fyne.ListableURI, err error) { got(u, err) }, win)
	} else {
		d = dialog.NewFileOpen(func(rc fyne.URIReadCloser, err error) {
			if rc == nil {
				got(nil, err)
				return
			}
			defer rc.Close()
			got(rc.URI(), err)
		}, win)
	}
	if dir != "" {
		if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
			d.SetLocation(l)
		}
	}
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
	return d
}

// openDialog is File › Open….
func (dl *dialogs) openDialog() {
	w := dl.w
	w.dialogs.openDialogThen(nil)
}

// openDialogThen asks for an experiment to open; then, if set, receives
// it once it shows in its window.
func (dl *dialogs) openDialogThen(then func(*document.Doc)) {
	w := dl.w
	showForm(w.win, w.dialogs.newOpenForm(then), w.showError)
}

// openFolderDialog is File › Open folder….
func (dl *dialogs) openFolderDialog() {
	w := dl.w
	w.dialogs.chooseFolder(func(path string) { w.app.OpenFile(path, w) })
}

// chooseFolder asks for a folder — an experiment folder (a TAU profile
// directory, an HPCToolkit database), or where Save as writes — starting
// in the folder used last, and calls then with its path.
func (dl *dialogs) chooseFolder(then func(path string)) {
	w := dl.w
	pickPath(w.win, true, w.app.startFolder(), then, w.showError).SetConfirmText("Choose folder")
}
