package ui

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"cubeview/algebra"
	"cubeview/assets"
	"cubeview/cli"
	"cubeview/colormap"
	"cubeview/dialogform"
	"cubeview/document"
	"cubeview/form"
	"cubeview/format"
	"cubeview/model"
	"cubeview/view"
)

// openPair writes the bundled pair into a temporary folder and opens
// before and after, in this order.
func openPair(t *testing.T, a *App) (before, after *Window) {
	t.Helper()
	files, err := assets.WriteExample(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return openWindow(t, a, files.Before), openWindow(t, a, files.After)
}

// lastWindow returns the window opened last, made tall so that the panes
// lay out many rows.
func lastWindow(t *testing.T, a *App) *Window {
	t.Helper()
	ws := a.Windows()
	w := ws[len(ws)-1]
	if w.Document() == nil {
		t.Fatal("the last window shows no experiment")
	}
	w.win.Resize(fyne.NewSize(1600, 4000))
	return w
}

// submit runs an algebra form as its Compute button does and returns the
// result's window.
func submit(t *testing.T, a *App, f *dialogform.OperationForm) *Window {
	t.Helper()
	n := len(a.Windows())
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	if len(a.Windows()) != n+1 {
		t.Fatalf("%d windows after the operation, want %d", len(a.Windows()), n+1)
	}
	return lastWindow(t, a)
}

// set sets field x of form f as the user does, failing t when x does
// not offer text.
func set(t *testing.T, f *form.Form, x *form.Field, text string) {
	t.Helper()
	if err := f.Set(x, text); err != nil {
		t.Fatal(err)
	}
}

// menuItem finds the item labelled label in the menu named menu of w.
func menuItem(w *Window, menu, label string) *fyne.MenuItem {
	for _, m := range w.menus.bar().Items {
		if m.Label != menu {
			continue
		}
		for _, it := range m.Items {
			if it.Label == label {
				return it
			}
			if it.ChildMenu != nil {
				for _, c := range it.ChildMenu.Items {
					if c.Label == label {
						return c
					}
				}
			}
		}
	}
	return nil
}

// revealMetric reveals and selects the metric with unique name uniq.
func revealMetric(t *testing.T, w *Window, uniq string) view.Node {
	t.Helper()
	m := w.Document().Exp.MetricByName(uniq)
	if m < 0 {
		t.Fatalf("%s has no metric %q", w.Document().Name, uniq)
	}
	n := view.Node{Kind: view.MetricNode, Index: m}
	for _, anc := range w.view.Ancestors(view.MetricPane, n) {
		w.Pane(view.MetricPane).OpenBranch(anc.ID())
	}
	selectRow(w, view.MetricPane, n)
	return n
}

// byPath sums per-cnode values by call path. Integration keeps call paths,
// so for linear operators the sums by path of a result follow from those
// of the operands, whatever nodes were matched.
func byPath(e *model.Experiment, vals []float64) map[string]float64 {
	out := map[string]float64{}
	for c, v := range vals {
		out[e.CallPath(c)] += v
	}
	return out
}

func cnodeValues(t *testing.T, e *model.Experiment, uniq string, inclusive bool) []float64 {
	t.Helper()
	m := e.MetricByName(uniq)
	if m < 0 {
		t.Fatalf("%s has no metric %q", e.Source, uniq)
	}
	v, err := e.CallTreeValues(model.MetricSel{Metric: m, Inclusive: inclusive}, false)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestAlgebraMenuInEveryWindow checks the menu entries, also in a window
// without an experiment, where they are disabled.
func TestAlgebraMenuInEveryWindow(t *testing.T) {
	a := newTestApp(t)
	before, _ := openPair(t, a)
	for _, label := range []string{"Difference…", "Merge…", "Mean…", "Reroot here", "Prune here"} {
		it := menuItem(before, "Algebra", label)
		if it == nil || it.Disabled || it.Action == nil {
			t.Errorf("Algebra › %s missing or disabled: %+v", label, it)
		}
	}
	if it := menuItem(before, "File", "Properties…"); it == nil || it.Disabled {
		t.Error("File › Properties… missing or disabled")
	}
	empty := a.newWindow()
	if it := menuItem(empty, "Algebra", "Difference…"); it == nil || !it.Disabled {
		t.Errorf("Difference… in an empty window = %+v, want disabled", it)
	}
	// The menu item opens the dialog.
	menuItem(before, "Algebra", "Difference…").Action()
	if before.win.Canvas().Overlays().Top() == nil {
		t.Error("Difference… shows no dialog")
	}
}

// TestDifferenceFromMenu runs Difference on the bundled pair as the
// dialog does and compares the new window's call-tree rows with
// algebra.Diff, and with the operands' values by call path.
func TestDifferenceFromMenu(t *testing.T) {
	a := newTestApp(t)
	bw, aw := openPair(t, a)
	f := bw.dialogs.newOperationForm(algebra.OpDiff)
	if f.Minuend.Text != "before.cubex" || f.Subtrahend.Text != "after.cubex" {
		t.Fatalf("preselected %q − %q, want before.cubex − after.cubex", f.Minuend.Text, f.Subtrahend.Text)
	}
	if !strings.Contains(f.Preview.Text, "before − after") {
		t.Errorf("dialog preview %q", f.Preview.Text)
	}
	w := submit(t, a, f)
	if got := w.win.Title(); got != "cubeview — before − after" {
		t.Errorf("title %q", got)
	}
	if !slices.Equal(w.Document().Operands, []string{"before", "after"}) {
		t.Errorf("operands %v", w.Document().Operands)
	}
	if !w.view.Appearance().Scale().Diverging || bw.view.Appearance().Scale().Diverging {
		t.Errorf("diverging colours: derived %v, original %v; want on, off", w.view.Appearance().Scale().Diverging, bw.view.Appearance().Scale().Diverging)
	}
	be, ae := bw.Document().Exp, aw.Document().Exp
	want, err := algebra.Diff(be, ae, algebra.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := w.Document().Exp
	if len(got.Cnodes) != len(want.Cnodes) {
		t.Fatalf("%d call paths, algebra.Diff has %d", len(got.Cnodes), len(want.Cnodes))
	}
	expandAll(w, view.CallPane)
	for _, uniq := range []string{"time", "mpi_barrier_wait", "mpi_latesender", "visits", "execution"} {
		n := revealMetric(t, w, uniq)
		incl := !(w.view.Expanded(view.MetricPane, n) && w.view.IsBranch(view.MetricPane, n))
		exp := cnodeValues(t, want, uniq, incl)
		rows := shownRows(w.Pane(view.CallPane))
		if len(rows) != len(got.Cnodes) {
			t.Fatalf("%s: %d call rows drawn, want all %d", uniq, len(rows), len(got.Cnodes))
		}
		shown := make([]float64, len(got.Cnodes))
		for node, r := range rows {
			c := node.Index
			if got.CallPath(c) != want.CallPath(c) {
				t.Fatalf("call path %d is %s, algebra.Diff has %s", c, got.CallPath(c), want.CallPath(c))
			}
			if !near(r.Value, exp[c]) {
				t.Errorf("%s at %s: row shows %v, algebra.Diff %v", uniq, got.CallPath(c), r.Value, exp[c])
			}
			shown[c] = r.Value
		}
		// The same from the operands, call path by call path.
		pb, pa := byPath(be, cnodeValues(t, be, uniq, incl)), byPath(ae, cnodeValues(t, ae, uniq, incl))
		for path, v := range byPath(got, shown) {
			if !near(v, pb[path]-pa[path]) {
				t.Errorf("%s at %s: %v, before − after = %v", uniq, path, v, pb[path]-pa[path])
			}
		}
	}

	// Waiting at the barrier was removed: positive, raised. Late Sender
	// waiting migrated to point-to-point messages: negative, sunken.
	for _, tt := range []struct {
		uniq   string
		relief colormap.Relief
	}{{"mpi_barrier_wait", colormap.Raised}, {"mpi_latesender", colormap.Sunken}} {
		n := revealMetric(t, w, tt.uniq)
		r := shownRows(w.Pane(view.MetricPane))[n]
		m := be.MetricByName(tt.uniq)
		tb, _ := be.MetricTotal(model.MetricSel{Metric: m, Inclusive: true})
		ta, _ := ae.MetricTotal(model.MetricSel{Metric: ae.MetricByName(tt.uniq), Inclusive: true})
		if !near(r.Value, tb-ta) || r.Relief != tt.relief {
			t.Errorf("%s row: %v %v, want %v (before %v − after %v) %v", tt.uniq, r.Value, r.Relief, tb-ta, tb, ta, tt.relief)
		}
		if tt.relief == colormap.Raised && r.Value <= 0 || tt.relief == colormap.Sunken && r.Value >= 0 {
			t.Errorf("%s: value %v has the wrong sign", tt.uniq, r.Value)
		}
		// The call path carrying it has the same sign.
		extreme := view.Node{}
		for node, cr := range shownRows(w.Pane(view.CallPane)) {
			if !extreme.Valid() || math.Abs(cr.Value) > math.Abs(shownRows(w.Pane(view.CallPane))[extreme].Value) {
				extreme = node
			}
		}
		if cr := shownRows(w.Pane(view.CallPane))[extreme]; cr.Relief != tt.relief {
			t.Errorf("%s: largest call row %s is %v, want %v", tt.uniq, got.CallPath(extreme.Index), cr.Relief, tt.relief)
		}
	}
}

// TestMergeShowsUnionOfMetrics merges two runs with different hardware
// counters: the window has every metric of both, each from the first
// operand that has it, and marks those only one run measured.
func TestMergeShowsUnionOfMetrics(t *testing.T) {
	a := newTestApp(t)
	l2 := openWindow(t, a, dataFile(t, "cube4/hw_counter/L2_DCM_negative.cubex"))
	l3 := openWindow(t, a, dataFile(t, "cube4/hw_counter/L3_DCA_negative.cubex"))
	f := l2.dialogs.newOperationForm(algebra.OpMerge)
	if got := f.Selected(); len(got) != 2 || got[0] != l2.Document() || got[1] != l3.Document() {
		t.Fatalf("preselected operands %v", got)
	}
	w := submit(t, a, f)
	if got := w.win.Title(); got != "cubeview — merge(L2_DCM_negative, L3_DCA_negative)" {
		t.Errorf("title %q", got)
	}
	e2, e3, got := l2.Document().Exp, l3.Document().Exp, w.Document().Exp
	union := map[string]bool{}
	for _, e := range []*model.Experiment{e2, e3} {
		for _, m := range e.Metrics {
			if !m.Hidden() {
				union[m.UniqName] = true
			}
		}
	}
	for _, r := range w.view.Roots(view.MetricPane) {
		w.expandSubtree(view.MetricPane, r, true)
	}
	shown := map[string]view.Row{}
	for n, r := range shownRows(w.Pane(view.MetricPane)) {
		shown[got.Metrics[n.Index].UniqName] = r
	}
	if len(shown) != len(union) {
		t.Errorf("metric pane shows %d metrics, the union has %d", len(shown), len(union))
	}
	onlyIn := 0
	for u := range union {
		r, ok := shown[u]
		if !ok {
			t.Errorf("metric %s missing from the merge", u)
			continue
		}
		in2, in3 := e2.MetricByName(u) >= 0, e3.MetricByName(u) >= 0
		var want string
		switch {
		case in2 && !in3:
			want = "A" // the first operand
		case in3 && !in2:
			want = "B"
		}
		if r.Marker != want {
			t.Errorf("metric %s marker %q, want %q", u, r.Marker, want)
		}
		if want != "" {
			onlyIn++
		}
		// Values: the first operand that has the metric.
		src := e2
		if !in2 {
			src = e3
		}
		m := got.MetricByName(u)
		if got.Metrics[m].Unavailable != "" {
			continue
		}
		x, err := src.MetricTotal(model.MetricSel{Metric: src.MetricByName(u), Inclusive: true})
		if err != nil {
			t.Fatal(err)
		}
		y, err := got.MetricTotal(model.MetricSel{Metric: m, Inclusive: true})
		if err != nil {
			t.Fatal(err)
		}
		if !near(x, y) {
			t.Errorf("metric %s: merge total %v, first operand with it has %v", u, y, x)
		}
	}
	if onlyIn == 0 {
		t.Error("no metric is marked as measured in one run only")
	}
}

// TestMeanOfThreeRuns averages three runs of a sweep chosen in the Mean
// dialog and checks every expanded call row against the operands.
func TestMeanOfThreeRuns(t *testing.T) {
	a := newTestApp(t)
	var ws []*Window
	for _, x := range []string{"10", "25", "50", "2000"} {
		ws = append(ws, openWindow(t, a, dataFile(t, "cube4/mm_sweep/mm.x"+x+"y1z1.r1.cubex")))
	}
	f := ws[0].dialogs.newOperationForm(algebra.OpMean)
	f.CheckOnly(ws[0].Document(), ws[1].Document(), ws[2].Document())
	w := submit(t, a, f)
	if got := w.win.Title(); got != "cubeview — mean(mm.x10y1z1.r1, mm.x25y1z1.r1, mm.x50y1z1.r1)" {
		t.Errorf("title %q", got)
	}
	if w.view.Appearance().Scale().Diverging {
		t.Error("a mean has no negative values; diverging colours should stay off")
	}
	got := w.Document().Exp
	expandAll(w, view.CallPane)
	checked := 0
	for _, m := range got.Metrics {
		if m.Hidden() || m.Unavailable != "" || m.Aggregation != model.Sum {
			continue
		}
		n := revealMetric(t, w, m.UniqName)
		incl := !(w.view.Expanded(view.MetricPane, n) && w.view.IsBranch(view.MetricPane, n))
		shown := make([]float64, len(got.Cnodes))
		rows := shownRows(w.Pane(view.CallPane))
		if len(rows) != len(got.Cnodes) {
			t.Fatalf("%d call rows drawn, want %d", len(rows), len(got.Cnodes))
		}
		for node, r := range rows {
			shown[node.Index] = r.Value
		}
		sum := map[string]float64{}
		for _, op := range ws[:3] {
			e := op.Document().Exp
			if e.MetricByName(m.UniqName) < 0 {
				continue
			}
			for p, v := range byPath(e, cnodeValues(t, e, m.UniqName, incl)) {
				sum[p] += v
			}
		}
		for p, v := range byPath(got, shown) {
			if !near(v, sum[p]/3) {
				t.Errorf("%s at %s: %v, want (sum of the runs) / 3 = %v", m.UniqName, p, v, sum[p]/3)
			}
		}
		checked++
	}
	if checked < 2 {
		t.Errorf("only %d metrics checked", checked)
	}
}

// cutAndDiff prunes exchange_halo from the bundled before run through the
// Algebra menu's cut and opens before − cut, where the pruned call paths
// are only in before.
func cutAndDiff(t *testing.T, a *App) (before, cut, diff *Window) {
	t.Helper()
	before, _ = openPair(t, a)
	e := before.Document().Exp
	c := e.CnodeByPath("main/solver_iterate/exchange_halo")
	if c < 0 {
		t.Fatal("example has no exchange_halo call path")
	}
	before.Pane(view.CallPane).Reveal(view.Node{Kind: view.CnodeNode, Index: c})
	if s := before.view.Selected(view.CallPane); s != (view.Node{Kind: view.CnodeNode, Index: c}) {
		t.Fatalf("selected %v", s)
	}
	if err := before.dialogs.CutSelected(true); err != nil {
		t.Fatal(err)
	}
	cut = lastWindow(t, a)
	if got := cut.Document().Name; got != "cut(before, prune exchange_halo)" {
		t.Errorf("cut window named %q", got)
	}
	f := before.dialogs.newOperationForm(algebra.OpDiff)
	set(t, f.Form, f.Minuend, "before.cubex")
	set(t, f.Form, f.Subtrahend, cut.Document().Name)
	diff = submit(t, a, f)
	return before, cut, diff
}

// TestMarkersOnCallPathsOfOneOperand checks that exactly the call paths
// and regions the cut removed are marked "only in before" in the call
// tree and the flat profile, with the tooltip text saying what is missing.
func TestMarkersOnCallPathsOfOneOperand(t *testing.T) {
	a := newTestApp(t)
	before, cut, w := cutAndDiff(t, a)
	be, got := before.Document().Exp, w.Document().Exp
	if want := "before − cut(before, prune exchange_halo)"; w.Document().Expression != want {
		t.Errorf("expression %q, want %q", w.Document().Expression, want)
	}
	// The pruned call paths: exchange_halo and everything below it.
	pruned := map[string]bool{}
	for c := range be.Cnodes {
		if p := be.CallPath(c); strings.Contains(p+"/", "/exchange_halo/") {
			pruned[p] = true
		}
	}
	if len(pruned) != 4 {
		t.Fatalf("example: %d call paths at or below exchange_halo, want 4", len(pruned))
	}
	expandAll(w, view.CallPane)
	marked := 0
	for n, r := range shownRows(w.Pane(view.CallPane)) {
		p := got.CallPath(n.Index)
		want := ""
		if pruned[p] {
			want = "A"
			marked++
			if tip := w.view.Tooltip(n); !strings.Contains(tip, "only in A (before), not in B (cut(before, prune exchange_halo))") {
				t.Errorf("tooltip of %s: %q", p, tip)
			}
		}
		if r.Marker != want {
			t.Errorf("call path %s: marker %q, want %q", p, r.Marker, want)
		}
	}
	if marked != len(pruned) {
		t.Errorf("%d marked call rows, want %d", marked, len(pruned))
	}
	// The hover line shows the same text.
	for n := range shownRows(w.Pane(view.CallPane)) {
		if pruned[got.CallPath(n.Index)] {
			w.Pane(view.CallPane).OnHover(n, true)
			if !strings.Contains(w.hint.Text, "not in B (cut(") {
				t.Errorf("hover text %q", w.hint.Text)
			}
			break
		}
	}
	// solver_iterate took over exchange_halo's time in the cut: before −
	// cut is minus exchange_halo's inclusive time there.
	time := cnodeValues(t, be, "time", true)
	halo := be.CallInclusive(time, model.Sum)[be.CnodeByPath("main/solver_iterate/exchange_halo")]
	revealMetric(t, w, "time")
	caller := view.Node{Kind: view.CnodeNode, Index: got.CnodeByPath("main/solver_iterate")}
	if r := shownRows(w.Pane(view.CallPane))[caller]; !near(r.Value, -halo) || r.Marker != "" || halo <= 0 {
		t.Errorf("solver_iterate: %v %q, want %v unmarked", r.Value, r.Marker, -halo)
	}
	// Flat profile: the regions only the pruned paths call.
	w.SetFlat(true)
	for n, r := range shownRows(w.Pane(view.CallPane)) {
		if n.Kind != view.RegionNode {
			continue
		}
		name := got.Regions[n.Index].Name
		want := ""
		if slices.Contains([]string{"exchange_halo", "MPI_Irecv", "MPI_Isend", "MPI_Waitall"}, name) {
			want = "A"
		}
		if r.Marker != want {
			t.Errorf("flat region %s: marker %q, want %q", name, r.Marker, want)
		}
	}
	if cut.view.Markers().Names() != nil {
		t.Errorf("a cut has one operand and no markers, got operands %v", cut.view.Markers().Names())
	}
}

// TestMarkersOnLocations differs runs on 64 and 27 processes: processes
// 27–63 are marked in the system tree.
func TestMarkersOnLocations(t *testing.T) {
	a := newTestApp(t)
	p64 := openWindow(t, a, dataFile(t, "cube4/lulesh/lulesh.p64.size25.r1.cubex"))
	openWindow(t, a, dataFile(t, "cube4/lulesh/lulesh.p27.size25.r1.cubex"))
	w := submit(t, a, p64.dialogs.newOperationForm(algebra.OpDiff))
	expandAll(w, view.SystemPane)
	e := w.Document().Exp
	groups := 0
	for n, r := range shownRows(w.Pane(view.SystemPane)) {
		s := e.System[n.Index]
		if s.Kind != model.Group {
			continue
		}
		groups++
		want := ""
		if s.Rank >= 27 {
			want = "A" // lulesh.p64.size25.r1, the minuend
		}
		if r.Marker != want {
			t.Errorf("process rank %d: marker %q, want %q", s.Rank, r.Marker, want)
		}
	}
	if groups != 64 {
		t.Errorf("%d process rows, want 64", groups)
	}
}

// TestExternalPercentOfOperand reads a difference in percent of the old
// run: by default its minuend, then another experiment from the chooser.
func TestExternalPercentOfOperand(t *testing.T) {
	a := newTestApp(t)
	bw, aw := openPair(t, a)
	w := submit(t, a, bw.dialogs.newOperationForm(algebra.OpDiff))
	revealMetric(t, w, "mpi_barrier_wait")
	expandAll(w, view.CallPane)
	check := func(ref *model.Experiment) {
		t.Helper()
		m := ref.MetricByName("mpi_barrier_wait")
		total, err := ref.MetricTotal(model.MetricSel{Metric: m, Inclusive: true})
		if err != nil || total <= 0 {
			t.Fatalf("reference total %v, %v", total, err)
		}
		excl := cnodeValues(t, w.Document().Exp, "mpi_barrier_wait", true)
		rows := shownRows(w.Pane(view.CallPane))
		nonzero := 0
		for n, r := range rows {
			want := 100 * excl[n.Index] / total
			if !near(r.Value, want) {
				t.Errorf("%s: %v %%, want %v %%", w.Document().Exp.CallPath(n.Index), r.Value, want)
			}
			if want != 0 {
				nonzero++
			}
		}
		if nonzero == 0 {
			t.Error("no call row has a value")
		}
	}
	w.SetMode(view.CallPane, view.ExternalPercent)
	if w.view.Values().External() != bw.Document().Exp {
		t.Fatal("the default reference of before − after is not before")
	}
	if !strings.Contains(w.infos[view.CallPane].Text, "reference before.cubex") {
		t.Errorf("pane info %q does not name the reference", w.infos[view.CallPane].Text)
	}
	check(bw.Document().Exp)

	f := w.dialogs.newReferenceForm()
	if !slices.Equal(f.Field("Reference").Options, []string{"None", "before.cubex", "after.cubex"}) {
		t.Errorf("chooser offers %v", f.Field("Reference").Options)
	}
	if f.Field("Reference").Text != "before.cubex" {
		t.Errorf("chooser shows %q selected", f.Field("Reference").Text)
	}
	set(t, f, f.Field("Reference"), "after.cubex")
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	if w.view.Values().External() != aw.Document().Exp {
		t.Fatal("the chosen reference is not after")
	}
	check(aw.Document().Exp)
	// The reference stays usable after its window closes.
	aw.win.Close()
	w.refresh()
	check(aw.Document().Exp)
	if !strings.Contains(w.infos[view.CallPane].Text, "after (window closed)") {
		t.Errorf("pane info %q", w.infos[view.CallPane].Text)
	}
}

// TestClosingOperandsKeepsDerived closes both operand windows: the
// difference still shows the same values and is still an operand.
func TestClosingOperandsKeepsDerived(t *testing.T) {
	a := newTestApp(t)
	bw, aw := openPair(t, a)
	want, err := algebra.Diff(bw.Document().Exp, aw.Document().Exp, algebra.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := submit(t, a, bw.dialogs.newOperationForm(algebra.OpDiff))
	bw.win.Close()
	aw.win.Close()
	if docs := a.Documents(); len(docs) != 1 || docs[0] != w.Document() {
		t.Fatalf("open experiments after closing the operands: %v", docs)
	}
	expandAll(w, view.CallPane)
	for _, uniq := range []string{"mpi_barrier_wait", "mpi_latesender", "time"} {
		n := revealMetric(t, w, uniq)
		exp := cnodeValues(t, want, uniq, !(w.view.Expanded(view.MetricPane, n) && w.view.IsBranch(view.MetricPane, n)))
		for node, r := range shownRows(w.Pane(view.CallPane)) {
			if !near(r.Value, exp[node.Index]) {
				t.Errorf("%s at %s: %v after closing the operands, want %v", uniq, want.CallPath(node.Index), r.Value, exp[node.Index])
			}
		}
	}
	if p := document.Properties(w.Document()); !strings.Contains(p, "before.cubex") {
		t.Errorf("properties lost the operands:\n%s", p)
	}
	// The result is an operand again: (before − after) − (before − after) = 0.
	f := w.dialogs.newOperationForm(algebra.OpDiff)
	if f.Minuend.Text != "before − after" || f.Subtrahend.Text != "before − after" {
		t.Fatalf("operands %q, %q", f.Minuend.Text, f.Subtrahend.Text)
	}
	z := submit(t, a, f)
	if got := z.Document().Name; got != "(before − after) − (before − after)" {
		t.Errorf("name %q", got)
	}
	revealMetric(t, z, "time")
	expandAll(z, view.CallPane)
	for n, r := range shownRows(z.Pane(view.CallPane)) {
		if r.Value != 0 {
			t.Errorf("%s: %v, want 0", z.Document().Exp.CallPath(n.Index), r.Value)
		}
	}
}

func fileSHA(t *testing.T, path string) (string, int64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), int64(len(data))
}

// TestSaveDerivedKeepsProvenance saves before − cut(before) and reopens
// it: the same expression, operands and markers.
func TestSaveDerivedKeepsProvenance(t *testing.T) {
	a := newTestApp(t)
	before, _, w := cutAndDiff(t, a)
	out := filepath.Join(t.TempDir(), "delta.cubex")
	w.SaveAs(out)
	r := openWindow(t, a, out)
	doc := r.Document()
	if doc.Expression != w.Document().Expression {
		t.Errorf("reopened expression %q, want %q", doc.Expression, w.Document().Expression)
	}
	if got := r.win.Title(); got != "cubeview — delta.cubex (before − cut(before, prune exchange_halo))" {
		t.Errorf("title %q", got)
	}
	if !slices.Equal(doc.Operands, w.Document().Operands) {
		t.Errorf("reopened operands %v, want %v", doc.Operands, w.Document().Operands)
	}
	if !r.view.Appearance().Scale().Diverging {
		t.Error("a reopened difference should use diverging colours")
	}
	markers := func(w *Window) map[string]string {
		expandAll(w, view.CallPane)
		out := map[string]string{}
		for n, row := range shownRows(w.Pane(view.CallPane)) {
			out[w.Document().Exp.CallPath(n.Index)] = row.Marker
		}
		return out
	}
	m1, m2 := markers(w), markers(r)
	if len(m1) != len(m2) {
		t.Errorf("%d call rows before saving, %d after", len(m1), len(m2))
	}
	for p, m := range m1 {
		if m2[p] != m {
			t.Errorf("%s: marker %q after reopening, %q before", p, m2[p], m)
		}
	}
	props := document.Properties(doc)
	sum, size := fileSHA(t, before.Document().Path)
	for _, want := range []string{
		"Expression:   before − cut(before, prune exchange_halo)",
		"Recorded as:  diff(" + before.Document().Path,
		"Saved as:     " + out,
		before.Document().Path,
		"size " + document.GroupDigits(size) + " bytes\n     SHA-256 " + sum,
		"derived, not saved: cut(" + before.Document().Path,
		"system tree automatic, lines ignored when matching",
		"Not in every operand: 0 of 14 metrics, 4 of 16 call paths, 0 of 16 locations",
	} {
		if !strings.Contains(props, want) {
			t.Errorf("properties lack %q:\n%s", want, props)
		}
	}
}

// TestPropertiesOfOriginal lists file, format, creator and counts.
func TestPropertiesOfOriginal(t *testing.T) {
	a := newTestApp(t)
	bw, _ := openPair(t, a)
	p := document.Properties(bw.Document())
	for _, want := range []string{
		"File:         " + bw.Document().Path + " (54,784 bytes)",
		"Format:       CUBE 4.4 (.cubex)",
		"Creator:      cubeview example generator",
		"14 metrics, 16 regions, 16 call paths (1 root), 16 processes, 16 locations",
		"Example::Run = before",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("properties lack %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "Derived") || strings.Contains(p, "Not in every operand") {
		t.Errorf("an original described as derived:\n%s", p)
	}
	bw.dialogs.showProperties()
	if bw.win.Canvas().Overlays().Top() == nil {
		t.Error("File › Properties shows no dialog")
	}
}

// TestCompositeEqualsCalc builds diff(mean(x10, x25), mean(x50, x2000))
// with the Mean and Difference dialogs and compares its dump with that of
// "cubeview calc" of the same expression.
func TestCompositeEqualsCalc(t *testing.T) {
	a := newTestApp(t)
	var files []string
	var ws []*Window
	for _, x := range []string{"10", "25", "50", "2000"} {
		p := dataFile(t, "cube4/mm_sweep/mm.x"+x+"y1z1.r1.cubex")
		files = append(files, p)
		ws = append(ws, openWindow(t, a, p))
	}
	f := ws[0].dialogs.newOperationForm(algebra.OpMean)
	f.CheckOnly(ws[0].Document(), ws[1].Document())
	m1 := submit(t, a, f)
	f = ws[2].dialogs.newOperationForm(algebra.OpMean)
	f.CheckOnly(ws[2].Document(), ws[3].Document())
	m2 := submit(t, a, f)
	d := m1.dialogs.newOperationForm(algebra.OpDiff)
	set(t, d.Form, d.Subtrahend, m2.Document().Name)
	w := submit(t, a, d)
	if got := w.Document().Name; got != "mean(mm.x10y1z1.r1, mm.x25y1z1.r1) − mean(mm.x50y1z1.r1, mm.x2000y1z1.r1)" {
		t.Errorf("name %q", got)
	}
	dir := t.TempDir()
	gui := filepath.Join(dir, "gui.cubex")
	w.SaveAs(gui)
	calc := filepath.Join(dir, "calc.cubex")
	expr := "diff(mean(" + files[0] + ", " + files[1] + "), mean(" + files[2] + ", " + files[3] + "))"
	run := func(args ...string) string {
		var stdout, stderr bytes.Buffer
		if code := cli.Main(args, cli.Env{Stdout: &stdout, Stderr: &stderr}); code != 0 {
			t.Fatalf("cubeview %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
		}
		return stdout.String()
	}
	run("calc", expr, "-o", calc)
	for _, mode := range []string{"--excl", "--incl"} {
		x, y := run("dump", mode, gui), run("dump", mode, calc)
		if x != y {
			t.Errorf("dump %s of the dialogs' result differs from cubeview calc", mode)
		}
		e := w.Document().Exp
		if n := strings.Count(x, "\n"); n != 1+len(e.Cnodes)*len(e.Locations) {
			t.Errorf("dump %s has %d lines, want a header and %d×%d rows", mode, n, len(e.Cnodes), len(e.Locations))
		}
	}
	// Same expression recorded, and the same name on reopening.
	ge, err := format.Open(gui)
	if err != nil {
		t.Fatal(err)
	}
	pg, _, _ := algebra.ReadProvenance(ge)
	if pg.Expression != expr {
		t.Errorf("recorded expression %q, want %q", pg.Expression, expr)
	}
	r := openWindow(t, a, gui)
	if r.Document().Expression != w.Document().Name {
		t.Errorf("reopened as %q, want %q", r.Document().Expression, w.Document().Name)
	}
}

// TestCutErrors reports a cut that cannot be made instead of opening a window.
func TestCutErrors(t *testing.T) {
	a := newTestApp(t)
	bw, _ := openPair(t, a)
	var got error
	a.fatal = func(err error) { got = err }
	n := len(a.Windows())
	bw.dialogs.CutSelected(true) // main is selected: a root cannot be pruned
	if got == nil || !strings.Contains(got.Error(), "main") || len(a.Windows()) != n {
		t.Errorf("pruning the root: error %v, %d windows (want %d)", got, len(a.Windows()), n)
	}
	bw.SetFlat(true)
	bw.view.Select(view.CallPane, view.Node{Kind: view.SubroutinesNode, Index: 0})
	if err := bw.dialogs.CutSelected(false); err == nil {
		t.Error("cut at a Subroutines row should fail")
	}
}

// TestOperationFormChecks rejects too few operands.
func TestOperationFormChecks(t *testing.T) {
	a := newTestApp(t)
	bw, aw := openPair(t, a)
	f := bw.dialogs.newOperationForm(algebra.OpMean)
	f.CheckOnly(aw.Document())
	if err := f.Confirmed(); err == nil || !strings.Contains(err.Error(), "at least two") {
		t.Errorf("mean of one: %v", err)
	}
	if !strings.Contains(f.Preview.Text, "at least two") {
		t.Errorf("preview %q", f.Preview.Text)
	}
	// Order in the merge list follows the arrows.
	m := bw.dialogs.newOperationForm(algebra.OpMerge)
	m.Move(m.Operands, 0, 1)
	if got := m.Selected(); len(got) != 2 || got[0] != aw.Document() {
		t.Errorf("after moving before down: %v", got)
	}
	r, err := m.Request()
	if err != nil || r.Name() != "merge(after, before)" {
		t.Errorf("request %q, %v", r.Name(), err)
	}
	set(t, m.Form, m.System, "collapse")
	m.SetOn(m.Strict, true)
	if o, err := m.Options(); err != nil || o.System != algebra.SystemCollapse || !o.StrictLines {
		t.Errorf("options %+v", o)
	}
}

// TestOpenExpression opens the result of an expression over files, as
// the --calc flag does.
func TestOpenExpression(t *testing.T) {
	files, err := assets.WriteExample(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a := newTestApp(t)
	a.OpenExpression("diff("+files.Before+", "+files.After+")", algebra.Options{}, nil)
	w := lastWindow(t, a)
	if got := w.win.Title(); got != "cubeview — before − after" {
		t.Errorf("title %q", got)
	}
	if !slices.Equal(w.Document().Operands, []string{"before", "after"}) || !w.view.Appearance().Scale().Diverging {
		t.Errorf("operands %v, diverging %v", w.Document().Operands, w.view.Appearance().Scale().Diverging)
	}
	var got error
	a.fatal = func(err error) { got = err }
	a.OpenExpression("diff(nosuch.cubex, "+files.After+")", algebra.Options{}, nil)
	if got == nil || !strings.Contains(got.Error(), "nosuch.cubex") {
		t.Errorf("error %v does not name the missing file", got)
	}
}

// TestDisplayNames renders recorded expressions for people.
func TestDisplayNames(t *testing.T) {
	tests := []struct {
		expr, name string
		operands   []string
	}{
		{"diff(/runs/before.cubex, /runs/after.cubex)", "before − after", []string{"before", "after"}},
		{"mean(/r/run1.cubex, /r/run2.cube, /r/run3.cube.gz)", "mean(run1, run2, run3)", []string{"run1", "run2", "run3"}},
		{"diff(mean(a.cubex, b.cubex), diff(c.cubex, d.cubex))", "mean(a, b) − (c − d)", []string{"mean(a, b)", "c − d"}},
		{"diff(r1/mm.cubex, r2/mm.cubex)", "r1/mm − r2/mm", []string{"r1/mm", "r2/mm"}},
		{`cut(x.cubex, prune="foo")`, "cut(x, prune foo)", []string{"x"}},
		{"merge(diff(a.cubex, b.cubex), c.cubex)", "merge(a − b, c)", []string{"a − b", "c"}},
	}
	for _, tt := range tests {
		x, err := algebra.Parse(tt.expr)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.expr, err)
			continue
		}
		name, ops, ok := document.NameOfExpression(x)
		if !ok || name != tt.name || !slices.Equal(ops, tt.operands) {
			t.Errorf("NameOfExpression(%q) = %q, %q, %v; want %q, %q", tt.expr, name, ops, ok, tt.name, tt.operands)
		}
	}
	if _, _, ok := document.NameOfExpression(nil); ok {
		t.Error("a broken expression parsed")
	}
}

func TestMarkerText(t *testing.T) {
	e := handMade()
	for i := range e.Cnodes {
		e.Cnodes[i].Present = 7
	}
	e.Cnodes[4].Present = 1 // bar under main: only in run1
	e.Cnodes[3].Present = 6 // bar under foo: in run2, run3
	e.System[5].Present = 3
	v := view.NewView(e)
	v.Markers().SetNames([]string{"run1", "run2", "run3"})
	for _, tt := range []struct {
		n    view.Node
		want string
	}{
		{cBar, "A"},
		{cBar3, "B,C"},
		{cFoo, ""},
		{sRank1, "A,B"},
		{mTime, ""}, // Present 0: not recorded
		{rBar, ""},  // bar is called in all three runs somewhere
	} {
		if got := v.Row(view.PaneOf(tt.n), tt.n).Marker; got != tt.want {
			t.Errorf("Marker(%v) = %q, want %q", tt.n, got, tt.want)
		}
	}
	if tip := v.Tooltip(cBar); !strings.Contains(tip, "bar.c") || !strings.HasSuffix(tip, "only in A (run1), not in B (run2), C (run3)") {
		t.Errorf("tooltip %q", tip)
	}
	e.Cnodes[3].Present = 2
	if got := v.Row(view.PaneOf(rBar), rBar).Marker; got != "A,B" {
		t.Errorf("flat region bar marker %q, want A,B", got)
	}
}
