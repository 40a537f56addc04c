package ui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"cubeview/algebra"
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
		set(t, f.Form, f.Subtrahend, view.DocLabels(docs)[slices.Index(docs, b.Document())])
		set(t, f.Form, f.Maps, maps)
		d := submit(t, a, f)
		if !d.matching.Visible() {
			t.Errorf("%s: no matching line", d.Document().Name)
		}
		m := d.Document().Exp.MetricByName("time")
		selectRow(d, view.MetricPane, view.Node{Kind: view.MetricNode, Index: m})
		return d
	}

	d := pair(tau, "")
	for _, want := range []string{"time (operand 0) = TIME (operand 1), by canonical identity", "regions matched by canonical name", "MPI_Bcast() (operand 1) = MPI_Bcast"} {
		if !strings.Contains(d.matching.Text, want) {
			t.Errorf("Score-P − TAU: matching line %q lacks %q", d.matching.Text, want)
		}
	}
	if d.matching.Importance == widget.WarningImportance {
		t.Errorf("Score-P − TAU: both operands contribute, yet a warning: %q", d.matching.Text)
	}

	d = pair(hpc, "")
	if want := "has no metric matching Time, so it contributes nothing to these values"; !strings.Contains(d.matching.Text, want) || d.matching.Importance != widget.WarningImportance {
		t.Errorf("Score-P − HPCToolkit: matching line %q (importance %v), want a warning %q", d.matching.Text, d.matching.Importance, want)
	}
	d = pair(hpc, "CPUTIME=time")
	if want := "time (operand 0) = CPUTIME (operand 1), by --map-metric CPUTIME=time"; !strings.Contains(d.matching.Text, want) || d.matching.Importance == widget.WarningImportance {
		t.Errorf("Score-P − HPCToolkit mapped: matching line %q, want %q", d.matching.Text, want)
	}
	if p := view.Properties(d.Document()); !strings.Contains(strings.Join(strings.Fields(p), " "), `metric "CPUTIME" compared as "time"`) || !strings.Contains(p, "Matching:") {
		t.Errorf("properties of the mapped difference:\n%s", p)
	}

	// A mapping that cannot be read stops the dialog, naming the line.
	f := scorep.dialogs.newOperationForm(algebra.OpMerge)
	set(t, f.Form, f.Maps, "CPUTIME=time\nvisits")
	if err := f.Confirmed(); err == nil || !strings.Contains(err.Error(), "line 2 of the metric mappings") {
		t.Errorf("a mapping without '=': %v", err)
	}
}
