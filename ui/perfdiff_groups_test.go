package ui

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysis"
	"cubeview/analysis/significance"
	"cubeview/analysisview"
	"cubeview/format"
	"cubeview/internal/synth"
	"cubeview/model"
	"cubeview/view"
)

// TestPerfDiffGroupsFromMenu opens four runs of each of two
// configurations, the first with one call path 50 % slower, and runs
// Algebra › Where did it change… with four runs ticked per side. The
// list goes into the window of mean(A) − mean(B); every focus on the
// whole system carries the p-value, interval and effect that
// significance.WelchTest gives on the runs' own values there, q is
// Benjamini–Hochberg over all foci, the foci that are not significant
// are muted, the check box hides them, and a click selects the focus
// where the window shows the difference of the means.
func TestPerfDiffGroupsFromMenu(t *testing.T) {
	a := newTestApp(t)
	dir := t.TempDir()
	const planted = 7
	var wins []*Window
	var runs [2][]*model.Experiment
	var plantedPath string
	for g, shift := range []float64{0.5, 0} {
		for i := range 4 {
			e := synth.NoisyRun(synth.Config{Cnodes: 30, Locations: 4, Metrics: 1, Seed: 7}, uint64(g), i, synth.Sigma(0.02), synth.ShiftAt(planted, shift))
			plantedPath = e.CallPath(planted)
			p := filepath.Join(dir, fmt.Sprintf("%c%d.cubex", 'a'+g, i+1))
			if err := format.Write(p, e); err != nil {
				t.Fatal(err)
			}
			w := openWindow(t, a, p)
			wins = append(wins, w)
			runs[g] = append(runs[g], w.Document().Exp)
		}
	}
	// Call paths the generator named alike cannot be told apart by name.
	paths := map[string]int{}
	for c := range runs[0][0].Cnodes {
		paths[runs[0][0].CallPath(c)]++
	}
	f := wins[0].dialogs.newPerfDiffForm()
	if f.A.Button != "Open file…" || f.B.Button != "Open file…" {
		t.Errorf("no Open file… beside the sides: %q, %q", f.A.Button, f.B.Button)
	}
	// One run against a group says nothing of the first's noise.
	pick(f.Form, f.A, "a1.cubex")
	pick(f.Form, f.B, "b1.cubex", "b2.cubex")
	if err := f.Confirmed(); err == nil || !strings.Contains(err.Error(), "at least two runs in each group (A has 1, B 2)") {
		t.Errorf("one run against two: %v", err)
	}
	pick(f.Form, f.A, "a1.cubex", "a2.cubex", "a3.cubex", "a4.cubex")
	pick(f.Form, f.B, "b1.cubex", "b2.cubex", "b3.cubex", "b4.cubex")
	if !f.Metric.Set("time") {
		t.Fatalf("time not offered: %v", f.Metric.Uniq())
	}
	_ = f.Set(f.Delta, "0")
	n := len(a.Windows())
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	if len(a.Windows()) != n+1 {
		t.Fatalf("%d windows, want the window of the means' difference too", len(a.Windows()))
	}
	w := lastWindow(t, a)
	if got := w.win.Title(); got != "cubeview — mean(a1, a2, a3, a4) − mean(b1, b2, b3, b4)" {
		t.Errorf("result in window %q", got)
	}
	p := w.panels.perfDiff
	if p == nil || p.hide == nil {
		t.Fatal("no result list with a filter in the window of the means' difference")
	}
	rep := p.rep
	res := rep.Result
	if !rep.Grouped() || res.NA != 4 || res.NB != 4 || len(rep.Rows) == 0 {
		t.Fatalf("grouped %v, %d and %d runs, %d rows", rep.Grouped(), res.NA, res.NB, len(rep.Rows))
	}
	col := func(kind int) int { return slices.Index(rep.Columns, kind) }

	// The test's answers against significance on the runs' own values.
	var pvals []float64
	checked := 0
	for i, r := range rep.Rows {
		st := r.Stats
		if st == nil {
			t.Fatalf("row %d (%s): no test", i, r.CallPath)
		}
		pvals = append(pvals, st.P)
		path := strings.TrimSuffix(r.CallPath, " (self)")
		if r.System != res.SystemPath(res.Root) || r.Focus.Cnode < 0 || paths[path] != 1 {
			continue
		}
		var x [2][]float64
		for g := range runs {
			for _, e := range runs[g] {
				v, err := e.CallTreeValues(model.MetricSel{Metric: 0}, !r.Self)
				if err != nil {
					t.Fatal(err)
				}
				x[g] = append(x[g], v[e.CnodeByPath(path)])
			}
		}
		want := significance.WelchTest(significance.Describe(x[0]), significance.Describe(x[1]), 0)
		if !agree(st.P, want.P) || !agree(st.CILow, want.CILow) || !agree(st.CIHigh, want.CIHigh) || !agree(st.Effect, want.Effect) || !agree(r.Diff, want.Diff) {
			t.Errorf("%s: p %v [%v, %v] g %v diff %v; significance says p %v [%v, %v] g %v diff %v",
				r.CallPath, st.P, st.CILow, st.CIHigh, st.Effect, r.Diff, want.P, want.CILow, want.CIHigh, want.Effect, want.Diff)
		}
		checked++
	}
	if checked < 20 {
		t.Errorf("%d foci on the whole system checked, want every call path's of a distinct name", checked)
	}
	q := significance.BenjaminiHochberg(pvals)
	significant := 0
	for i, r := range rep.Rows {
		if !agree(r.Stats.Q, q[i]) || r.Stats.Significant != (q[i] < 0.05) {
			t.Errorf("%s @ %s: q %v (significant %v), Benjamini–Hochberg gives %v", r.CallPath, r.System, r.Stats.Q, r.Stats.Significant, q[i])
		}
		if r.Stats.Significant {
			significant++
			// The planted call path, its own part or a caller holding it.
			if path := strings.TrimSuffix(r.CallPath, " (self)"); path != plantedPath && !strings.HasPrefix(plantedPath, path+"/") {
				t.Errorf("%s @ %s is significant, yet nothing was planted there", r.CallPath, r.System)
			}
		}
	}
	if significant == 0 || significant == len(rep.Rows) {
		t.Fatalf("%d of %d foci significant", significant, len(rep.Rows))
	}
	if !strings.Contains(rep.Headline, fmt.Sprintf("%d of %d differ significantly", significant, len(rep.Rows))) {
		t.Errorf("headline %q", rep.Headline)
	}
	if l := legendOf(t, w); !strings.Contains(l, "Muted rows are not significant") || !strings.Contains(l, "Significant (yes): q < 0.05") {
		t.Errorf("legend %q", l)
	}

	// Drawn: "yes" and the text's colour where significant, muted else.
	cell := func(row, c int) *elidedCell {
		x := newElidedCell(nil)
		p.sorted.table.UpdateCell(widget.TableCellID{Row: row, Col: c}, x)
		return x
	}
	for i := range rep.Len() {
		r := rep.Rows[p.sorted.Row(i)]
		sig := cell(i, col(analysisview.PerfDiffSignificant))
		if (sig.Text() == "yes") != r.Stats.Significant || cell(i, col(analysisview.PerfDiffCallPath)).Muted() == r.Stats.Significant {
			t.Errorf("row %d %s: shows %q, muted %v; significant %v", i, r.CallPath, sig.Text(), sig.Muted(), r.Stats.Significant)
		}
		if got := cell(i, col(analysisview.PerfDiffQ)).Text(); got != significance.FormatP(r.Stats.Q, "–") {
			t.Errorf("row %d: q shown %q for %v", i, got, r.Stats.Q)
		}
	}

	// Only significant differences: the rest hidden; a click selects the
	// focus, where the window shows mean(A) − mean(B).
	p.hide.SetChecked(true)
	if rows, _ := p.sorted.table.Length(); rows != significant {
		t.Fatalf("only significant: %d rows, want %d", rows, significant)
	}
	e := w.Document().Exp
	for i := range significant {
		r := rep.Row(p.sorted.Row(i))
		if !r.Stats.Significant {
			t.Fatalf("row %d shown while hidden: %s", i, r.CallPath)
		}
		p.table.Select(widget.TableCellID{Row: i, Col: col(analysisview.PerfDiffCallPath)})
		c := w.view.Selected(view.CallPane)
		if c.Kind != view.CnodeNode || e.CallPath(c.Index) != strings.TrimSuffix(r.CallPath, " (self)") {
			t.Errorf("row %d: call path %v selected, want %s", i, c, r.CallPath)
		}
		if got := w.view.Values().Value(view.SystemPane, w.view.Selected(view.SystemPane)); !near(got, r.Diff) {
			t.Errorf("row %d (%s @ %s): the window shows %v, the list %v", i, r.CallPath, r.System, got, r.Diff)
		}
	}
	p.hide.SetChecked(false)
	if rows, _ := p.sorted.table.Length(); rows != len(rep.Rows) {
		t.Errorf("all shown again: %d rows of %d", rows, len(rep.Rows))
	}

	// The list equals analysis.PerfDiffGroups of the same runs.
	want, err := analysis.PerfDiffGroups(runs[0], runs[1], analysis.PerfDiffOptions{Metric: "time", Self: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Foci) != len(rep.Rows) || want.Significant() != significant {
		t.Errorf("PerfDiffGroups: %d foci, %d significant; the list %d, %d", len(want.Foci), want.Significant(), len(rep.Rows), significant)
	}
}

// agree reports whether x and y agree to 1e-9 relative (NaN with NaN).
func agree(x, y float64) bool {
	if math.IsNaN(x) || math.IsNaN(y) {
		return math.IsNaN(x) && math.IsNaN(y)
	}
	return math.Abs(x-y) <= 1e-9*math.Max(1, math.Max(math.Abs(x), math.Abs(y)))
}

// legendOf returns the texts of the labels of the panel below w's panes.
func legendOf(t *testing.T, w *Window) string {
	t.Helper()
	s, ok := w.panesArea.Objects[0].(*container.Split)
	if !ok {
		t.Fatal("no panel below the panes")
	}
	var texts []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Label:
			texts = append(texts, x.Text)
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		case *container.Split:
			walk(x.Leading)
			walk(x.Trailing)
		}
	}
	walk(s.Trailing)
	return strings.Join(texts, "\n")
}
