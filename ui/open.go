package ui

import (
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

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

// openForm asks for an experiment: a path typed or pasted (relative to
// the current directory, ~ for the home folder) or picked with Browse…,
// which starts in the folder of the typed path, the folder used last or
// the current directory.
type openForm struct {
	w       *Window
	entry   *widget.Entry
	problem *widget.Label
	content fyne.CanvasObject
	then    func(*view.Doc) // nil: just open
	done    func()          // closes the dialog
}

func (w *Window) newOpenForm(then func(*view.Doc)) *openForm {
	f := &openForm{w: w, then: then, entry: widget.NewEntry(), problem: widget.NewLabel("")}
	f.entry.SetPlaceHolder("path of an experiment file or folder (CUBE, TAU, gprof, mpiP, pprof, callgrind, HPCToolkit, Caliper)")
	f.entry.SetText(w.app.startFolder() + string(filepath.Separator))
	f.entry.OnSubmitted = func(string) { f.Submit() }
	f.problem.Wrapping = fyne.TextWrapWord
	f.problem.Importance = widget.DangerImportance
	f.problem.Hide()
	browse := widget.NewButton("Browse…", f.browse)
	f.content = container.NewVBox(container.NewBorder(nil, nil, nil, browse, f.entry), f.problem)
	return f
}

// startFolder returns the folder used last, else the current directory.
func (a *App) startFolder() string { return view.StartFolder(a.prefs.String(lastFolderKey)) }

// path returns the typed path made absolute.
func (f *openForm) path() string { return view.ExpandPath(f.entry.Text) }

// Submit opens the typed path: a file or an experiment folder (a TAU
// profile directory, an HPCToolkit database) in a new window; another
// folder in the file picker; a path that is neither is reported in the
// form. Whether a file is an experiment is format.Open's to say.
func (f *openForm) Submit() bool {
	p := f.path()
	browse, err := view.CheckOpenPath(p)
	switch {
	case err != nil:
		f.problem.SetText(err.Error())
		f.problem.Show()
		return false
	case browse:
		f.browse()
		return false
	}
	if f.done != nil {
		f.done()
	}
	f.w.app.openFile(p, f.w, f.then)
	return true
}

// browse shows the file picker in the folder of the typed path.
func (f *openForm) browse() {
	dir := view.BrowseFolder(f.path(), f.w.app.startFolder())
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			f.w.showError(err)
			return
		}
		if r == nil {
			return
		}
		f.entry.SetText(r.URI().Path())
		r.Close()
		f.Submit()
	}, f.w.win)
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
	f := w.newOpenForm(then)
	d := dialog.NewCustomWithoutButtons("Open experiment", f.content, w.win)
	f.done = d.Hide
	d.SetButtons([]fyne.CanvasObject{
		widget.NewButton("Cancel", d.Hide),
		&widget.Button{Text: "Open", Importance: widget.HighImportance, OnTapped: func() { f.Submit() }},
	})
	d.Resize(fyne.NewSize(720, 0).Max(d.MinSize()))
	d.Show()
	w.win.Canvas().Focus(f.entry)
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
