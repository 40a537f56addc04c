package ui

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"cubeview/algebra"
	"cubeview/document"
	"cubeview/launch"
	"cubeview/view"
)

// TestPeerDistributionPane switches the system pane of 1,024 threads to
// peer distribution through its mode selector: the rows drawn show values
// from 0 to 100 % in many colours, not 1,024 identical squares.
func TestPeerDistributionPane(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube3/example3.cube"))
	w.modes[view.SystemPane].SetSelected(view.PeerDistribution.String())
	if got := w.view.Mode(view.SystemPane); got != view.PeerDistribution {
		t.Fatalf("mode %v, want peer distribution", got)
	}
	// The pane widens so that the mode's name is not elided (less the
	// split's divider).
	if pw, hw := w.panes[view.SystemPane].Size().Width, w.splits.headWidth(view.SystemPane); pw+2*theme.Padding() < hw {
		t.Errorf("system pane %v wide, its title and mode need %v", pw, hw)
	}
	expandAll(w, view.SystemPane)
	colours := map[any]bool{}
	threads := 0
	lo, hi := math.Inf(1), math.Inf(-1)
	for n, r := range shownRows(w.Pane(view.SystemPane)) {
		if w.view.IsBranch(view.SystemPane, n) {
			continue
		}
		threads++
		colours[r.Color] = true
		lo, hi = math.Min(lo, r.Value), math.Max(hi, r.Value)
	}
	if threads < 50 || len(colours) < 8 || lo < 0 || hi > 100 {
		t.Errorf("%d threads drawn in %d colours, values %v–%v %%; want many colours within 0–100", threads, len(colours), lo, hi)
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, n := range w.Pane(view.SystemPane).VisibleRows() {
		if !w.view.IsBranch(view.SystemPane, n) {
			x := w.view.Values().Value(view.SystemPane, n)
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	if lo != 0 || hi != 100 {
		t.Errorf("threads from %v to %v %%, want 0 to 100", lo, hi)
	}
	if !strings.Contains(w.infos[view.SystemPane].Text, "scale 0.00 – 100.00 %") {
		t.Errorf("scale line %q", w.infos[view.SystemPane].Text)
	}
}

// TestSnapshotSystemMode applies --system-mode as a snapshot does: the
// pane and its mode selector show peer distribution.
func TestSnapshotSystemMode(t *testing.T) {
	if _, err := launch.Parse([]string{"--snapshot", "o.png", "--system-mode", "peer", "f.cubex"}); err == nil ||
		!strings.Contains(err.Error(), "peer-percent, peer-distribution") {
		t.Errorf("unknown mode: error %v, want one listing the modes", err)
	}
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube3/example3.cube"))
	o, err := launch.Parse([]string{"--snapshot", "o.png", "--system-mode", "Peer-Distribution", "f.cubex"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.apply(o); err != nil {
		t.Fatal(err)
	}
	if got := w.view.Mode(view.SystemPane); got != view.PeerDistribution {
		t.Errorf("system pane mode %v, want peer distribution", got)
	}
	if got := w.modes[view.SystemPane].Selected; got != view.PeerDistribution.String() {
		t.Errorf("mode selector shows %q", got)
	}
}

// TestValueColumn checks the values of a pane: in one column aligned on
// the decimal point (an integer's point is its end), one number format (no scientific form beside plain numbers),
// thousands separators; and names elided in the middle in a narrow pane,
// whole in the status line.
func TestValueColumn(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube3/ctest-pomp.cube"))
	expandAll(w, view.CallPane)
	rows := rowViews(w.Pane(view.CallPane))
	if len(rows) < 10 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, d := range []view.Dim{view.MetricPane, view.CallPane} {
		right := float32(-1)
		for _, r := range rowViews(w.Pane(d)) {
			if r.value.Alignment != fyne.TextAlignTrailing {
				t.Fatalf("values are not right-aligned")
			}
			frac := ""
			if i := strings.IndexAny(r.value.Text, ".e"); i >= 0 {
				frac = r.value.Text[i:]
			}
			edge := r.value.Position().X + r.value.Size().Width - float32(len(frac))*r.digitWidth
			if right >= 0 && math.Abs(float64(edge-right)) > 0.5 {
				t.Errorf("pane %v: value %q has its point at %v, others at %v", d, r.value.Text, edge, right)
			}
			right = edge
			if strings.Contains(r.value.Text, "e") {
				t.Errorf("pane %v: %q in scientific form", d, r.value.Text)
			}
		}
	}
	// The metric pane shows 3,529,601,499 instructions, not 3.53e9.
	found := false
	for _, r := range rowViews(w.Pane(view.MetricPane)) {
		found = found || r.value.Text == "3,529,601,499"
	}
	if !found {
		t.Error("no metric row shows 3,529,601,499")
	}
	// Cube's format is an option.
	w.SetNumberStyle(2)
	if r := w.view.Row(view.MetricPane, w.view.Roots(view.MetricPane)[2]); r.Text != "3.53e9" {
		t.Errorf("Cube's format shows %q, want 3.53e9", r.Text)
	}
	// Narrow the window: long names are elided in the middle.
	w.win.Resize(fyne.NewSize(700, 600))
	w.splits.set(view.Split{Outer: 0.2, Inner: 0.5})
	var elided *rowView
	for _, r := range rowViews(w.Pane(view.CallPane)) {
		if strings.Contains(r.label.Text, "…") {
			elided = r
			full := r.row.Label
			head, tail, _ := strings.Cut(r.label.Text, "…")
			if !strings.HasPrefix(full, head) || !strings.HasSuffix(full, tail) || head == "" || tail == "" {
				t.Errorf("%q is not %q elided in the middle", r.label.Text, full)
			}
		}
	}
	if elided == nil {
		t.Fatal("no label elided in a 700-pixel window")
	}
	selectRow(w, view.CallPane, elided.row.Node)
	if !strings.Contains(w.Status(), elided.row.Label) {
		t.Errorf("status %q misses the full name %q", w.Status(), elided.row.Label)
	}
}

// TestBadges differs runs on 64 and 27 processes: the processes only the
// first had carry the badge "A", the hover hint and the status line say
// what it means, and the legend names the operands.
func TestBadges(t *testing.T) {
	a := newTestApp(t)
	p64 := openWindow(t, a, dataFile(t, "cube4/lulesh/lulesh.p64.size25.r1.cubex"))
	openWindow(t, a, dataFile(t, "cube4/lulesh/lulesh.p27.size25.r1.cubex"))
	w := submit(t, a, p64.dialogs.newOperationForm(algebra.OpDiff))
	expandAll(w, view.SystemPane)
	var badged *rowView
	for _, r := range rowViews(w.Pane(view.SystemPane)) {
		if r.badge.Text != "" {
			badged = r
			if r.badge.Text != "A" || !r.badgeBg.Visible() {
				t.Errorf("%s: badge %q", r.row.Label, r.badge.Text)
			}
		}
	}
	if badged == nil {
		t.Fatal("no badge drawn")
	}
	w.Pane(view.SystemPane).OnHover(badged.row.Node, true)
	if !strings.Contains(w.hint.Text, "only in A (lulesh.p64.size25.r1), not in B (lulesh.p27.size25.r1)") {
		t.Errorf("hover hint %q", w.hint.Text)
	}
	selectRow(w, view.SystemPane, badged.row.Node)
	if !strings.Contains(w.Status(), "only in A (lulesh.p64.size25.r1)") {
		t.Errorf("status %q", w.Status())
	}
	if got := w.legend.operands.Text(); got != "badges: A lulesh.p64.size25.r1 · B lulesh.p27.size25.r1" || !w.legend.operands.Visible() {
		t.Errorf("legend operands %q", got)
	}
	// The legend shows the colours the panes use: blue and sunken for
	// negative values in a difference.
	neg := w.legend.swatches[3]
	if neg.relief.String() != "sunken" || neg.fill.B < 200 || neg.fill.R > 100 {
		t.Errorf("negative swatch %v %v, want blue and sunken", neg.fill, neg.relief)
	}
	for _, m := range w.legend.meanings {
		if m.Importance == 4 /* low */ {
			t.Errorf("legend text %q is drawn dimmed", m.Text)
		}
	}
}

// TestSelectionInView moves the selection with the keyboard and with the
// hottest path in a short window: the selected row is drawn with rows of
// context below and above it.
func TestSelectionInView(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube3/example3.cube"))
	w.win.Resize(fyne.NewSize(1000, 420))
	p := w.Pane(view.SystemPane)
	expandAll(w, view.SystemPane)
	w.active = view.SystemPane
	p.Select(w.view.Roots(view.SystemPane)[0].ID())
	check := func(what string) {
		t.Helper()
		rows := p.VisibleRows()
		i := slices.Index(rows, w.view.Selected(view.SystemPane))
		drawn := shownRows(p)
		for _, k := range []int{i - 2, i, i + 2} {
			if k < 0 || k >= len(rows) {
				continue
			}
			if _, ok := drawn[rows[k]]; !ok {
				t.Errorf("%s: row %d (%s) not drawn; selected is %d", what, k, w.view.Label(rows[k]), i)
			}
		}
	}
	for i := 0; i < 30; i++ {
		p.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	}
	check("30 × Down")
	p.TypedKey(&fyne.KeyEvent{Name: fyne.KeyPageDown})
	check("Page Down")
	p.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	check("Up")

	c := w.Pane(view.CallPane)
	w.win.Resize(fyne.NewSize(1000, 300))
	w.ExpandHottest(view.CallPane)
	rows, drawn := c.VisibleRows(), shownRows(c)
	i := slices.Index(rows, w.view.Selected(view.CallPane))
	if _, ok := drawn[rows[i]]; !ok || i < 1 {
		t.Errorf("hottest path end %d not drawn", i)
	} else if _, ok := drawn[rows[i-1]]; !ok {
		t.Errorf("hottest path end drawn without the row above it")
	}
}

// TestPaneWidths checks that the metric pane is as wide as its rows need
// (within bounds) and that a split the user moves is kept for new windows.
func TestPaneWidths(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube4/cpi/profile.cubex"))
	w.win.Resize(fyne.NewSize(1280, 800))
	w.splits.fit()
	need := w.panes[view.MetricPane].contentWidth() / 1280
	if got := float32(w.splits.splits[0].Offset); need > 0.15 && need < 0.35 && math.Abs(float64(got-need)) > 0.01 || got < 0.149 || got > 0.351 {
		t.Errorf("metric pane takes %.3f of the width, its rows need %.3f", got, need)
	}
	if w.splits.splits[1].Offset < 0.5 {
		t.Errorf("call pane gets %.2f of the rest, want the larger part", w.splits.splits[1].Offset)
	}
	w.splits.splits[0].SetOffset(0.4)
	w.splits.splits[1].SetOffset(0.7)
	w.refresh()
	w2 := openWindow(t, a, dataFile(t, "cube4/cpi/profile.cubex"))
	if a, b := w2.splits.splits[0].Offset, w2.splits.splits[1].Offset; math.Abs(a-0.4) > 1e-3 || math.Abs(b-0.7) > 1e-3 {
		t.Errorf("new window split %.3f, %.3f; want the remembered 0.4, 0.7", a, b)
	}
}

// TestFlatProfileAndWording checks the flat profile's order by value, the
// disclosure triangles and the wording of counts and system nodes.
func TestFlatProfileAndWording(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube4/cpi/profile.cubex"))
	w.SetFlat(true)
	rows := w.Pane(view.CallPane).VisibleRows()
	if len(rows) < 5 {
		t.Fatalf("%d flat rows", len(rows))
	}
	for i := 1; i < len(rows); i++ {
		if a, b := w.view.Values().Inclusive(view.CallPane, rows[i-1]), w.view.Values().Inclusive(view.CallPane, rows[i]); a < b {
			t.Errorf("flat profile not sorted by value: %s %v before %s %v", w.view.Label(rows[i-1]), a, w.view.Label(rows[i]), b)
		}
	}
	th := fyne.CurrentApp().Settings().Theme()
	if th.Icon(theme.IconNameNavigateNext) != th.Icon(theme.IconNameMenuExpand) || th.Icon(theme.IconNameMoveDown) != th.Icon(theme.IconNameArrowDropDown) {
		t.Error("tree branches are not drawn with disclosure triangles")
	}
	if p := document.Properties(w.Document()); !strings.Contains(p, "(1 root)") {
		t.Errorf("properties say %q", p)
	}
	for _, n := range w.view.Roots(view.SystemPane) {
		if s := w.view.Tooltip(n); strings.Count(strings.ToLower(s), "machine") > 1 {
			t.Errorf("system node described as %q", s)
		}
	}
}

// TestDialogs checks the operand labels of two files of the same name,
// the Open form (typed path, last folder, error for a missing file) and
// the operand pickers' Open file….
func TestDialogs(t *testing.T) {
	a := newTestApp(t)
	src, err := os.ReadFile(dataFile(t, "cube4/cpi/profile.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	var paths []string
	for _, run := range []string{"tea_leaf_baseline_8x12_trace", "tea_leaf_optimized_8x12_trace"} {
		p := filepath.Join(root, run, "scout.cubex")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	w := openWindow(t, a, paths[0])
	f := w.dialogs.newOpenForm(nil)
	if got, want := f.Focus.Text, filepath.Dir(paths[0])+"/"; got != want {
		t.Errorf("Open starts at %q, want the last folder %q", got, want)
	}
	set(t, f, f.Focus, filepath.Join(root, "missing.cubex"))
	if err := f.Confirmed(); err == nil || !strings.Contains(f.Focus.Problem, "missing.cubex: no such file") {
		t.Errorf("missing file: problem %q", f.Focus.Problem)
	}

	form := w.dialogs.newOperationForm(algebra.OpDiff)
	t.Chdir(root)
	g := w.dialogs.newOpenForm(func(d *document.Doc) { form.Opened(d, form.Subtrahend) })
	set(t, g, g.Focus, "tea_leaf_optimized_8x12_trace/scout.cubex") // relative to the current directory
	if err := g.Confirmed(); err != nil {
		t.Fatalf("typed path not opened: %v", err)
	}
	want := []string{"…/tea_leaf_baseline_8x12_trace/scout.cubex", "…/tea_leaf_optimized_8x12_trace/scout.cubex"}
	if got := document.Labels(a.Documents()); !slices.Equal(got, want) {
		t.Errorf("labels %q, want %q", got, want)
	}
	if form.Minuend.Text != want[0] || form.Subtrahend.Text != want[1] {
		t.Errorf("difference of %q and %q, want the new file as subtrahend", form.Minuend.Text, form.Subtrahend.Text)
	}
	if r, err := form.Request(); err != nil || r.Operands[1].Path != paths[1] {
		t.Errorf("request %v, %v", r, err)
	}
}

// TestHotThresholdMenu lowers the hottest path's threshold through the
// View menu: on BT-MZ the path stops at adi by default (z_solve, its
// largest child, holds 30.5 %) and goes on through z_solve at 25 %; the
// menu checks the share, and a new window keeps it.
func TestHotThresholdMenu(t *testing.T) {
	a := newTestApp(t)
	path := dataFile(t, "cube4/quirks/cube4.8_with_checksum_bug.cubex")
	w := openWindow(t, a, path)
	e := w.Document().Exp
	selectRow(w, view.MetricPane, view.Node{Kind: view.MetricNode, Index: e.MetricByName("time")})
	root := view.Node{Kind: view.CnodeNode, Index: e.CnodeRoots[0]}
	hottest := func() string {
		selectRow(w, view.CallPane, root)
		w.ExpandHottest(view.CallPane)
		return e.Regions[e.Cnodes[w.view.Selected(view.CallPane).Index].Region].Name
	}
	if got := hottest(); got != "adi" || !strings.Contains(w.Status(), "no child holds more than 50 %") {
		t.Errorf("default: path ends at %s, status %q", got, w.Status())
	}
	item := menuItem(w, "View", "25 % of its parent")
	if item == nil {
		t.Fatal("no threshold item in the View menu")
	}
	item.Action()
	hottest()
	if got := e.CallPath(w.view.Selected(view.CallPane).Index); !strings.Contains(got, "/adi/z_solve/") {
		t.Errorf("at 25 %%: path ends at %s, want it through adi/z_solve", got)
	}
	if it := menuItem(w, "View", "25 % of its parent"); it == nil || !it.Checked {
		t.Error("the 25 % item is not checked")
	}
	if got := openWindow(t, a, path).view.HotPath().Threshold(); got != 0.25 {
		t.Errorf("a new window's threshold is %v, want the chosen 0.25", got)
	}
}
