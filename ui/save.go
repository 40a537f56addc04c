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

	"cubeview/internal/atomicfile"
)

// saveForm asks where to save a window's experiment: a path typed or a
// folder picked with Browse…. Fyne's file-save dialog is not used: it
// truncates an existing file as soon as it is chosen, before anything is
// written, which would destroy an input (a .cubex is read lazily). An
// existing file is replaced only when confirmed, and one the experiment
// was read from is named as such.
type saveForm struct {
	w       *Window
	entry   *widget.Entry
	problem *widget.Label
	content fyne.CanvasObject
	done    func() // closes the dialog
	// confirm asks a question and calls yes when the answer is yes;
	// tests replace it.
	confirm func(title, question string, yes func())
}

func (w *Window) newSaveForm() *saveForm {
	f := &saveForm{w: w, entry: widget.NewEntry(), problem: widget.NewLabel("")}
	f.confirm = func(title, question string, yes func()) {
		dialog.ShowConfirm(title, question, func(ok bool) {
			if ok {
				yes()
			}
		}, w.win)
	}
	name := strings.TrimSuffix(w.doc.Name, filepath.Ext(w.doc.Name))
	if strings.ContainsAny(name, " /") || name == "" {
		name = "result" // an expression is not a file name
	}
	of := openForm{w: w}
	suggest := filepath.Join(of.startFolder(), name+".cubex")
	if _, err := os.Lstat(suggest); err == nil {
		suggest = filepath.Join(of.startFolder(), name+"-copy.cubex") // not the input by default
	}
	f.entry.SetText(suggest)
	f.entry.SetPlaceHolder("path ending in .cubex, .cube or .cube.gz")
	f.entry.OnSubmitted = func(string) { f.Submit() }
	f.problem.Wrapping = fyne.TextWrapWord
	f.problem.Importance = widget.DangerImportance
	f.problem.Hide()
	browse := widget.NewButton("Browse…", f.browse)
	f.content = container.NewVBox(container.NewBorder(nil, nil, nil, browse, f.entry), f.problem)
	return f
}

func (w *Window) saveDialog() {
	if w.doc == nil {
		return
	}
	f := w.newSaveForm()
	d := dialog.NewCustomWithoutButtons("Save experiment as", f.content, w.win)
	f.done = d.Hide
	d.SetButtons([]fyne.CanvasObject{
		widget.NewButton("Cancel", d.Hide),
		&widget.Button{Text: "Save", Importance: widget.HighImportance, OnTapped: f.Submit},
	})
	d.Resize(fyne.NewSize(720, 0).Max(d.MinSize()))
	d.Show()
	w.win.Canvas().Focus(f.entry)
}

// path returns the typed path made absolute.
func (f *saveForm) path() string { return (&openForm{entry: f.entry}).path() }

// Submit saves to the typed path, after asking when that replaces a file.
func (f *saveForm) Submit() {
	p := f.path()
	fail := func(format string, args ...any) {
		f.problem.SetText(fmt.Sprintf(format, args...))
		f.problem.Show()
	}
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		fail("%s is a folder: add a file name ending in .cubex, .cube or .cube.gz", p)
		return
	}
	if st, err := os.Stat(filepath.Dir(p)); err != nil || !st.IsDir() {
		fail("the folder %s does not exist", filepath.Dir(p))
		return
	}
	save := func() {
		if f.done != nil {
			f.done()
		}
		f.w.SaveAs(p)
	}
	if in, ok := atomicfile.SameFile(p, f.w.doc.inputs()); ok {
		what := p + " is a file this experiment was read from."
		if filepath.Clean(in) != p {
			what = fmt.Sprintf("%s is %s (another path to it), a file this experiment was read from.", p, in)
		}
		f.confirm("Replace an input?", what+"\nReplace it with this experiment?", save)
		return
	}
	if _, err := os.Lstat(p); err == nil {
		f.confirm("Replace?", fmt.Sprintf("%s exists. Replace it?", p), save)
		return
	}
	save()
}

// browse picks the folder to save in; the typed file name is kept.
func (f *saveForm) browse() {
	dir, base := filepath.Split(f.path())
	d := dialog.NewFolderOpen(func(l fyne.ListableURI, err error) {
		if err != nil {
			f.w.showError(err)
			return
		}
		if l == nil {
			return
		}
		f.entry.SetText(filepath.Join(l.Path(), base))
	}, f.w.win)
	if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
		d.SetLocation(l)
	}
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
}

// inputs returns the files d was read from: its own, or those of the
// experiments a derived one was computed from.
func (d *Document) inputs() []string {
	var out []string
	if d.Path != "" {
		out = append(out, d.Path)
	}
	for _, s := range d.sources {
		out = append(out, s.inputs()...)
	}
	return out
}
