package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"
)

var cubeFilter = storage.NewExtensionFileFilter([]string{".cube", ".cubex", ".gz"})

// openForm asks for an experiment file: a path typed or pasted (relative
// to the current directory, ~ for the home folder) or picked with
// Browse…, which starts in the folder of the typed path, the folder used
// last or the current directory.
type openForm struct {
	w       *Window
	entry   *widget.Entry
	problem *widget.Label
	content fyne.CanvasObject
	then    func(*Document) // nil: just open
	done    func()          // closes the dialog
}

func (w *Window) newOpenForm(then func(*Document)) *openForm {
	f := &openForm{w: w, then: then, entry: widget.NewEntry(), problem: widget.NewLabel("")}
	f.entry.SetPlaceHolder("path of a .cubex, .cube or .cube.gz file, or a folder to browse")
	f.entry.SetText(f.startFolder() + string(filepath.Separator))
	f.entry.OnSubmitted = func(string) { f.Submit() }
	f.problem.Wrapping = fyne.TextWrapWord
	f.problem.Importance = widget.DangerImportance
	f.problem.Hide()
	browse := widget.NewButton("Browse…", f.browse)
	f.content = container.NewVBox(container.NewBorder(nil, nil, nil, browse, f.entry), f.problem)
	return f
}

// startFolder returns the folder used last, else the current directory.
func (f *openForm) startFolder() string {
	if d := f.w.app.prefs.String(lastFolderKey); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return "."
}

// path returns the typed path made absolute.
func (f *openForm) path() string {
	p := strings.TrimSpace(f.entry.Text)
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[1:])
		}
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return p
}

// Submit opens the typed path: a file in a new window, a folder in the
// file picker; a path that is neither is reported in the form.
func (f *openForm) Submit() bool {
	p := f.path()
	st, err := os.Stat(p)
	switch {
	case err != nil:
		f.problem.SetText(fmt.Sprintf("%s: no such file or folder", p))
		f.problem.Show()
		return false
	case st.IsDir():
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
	dir := f.path()
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = f.startFolder()
	}
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
	if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
		d.SetLocation(l)
	}
	d.SetFilter(cubeFilter)
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
}

// openDialog asks for an experiment to open; then, if set, receives it
// once it shows in its window.
func (w *Window) openDialog() { w.openDialogThen(nil) }

func (w *Window) openDialogThen(then func(*Document)) {
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
