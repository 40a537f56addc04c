package ui

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"cubeview/analysis"
	"cubeview/analysisview"
	"cubeview/document"
	"cubeview/model"
	"cubeview/view"
)

// TestScalingFromMenu runs Algebra › Scaling… on LULESH with 64 and 27
// processes (opened in that order; x is the process count), compares the
// table with analysis.Series and with hand-computed speedups from the
// call-tree values, and clicks rows: both experiments' windows select the
// call path.
func TestScalingFromMenu(t *testing.T) {
	a := newTestApp(t)
	w64 := openWindow(t, a, dataFile(t, "cube4/lulesh/lulesh.p64.size25.r1.cubex"))
	w27 := openWindow(t, a, dataFile(t, "cube4/lulesh/lulesh.p27.size25.r1.cubex"))
	if it := menuItem(w64, "Algebra", "Scaling…"); it == nil || it.Disabled {
		t.Fatalf("Algebra › Scaling… missing or disabled: %+v", it)
	}
	menuItem(w64, "Algebra", "Scaling…").Action()
	if w64.win.Canvas().Overlays().Top() == nil {
		t.Error("Scaling… shows no dialog")
	}
	f := w64.dialogs.newScalingForm()
	f.CheckOnly(w64.Document(), w27.Document())
	if !f.Metric.Set("time") {
		t.Fatalf("time not offered: %v", f.Metric.Uniq())
	}
	// the hand computation below compares the mean (time's default is the slowest location)
	if err := f.Set(f.Options.Basis, "mean across locations"); err != nil {
		t.Fatal(err)
	}
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	s := w64.panels.scaling
	if s == nil {
		t.Fatal("no scaling window")
	}
	if s.plot.Image == nil || s.plot.Image.Bounds().Dx() != analysisview.ScalingPlotW {
		t.Error("no plot")
	}
	e27, e64 := w27.Document().Exp, w64.Document().Exp
	want, err := analysis.Series([]analysis.Trial{{Name: "64", Exp: e64, X: 64}, {Name: "27", Exp: e27, X: 27}}, analysis.SeriesOptions{Metric: "time"})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.rep.Result.Trials; got[0].Exp != e27 || got[1].Exp != e64 || got[0].X != 27 || got[1].X != 64 {
		t.Fatalf("trials %+v, want p27 then p64 by process count", got)
	}
	if len(s.docs) != 2 || s.docs[0] != w27.Document() {
		t.Errorf("documents not in x order")
	}
	byPath := map[string]analysis.SeriesRow{}
	for _, r := range want.Rows {
		byPath[r.CallPath] = r
	}
	f0 := w64.view.Appearance().NumberFormat()
	t27, t64 := treeValues(t, e27, "time"), treeValues(t, e64, "time")
	if len(s.rep.Rows) == 0 {
		t.Fatal("empty table")
	}
	checked := 0
	for i, cells := range s.rep.Rows {
		path := cells[0]
		r, ok := byPath[path]
		if !ok {
			t.Fatalf("row %d: call path %s not in analysis.Series", i, path)
		}
		for c, cell := range cells {
			if got := s.sorted.Cell(i, c); got != cell {
				t.Fatalf("cell %d,%d shows %q, report %q", i, c, got, cell)
			}
		}
		// Columns: call path, then per trial value, speedup, efficiency.
		for tr := 0; tr < 2; tr++ {
			if cells[1+3*tr] != f0.Format(r.Value[tr], false) {
				t.Errorf("%s trial %d value %q, analysis %v", path, tr, cells[1+3*tr], r.Value[tr])
			}
		}
		// Hand computation: speedup = mean₂₇ / mean₆₄ of the tree values,
		// efficiency = speedup · 27 / 64.
		v27, v64 := t27[path], t64[path]
		if v27 != 0 && v64 != 0 {
			speedup := (v27 / 27) / (v64 / 64)
			if !shows3(cells[5], speedup) || !shows3(cells[6], speedup*27/64) {
				t.Errorf("%s: speedup %q efficiency %q, hand %v %v", path, cells[5], cells[6], speedup, speedup*27/64)
			}
			checked++
		} else if cells[5] != "–" && v27 == 0 {
			t.Errorf("%s: speedup %q with a zero value", path, cells[5])
		}
	}
	if checked == 0 {
		t.Error("no speedup checked by hand")
	}
	// Sorted by the speedup at 64 (largest first), the table shows the
	// rows in that order and a click selects the row shown.
	if title := tapHeader(s.sorted, 5); !strings.HasSuffix(title, "▼") {
		t.Errorf("speedup column titled %q", title)
	}
	prev := math.Inf(1)
	for i := range s.rep.Rows {
		x, err := strconv.ParseFloat(s.sorted.Cell(i, 5), 64)
		if err != nil {
			break // "–" comes last
		}
		if x > prev+0.0051*prev {
			t.Errorf("sorted row %d: speedup %v after %v", i, x, prev)
		}
		prev = x
	}
	s.table.Select(widget.TableCellID{Row: 0, Col: 0})
	if n := w27.view.Selected(view.CallPane); n.Kind != view.CnodeNode || e27.CallPath(n.Index) != s.sorted.Cell(0, 0) {
		t.Errorf("first sorted row %s: selects %v", s.sorted.Cell(0, 0), n)
	}
	s.sorted.Reset()
	// Clicking rows selects the call path in both windows.
	for i := range min(len(s.rep.Rows), 12) {
		s.table.Select(widget.TableCellID{Row: i, Col: 0})
		path := s.rep.Rows[i][0]
		for _, w := range []*Window{w27, w64} {
			n := w.view.Selected(view.CallPane)
			if n.Kind != view.CnodeNode || w.Document().Exp.CallPath(n.Index) != path {
				t.Errorf("row %d (%s): %s selects %v", i, path, w.Document().Name, n)
			}
		}
	}
}

// TestScalingValuesAndErrors runs the four matrix-multiply runs with
// explicit x values, weak scaling, and checks the errors of bad choices.
func TestScalingValuesAndErrors(t *testing.T) {
	a := newTestApp(t)
	var ws []*Window
	for _, x := range []string{"10", "25", "50", "2000"} {
		ws = append(ws, openWindow(t, a, dataFile(t, "cube4/mm_sweep/mm.x"+x+"y1z1.r1.cubex")))
	}
	f := ws[0].dialogs.newScalingForm()
	var docs []*document.Doc
	for _, w := range ws {
		docs = append(docs, w.Document())
	}
	f.CheckOnly(docs...)
	f.Metric.Set("time")
	_ = f.Set(f.X, analysisview.XSourceNames[analysisview.XValues])
	_ = f.Set(f.XText, "10, 25, 50, 2000")
	f.SetOn(f.Options.Weak, true)
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	s := ws[0].panels.scaling
	if s == nil || len(s.rep.Rows) == 0 {
		t.Fatal("no scaling result")
	}
	if s.rep.Columns[2] != "ratio @ 10" || s.rep.Columns[1] != "value @ 10" {
		t.Errorf("columns %v", s.rep.Columns)
	}
	for i, cells := range s.rep.Rows {
		r := rowOf(t, s.rep, i)
		for tr := range 4 {
			if !shows3(cells[2+3*tr], r.Ratio[tr]) {
				t.Errorf("%s: ratio %q, analysis %v", cells[0], cells[2+3*tr], r.Ratio[tr])
			}
		}
	}
	// Too few experiments, a bad x list, a missing attribute.
	f.CheckOnly(docs[0])
	if err := f.Confirmed(); err == nil {
		t.Error("one experiment accepted")
	}
	f.CheckOnly(docs...)
	before := ws[0].panels.scaling
	var reported []string
	a.fatal = func(err error) { reported = append(reported, err.Error()) }
	_ = f.Set(f.XText, "1, 2")
	if err := f.Confirmed(); err != nil || ws[0].panels.scaling != before {
		t.Errorf("two x values for four experiments: %v, result %v", err, ws[0].panels.scaling != before)
	}
	_ = f.Set(f.X, analysisview.XSourceNames[analysisview.XAttribute])
	_ = f.Set(f.XText, "no_such_attribute")
	if err := f.Confirmed(); err != nil || ws[0].panels.scaling != before {
		t.Errorf("missing attribute: %v", err)
	}
	if len(reported) != 2 || !strings.Contains(reported[0], "2 given for 4 trials") || !strings.Contains(reported[1], "no_such_attribute") {
		t.Errorf("errors shown: %q", reported)
	}
}

func rowOf(t *testing.T, rep *analysisview.ScalingReport, i int) analysis.SeriesRow {
	t.Helper()
	for _, r := range rep.Result.Rows {
		if r.Cnode == rep.RowCnodes[i] {
			return r
		}
	}
	t.Fatalf("row %d not in the result", i)
	return analysis.SeriesRow{}
}

// shows3 reports whether text shows x to three significant digits, or
// "–" for an undefined x.
func shows3(text string, x float64) bool {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return text == "–"
	}
	got, err := strconv.ParseFloat(text, 64)
	return err == nil && math.Abs(got-x) <= 0.006*math.Abs(x)
}

// treeValues returns the call-tree inclusive values of metric uniq by
// call path, as "cubeview tree" prints them.
func treeValues(t *testing.T, e *model.Experiment, uniq string) map[string]float64 {
	t.Helper()
	v, err := e.CallTreeValues(model.MetricSel{Metric: e.MetricByName(uniq), Inclusive: true}, false)
	if err != nil {
		t.Fatal(err)
	}
	incl := e.CallInclusive(v, model.Sum)
	out := map[string]float64{}
	for c, x := range incl {
		out[e.CallPath(c)] += x
	}
	return out
}
