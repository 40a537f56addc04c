package ui

import (
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"cubeview/colormap"
	"cubeview/document"
	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
	"cubeview/numfmt"
	"cubeview/view"
)

func dataFile(t *testing.T, rel string) string {
	t.Helper()
	return testkit.Data(t, rel)
}

// newTestApp returns an App on Fyne's headless test driver that runs
// background work synchronously, so that tests see its results at once.
func newTestApp(t *testing.T) *App {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // preferences of this test only
	a := NewApp(test.NewTempApp(t))
	a.async = func(work, done func()) { work(); done() }
	a.fatal = func(err error) { t.Errorf("unexpected error: %v", err) }
	return a
}

// openWindow opens path in a tall window, so that the panes lay out many rows.
func openWindow(t *testing.T, a *App, path string) *Window {
	t.Helper()
	a.OpenFile(path, nil)
	ws := a.Windows()
	w := ws[len(ws)-1]
	if w.Document() == nil {
		t.Fatalf("%s did not open", path)
	}
	w.win.Resize(fyne.NewSize(1600, 4000))
	return w
}

// shownRows returns the rows the pane's widgets currently display.
func shownRows(p *TreePane) map[view.Node]view.Row {
	out := map[view.Node]view.Row{}
	for _, r := range rowViews(p) {
		if r.row.Node.Valid() {
			out[r.row.Node] = r.row
		}
	}
	return out
}

func expandAll(w *Window, d view.Dim) {
	for _, r := range w.view.Roots(d) {
		w.expandSubtree(d, r, true)
	}
}

func selectRow(w *Window, d view.Dim, n view.Node) {
	w.Pane(d).Select(n.ID())
}

// TestCallRowsShowModelValues selects metrics in the metric pane of a real
// file and checks that every call-tree row shows exactly the model's
// value: exclusive for expanded rows, inclusive for collapsed ones.
func TestCallRowsShowModelValues(t *testing.T) {
	for _, file := range []string{"cube3/ctest-pomp.cube", "cube4/cpi/profile.cubex"} {
		t.Run(file, func(t *testing.T) {
			a := newTestApp(t)
			w := openWindow(t, a, dataFile(t, file))
			e := w.Document().Exp
			expandAll(w, view.CallPane)
			// Collapse one inner node again, so both states are on screen.
			var inner view.Node
			for _, n := range w.Pane(view.CallPane).VisibleRows() {
				if p := w.view.Parent(view.CallPane, n); p.Valid() && w.view.IsBranch(view.CallPane, n) {
					inner = n
					break
				}
			}
			if inner.Valid() {
				w.Pane(view.CallPane).CloseBranch(inner.ID())
			}
			checked := 0
			for _, m := range e.MetricOrder() {
				if e.Metrics[m].Hidden() || e.Metrics[m].Unavailable != "" || checked >= 6 {
					continue
				}
				checked++
				for _, a := range w.view.Ancestors(view.MetricPane, view.Node{Kind: view.MetricNode, Index: m}) {
					w.Pane(view.MetricPane).OpenBranch(a.ID())
				}
				selectRow(w, view.MetricPane, view.Node{Kind: view.MetricNode, Index: m})
				ms := model.MetricSel{Metric: m, Inclusive: !(w.view.Expanded(view.MetricPane, view.Node{Kind: view.MetricNode, Index: m}) && w.view.IsBranch(view.MetricPane, view.Node{Kind: view.MetricNode, Index: m}))}
				excl, err := e.CallTreeValues(ms, false)
				if err != nil {
					t.Fatal(err)
				}
				incl := e.CallInclusive(excl, e.Metrics[m].Aggregation)
				rows := shownRows(w.Pane(view.CallPane))
				if len(rows) != len(w.Pane(view.CallPane).VisibleRows()) {
					t.Fatalf("%d rows drawn, %d visible", len(rows), len(w.Pane(view.CallPane).VisibleRows()))
				}
				for n, r := range rows {
					want := incl[n.Index]
					if w.Pane(view.CallPane).IsBranchOpen(n.ID()) {
						want = excl[n.Index]
					}
					text := w.view.Appearance().NumberFormat().Format(want, e.Metrics[m].IsInteger())
					if r.Value != want || r.Text != text {
						t.Errorf("metric %s, call path %s: row shows %v %q, model %v %q",
							e.Metrics[m].UniqName, e.CallPath(n.Index), r.Value, r.Text, want, text)
					}
				}
			}
			if checked == 0 {
				t.Fatal("no metric checked")
			}
		})
	}
}

// TestExpandSwitchesToExclusive expands the call root: its row changes
// from the inclusive to the exclusive value.
func TestExpandSwitchesToExclusive(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube4/cpi/profile.cubex"))
	e := w.Document().Exp
	m := e.MetricByName("time")
	selectRow(w, view.MetricPane, view.Node{Kind: view.MetricNode, Index: m})
	root := view.Node{Kind: view.CnodeNode, Index: e.CnodeRoots[0]}
	excl, _ := e.CallTreeValues(model.MetricSel{Metric: m, Inclusive: true}, false)
	incl := e.CallInclusive(excl, model.Sum)
	if got := shownRows(w.Pane(view.CallPane))[root]; got.Value != incl[root.Index] {
		t.Fatalf("collapsed root shows %v, want inclusive %v", got.Value, incl[root.Index])
	}
	w.Pane(view.CallPane).OpenBranch(root.ID())
	if got := shownRows(w.Pane(view.CallPane))[root]; got.Value != excl[root.Index] {
		t.Errorf("expanded root shows %v, want exclusive %v", got.Value, excl[root.Index])
	}
	if excl[root.Index] == incl[root.Index] {
		t.Errorf("test needs a root whose exclusive and inclusive values differ")
	}
	w.Pane(view.CallPane).CloseBranch(root.ID())
	if got := shownRows(w.Pane(view.CallPane))[root]; got.Value != incl[root.Index] {
		t.Errorf("collapsed again root shows %v, want inclusive %v", got.Value, incl[root.Index])
	}
}

// TestSystemFollowsSelections checks the system rows against the model
// for several metric and call selections, with the whole tree expanded.
func TestSystemFollowsSelections(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube3/ctest-pomp.cube"))
	e := w.Document().Exp
	expandAll(w, view.SystemPane)
	expandAll(w, view.CallPane)
	cnodes := e.CnodeOrder()
	for _, uniq := range []string{"0Time", "2MPI", "1Execution"} {
		m := e.MetricByName(uniq)
		if m < 0 {
			t.Fatalf("no metric %s", uniq)
		}
		for _, a := range w.view.Ancestors(view.MetricPane, view.Node{Kind: view.MetricNode, Index: m}) {
			w.Pane(view.MetricPane).OpenBranch(a.ID())
		}
		selectRow(w, view.MetricPane, view.Node{Kind: view.MetricNode, Index: m})
		for _, c := range []int{cnodes[0], cnodes[len(cnodes)/2], cnodes[len(cnodes)-1]} {
			selectRow(w, view.CallPane, view.Node{Kind: view.CnodeNode, Index: c})
			ms := model.MetricSel{Metric: m, Inclusive: !(w.view.Expanded(view.MetricPane, view.Node{Kind: view.MetricNode, Index: m}) && w.view.IsBranch(view.MetricPane, view.Node{Kind: view.MetricNode, Index: m}))}
			cs := model.CnodeSel{Cnode: c, Inclusive: !w.Pane(view.CallPane).IsBranchOpen(view.Node{Kind: view.CnodeNode, Index: c}.ID()) || len(e.Cnodes[c].Children) == 0}
			sys, err := e.SystemTreeValues(ms, e.CnodeSubtree(cs))
			if err != nil {
				t.Fatal(err)
			}
			rows := shownRows(w.Pane(view.SystemPane))
			if len(rows) != len(e.System) {
				t.Fatalf("%d system rows drawn, want all %d", len(rows), len(e.System))
			}
			for n, r := range rows {
				want := sys[n.Index]
				if w.view.IsBranch(view.SystemPane, n) {
					want = math.NaN() // expanded non-leaf: no value of its own
				}
				if !near(r.Value, want) {
					t.Errorf("%s at %s, %s: row %v, model %v", uniq, e.CallPath(c), w.view.Label(n), r.Value, want)
				}
			}
		}
	}
}

// TestReliefShowsSign renders rows of a hand-made difference: the negative
// value's square is sunken (dark top edge), the positive one raised.
func TestReliefShowsSign(t *testing.T) {
	a := newTestApp(t)
	w := a.Show(&document.Doc{Exp: handDiff(), Name: "diff"})
	w.win.Resize(fyne.NewSize(1200, 800))
	w.Pane(view.CallPane).OpenBranch(cMain.ID())
	rows := shownRows(w.Pane(view.CallPane))
	if r := rows[cBar]; r.Value != -4 || r.Relief != colormap.Sunken {
		t.Errorf("bar: %v %v, want −4 sunken", r.Value, r.Relief)
	}
	if r := rows[cFoo]; r.Value != 13 || r.Relief != colormap.Raised {
		t.Errorf("foo: %v %v, want 13 raised", r.Value, r.Relief)
	}
	// Render one row of each sign and look at the square's edges.
	for _, tc := range []struct {
		row               view.Row
		top, bottom, body color.NRGBA
	}{
		{w.view.Row(view.CallPane, cBar), reliefDark, reliefLight, w.view.Row(view.CallPane, cBar).Color},
		{w.view.Row(view.CallPane, cFoo), reliefLight, reliefDark, w.view.Row(view.CallPane, cFoo).Color},
	} {
		rv := newRowView()
		rv.set(tc.row, 60, 8)
		win := test.NewTempWindow(t, rv)
		win.SetPadded(false)
		win.Resize(fyne.NewSize(300, 24))
		img := win.Canvas().Capture()
		sc := win.Canvas().Scale()
		y0 := int(math.Round(float64((rv.Size().Height - swatchSize) / 2 * sc)))
		side := int(swatchSize * sc)
		at := func(x, y int) color.NRGBA { return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA) }
		if got := at(side/2, y0); got != tc.top {
			t.Errorf("%v row: top edge %v, want %v", tc.row.Relief, got, tc.top)
		}
		if got := at(side/2, y0+side-1); got != tc.bottom {
			t.Errorf("%v row: bottom edge %v, want %v", tc.row.Relief, got, tc.bottom)
		}
		if got := at(side/2, y0+side/2); got != tc.body {
			t.Errorf("%v row: body %v, want %v", tc.row.Relief, got, tc.body)
		}
	}
}

// TestValueModes switches the mode selectors and checks the rows against
// percentages computed from the model.
func TestValueModes(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube4/mm_sweep/mm.x25y1z1.r1.cubex"))
	ref := openWindow(t, a, dataFile(t, "cube4/mm_sweep/mm.x10y1z1.r1.cubex"))
	e, x := w.Document().Exp, ref.Document().Exp
	m := e.MetricByName("time")
	selectRow(w, view.MetricPane, view.Node{Kind: view.MetricNode, Index: m})
	expandAll(w, view.CallPane)
	excl, _ := e.CallTreeValues(model.MetricSel{Metric: m, Inclusive: true}, false)
	incl := e.CallInclusive(excl, model.Sum)
	total := model.ForestTotal(excl, model.Sum)
	xm := x.MetricByName("time")
	xtotal, err := x.MetricTotal(model.MetricSel{Metric: xm, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	value := func(n view.Node) float64 {
		if w.Pane(view.CallPane).IsBranchOpen(n.ID()) {
			return excl[n.Index]
		}
		return incl[n.Index]
	}
	rootOf := func(c int) int {
		for e.Cnodes[c].Parent >= 0 {
			c = e.Cnodes[c].Parent
		}
		return c
	}
	tests := []struct {
		mode view.Mode
		want func(n view.Node) float64
	}{
		{view.Absolute, value},
		{view.OwnRootPercent, func(n view.Node) float64 { return 100 * value(n) / incl[rootOf(n.Index)] }},
		{view.MetricRootPercent, func(n view.Node) float64 { return 100 * value(n) / total }},
		{view.MetricSelectionPercent, func(n view.Node) float64 { return 100 * value(n) / total }},
		{view.ExternalPercent, func(n view.Node) float64 { return 100 * value(n) / xtotal }},
	}
	for _, tt := range tests {
		w.modes[view.CallPane].SetSelected(tt.mode.String())
		if w.view.Mode(view.CallPane) != tt.mode {
			t.Fatalf("selector did not switch to %v", tt.mode)
		}
		if tt.mode == view.ExternalPercent && w.view.Values().External() != x {
			t.Fatalf("external reference is not the other open experiment")
		}
		for n, r := range shownRows(w.Pane(view.CallPane)) {
			want := tt.want(n)
			if math.Abs(value(n)) < 1e-7 {
				want = 0
			}
			if !near(r.Value, want) {
				t.Errorf("%v: %s shows %v, want %v", tt.mode, e.CallPath(n.Index), r.Value, want)
			}
			if tt.mode != view.Absolute && r.Text != numfmt.Cube().Format(want, false) {
				t.Errorf("%v: %s text %q", tt.mode, e.CallPath(n.Index), r.Text)
			}
		}
	}
	// The system pane offers call selection percent.
	w.modes[view.SystemPane].SetSelected(view.CallSelectionPercent.String())
	root := view.Node{Kind: view.SystemNode, Index: e.SystemRoots[0]}
	sel := w.view.Selected(view.CallPane)
	if got, want := shownRows(w.Pane(view.SystemPane))[root].Value, 100.0; sel == (view.Node{Kind: view.CnodeNode, Index: e.CnodeRoots[0]}) && !near(got, want) {
		t.Errorf("system root in call selection percent = %v, want %v", got, want)
	}
	if !strings.Contains(w.Status(), "%") {
		t.Errorf("status %q does not mention the percent mode", w.Status())
	}
}

// TestFlatProfileRows switches to the flat profile and checks the region
// rows and their "Subroutines" against the model.
func TestFlatProfileRows(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube3/ctest-pomp.cube"))
	e := w.Document().Exp
	m := e.MetricByName("0Time")
	w.flatCheck.SetChecked(true)
	if !w.view.Flat() {
		t.Fatal("flat check did not switch to the flat profile")
	}
	excl, _ := e.CallTreeValues(model.MetricSel{Metric: m, Inclusive: true}, false)
	rex, rin := e.FlatProfile(excl, model.Sum)
	// Expand every other region.
	for i, n := range w.view.Roots(view.CallPane) {
		if i%2 == 0 && w.view.IsBranch(view.CallPane, n) {
			w.Pane(view.CallPane).OpenBranch(n.ID())
		}
	}
	rows := shownRows(w.Pane(view.CallPane))
	subs := 0
	for n, r := range rows {
		var want float64
		switch n.Kind {
		case view.RegionNode:
			want = rin[n.Index]
			if w.Pane(view.CallPane).IsBranchOpen(n.ID()) {
				want = rex[n.Index]
			}
		case view.SubroutinesNode:
			want = rin[n.Index] - rex[n.Index]
			subs++
		default:
			t.Fatalf("flat profile shows %v", n)
		}
		if !near(r.Value, want) {
			t.Errorf("%s: %v, want %v", r.Label, r.Value, want)
		}
	}
	if subs == 0 {
		t.Error("no Subroutines row shown")
	}
	w.flatCheck.SetChecked(false)
	if _, ok := shownRows(w.Pane(view.CallPane))[view.Node{Kind: view.CnodeNode, Index: e.CnodeRoots[0]}]; !ok {
		t.Error("call tree not back after leaving the flat profile")
	}
}

// TestHottestPathMenu expands the hottest path from the call root and
// compares it with a walk over the model's inclusive values that goes on
// while the largest child holds more than half of its parent.
func TestHottestPathMenu(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube3/ctest-pomp.cube"))
	e := w.Document().Exp
	m := e.MetricByName("0Time")
	excl, _ := e.CallTreeValues(model.MetricSel{Metric: m, Inclusive: true}, false)
	incl := e.CallInclusive(excl, model.Sum)
	c := e.CnodeRoots[0]
	want := []int{c}
	for len(e.Cnodes[c].Children) > 0 {
		best := e.Cnodes[c].Children[0]
		for _, ch := range e.Cnodes[c].Children {
			if math.Abs(incl[ch]) > math.Abs(incl[best]) {
				best = ch
			}
		}
		if math.Abs(incl[best]) <= 0.5*math.Abs(incl[c]) {
			break
		}
		c = best
		want = append(want, c)
	}
	selectRow(w, view.CallPane, view.Node{Kind: view.CnodeNode, Index: want[0]})
	w.ExpandHottest(view.CallPane)
	if got := w.view.Selected(view.CallPane); got != (view.Node{Kind: view.CnodeNode, Index: want[len(want)-1]}) {
		t.Errorf("selected %s, want %s", e.CallPath(got.Index), e.CallPath(want[len(want)-1]))
	}
	for _, c := range want[:len(want)-1] {
		if !w.Pane(view.CallPane).IsBranchOpen(view.Node{Kind: view.CnodeNode, Index: c}.ID()) {
			t.Errorf("%s not expanded", e.CallPath(c))
		}
	}
	if len(want) < 3 {
		t.Errorf("path %v too short to test", want)
	}
	end := want[len(want)-1]
	why := e.Regions[e.Cnodes[end].Region].Name + ": nothing below it"
	if len(e.Cnodes[end].Children) > 0 {
		why = e.Regions[e.Cnodes[end].Region].Name + " ("
	}
	if s := w.Status(); !strings.HasPrefix(s, "Hottest path stops at "+why) {
		t.Errorf("status %q does not say why the path stops (%q)", s, why)
	}
}

// TestFindBar types a pattern into the find bar: matches are marked in
// the rows, next and previous move the selection through them.
func TestFindBar(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube3/ctest-pomp.cube"))
	e := w.Document().Exp
	var want []int
	for _, c := range e.CnodeOrder() {
		if strings.Contains(strings.ToLower(e.Regions[e.Cnodes[c].Region].Name), "mpi_") {
			want = append(want, c)
		}
	}
	if len(want) < 2 {
		t.Fatalf("need two MPI call paths, have %d", len(want))
	}
	selectRow(w, view.CallPane, view.Node{Kind: view.CnodeNode, Index: e.CnodeRoots[0]})
	w.find.Show()
	test.Type(w.find.entry, "MPI_")
	if got := w.view.Selected(view.CallPane); got != (view.Node{Kind: view.CnodeNode, Index: want[0]}) {
		t.Fatalf("first match selected %v, want %s", got, e.CallPath(want[0]))
	}
	rows := shownRows(w.Pane(view.CallPane))
	if rows[view.Node{Kind: view.CnodeNode, Index: want[0]}].Find != view.FoundCurrent {
		t.Errorf("current match not marked")
	}
	w.find.Next(1)
	if got := w.view.Selected(view.CallPane); got != (view.Node{Kind: view.CnodeNode, Index: want[1]}) {
		t.Errorf("next match %v, want %s", got, e.CallPath(want[1]))
	}
	marked := 0
	for n, r := range shownRows(w.Pane(view.CallPane)) {
		if r.Find == view.Found || r.Find == view.FoundCurrent {
			marked++
			if !strings.Contains(strings.ToLower(w.view.Label(n)), "mpi_") {
				t.Errorf("%s marked but does not match", w.view.Label(n))
			}
		}
	}
	if marked < 2 {
		t.Errorf("%d rows marked", marked)
	}
	w.find.Next(-1)
	if got := w.view.Selected(view.CallPane); got != (view.Node{Kind: view.CnodeNode, Index: want[0]}) {
		t.Errorf("previous match %v, want %s", got, e.CallPath(want[0]))
	}
	if !strings.Contains(w.find.info.Text, "of") {
		t.Errorf("find info %q", w.find.info.Text)
	}
	w.find.Close()
	for _, r := range shownRows(w.Pane(view.CallPane)) {
		if r.Find != view.NotFound {
			t.Fatalf("marks left after closing the find bar")
		}
	}
}

// TestKeyboard moves the selection with the keys and expands and
// collapses with Right and Left.
func TestKeyboard(t *testing.T) {
	a := newTestApp(t)
	w := a.Show(&document.Doc{Exp: handMade(), Name: "hand"})
	p := w.Pane(view.CallPane)
	key := func(k fyne.KeyName) { p.TypedKey(&fyne.KeyEvent{Name: k}) }
	key(fyne.KeyRight)
	if !p.IsBranchOpen(cMain.ID()) || w.view.Values().Value(view.CallPane, cMain) != 6 {
		t.Fatalf("Right did not expand main to its exclusive value")
	}
	key(fyne.KeyDown)
	if w.view.Selected(view.CallPane) != cFoo {
		t.Errorf("Down selected %v, want foo", w.view.Selected(view.CallPane))
	}
	if w.view.Values().Value(view.SystemPane, sRank0) != 10 {
		t.Errorf("system pane does not follow the keyboard selection")
	}
	key(fyne.KeyEnd)
	if w.view.Selected(view.CallPane) != cBar {
		t.Errorf("End selected %v, want bar", w.view.Selected(view.CallPane))
	}
	key(fyne.KeyHome)
	key(fyne.KeyLeft)
	if p.IsBranchOpen(cMain.ID()) {
		t.Errorf("Left did not collapse main")
	}
	p.TypedRune('+')
	if !p.IsBranchOpen(cMain.ID()) {
		t.Errorf("+ did not expand main")
	}
}

// TestStatusExplainsSelection checks the status line after selections.
func TestStatusExplainsSelection(t *testing.T) {
	a := newTestApp(t)
	w := a.Show(&document.Doc{Exp: handMade(), Name: "hand"})
	selectRow(w, view.CallPane, cFoo)
	for _, s := range []string{"main/foo", "inclusive", "13.00 sec", "Time"} {
		if !strings.Contains(w.Status(), s) {
			t.Errorf("status %q lacks %q", w.Status(), s)
		}
	}
	selectRow(w, view.SystemPane, sRank0)
	if !strings.Contains(w.Status(), "rank 0") {
		t.Errorf("status %q lacks the location", w.Status())
	}
}

// TestOpenErrorShown opens a file that is not an experiment: the error is
// reported and the window says so.
func TestOpenErrorShown(t *testing.T) {
	a := newTestApp(t)
	var got error
	a.fatal = func(err error) { got = err }
	bad := filepath.Join(t.TempDir(), "bad.cube")
	if err := os.WriteFile(bad, []byte("<cube version=\"3.0\"><broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	a.OpenFile(bad, nil)
	if got == nil || !strings.Contains(got.Error(), "bad.cube") {
		t.Errorf("error %v does not name the file", got)
	}
	w := a.Windows()[0]
	if w.Document() != nil || !strings.Contains(w.message.Text, "Could not open") {
		t.Errorf("window message %q", w.message.Text)
	}
}

// TestOpenedListAndExternalMenu opens two files: each window offers the
// other as external reference and closing one removes it.
func TestOpenedListAndExternalMenu(t *testing.T) {
	a := newTestApp(t)
	w1 := openWindow(t, a, dataFile(t, "cube4/mm_sweep/mm.x10y1z1.r1.cubex"))
	w2 := openWindow(t, a, dataFile(t, "cube4/mm_sweep/mm.x25y1z1.r1.cubex"))
	if n := len(a.Documents()); n != 2 {
		t.Fatalf("%d documents open", n)
	}
	var names []string
	for _, m := range w1.menus.bar().Items {
		if m.Label != "View" {
			continue
		}
		for _, it := range m.Items {
			if it.Label == "External reference" {
				for _, c := range it.ChildMenu.Items {
					names = append(names, c.Label)
				}
			}
		}
	}
	if strings.Join(names, ",") != "None,mm.x25y1z1.r1.cubex" {
		t.Errorf("external reference menu = %v", names)
	}
	w2.win.Close()
	if n := len(a.Documents()); n != 1 {
		t.Errorf("%d documents open after closing one", n)
	}
}

// TestSaveAsRoundTrip saves an opened experiment from the window and
// reads it back: the dump is unchanged.
func TestSaveAsRoundTrip(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube4/cpi/profile.cubex"))
	out := filepath.Join(t.TempDir(), "copy.cubex")
	w.SaveAs(out)
	b := openWindow(t, a, out)
	var x, y strings.Builder
	if err := w.Document().Exp.Dump(&x); err != nil {
		t.Fatal(err)
	}
	if err := b.Document().Exp.Dump(&y); err != nil {
		t.Fatal(err)
	}
	if x.String() != y.String() {
		t.Errorf("saved and reread experiment differs from the original")
	}
	if r := a.Recent(); len(r) < 2 || filepath.Base(r[0]) != "copy.cubex" {
		t.Errorf("recent files = %v, want copy.cubex first", r)
	}
}

// TestWindowFormatsOnlyVisibleRows shows a flat profile of thousands of
// regions: a refresh formats about one screen of rows, not all of them.
func TestWindowFormatsOnlyVisibleRows(t *testing.T) {
	a := newTestApp(t)
	e := synth.Generate(synth.Config{Cnodes: 8000, Locations: 16, Threads: 2, Nodes: 2, Metrics: 3, Seed: 3})
	w := a.Show(&document.Doc{Exp: e, Name: "synthetic"})
	w.win.Resize(fyne.NewSize(1280, 800))
	w.SetFlat(true)
	rows := len(w.Pane(view.CallPane).VisibleRows())
	if rows < 1000 {
		t.Fatalf("only %d rows; the test needs many", rows)
	}
	w.refresh()
	n := w.view.Values().Formatted()
	t.Logf("a refresh formatted %d values; the pane has %d rows", n, rows)
	if n == 0 || n > 200 {
		t.Errorf("a refresh formatted %d values for %d rows in the pane", n, rows)
	}
}

// TestBundledExampleOpens opens the bundled pair without arguments.
func TestBundledExampleOpens(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	a := newTestApp(t)
	a.OpenExample()
	docs := a.Documents()
	if len(docs) != 2 {
		t.Fatalf("%d experiments open, want before and after", len(docs))
	}
	for i, want := range []string{"before.cubex", "after.cubex"} {
		if docs[i].Name != want {
			t.Errorf("document %d is %s, want %s", i, docs[i].Name, want)
		}
	}
	w := a.Windows()[0]
	m := w.Document().Exp.MetricByName("mpi_barrier_wait")
	if m < 0 {
		t.Fatal("example has no Wait at Barrier metric")
	}
	for _, anc := range w.view.Ancestors(view.MetricPane, view.Node{Kind: view.MetricNode, Index: m}) {
		w.Pane(view.MetricPane).OpenBranch(anc.ID())
	}
	selectRow(w, view.MetricPane, view.Node{Kind: view.MetricNode, Index: m})
	want, _ := w.Document().Exp.MetricTotal(model.MetricSel{Metric: m, Inclusive: true})
	if got := shownRows(w.Pane(view.MetricPane))[view.Node{Kind: view.MetricNode, Index: m}].Value; got != want || want <= 0 {
		t.Errorf("Wait at Barrier shows %v, want %v > 0", got, want)
	}
}

// TestDivergingMenu switches to diverging colours: negative values turn blue.
func TestDivergingMenu(t *testing.T) {
	a := newTestApp(t)
	w := a.Show(&document.Doc{Exp: handDiff(), Name: "diff"})
	w.Pane(view.CallPane).OpenBranch(cMain.ID())
	var toggle *fyne.MenuItem
	for _, m := range w.menus.bar().Items {
		for _, it := range m.Items {
			if it.Label == "Diverging colours" {
				toggle = it
			}
		}
	}
	if toggle == nil {
		t.Fatal("no Diverging colours menu item")
	}
	toggle.Action()
	r := shownRows(w.Pane(view.CallPane))[cBar]
	if r.Color.B != 255 || r.Color.R == 255 {
		t.Errorf("negative value in diverging colours = %v, want a blue shade", r.Color)
	}
}
