package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"cubeview/algebra"
	"cubeview/document"
	"cubeview/view"
)

// TestMatchingAcrossTools computes differences of one program measured by
// different tools in windows: the result window says what was matched and
// how (Score-P's and TAU's cpi: time by canonical identity, MPI functions
// by canonical name), and says in words when an operand contributes
// nothing to the shown metric (HPCToolkit's sampled CPUTIME has no
// wall-clock time) until the dialog's metric mapping compares them.
func TestMatchingAcrossTools(t *testing.T) {
	a := newTestApp(t)
	scorep := openWindow(t, a, dataFile(t, "cube4/cpi/profile.cubex"))
	tau := openWindow(t, a, dataFile(t, "tau/cpi-mpi"))
	hpc := openWindow(t, a, dataFile(t, "hpctoolkit/cpi-database-v4"))
	pair := func(b *Window, maps string) *Window {
		t.Helper()
		f := scorep.dialogs.newOperationForm(algebra.OpDiff)
		docs := a.Documents()
		set(t, f.Form, f.Subtrahend, document.Labels(docs)[slices.Index(docs, b.Document())])
		set(t, f.Form, f.Maps, maps)
		d := submit(t, a, f)
		if !d.note.Visible() {
			t.Errorf("%s: no matching line", d.Document().Name)
		}
		m := d.Document().Exp.MetricByName("time")
		selectRow(d, view.MetricPane, view.Node{Kind: view.MetricNode, Index: m})
		return d
	}

	d := pair(tau, "")
	for _, want := range []string{"time (operand 0) = TIME (operand 1), by canonical identity", "regions matched by canonical name", "MPI_Bcast() (operand 1) = MPI_Bcast"} {
		if !strings.Contains(d.note.Text, want) {
			t.Errorf("Score-P − TAU: matching line %q lacks %q", d.note.Text, want)
		}
	}
	if d.note.Importance == widget.WarningImportance {
		t.Errorf("Score-P − TAU: both operands contribute, yet a warning: %q", d.note.Text)
	}

	d = pair(hpc, "")
	if want := "has no metric matching Time, so it contributes nothing to these values"; !strings.Contains(d.note.Text, want) || d.note.Importance != widget.WarningImportance {
		t.Errorf("Score-P − HPCToolkit: matching line %q (importance %v), want a warning %q", d.note.Text, d.note.Importance, want)
	}
	d = pair(hpc, "CPUTIME=time")
	if want := "time (operand 0) = CPUTIME (operand 1), by --map-metric CPUTIME=time"; !strings.Contains(d.note.Text, want) || d.note.Importance == widget.WarningImportance {
		t.Errorf("Score-P − HPCToolkit mapped: matching line %q, want %q", d.note.Text, want)
	}
	if p := document.Properties(d.Document()); !strings.Contains(strings.Join(strings.Fields(p), " "), `metric "CPUTIME" compared as "time"`) || !strings.Contains(p, "Matching:") {
		t.Errorf("properties of the mapped difference:\n%s", p)
	}

	// A mapping that cannot be read stops the dialog, naming the line.
	f := scorep.dialogs.newOperationForm(algebra.OpMerge)
	set(t, f.Form, f.Maps, "CPUTIME=time\nvisits")
	if err := f.Confirmed(); err == nil || !strings.Contains(err.Error(), "line 2 of the metric mappings") {
		t.Errorf("a mapping without '=': %v", err)
	}
}

// TestReaderWarningsShown: what a reader tolerated in the input (the
// command line prints it on stderr) shows in the window above the status
// line, as a warning, and in File › Properties; a file read cleanly shows
// none.
func TestReaderWarningsShown(t *testing.T) {
	src := dataFile(t, "tau/cpi-mpi")
	dir := filepath.Join(t.TempDir(), "cpi-mpi")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "profile.0.0.0"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("garbage here\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	a := newTestApp(t)
	clean := openWindow(t, a, src)
	if clean.note.Visible() {
		t.Errorf("a file read cleanly shows a note: %q", clean.note.Text)
	}
	w := openWindow(t, a, dir)
	if len(w.Document().Exp.Warnings) != 1 {
		t.Fatalf("warnings %q, want the one of the damaged thread file", w.Document().Exp.Warnings)
	}
	if !w.note.Visible() || w.note.Importance != widget.WarningImportance ||
		!strings.Contains(w.note.Text, "1 warning reading the input") || !strings.Contains(w.note.Text, `starting "garbage here"`) {
		t.Errorf("window note %q (visible %v, importance %v)", w.note.Text, w.note.Visible(), w.note.Importance)
	}
	if p := document.Properties(w.Document()); !strings.Contains(p, "Warnings of the reader") || !strings.Contains(p, "garbage here") {
		t.Errorf("properties without the warning:\n%s", p)
	}
}
