package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"cubeview/algebra"
	"cubeview/assets"
	"cubeview/colormap"
	"cubeview/document"
	"cubeview/internal/testkit/handmade"
	"cubeview/model"
	"cubeview/sourcepanel"
	"cubeview/sourceview"
	"cubeview/view"
)

// srcExample writes the bundled example into a temporary directory and
// opens its "before" experiment in a window of a size where the source
// panel shows about a dozen lines, so that it has to scroll.
func srcExample(t *testing.T, a *App) (*Window, assets.Files) {
	t.Helper()
	files, err := assets.WriteExample(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := openWindow(t, a, files.Before)
	w.win.Resize(fyne.NewSize(1400, 900))
	return w, files
}

// srcPickMetric selects the metric with the given unique name, as a click
// would, and collapses it, so that its values are inclusive.
func srcPickMetric(t *testing.T, w *Window, uniq string) {
	t.Helper()
	m := w.view.Experiment().MetricByName(uniq)
	if m < 0 {
		t.Fatalf("no metric %q", uniq)
	}
	n := view.Node{Kind: view.MetricNode, Index: m}
	for _, a := range w.view.Ancestors(view.MetricPane, n) {
		w.Pane(view.MetricPane).OpenBranch(a.ID())
	}
	selectRow(w, view.MetricPane, n)
	if w.view.Selected(view.MetricPane) != n {
		t.Fatalf("metric %q not selected", uniq)
	}
	w.Pane(view.MetricPane).CloseBranch(n.ID())
}

// srcPickCallPath selects a call path (region names joined by "/") in the
// call tree and returns its cnode.
func srcPickCallPath(t *testing.T, w *Window, path string) int {
	t.Helper()
	c := w.view.Experiment().CnodeByPath(path)
	if c < 0 {
		t.Fatalf("no call path %q", path)
	}
	w.Pane(view.CallPane).Reveal(view.Node{Kind: view.CnodeNode, Index: c})
	if w.view.Selected(view.CallPane) != (view.Node{Kind: view.CnodeNode, Index: c}) {
		t.Fatalf("call path %q not selected", path)
	}
	return c
}

// srcDrawnRows returns the rows the panel's list draws, by line.
func srcDrawnRows(p *sourcePanel) map[int]*sourceRow {
	out := map[int]*sourceRow{}
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		if r, ok := o.(*sourceRow); ok {
			if r.line > 0 {
				out[r.line] = r
			}
			return
		}
		switch x := o.(type) {
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				walk(c)
			}
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		}
	}
	walk(p.content)
	return out
}

// srcInView reports whether row r lies within the list's visible area.
func srcInView(p *sourcePanel, r *sourceRow) bool {
	d := fyne.CurrentApp().Driver()
	top := d.AbsolutePositionForObject(p.list).Y
	y := d.AbsolutePositionForObject(r).Y
	return y >= top && y+r.Size().Height <= top+p.list.Size().Height+0.5
}

// srcModelAnnotations computes, from the model alone, the annotations of file
// for metric uniq (inclusive along the metric tree, as a collapsed metric
// shows it): each call site with its cnode's call-tree inclusive value and
// each region with its flat-profile inclusive value.
func srcModelAnnotations(t *testing.T, e *model.Experiment, file, uniq string) map[int][]sourceview.Annotation {
	t.Helper()
	m := e.MetricByName(uniq)
	excl, err := e.CallTreeValues(model.MetricSel{Metric: m, Inclusive: true}, false)
	if err != nil {
		t.Fatal(err)
	}
	agg := e.Metrics[m].Aggregation
	_, regIncl := e.FlatProfile(excl, agg)
	return sourceview.Annotations(e, file, sourceview.Values{Cnodes: e.CallInclusive(excl, agg), Regions: regIncl})
}

// srcCheckAnnotations compares the panel's annotations with want, values
// transformed by value (nil: as they are).
func srcCheckAnnotations(t *testing.T, p *sourcePanel, want map[int][]sourceview.Annotation, value func(sourceview.Annotation) float64) {
	t.Helper()
	if len(want) == 0 {
		t.Fatal("no annotations expected: the test checks nothing")
	}
	for line, as := range want {
		got := p.m.Notes()[line]
		if len(got) != len(as) {
			t.Errorf("line %d: %d annotations, want %d (%v)", line, len(got), len(as), as)
			continue
		}
		for i, a := range as {
			wantValue := a.Value
			if value != nil {
				wantValue = value(a)
			}
			g := got[i]
			if g.Kind != a.Kind || g.Index != a.Index || !near(g.Value, wantValue) {
				t.Errorf("line %d: annotation %v, want %v with value %g", line, g.Annotation, a, wantValue)
			}
		}
	}
	for line := range p.m.Notes() {
		if _, ok := want[line]; !ok {
			t.Errorf("line %d annotated (%v), want no annotation", line, p.m.Notes()[line])
		}
	}
}

// TestSourceFollowsCallSelection selects call paths of the bundled example:
// the panel opens the right file without help, scrolls to the region,
// shades its lines and annotates the lines with the model's values.
func TestSourceFollowsCallSelection(t *testing.T) {
	a := newTestApp(t)
	w, files := srcExample(t, a)
	e := w.Document().Exp
	srcPickMetric(t, w, "mpi_barrier_wait")
	w.panels.ShowSource(true)
	p := w.panels.source

	tests := []struct {
		path              string
		focus, begin, end int
	}{
		{"main/solver_iterate", 86, 86, 98},               // the region's definition
		{"main/finalize", 100, 100, 109},                  // another region of the same file
		{"main/solver_iterate/MPI_Barrier", 96, 96, 96},   // MPI has no source: the call site
		{"main/solver_iterate/compute_rhs", 53, 53, 66},   // back to a definition
		{"main/solver_iterate/exchange_halo", 27, 27, 44}, // another file
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			srcPickCallPath(t, w, tt.path)
			c := e.CnodeByPath(tt.path)
			file := e.CnodeRegion(c).Module
			if !sourcepanel.LooksLikeFile(file) {
				file = e.Cnodes[c].CallFile
			}
			if p.m.File() == nil {
				t.Fatalf("no file shown; message %q", p.message.Text)
			}
			if want := filepath.Join(files.Dir, filepath.FromSlash(file)); p.m.File().Path != want {
				t.Errorf("shows %s, want %s", p.m.File().Path, want)
			}
			if got := p.m.Target(); got.Focus != tt.focus || got.Begin != tt.begin || got.End != tt.end {
				t.Errorf("focus %d, shaded %d–%d; want %d, %d–%d", got.Focus, got.Begin, got.End, tt.focus, tt.begin, tt.end)
			}
			rows := srcDrawnRows(p)
			focus := rows[tt.focus]
			if focus == nil || !srcInView(p, focus) {
				t.Fatalf("line %d is not in view (rows drawn: %d)", tt.focus, len(rows))
			}
			if focus.bar.FillColor == nil || srcTransparent(focus.bar.FillColor) {
				t.Errorf("line %d has no focus mark", tt.focus)
			}
			for n, r := range rows {
				shaded := !srcTransparent(r.bg.FillColor)
				if want := n >= tt.begin && n <= tt.end; shaded != want {
					t.Errorf("line %d shaded = %v, want %v", n, shaded, want)
				}
			}
			if got := focus.number.Text; got != fmt.Sprint(tt.focus) {
				t.Errorf("gutter of line %d shows %q", tt.focus, got)
			}
			text := p.m.Lines()[tt.focus-1]
			if !strings.Contains(text.Text(), e.CnodeRegion(c).Name) {
				t.Errorf("line %d is %q, want it to name %s", tt.focus, text.Text(), e.CnodeRegion(c).Name)
			}
			srcCheckAnnotations(t, p, srcModelAnnotations(t, e, file, "mpi_barrier_wait"), nil)
		})
	}

	// The story's hot spot: all waiting at the barrier is at the
	// MPI_Barrier call, the largest value, red on a raised square.
	srcPickCallPath(t, w, "main/solver_iterate")
	total, err := e.MetricTotal(model.MetricSel{Metric: e.MetricByName("mpi_barrier_wait"), Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	row := srcDrawnRows(p)[96]
	if row == nil {
		t.Fatal("line 96 is not drawn")
	}
	if want := w.view.Appearance().NumberFormat().Format(total, false); row.value.Text != want {
		t.Errorf("line 96 shows %q, want the metric's total %q", row.value.Text, want)
	}
	if row.sw.fill != colormap.Red || row.sw.relief != colormap.Raised {
		t.Errorf("line 96 square %v %v, want red and raised", row.sw.fill, row.sw.relief)
	}
	if !strings.Contains(row.note.Text, "call MPI_Barrier") {
		t.Errorf("line 96 note %q does not name the call", row.note.Text)
	}
	if rows := srcDrawnRows(p); rows[90] == nil || rows[90].value.Text != w.view.Appearance().NumberFormat().Format(0, false) {
		t.Errorf("line 90 (x_solve, no barrier waiting) should show zero")
	}
}

func srcTransparent(c interface{ RGBA() (r, g, b, a uint32) }) bool {
	_, _, _, alpha := c.RGBA()
	return alpha == 0
}

// TestSourceMetricChange changes the metric and the value mode: the
// annotations follow.
func TestSourceMetricChange(t *testing.T) {
	a := newTestApp(t)
	w, _ := srcExample(t, a)
	e := w.Document().Exp
	w.panels.ShowSource(true)
	p := w.panels.source
	srcPickCallPath(t, w, "main/solver_iterate")
	const solver = "example-src/solver.c"

	srcPickMetric(t, w, "mpi_barrier_wait")
	srcCheckAnnotations(t, p, srcModelAnnotations(t, e, solver, "mpi_barrier_wait"), nil)
	before := srcDrawnRows(p)[88].value.Text // compute_rhs: no waiting

	srcPickMetric(t, w, "time")
	want := srcModelAnnotations(t, e, solver, "time")
	srcCheckAnnotations(t, p, want, nil)
	row := srcDrawnRows(p)[88]
	if wantText := w.view.Appearance().NumberFormat().Format(want[88][0].Value, false); row.value.Text != wantText || row.value.Text == before {
		t.Errorf("line 88 shows %q after the metric change (before %q), want %q", row.value.Text, before, wantText)
	}

	// The call pane shows main expanded: its largest value is solver_iterate's
	// 257.42 s, red. main's inclusive 268.54 s exceeds that automatic range
	// and takes the end colour too, not the gray of a user range's outliers.
	for _, line := range []int{86, 111} {
		if n := p.m.Notes()[line][0]; n.Color != colormap.Red {
			t.Errorf("line %d (%v): colour %v, want red", line, n.Annotation, n.Color)
		}
	}
	if n := p.m.Notes()[88][0]; n.Color == colormap.Red || n.Color == colormap.Gray {
		t.Errorf("line 88 (%v): colour %v, want a colour of the spectrum below red", n.Annotation, n.Color)
	}

	// Percent of the call-tree root: main's inclusive time is 100 %.
	main := e.CnodeByPath("main")
	rootTime := srcModelAnnotations(t, e, solver, "time")
	var mainTime float64
	for _, as := range rootTime {
		for _, a := range as {
			if a.Kind == sourceview.RegionBegin && a.Index == e.Cnodes[main].Region {
				mainTime = a.Value
			}
		}
	}
	if mainTime <= 0 {
		t.Fatal("main's region is not annotated with a positive time")
	}
	w.SetMode(view.CallPane, view.OwnRootPercent)
	srcCheckAnnotations(t, p, want, func(a sourceview.Annotation) float64 { return 100 * a.Value / mainTime })
	if got := srcDrawnRows(p)[88].value.Text; got != w.view.Appearance().NumberFormat().Format(100*want[88][0].Value/mainTime, false) {
		t.Errorf("line 88 shows %q in percent mode", got)
	}

	// Integer metrics print as integers.
	w.SetMode(view.CallPane, view.Absolute)
	srcPickMetric(t, w, "visits")
	visits := srcModelAnnotations(t, e, solver, "visits")
	srcCheckAnnotations(t, p, visits, nil)
	if got, wantText := srcDrawnRows(p)[88].value.Text, w.view.Appearance().NumberFormat().Format(visits[88][0].Value, true); got != wantText || strings.Contains(got, ".") {
		t.Errorf("line 88 shows %q visits, want %q", got, wantText)
	}
}

// TestSourceMissingFileLocate opens an experiment whose sources were
// recorded on another machine: the panel says so, and locating one file
// adds a path mapping that finds the others too, remembered in the
// preferences for later windows.
func TestSourceMissingFileLocate(t *testing.T) {
	local := t.TempDir()
	for _, f := range []string{"src/kernel.c", "src/util/io.c"} {
		p := filepath.Join(local, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		text := "/* " + f + " */\nint kernel(void)\n{\n    return io();\n}\n"
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := handMade()
	e.Regions[1].Module, e.Regions[1].Begin, e.Regions[1].End = "/build/host/proj/src/kernel.c", 2, 5
	e.Regions[2].Module, e.Regions[2].Begin, e.Regions[2].End = "/build/host/proj/src/util/io.c", 2, 5
	e.Cnodes[3].CallFile, e.Cnodes[3].CallLine = "/build/host/proj/src/kernel.c", 4

	a := newTestApp(t)
	w := a.Show(&document.Doc{Exp: e, Name: "remote"})
	w.win.Resize(fyne.NewSize(1400, 900))
	w.panels.ShowSource(true)
	p := w.panels.source
	srcPickCallPath(t, w, "main/foo")

	if p.m.File() != nil || !p.messageBox.Visible() || !p.locate.Visible() {
		t.Fatalf("missing file: file %v, message shown %v, Locate shown %v", p.m.File(), p.messageBox.Visible(), p.locate.Visible())
	}
	if !strings.Contains(p.message.Text, "/build/host/proj/src/kernel.c") || !strings.Contains(p.message.Text, "not found") {
		t.Errorf("message %q does not say which file is missing", p.message.Text)
	}

	located := filepath.Join(local, "src", "kernel.c")
	p.Locate(located) // what the Locate… button's file dialog calls
	if p.m.File() == nil || p.m.File().Path != located {
		t.Fatalf("after Locate the panel shows %v, want %s (message %q)", p.m.File(), located, p.message.Text)
	}
	if p.messageBox.Visible() {
		t.Error("the message is still shown")
	}
	mappings, _ := a.sourceSettings().Paths()
	want := sourceview.Mapping{From: "/build/host/proj", To: local}
	if !slices.Contains(mappings, want) {
		t.Errorf("mappings %v, want %v", mappings, want)
	}
	if got := a.prefs.StringList(sourcepanel.PrefSourceMappings); !slices.Contains(got, want.String()) {
		t.Errorf("preferences hold %q, want %q", got, want.String())
	}
	srcCheckAnnotatedLines(t, p, 2, 4) // foo's definition, the call of bar

	// The mapping finds the other file as well, in a new window.
	w2 := a.Show(&document.Doc{Exp: e, Name: "remote again"})
	w2.win.Resize(fyne.NewSize(1400, 900))
	w2.panels.ShowSource(true)
	srcPickCallPath(t, w2, "main/bar")
	if want := filepath.Join(local, "src", "util", "io.c"); w2.panels.source.m.File() == nil || w2.panels.source.m.File().Path != want {
		t.Errorf("second window shows %v, want %s (message %q)", w2.panels.source.m.File(), want, w2.panels.source.message.Text)
	}
}

// srcCheckAnnotatedLines checks that exactly the given lines are annotated.
func srcCheckAnnotatedLines(t *testing.T, p *sourcePanel, lines ...int) {
	t.Helper()
	var got []int
	for l := range p.m.Notes() {
		got = append(got, l)
	}
	slices.Sort(got)
	if !slices.Equal(got, lines) {
		t.Errorf("annotated lines %v, want %v", got, lines)
	}
}

// TestSourceLocateRenamed locates a file under another name: the whole
// path is mapped.
func TestSourceLocateRenamed(t *testing.T) {
	dir := t.TempDir()
	located := filepath.Join(dir, "kernel_v2.c")
	if err := os.WriteFile(located, []byte("int x;\nint kernel(void) { return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := handMade()
	e.Regions[1].Module, e.Regions[1].Begin, e.Regions[1].End = "/build/kernel.c", 2, 2
	a := newTestApp(t)
	w := a.Show(&document.Doc{Exp: e, Name: "renamed"})
	w.panels.ShowSource(true)
	srcPickCallPath(t, w, "main/foo")
	w.panels.source.Locate(located)
	if w.panels.source.m.File() == nil || w.panels.source.m.File().Path != located {
		t.Fatalf("after Locate the panel shows %v, want %s", w.panels.source.m.File(), located)
	}
	if mappings, _ := a.sourceSettings().Paths(); !slices.Contains(mappings, sourceview.Mapping{From: "/build/kernel.c", To: located}) {
		t.Errorf("mappings %v, want the whole path mapped", mappings)
	}
}

// TestSourceDerived shows the source of a difference of the bundled
// example's experiments, found through the operands' directory, with the
// difference's values: negative ones on sunken squares.
func TestSourceDerived(t *testing.T) {
	files, err := assets.WriteExample(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a := newTestApp(t)
	a.OpenFile(files.Before, nil)
	a.OpenFile(files.After, nil)
	docs := a.Documents()
	diff, err := algebra.Diff(docs[1].Exp, docs[0].Exp, algebra.Options{}) // after − before
	if err != nil {
		t.Fatal(err)
	}
	// Close the operands' windows: the files must be found from the
	// provenance the difference records.
	for _, w := range a.Windows() {
		w.win.Close()
	}
	if docs := a.Documents(); len(docs) != 0 {
		t.Fatalf("%d experiments still open after closing their windows", len(docs))
	}
	w := a.Show(&document.Doc{Exp: diff, Name: "after − before"})
	w.win.Resize(fyne.NewSize(1400, 900))
	srcPickMetric(t, w, "mpi_barrier_wait")
	w.panels.ShowSource(true)
	p := w.panels.source
	srcPickCallPath(t, w, "main/solver_iterate")
	if want := filepath.Join(files.Dir, "example-src", "solver.c"); p.m.File() == nil || p.m.File().Path != want {
		t.Fatalf("shows %v, want %s (message %q)", p.m.File(), want, p.message.Text)
	}
	want := srcModelAnnotations(t, diff, "example-src/solver.c", "mpi_barrier_wait")
	srcCheckAnnotations(t, p, want, nil)
	barrier := want[96][0].Value
	if barrier >= 0 {
		t.Fatalf("the optimisation should reduce the waiting at the barrier, difference %g", barrier)
	}
	row := srcDrawnRows(p)[96]
	if row == nil || row.sw.relief != colormap.Sunken {
		t.Errorf("line 96 (difference %g) should have a sunken square", barrier)
	}
}

// TestSourceNoLocation selects a call path without any recorded source.
func TestSourceNoLocation(t *testing.T) {
	e := handMade()
	for i := range e.Regions {
		e.Regions[i].Module, e.Regions[i].Begin = "MPI", -1
	}
	for i := range e.Cnodes {
		e.Cnodes[i].CallFile, e.Cnodes[i].CallLine = "", -1
	}
	a := newTestApp(t)
	w := a.Show(&document.Doc{Exp: e, Name: "no sources"})
	w.panels.ShowSource(true)
	srcPickCallPath(t, w, "main/foo")
	p := w.panels.source
	if p.m.File() != nil || !p.messageBox.Visible() || p.locate.Visible() {
		t.Errorf("file %v, message %v, Locate %v: want a message without Locate", p.m.File(), p.messageBox.Visible(), p.locate.Visible())
	}
	if !strings.Contains(p.message.Text, "No source location") || !strings.Contains(p.message.Text, "foo") {
		t.Errorf("message %q", p.message.Text)
	}
}

// srcBigFile writes a C file of n functions of 10 lines each; see
// handmade.BigSource.
func srcBigFile(t testing.TB, n int) (string, *model.Experiment) { return handmade.BigSource(t, n) }

// TestSourceLargeFile opens a file too large to highlight before showing
// it: the lines around the region come highlighted at once, the rest as
// plain text, and the complete highlighting replaces them later.
func TestSourceLargeFile(t *testing.T) {
	const functions = 1000 // 10,000 lines
	_, e := srcBigFile(t, functions)
	a := newTestApp(t)
	var queue []func()
	a.async = func(work, done func()) { queue = append(queue, func() { work(); done() }) }
	w := a.Show(&document.Doc{Exp: e, Name: "big"})
	w.win.Resize(fyne.NewSize(1400, 900))
	for len(queue) > 0 { // metric data
		job := queue[0]
		queue = queue[1:]
		job()
	}
	w.panels.ShowSource(true)
	p := w.panels.source
	const f = 900
	srcPickCallPath(t, w, fmt.Sprintf("main/kernel_%d", f))
	if len(queue) != 1 {
		t.Fatalf("%d background jobs queued, want the file's reading", len(queue))
	}
	queue[0]()
	queue = queue[1:]

	begin := 10*f + 2
	if p.m.File() == nil || len(p.m.File().Lines) != 10*functions || p.m.File().Exact {
		t.Fatalf("first view: %+v, want %d lines, not yet highlighted completely", p.m.File(), 10*functions)
	}
	category := func(line int, text string) sourceview.Category {
		for _, s := range p.m.Lines()[line-1].Spans {
			if strings.Contains(s.Text, text) {
				return s.Category
			}
		}
		t.Fatalf("line %d has no span with %q: %v", line, text, p.m.Lines()[line-1].Spans)
		return 0
	}
	if c := category(begin+3, "for"); c != sourceview.Keyword {
		t.Errorf("line %d: \"for\" is %v in the first view, want keyword", begin+3, c)
	}
	if c := category(5, "for"); c != sourceview.Plain {
		t.Errorf("line 5, far from the region: \"for\" is %v in the first view, want plain until highlighted", c)
	}
	if !strings.Contains(p.info.Text, "highlighting") {
		t.Errorf("info %q does not say highlighting goes on", p.info.Text)
	}
	if r := srcDrawnRows(p)[begin]; r == nil || !srcInView(p, r) {
		t.Errorf("line %d not in view", begin)
	}
	if len(queue) != 1 {
		t.Fatalf("%d background jobs queued, want the complete highlighting", len(queue))
	}
	queue[0]()
	if !p.m.File().Exact || category(5, "for") != sourceview.Keyword {
		t.Error("after the complete highlighting, line 5 is still plain")
	}
	if strings.Contains(p.info.Text, "highlighting") {
		t.Errorf("info %q still says highlighting goes on", p.info.Text)
	}
	// The annotations: each kernel's definition and its call from main.
	if as := p.m.Notes()[begin]; len(as) != 1 || as[0].Kind != sourceview.RegionBegin || as[0].Name != fmt.Sprintf("kernel_%d", f) {
		t.Errorf("line %d annotations %v", begin, as)
	}
	if got := len(p.m.Notes()); got != 2*functions {
		t.Errorf("%d annotated lines, want %d", got, 2*functions)
	}
}

// TestSourceSelectionMovesWithinFile moves the selection within the file
// shown: no new reading, just scrolling.
func TestSourceSelectionMovesWithinFile(t *testing.T) {
	_, e := srcBigFile(t, 200)
	a := newTestApp(t)
	w := a.Show(&document.Doc{Exp: e, Name: "big"})
	w.win.Resize(fyne.NewSize(1400, 900))
	w.panels.ShowSource(true)
	p := w.panels.source
	srcPickCallPath(t, w, "main/kernel_10")
	file := p.m.File()
	for _, f := range []int{150, 3, 199} {
		srcPickCallPath(t, w, fmt.Sprintf("main/kernel_%d", f))
		if p.m.File() != file {
			t.Errorf("kernel_%d: the file was read again", f)
		}
		if r := srcDrawnRows(p)[10*f+2]; r == nil || !srcInView(p, r) {
			t.Errorf("kernel_%d: line %d not in view", f, 10*f+2)
		}
	}
}

// TestSourceMenuToggles checks the View menu item.
func TestSourceMenuToggles(t *testing.T) {
	a := newTestApp(t)
	w, _ := srcExample(t, a)
	item := srcMenuItem(w, "View", "Source")
	if item == nil {
		t.Fatal("no View › Source menu item")
	}
	item.Action()
	if !w.panels.SourceShown() || w.panels.source.m.File() == nil {
		t.Fatal("View › Source did not show the source of the selection")
	}
	if it := srcMenuItem(w, "View", "Source"); it == nil || !it.Checked {
		t.Error("the menu item is not checked while the panel is shown")
	}
	srcMenuItem(w, "View", "Source").Action()
	if w.panels.SourceShown() {
		t.Error("the second View › Source did not hide the panel")
	}
}

func srcMenuItem(w *Window, menu, label string) *fyne.MenuItem {
	for _, m := range w.win.MainMenu().Items {
		if m.Label != menu {
			continue
		}
		for _, it := range m.Items {
			if it.Label == label {
				return it
			}
		}
	}
	return nil
}

// TestSourceFlatProfile follows the selection in the flat profile: a
// region shows its definition, its "Subroutines" row too.
func TestSourceFlatProfile(t *testing.T) {
	a := newTestApp(t)
	w, files := srcExample(t, a)
	e := w.Document().Exp
	w.panels.ShowSource(true)
	w.SetFlat(true)
	p := w.panels.source
	ySolve := -1
	for i, r := range e.Regions {
		if r.Name == "y_solve" {
			ySolve = i
		}
	}
	for _, n := range []view.Node{{Kind: view.RegionNode, Index: ySolve}, {Kind: view.SubroutinesNode, Index: ySolve}} {
		w.Pane(view.CallPane).Reveal(n)
		if w.view.Selected(view.CallPane) != n {
			t.Fatalf("%v not selected", n)
		}
		if want := filepath.Join(files.Dir, "example-src", "solver.c"); p.m.File() == nil || p.m.File().Path != want {
			t.Fatalf("%v: shows %v, want %s", n, p.m.File(), want)
		}
		if p.m.Target().Begin != 68 || p.m.Target().End != 76 {
			t.Errorf("%v: shaded %d–%d, want y_solve's 68–76", n, p.m.Target().Begin, p.m.Target().End)
		}
		if r := srcDrawnRows(p)[68]; r == nil || !srcInView(p, r) {
			t.Errorf("%v: line 68 not in view", n)
		}
	}
}

// TestSourceDroppedAnnotations shows a file shorter than the experiment
// says: the annotations beyond its end are counted and reported.
func TestSourceDroppedAnnotations(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "foo.c")
	if err := os.WriteFile(path, []byte("int x;\nvoid foo(void)\n{\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := handMade()
	e.Regions[1].Module, e.Regions[1].Begin, e.Regions[1].End = path, 2, 4
	e.Cnodes[2].CallFile, e.Cnodes[2].CallLine = path, 3  // foo calls foo on line 3
	e.Cnodes[3].CallFile, e.Cnodes[3].CallLine = path, 40 // bar called beyond the end
	a := newTestApp(t)
	w := a.Show(&document.Doc{Exp: e, Name: "edited"})
	w.panels.ShowSource(true)
	srcPickCallPath(t, w, "main/foo")
	p := w.panels.source
	srcCheckAnnotatedLines(t, p, 2, 3)
	if p.m.Dropped() != 1 || !strings.Contains(p.info.Text, "1 annotation beyond the last line") {
		t.Errorf("dropped %d, info %q; want 1 reported", p.m.Dropped(), p.info.Text)
	}
}
