package ui

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"cubeview/algebra"
	"cubeview/analysis"
	"cubeview/analysisview"
	"cubeview/document"
	"cubeview/form"
	"cubeview/model"
	"cubeview/view"
)

// TestPerfDiffFromMenu runs Algebra › Where did it change… on the bundled
// pair with δ = 1 s for Wait at Barrier as the dialog does, compares the
// result list with analysis.PerfDiff, and clicks every row: the window of
// before − after must select the focus's metric, call path and system
// node, and its system pane must show the focus's difference there.
func TestPerfDiffFromMenu(t *testing.T) {
	a := newTestApp(t)
	bw, aw := openPair(t, a)
	if it := menuItem(bw, "Algebra", "Where did it change…"); it == nil || it.Disabled {
		t.Fatalf("Algebra › Where did it change… missing or disabled: %+v", it)
	}
	menuItem(bw, "Algebra", "Where did it change…").Action()
	if bw.win.Canvas().Overlays().Top() == nil {
		t.Error("Where did it change… shows no dialog")
	}
	f := bw.dialogs.newPerfDiffForm()
	if a, b := f.A.CheckedOptions(), f.B.CheckedOptions(); !slices.Equal(a, []string{"before.cubex"}) || !slices.Equal(b, []string{"after.cubex"}) {
		t.Fatalf("preselected %q and %q", a, b)
	}
	if !f.Metric.Set("mpi_barrier_wait") {
		t.Fatalf("metric mpi_barrier_wait not offered: %v", f.Metric.Uniq())
	}
	_ = f.Set(f.Delta, "1")
	n := len(a.Windows())
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	if len(a.Windows()) != n+1 {
		t.Fatalf("%d windows, want the difference window too", len(a.Windows()))
	}
	w := lastWindow(t, a)
	if got := w.win.Title(); got != "cubeview — before − after" {
		t.Errorf("result in window %q", got)
	}
	p := w.panels.perfDiff
	if p == nil {
		t.Fatal("no result list in the difference window")
	}
	want, err := analysis.PerfDiff(bw.Document().Exp, aw.Document().Exp, analysis.PerfDiffOptions{Metric: "mpi_barrier_wait", Delta: 1, Self: true})
	if err != nil {
		t.Fatal(err)
	}
	rows := p.rep.Rows
	if len(rows) != len(want.Foci) || len(rows) == 0 {
		t.Fatalf("%d rows, analysis.PerfDiff has %d foci", len(rows), len(want.Foci))
	}
	barrier := false
	for i, r := range rows {
		x := want.Foci[i]
		if r.FocusDiff != x || r.CallPath != want.CallPath(x.Focus) || r.System != want.SystemPath(x.Focus) {
			t.Errorf("row %d: %+v, analysis has %+v at %s @ %s", i, r, x, want.CallPath(x.Focus), want.SystemPath(x.Focus))
		}
		if got := p.sorted.Cell(i, 3); got != bw.view.Appearance().NumberFormat().Format(x.Diff, false) {
			t.Errorf("row %d shows A − B %q for %v", i, got, x.Diff)
		}
		if r.MostSpecific && r.CallPath == "main/solver_iterate/MPI_Barrier" {
			barrier = true
		}
	}
	if !barrier {
		t.Error("Wait at Barrier's call path main/solver_iterate/MPI_Barrier is not most specific")
	}
	e := w.Document().Exp
	for i, r := range rows {
		p.table.Select(widget.TableCellID{Row: i, Col: 1})
		v := w.view
		m := v.Selected(view.MetricPane)
		if m.Kind != view.MetricNode || e.Metrics[m.Index].UniqName != "mpi_barrier_wait" {
			t.Fatalf("row %d: metric %v selected", i, m)
		}
		c := v.Selected(view.CallPane)
		if r.Focus.Cnode >= 0 && (c.Kind != view.CnodeNode || e.CallPath(c.Index) != strings.TrimSuffix(r.CallPath, " (self)") ||
			v.Expanded(view.CallPane, c) != r.Self) {
			t.Errorf("row %d: call path %v selected (expanded %v), want %s", i, c, v.Expanded(view.CallPane, c), r.CallPath)
		}
		s := v.Selected(view.SystemPane)
		wantSys := r.System
		if d := p.rep.Result.Domain; r.Focus.System >= 0 && d.System[r.Focus.System].Kind == model.Leaf && e.ThreadLevelHidden() {
			// The window hides the thread level: the thread's process.
			wantSys = analysis.SystemPath(d, d.System[r.Focus.System].Parent)
		}
		if r.Focus.System >= 0 && (s.Kind != view.SystemNode || analysis.SystemPath(e, s.Index) != wantSys) {
			t.Errorf("row %d: system node %v (%s) selected, want %s", i, s, analysis.SystemPath(e, s.Index), wantSys)
		}
		if got := v.Values().Value(view.SystemPane, s); !near(got, r.Diff) {
			t.Errorf("row %d (%s @ %s): the window shows %v, perfdiff %v", i, r.CallPath, r.System, got, r.Diff)
		}
	}
	// Sorted by A − B (largest increase first), a click on the first row
	// selects that focus and the system pane shows its difference.
	if title := tapHeader(p.sorted, analysisview.PerfDiffDelta); !strings.HasSuffix(title, "▼") {
		t.Errorf("A − B column titled %q", title)
	}
	for i := 1; i < len(rows); i++ {
		if rows[p.sorted.Row(i-1)].Diff < rows[p.sorted.Row(i)].Diff {
			t.Fatalf("sorted rows %d, %d: %v before %v", i-1, i, rows[p.sorted.Row(i-1)].Diff, rows[p.sorted.Row(i)].Diff)
		}
	}
	if p.sorted.Cell(0, analysisview.PerfDiffCallPath) != rows[p.sorted.Row(0)].CallPath {
		t.Error("the table does not show the sorted rows")
	}
	p.table.Select(widget.TableCellID{Row: 0, Col: 0})
	if top := rows[p.sorted.Row(0)]; !near(w.view.Values().Value(view.SystemPane, w.view.Selected(view.SystemPane)), top.Diff) {
		t.Errorf("first sorted row %s @ %s: the window shows %v, perfdiff %v", top.CallPath, top.System, w.view.Values().Value(view.SystemPane, w.view.Selected(view.SystemPane)), top.Diff)
	}
	// A second comparison of the same pair reuses the difference window.
	f2 := aw.dialogs.newPerfDiffForm()
	pick(f2.Form, f2.A, "before.cubex")
	pick(f2.Form, f2.B, "after.cubex")
	f2.Metric.Set("time")
	_ = f2.Set(f2.Kind, analysisview.DeltaRelative)
	_ = f2.Set(f2.Delta, "5")
	if err := f2.Confirmed(); err != nil {
		t.Fatal(err)
	}
	if len(a.Windows()) != n+1 {
		t.Errorf("%d windows after the second comparison, want %d", len(a.Windows()), n+1)
	}
	if w.panels.perfDiff == p || w.panels.perfDiff.rep.Result.Metric != "time" {
		t.Error("the second result is not shown in the difference window")
	}
}

// TestPerfDiffDerived compares a derived metric (time per visit, defined
// in both windows): the list goes below A's window, no difference window
// opens, and a click selects the focus in A's and B's windows, whose
// system panes then show the focus's two values.
func TestPerfDiffDerived(t *testing.T) {
	a := newTestApp(t)
	bw, aw := openPair(t, a)
	for _, w := range []*Window{bw, aw} {
		e, err := view.WithDerived(w.view.Experiment(), view.DerivedSpec{Name: "tpv", Expression: "time / visits"})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.replaceExperiment(e); err != nil {
			t.Fatal(err)
		}
	}
	f := bw.dialogs.newPerfDiffForm()
	if !f.Metric.Set("tpv") {
		t.Fatalf("tpv not offered: %v", f.Metric.Uniq())
	}
	_ = f.Set(f.Delta, "0.00005") // the whole program's time per visit differs by 9e-5 s
	n := len(a.Windows())
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	if len(a.Windows()) != n {
		t.Errorf("%d windows, want %d: no difference window for a derived metric", len(a.Windows()), n)
	}
	p := bw.panels.perfDiff
	if p == nil || p.follow != aw.Document() {
		t.Fatal("no result list below A's window following B")
	}
	want, err := analysis.PerfDiff(bw.Document().Exp, aw.Document().Exp, analysis.PerfDiffOptions{Metric: "tpv", Delta: 0.00005, Self: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.rep.Rows) != len(want.Foci) || len(want.Foci) < 3 {
		t.Fatalf("%d rows, analysis.PerfDiff has %d foci", len(p.rep.Rows), len(want.Foci))
	}
	checked := 0
	for i, r := range p.rep.Rows {
		if r.FocusDiff != want.Foci[i] {
			t.Fatalf("row %d: %+v, analysis %+v", i, r.FocusDiff, want.Foci[i])
		}
		if i%10 != 0 {
			continue // every tenth row is clicked
		}
		p.table.Select(widget.TableCellID{Row: i, Col: 1})
		for _, c := range []struct {
			w    *Window
			want float64
		}{{bw, r.A}, {aw, r.B}} {
			v := c.w.view
			m := v.Selected(view.MetricPane)
			if m.Kind != view.MetricNode || v.Experiment().Metrics[m.Index].UniqName != "tpv" {
				t.Fatalf("row %d: %s selects metric %v", i, c.w.Document().Name, m)
			}
			// A call path's own part: the call path, expanded to show its own value.
			if cn := v.Selected(view.CallPane); r.Focus.Cnode >= 0 && (cn.Kind != view.CnodeNode ||
				v.Experiment().CallPath(cn.Index) != strings.TrimSuffix(r.CallPath, " (self)") || v.Expanded(view.CallPane, cn) != r.Self) {
				t.Errorf("row %d: %s selects call path %v, want %s", i, c.w.Document().Name, cn, r.CallPath)
			}
			s := v.Selected(view.SystemPane)
			if r.Focus.System >= 0 && analysis.SystemPath(v.Experiment(), s.Index) != r.System {
				continue // the window hides the thread level
			}
			if got := v.Values().Value(view.SystemPane, s); !near(got, c.want) {
				t.Errorf("row %d (%s @ %s): %s shows %v, perfdiff %v", i, r.CallPath, r.System, c.w.Document().Name, got, c.want)
			}
			checked++
		}
	}
	if checked < 6 {
		t.Errorf("%d values checked", checked)
	}
}

// TestPerfDiffStructure: B is after.cubex with MPI_Barrier pruned (its
// time moved into its callers, as a measurement filter does). The
// window lists the pruned call paths apart, with A's value and "absent"
// for B, never among the performance differences; a click selects the
// call path in the difference window.
func TestPerfDiffStructure(t *testing.T) {
	a := newTestApp(t)
	bw, aw := openPair(t, a)
	cut, err := algebra.Cut(aw.view.Experiment(), algebra.CutOptions{Prune: []string{"MPI_Barrier"}})
	if err != nil {
		t.Fatal(err)
	}
	a.Show(&document.Doc{Path: filepath.Join(t.TempDir(), "cut.cubex"), Name: "cut.cubex", Exp: cut})
	f := bw.dialogs.newPerfDiffForm()
	pick(f.Form, f.B, "cut.cubex")
	f.Metric.Set("time")
	_ = f.Set(f.Delta, "1")
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	w := lastWindow(t, a)
	p := w.panels.perfDiff
	if p == nil || p.structure == nil {
		t.Fatal("no list of structural differences")
	}
	rep := p.rep
	if len(rep.Structure) == 0 {
		t.Fatal("no structural row")
	}
	for i, s := range rep.Structure {
		if s.Only != analysis.SideA || !strings.HasSuffix(s.What, "/MPI_Barrier") || s.TextB != "absent" || s.TextA == "absent" {
			t.Errorf("structural row %d: %+v", i, s)
		}
		if p.structure.Cell(i, analysisview.StructureOnly) != "only in before" {
			t.Errorf("row %d: %q", i, p.structure.Cell(i, analysisview.StructureOnly))
		}
	}
	for _, r := range rep.Rows {
		if strings.HasSuffix(r.CallPath, "/MPI_Barrier") {
			t.Errorf("a pruned call path is ranked as a performance difference: %+v", r)
		}
	}
	if strings.Contains(strings.ToLower(rep.Headline), "significant") || !strings.Contains(rep.Headline, "most specific") {
		t.Errorf("headline %q", rep.Headline)
	}
	p.structure.table.Select(widget.TableCellID{Row: 0, Col: 1})
	c := w.view.Selected(view.CallPane)
	if want := strings.TrimPrefix(rep.Structure[p.structure.Row(0)].What, "call path "); c.Kind != view.CnodeNode || w.Document().Exp.CallPath(c.Index) != want {
		t.Errorf("call path %v selected, want %s", c, want)
	}
}

// pick ticks exactly the experiments labelled labels in list, as a user
// of the form does.
func pick(f *form.Form, list *form.Field, labels ...string) {
	for i, o := range list.Options {
		f.SetChecked(list, i, slices.Contains(labels, o))
	}
}
