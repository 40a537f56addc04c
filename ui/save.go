package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/algebra"
	"cubeview/format"
	"cubeview/internal/atomicfile"
	"cubeview/view"
)

// File › Save as… takes a typed path (with a folder chooser) rather than
// Fyne's file save dialog, which truncates an existing file as soon as it
// is chosen — before the program can ask, and possibly the very file the
// experiment still reads its data from. Nothing is written before the
// user agrees to replace a file, and a file that is one of the window's
// inputs gets a warning of its own (the command line refuses such an
// output unless given --force).

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
	help := widget.NewLabel("The ending chooses the format: " + strings.Join(format.OutputExtensions, ", ") +
		" (CUBE 4 archive, CUBE 3 XML, compressed CUBE 3 XML).")
	help.Wrapping = fyne.TextWrapWord
	help.Importance = widget.LowImportance
	f.content = container.NewVBox(container.NewBorder(nil, nil, nil, folder, f.path), help)
	return f
}

// defaultSavePath proposes the experiment's name with the .cubex ending,
// beside the file it was read from or its first operand; never an
// existing file (so not the input): name-copy.cubex, name-copy2.cubex, ….
func (w *Window) defaultSavePath() string {
	name := view.ShortName(w.doc.Name)
	if name == "" || strings.ContainsAny(name, " /") {
		name = "result" // an expression is not a file name
	}
	dir := w.app.startFolder()
	from := w.doc.Path
	if from == "" {
		if files := algebra.OperandFiles(w.doc.Exp); len(files) > 0 {
			from = files[0]
		}
	}
	if from != "" {
		dir = filepath.Dir(filepath.Clean(from))
	}
	path := filepath.Join(dir, name+".cubex")
	for i := 1; i < 100; i++ {
		if _, err := os.Lstat(path); err != nil {
			break
		}
		suffix := "-copy"
		if i > 1 {
			suffix = fmt.Sprintf("-copy%d", i)
		}
		path = filepath.Join(dir, name+suffix+".cubex")
	}
	return path
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
	if err := checkSavePath(path); err != nil {
		w.showError(err)
		return
	}
	inputs, roles := w.doc.Inputs()
	if in, ok := atomicfile.SameFile(path, inputs); ok {
		role := ""
		for i, p := range inputs {
			if p == in {
				role = roles[i]
				break
			}
		}
		what := fmt.Sprintf("%s is %s", path, role)
		if filepath.Clean(in) != filepath.Clean(path) {
			what = fmt.Sprintf("%s is %s (%s)", path, role, in)
		}
		w.ask("Replace an input?", what+".\nReplacing it loses that data: the experiment cannot be read from it again.\nReplace it with "+w.doc.Name+"?",
			"Replace the input", func() { w.SaveAs(path) })
		return
	}
	if _, err := os.Stat(path); err == nil {
		w.ask("Replace the file?", path+" exists. Replace it with "+w.doc.Name+"?", "Replace", func() { w.SaveAs(path) })
		return
	}
	w.SaveAs(path)
}

// checkSavePath refuses what cannot be written: an unknown ending, a
// folder that does not exist, a folder as the target.
func checkSavePath(path string) error {
	switch {
	case path == "":
		return errors.New("save as: no file name")
	case !format.CanWrite(path):
		return fmt.Errorf("%s: unknown output format; the name must end in %s", path, strings.Join(format.OutputExtensions, ", "))
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return fmt.Errorf("%s: the folder %s does not exist", path, filepath.Dir(path))
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a folder; give a file name", path)
	}
	return nil
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
