package ui

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"cubeview/algebra"
	"cubeview/assets"
	"cubeview/document"
	"cubeview/format"
)

// overlayTexts returns the texts of the labels in the window's top
// overlay (an open dialog), and its buttons by label.
func overlayTexts(w *Window) (texts []string, buttons map[string]*widget.Button) {
	buttons = map[string]*widget.Button{}
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Button:
			buttons[x.Text] = x
			return
		case *widget.Label:
			texts = append(texts, x.Text)
			return
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
			return
		}
		if wid, ok := o.(fyne.Widget); ok {
			for _, c := range test.WidgetRenderer(wid).Objects() {
				walk(c)
			}
		}
	}
	if top := w.win.Canvas().Overlays().Top(); top != nil {
		walk(top)
	}
	return texts, buttons
}

// answer checks that the window asks a question mentioning each of want
// and taps the button labelled button.
func answer(t *testing.T, w *Window, button string, want ...string) {
	t.Helper()
	texts, buttons := overlayTexts(w)
	all := strings.Join(texts, "\n")
	for _, s := range want {
		if !strings.Contains(all, s) {
			t.Errorf("the question %q does not say %q", all, s)
		}
	}
	b := buttons[button]
	if b == nil {
		t.Fatalf("no button %q in the question %q (buttons %v)", button, all, buttons)
	}
	test.Tap(b)
	if w.win.Canvas().Overlays().Top() != nil {
		t.Fatalf("the question is still open after %s", button)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSaveAsAsksBeforeReplacingInput saves a window's experiment onto its
// own file (directly and through a link): the window asks, Cancel leaves
// the file as it was, Replace writes it; a new file is written without a
// question, another existing file after one.
func TestSaveAsAsksBeforeReplacingInput(t *testing.T) {
	a := newTestApp(t)
	dir := t.TempDir()
	own := filepath.Join(dir, "profile.cubex")
	copyFile(t, dataFile(t, "cube4/cpi/profile.cubex"), own)
	link := filepath.Join(dir, "link.cubex")
	if err := os.Symlink(own, link); err != nil {
		t.Fatal(err)
	}
	before := readFile(t, own)
	w := openWindow(t, a, own)
	// The path proposed is beside the input, never the input itself.
	if got, want := w.dialogs.saveForm().Focus.Text, filepath.Join(dir, "profile-copy.cubex"); got != want {
		t.Errorf("Save as proposes %s, want %s", got, want)
	}
	copyFile(t, own, filepath.Join(dir, "profile-copy.cubex"))
	if got, want := w.dialogs.saveForm().Focus.Text, filepath.Join(dir, "profile-copy2.cubex"); got != want {
		t.Errorf("Save as proposes %s, want %s", got, want)
	}

	for _, target := range []string{own, link, filepath.Join(dir, ".", "profile.cubex")} {
		w.dialogs.RequestSave(target)
		answer(t, w, "Cancel", "Replace an input?", "the file this window's experiment was read from")
		if !bytes.Equal(readFile(t, own), before) {
			t.Fatalf("saving onto %s and cancelling changed the input", target)
		}
	}
	w.dialogs.RequestSave(own)
	answer(t, w, "Replace the input")
	e, err := format.Open(own)
	if err != nil {
		t.Fatalf("the replaced file does not open: %v", err)
	}
	var x, y strings.Builder
	if err := w.Document().Exp.Dump(&x); err != nil {
		t.Fatal(err)
	}
	if err := e.Dump(&y); err != nil {
		t.Fatal(err)
	}
	if x.String() != y.String() {
		t.Error("the file saved over the input differs from the experiment")
	}

	// Not an input: a new file is written at once, an existing one after
	// a question.
	other := filepath.Join(dir, "other.cube")
	w.dialogs.RequestSave(other)
	if top := w.win.Canvas().Overlays().Top(); top != nil {
		t.Fatal("saving to a new file asked a question")
	}
	if _, err := format.Open(other); err != nil {
		t.Fatalf("new file: %v", err)
	}
	w.dialogs.RequestSave(other)
	answer(t, w, "Replace", "Replace the file?", other)

	// What cannot be written is refused before anything happens.
	var got []string
	a.fatal = func(err error) { got = append(got, err.Error()) }
	w.dialogs.RequestSave(filepath.Join(dir, "x.txt"))
	w.dialogs.RequestSave(filepath.Join(dir, "missing", "x.cubex"))
	if len(got) != 2 || !strings.Contains(got[0], "unknown output format") || !strings.Contains(got[1], "does not exist") {
		t.Errorf("errors %q", got)
	}
}

// TestSaveAsAsksBeforeReplacingOperand saves a difference onto one of its
// operands, also a file inside a folder operand: the window asks and
// Cancel leaves the operand unchanged.
func TestSaveAsAsksBeforeReplacingOperand(t *testing.T) {
	a := newTestApp(t)
	files, err := assets.WriteExample(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := openWindow(t, a, files.Before)
	openWindow(t, a, files.After)
	d := submit(t, a, b.dialogs.newOperationForm(algebra.OpDiff))
	after := readFile(t, files.After)
	d.dialogs.RequestSave(files.After)
	answer(t, d, "Cancel", "Replace an input?", "an operand after of this window's experiment")
	if !bytes.Equal(readFile(t, files.After), after) {
		t.Fatal("cancelling changed the operand")
	}
	if got := d.dialogs.saveForm().Focus.Text; filepath.Dir(got) != filepath.Dir(files.Before) || !strings.HasSuffix(got, ".cubex") {
		t.Errorf("proposed %s, want a .cubex beside the operands", got)
	}

	// A folder operand: a TAU profile directory holds its files.
	tau := filepath.Join(t.TempDir(), "cpi-mpi")
	if err := os.Mkdir(tau, 0o755); err != nil {
		t.Fatal(err)
	}
	src := dataFile(t, "tau/cpi-mpi")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, ent := range entries {
		copyFile(t, filepath.Join(src, ent.Name()), filepath.Join(tau, ent.Name()))
	}
	inside := filepath.Join(tau, "notes.cube")
	if err := os.WriteFile(inside, []byte("kept"), 0o644); err != nil {
		t.Fatal(err)
	}
	cpi := openWindow(t, a, dataFile(t, "cube4/cpi/profile.cubex"))
	f := cpi.dialogs.newOperationForm(algebra.OpDiff)
	cpi.app.openFile(tau, cpi, func(d *document.Doc) { f.Opened(d, f.Subtrahend) })
	td := submit(t, a, f)
	td.dialogs.RequestSave(inside)
	answer(t, td, "Cancel", "Replace an input?", "an operand cpi-mpi of this window's experiment", tau)
	if string(readFile(t, inside)) != "kept" {
		t.Fatal("cancelling changed a file in the folder operand")
	}
}
