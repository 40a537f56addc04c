package ui

import (
	"testing"

	"fyne.io/fyne/v2/widget"

	"cubeview/analysis"
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
	f := bw.newPerfDiffForm()
	if f.a.Selected != "before.cubex" || f.b.Selected != "after.cubex" {
		t.Fatalf("preselected %q and %q", f.a.Selected, f.b.Selected)
	}
	if !f.metric.Set("mpi_barrier_wait") {
		t.Fatalf("metric mpi_barrier_wait not offered: %v", f.metric.uniq)
	}
	f.delta.SetText("1")
	n := len(a.Windows())
	if err := f.Submit(); err != nil {
		t.Fatal(err)
	}
	if len(a.Windows()) != n+1 {
		t.Fatalf("%d windows, want the difference window too", len(a.Windows()))
	}
	w := lastWindow(t, a)
	if got := w.win.Title(); got != "cubeview — before − after" {
		t.Errorf("result in window %q", got)
	}
	p := w.perfDiff
	if p == nil {
		t.Fatal("no result list in the difference window")
	}
	want, err := analysis.PerfDiff(bw.Document().Exp, aw.Document().Exp, analysis.PerfDiffOptions{Metric: "mpi_barrier_wait", Delta: 1})
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
		if got := p.cell(widget.TableCellID{Row: i, Col: 3}); got != bw.view.NumberFormat().Format(x.Diff, false) {
			t.Errorf("row %d shows A − B %q for %v", i, got, x.Diff)
		}
		if r.Significant && r.CallPath == "main/solver_iterate/MPI_Barrier" {
			barrier = true
		}
	}
	if !barrier {
		t.Error("Wait at Barrier's call path main/solver_iterate/MPI_Barrier is not significant")
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
		if r.Focus.Cnode >= 0 && (c.Kind != view.CnodeNode || e.CallPath(c.Index) != r.CallPath) {
			t.Errorf("row %d: call path %v selected, want %s", i, c, r.CallPath)
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
		if got := v.Value(view.SystemPane, s); !near(got, r.Diff) {
			t.Errorf("row %d (%s @ %s): the window shows %v, perfdiff %v", i, r.CallPath, r.System, got, r.Diff)
		}
	}
	// A second comparison of the same pair reuses the difference window.
	f2 := aw.newPerfDiffForm()
	f2.a.SetSelected("before.cubex")
	f2.b.SetSelected("after.cubex")
	f2.metric.Set("time")
	f2.kind.SetSelected(deltaRelative)
	f2.delta.SetText("5")
	if err := f2.Submit(); err != nil {
		t.Fatal(err)
	}
	if len(a.Windows()) != n+1 {
		t.Errorf("%d windows after the second comparison, want %d", len(a.Windows()), n+1)
	}
	if w.perfDiff == p || w.perfDiff.rep.Result.Metric != "time" {
		t.Error("the second result is not shown in the difference window")
	}
}

func TestPerfDiffFormErrors(t *testing.T) {
	a := newTestApp(t)
	bw, _ := openPair(t, a)
	f := bw.newPerfDiffForm()
	for _, c := range []struct {
		delta string
		kind  string
	}{{"-1", deltaAbsolute}, {"x", deltaAbsolute}, {"150", deltaRelative}, {"", deltaAbsolute}} {
		f.delta.SetText(c.delta)
		f.kind.SetSelected(c.kind)
		if err := f.Submit(); err == nil {
			t.Errorf("δ %q (%s) accepted", c.delta, c.kind)
		}
	}
}
