package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysisview"
	"cubeview/format"
	"cubeview/repoview"
	"cubeview/view"
)

// TestRepositoryScaling marks LULESH p64 and p27 (size 25) in the
// repository window, runs Scaling… with x from their procs attribute and
// checks the table's speedups and efficiencies against hand ratios of the
// files' call-tree values; a click selects the call path in the window
// of a trial opened from the repository.
func TestRepositoryScaling(t *testing.T) {
	a, rw, _, files := openRepository(t)
	if !rw.buttons[repoview.Scaling].Disabled() {
		t.Error("Scaling… enabled with nothing marked")
	}
	rw.Mark(rw.b.RowOf(5), true) // lulesh p64: marked first, ordered by x anyway
	rw.Mark(rw.b.RowOf(4), true) // lulesh p27
	if rw.buttons[repoview.Scaling].Disabled() {
		t.Fatal("Scaling… disabled with two marks")
	}
	test.Tap(rw.buttons[repoview.Scaling])
	if rw.win.Canvas().Overlays().Top() == nil {
		t.Error("Scaling… shows no dialog")
	}
	f := rw.c.ScalingForm()
	if f.X.Text != "procs" || !strings.Contains(f.Preview.Text, "#5 lulesh.p64.size25.r1.cubex: 64") {
		t.Errorf("x %q, preview %q", f.X.Text, f.Preview.Text)
	}
	if f.Metric.Text != "time" || len(f.Metric.Options) < 5 {
		t.Errorf("metric %q of %q", f.Metric.Text, f.Metric.Options)
	}
	// the hand computation below compares the mean (time's default is the slowest location)
	if err := f.Set(f.Basis, "mean across locations"); err != nil {
		t.Fatal(err)
	}
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	s := rw.scaling
	if s == nil {
		t.Fatal("no scaling window")
	}
	if s.plot.Image == nil || s.plot.Image.Bounds().Dx() != analysisview.ScalingPlotW {
		t.Error("no plot")
	}
	if got := s.rep.Result.Trials; len(got) != 2 || got[0].X != 27 || got[1].X != 64 {
		t.Fatalf("trials %+v, want p27 then p64", got)
	}
	if !strings.HasPrefix(s.rep.Runs, "procs 27: #4 ") {
		t.Errorf("runs %q", s.rep.Runs)
	}
	e27, err := format.Open(files[4])
	if err != nil {
		t.Fatal(err)
	}
	e64, err := format.Open(files[5])
	if err != nil {
		t.Fatal(err)
	}
	t27, t64 := treeValues(t, e27, "time"), treeValues(t, e64, "time")
	checked := 0
	for _, cells := range s.rep.Rows {
		v27, v64 := t27[cells[0]], t64[cells[0]]
		if v27 == 0 || v64 == 0 {
			continue
		}
		speedup := (v27 / 27) / (v64 / 64)
		if !shows3(cells[5], speedup) || !shows3(cells[6], speedup*27/64) {
			t.Errorf("%s: speedup %q efficiency %q, hand %v %v", cells[0], cells[5], cells[6], speedup, speedup*27/64)
		}
		checked++
	}
	if checked < 10 {
		t.Errorf("%d rows checked by hand", checked)
	}
	// A trial opened from the repository follows the clicks.
	var w27 *Window
	rw.OpenTrial(4, func(w *Window) { w27 = w })
	if w27 == nil {
		t.Fatal("trial 4 did not open")
	}
	for i := range min(len(s.rep.Rows), 8) {
		s.table.Select(widget.TableCellID{Row: i, Col: 0})
		n := w27.view.Selected(view.CallPane)
		if n.Kind != view.CnodeNode || w27.Document().Exp.CallPath(n.Index) != s.rep.Rows[i][0] {
			t.Errorf("row %d (%s): the trial's window selects %v", i, s.rep.Rows[i][0], n)
		}
	}

	// A derived metric studied: time per visit, a ratio of the sums at
	// every call path in each trial.
	f.Set(f.Derived, "tpv = time / visits")
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	s = rw.scaling
	if s.rep.Result.Metric != "tpv" {
		t.Fatalf("studied %q", s.rep.Result.Metric)
	}
	v27, v64 := treeValues(t, e27, "visits"), treeValues(t, e64, "visits")
	checked = 0
	for _, cells := range s.rep.Rows {
		p := cells[0]
		if v27[p] == 0 || v64[p] == 0 {
			continue
		}
		for c, want := range map[int]float64{1: t27[p] / v27[p], 4: t64[p] / v64[p]} {
			if got := cells[c]; got != a.numberFormat().Format(want, false) {
				t.Errorf("%s column %d: %q, hand %v", p, c, got, want)
			}
		}
		checked++
	}
	if checked < 10 {
		t.Errorf("%d derived rows checked by hand", checked)
	}
	if e := w27.Document().Exp; e.MetricByName("tpv") >= 0 {
		t.Error("the study's derived metric was added to the trial's window")
	}
	f.Set(f.Derived, "tpv = time / nothing")
	if err := f.Confirmed(); err == nil || !strings.Contains(err.Error(), "nothing") {
		t.Errorf("unknown metric in the derived formula: %v", err)
	}

	// Trials without a common numeric attribute are refused with a reason.
	rw.b.ClearMarks()
	rw.Mark(rw.b.RowOf(1), true)
	rw.Mark(rw.b.RowOf(6), true)
	if err := rw.c.Scaling(rw.b.MarkedTrials(), analysisview.ScalingSpec{Metric: "time", X: analysisview.XGiven, XText: "compiler"}, nil); err == nil || !strings.Contains(err.Error(), "has no attribute compiler") {
		t.Errorf("mm and lulesh by compiler: %v", err)
	}
}

// tapHeader taps column c's title of table s as a user does and returns
// the title it shows then.
func tapHeader(s *sortedTable, c int) string {
	h := s.table.CreateHeader()
	s.table.UpdateHeader(widget.TableCellID{Row: -1, Col: c}, h)
	test.Tap(h.(*sortHeader))
	s.table.UpdateHeader(widget.TableCellID{Row: -1, Col: c}, h)
	return h.(*sortHeader).Text()
}
