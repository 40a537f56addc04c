package ui

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"

	"cubeview/algebra"
	"cubeview/document"
	"cubeview/model"
	"cubeview/view"
)

// flatRow returns the flat-profile row of the region named name.
func flatRow(t *testing.T, w *Window, name string) view.Row {
	t.Helper()
	w.SetFlat(true)
	e := w.Document().Exp
	for _, n := range w.view.Roots(view.CallPane) {
		if e.Regions[n.Index].Name == name {
			w.Pane(view.CallPane).Reveal(n)
			w.refresh()
			if r, ok := shownRows(w.Pane(view.CallPane))[n]; ok {
				return r
			}
			t.Fatalf("%s: region %s is not shown", w.Document().Name, name)
		}
	}
	t.Fatalf("%s has no region %q in its flat profile", w.Document().Name, name)
	return view.Row{}
}

// TestOpenImportedFormats opens other tools' profiles as File › Open,
// File › Open folder… and a drop do: each shows as an ordinary window
// whose flat profile has the tool's own inclusive values.
func TestOpenImportedFormats(t *testing.T) {
	tauDir := dataFile(t, "tau/cpi-mpi")
	for _, tc := range []struct {
		path, title string
		processes   int
		region      string  // a region of the flat profile …
		inclusive   float64 // … with its inclusive time as the tool reports it
		zeroTime    bool    // the first metric's total is 0 (no time accumulated)
	}{
		// gprof's call graph entry "[1] 100.0 0.00 0.33 main [1]":
		// self 0.00 + children 0.33.
		{dataFile(t, "gprof/gnu1.prof"), "gnu1.prof", 1, "main", 0.33, false},
		// "[2] 53.4 0.00 0.18 5 read_all_makefiles [2]"
		{dataFile(t, "gprof/gnu1.prof"), "gnu1.prof", 1, "read_all_makefiles", 0.18, false},
		// A zero-time report (issue88.prof, UTF-16 without any
		// function, is an error: see format/gprof's tests).
		{dataFile(t, "gprof/zeros.prof"), "zeros.prof", 1, "", 0, true},
		// A TAU directory, and a profile file in it (which opens the
		// directory): cpi-mpi's 4 ranks.
		{tauDir, "cpi-mpi", 4, "", 0, false},
		{filepath.Join(tauDir, "profile.0.0.0"), "profile.0.0.0", 4, "", 0, false},
		{filepath.Join("..", "format", "mpip", "testdata", "userguide-2.4-9-test-mpip-time.mpiP"), "userguide-2.4-9-test-mpip-time.mpiP", 4, "", 0, false},
		{dataFile(t, "pprof/cppbench.cpu"), "cppbench.cpu", 1, "", 0, false},
		// callgrind_annotate --inclusive=yes: "95,507,582,697 ???:0x0804BA60".
		{dataFile(t, "callgrind/selinux.callgrind"), "selinux.callgrind", 1, "0x0804BA60", 95507582697, false},
		// HPCToolkit databases are folders: the XML one of cpi on 4
		// ranks, a sparse one of one process (whose first metric,
		// GXCOPY:UNK, is 0).
		{dataFile(t, "hpctoolkit/cpi-database-v2"), "cpi-database-v2", 4, "", 0, false},
		{dataFile(t, "hpctoolkit/vectorAdd-metadb"), "vectorAdd-metadb", 1, "", 0, true},
		{dataFile(t, "caliper/cpi-json/cpi-callpath-profile.json"), "cpi-callpath-profile.json", 4, "", 0, false},
	} {
		t.Run(tc.title+"/"+tc.region, func(t *testing.T) {
			a := newTestApp(t)
			w := openWindow(t, a, tc.path)
			if got := w.win.Title(); got != "cubeview — "+tc.title {
				t.Errorf("title %q", got)
			}
			e := w.Document().Exp
			procs := 0
			for _, s := range e.System {
				if s.Kind == model.Group {
					procs++
				}
			}
			if procs != tc.processes {
				t.Errorf("%d processes, want %d", procs, tc.processes)
			}
			m := w.view.Selected(view.MetricPane)
			total, err := e.MetricTotal(model.MetricSel{Metric: m.Index, Inclusive: true})
			if err != nil {
				t.Fatal(err)
			}
			if r := shownRows(w.Pane(view.MetricPane))[m]; r.Value != total || (total > 0) == tc.zeroTime {
				t.Errorf("metric %s shows %v, want its total %v (zero: %v)", r.Label, r.Value, total, tc.zeroTime)
			}
			if tc.region != "" {
				// gprof prints self and children to 0.01 s each.
				if r := flatRow(t, w, tc.region); math.Abs(r.Value-tc.inclusive) > 0.01+1e-9 {
					t.Errorf("flat profile: %s shows %v, want gprof's %v", tc.region, r.Value, tc.inclusive)
				}
			}
		})
	}
}

// TestDropFolder drops a TAU profile directory on an empty window.
func TestDropFolder(t *testing.T) {
	a := newTestApp(t)
	w := a.newWindow()
	w.dropped([]fyne.URI{storage.NewFileURI(dataFile(t, "tau/cpi-mpi"))})
	if w.Document() == nil || w.Document().Name != "cpi-mpi" {
		t.Fatalf("the dropped folder did not open in the window: %+v", w.Document())
	}
	if n := len(w.Document().Exp.Locations); n != 4 {
		t.Errorf("%d locations, want cpi-mpi's 4 ranks", n)
	}
}

// TestOperandPickerOpens opens operands from the algebra dialogs: a TAU
// directory as the subtrahend of a difference with a Score-P run of the
// same program, and a gprof report checked in a mean's list.
func TestOperandPickerOpens(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube4/cpi/profile.cubex"))
	f := w.dialogs.newOperationForm(algebra.OpDiff)
	w.app.openFile(dataFile(t, "tau/cpi-mpi"), w, func(d *document.Doc) { f.Opened(d, f.Subtrahend) })
	if len(a.Documents()) != 2 {
		t.Fatalf("%d experiments open, want 2", len(a.Documents()))
	}
	if f.Minuend.Text != "profile.cubex" || f.Subtrahend.Text != "cpi-mpi" {
		t.Fatalf("pickers show %q − %q", f.Minuend.Text, f.Subtrahend.Text)
	}
	if got := f.Preview.Text; got != "Result: profile − cpi-mpi" {
		t.Errorf("preview %q", got)
	}
	d := submit(t, a, f)
	// Score-P and TAU name MPI_Init differently ("MPI_Init" vs
	// "MPI_Init()"): call paths only one tool saw carry its marker.
	expandAll(d, view.CallPane)
	only := map[string]int{}
	for n, r := range shownRows(d.Pane(view.CallPane)) {
		if r.Marker == "" {
			continue
		}
		only[r.Marker]++
		want := map[string]string{"A": "only in A (profile)", "B": "only in B (cpi-mpi)"}[r.Marker]
		if tip := d.view.Tooltip(n); want == "" || !strings.Contains(tip, want) {
			t.Errorf("%s: marker %q, tooltip %q", r.Label, r.Marker, tip)
		}
	}
	if only["A"] == 0 || only["B"] == 0 || len(only) != 2 {
		t.Errorf("only-in markers %v, want call paths only in A (profile) and only in B (cpi-mpi)", only)
	}

	// Merge and mean: the opened experiment is checked in the list.
	f = w.dialogs.newOperationForm(algebra.OpMean)
	w.app.openFile(dataFile(t, "gprof/cycle.prof"), w, func(d *document.Doc) { f.Opened(d, f.Operands) })
	var names []string
	for _, d := range f.Selected() {
		names = append(names, d.Name)
	}
	if got := strings.Join(names, ","); got != "profile.cubex,cpi-mpi,cycle.prof" {
		t.Errorf("checked operands %s", got)
	}
	for _, o := range f.Operands.Options {
		if o == "" {
			t.Errorf("an operand has no label")
		}
	}
	// The mean of a Score-P, a TAU and a gprof profile is an experiment
	// like any other, with the gprof operand's call graph.
	m := submit(t, a, f)
	if got := m.Document().Name; got != "mean(profile, cpi-mpi, cycle.prof)" {
		t.Errorf("mean window %q", got)
	}
	if !view.HasCallGraph(m.view.Experiment()) || !m.panels.CallGraphShown() {
		t.Errorf("the mean has no callers and callees of the gprof operand")
	}
	if names := m.view.Markers().Names(); len(names) != 3 {
		t.Errorf("mean operands %v", names)
	}
}

// TestOpenFormAnyFormat types paths into File › Open: an experiment
// folder and a file without a CUBE ending open (format.Open recognises
// them by content); a folder that merely holds experiments is browsed.
func TestOpenFormAnyFormat(t *testing.T) {
	a := newTestApp(t)
	w := a.newWindow()
	for _, tc := range []struct {
		path, name string
	}{
		{dataFile(t, "tau/cpi-mpi"), "cpi-mpi"},
		{dataFile(t, "hpctoolkit/cpi-database-v2"), "cpi-database-v2"},
		{dataFile(t, "gprof/gnu1.prof"), "gnu1.prof"},
		{dataFile(t, "pprof/cppbench.cpu"), "cppbench.cpu"},
	} {
		var got *document.Doc
		f := w.dialogs.newOpenForm(func(d *document.Doc) { got = d })
		set(t, f, f.Focus, tc.path)
		if err := f.Confirmed(); err != nil {
			t.Errorf("%s not opened: %v", tc.path, err)
			continue
		}
		if got == nil || got.Name != tc.name {
			t.Errorf("%s: opened %+v, want %s", tc.path, got, tc.name)
		}
	}
	f := w.dialogs.newOpenForm(nil)
	set(t, f, f.Focus, dataFile(t, "cube4/cpi"))
	n := len(a.Documents())
	if err := f.Confirmed(); err != nil || len(a.Documents()) != n || w.win.Canvas().Overlays().Top() == nil {
		t.Errorf("a folder of experiments: %v, %d experiments open (want %d), file picker %v; want it browsed", err, len(a.Documents()), n, w.win.Canvas().Overlays().Top())
	}
	if f.Focus.Problem != "" {
		t.Errorf("a folder of experiments: problem %q", f.Focus.Problem)
	}
}
