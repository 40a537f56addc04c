package ui

import (
	"strings"

	"testing"

	"fyne.io/fyne/v2"

	"cubeview/document"
	"cubeview/format"
	"cubeview/model"
	"cubeview/view"
)

// TestDerivedMetricDialog adds a derived metric through the dialog's form
// on a real file with hardware counters and checks that it appears in the
// metric tree, is selected, and that every call-tree row shows the ratio
// of the operands' sums at that row (hand-computed from CallTreeValues).
func TestDerivedMetricDialog(t *testing.T) {
	a := newTestApp(t)
	w := openWindow(t, a, dataFile(t, "cube4/hw_counter/L2_DCM_negative.cubex"))
	if it := menuItem(w, "Metric tree", "New derived metric…"); it == nil || it.Disabled {
		t.Fatalf("Metric tree › New derived metric… missing or disabled: %+v", it)
	}
	menuItem(w, "Metric tree", "New derived metric…").Action()
	if w.win.Canvas().Overlays().Top() == nil {
		t.Error("New derived metric… shows no dialog")
	}
	e0 := w.Document().Exp
	f := w.dialogs.newDerivedForm()
	_ = f.Set(f.Name, "l2_per_l1")
	_ = f.Set(f.Expression, "PAPI_L2_DCM / (PAPI_L1_DCM")
	if !strings.Contains(f.Expression.Problem, "column 27") {
		t.Errorf("bad expression: problem %q; want the column", f.Expression.Problem)
	}
	if err := f.Confirmed(); err == nil {
		t.Fatal("a bad expression was accepted")
	}
	_ = f.Set(f.Expression, "PAPI_L2_DCM / PAPI_L1_DCM")
	_ = f.Set(f.Thresholds, "low < 0.1 < high")
	if f.Expression.Problem != "" {
		t.Errorf("good expression: problem %q", f.Expression.Problem)
	}
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	e := w.Document().Exp
	m := e.MetricByName("l2_per_l1")
	if m < 0 || e == e0 {
		t.Fatal("the document did not receive the new metric")
	}
	mn := view.Node{Kind: view.MetricNode, Index: m}
	if w.view.Selected(view.MetricPane) != mn {
		t.Errorf("selected %v, want the new metric", w.view.Selected(view.MetricPane))
	}
	if r, ok := shownRows(w.Pane(view.MetricPane))[mn]; !ok {
		t.Error("the new metric is not drawn in the metric pane")
	} else if !strings.HasPrefix(r.Label, "l2_per_l1 [") {
		t.Errorf("metric row label %q, want a threshold suffix", r.Label)
	}
	incl := func(uniq string) []float64 {
		x := e0.MetricByName(uniq)
		v, err := e0.CallTreeValues(model.MetricSel{Metric: x, Inclusive: true}, false)
		if err != nil {
			t.Fatal(err)
		}
		return e0.CallInclusive(v, model.Sum)
	}
	l2, l1 := incl("PAPI_L2_DCM"), incl("PAPI_L1_DCM")
	expandAll(w, view.CallPane)
	w.win.Resize(fyne.NewSize(1600, 12000))
	rows := shownRows(w.Pane(view.CallPane))
	if len(rows) != len(e.Cnodes) {
		t.Fatalf("%d call rows drawn, want %d", len(rows), len(e.Cnodes))
	}
	checked := 0
	for n, r := range rows {
		c := n.Index
		if w.view.Expanded(view.CallPane, n) {
			continue // exclusive: checked by the view tests
		}
		want := 0.0
		if l1[c] != 0 {
			want = l2[c] / l1[c]
		}
		if !near(r.Value, want) {
			t.Errorf("%s: row %v, want %v / %v = %v", e.CallPath(c), r.Value, l2[c], l1[c], want)
		}
		label := "low"
		if want >= 0.1 {
			label = "high"
		}
		if !strings.HasSuffix(r.Label, " ["+label+"]") {
			t.Errorf("%s: label %q, want suffix [%s]", e.CallPath(c), r.Label, label)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no collapsed call rows to check")
	}
	// Save as writes the derived metric, which reads back with its formula.
	out := t.TempDir() + "/derived.cubex"
	w.SaveAs(out)
	back, err := format.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if bm := back.MetricByName("l2_per_l1"); bm < 0 || !back.Metrics[bm].IsDerived() {
		t.Error("the saved file has no derived metric l2_per_l1")
	}
}

// TestSetThresholds gives a stored metric thresholds from the Metric
// tree menu's function and checks the row labels.
func TestSetThresholds(t *testing.T) {
	a := newTestApp(t)
	w := a.Show(&document.Doc{Exp: handMade(), Name: "hand-made"})
	w.win.Resize(fyne.NewSize(1600, 4000))
	if err := w.dialogs.SetThresholds("time", "small < 10 < large"); err != nil {
		t.Fatal(err)
	}
	w.selectNode(view.CallPane, cFoo)
	rows := shownRows(w.Pane(view.CallPane))
	if got := rows[cFoo].Label; got != "foo [large]" { // 13 sec
		t.Errorf("foo: %q", got)
	}
	if got := rows[cBar].Label; got != "bar [small]" { // 6 sec
		t.Errorf("bar: %q", got)
	}
	if err := w.dialogs.SetThresholds("time", "small < x"); err == nil {
		t.Error("malformed thresholds accepted")
	}
	if err := w.dialogs.SetThresholds("time", ""); err != nil {
		t.Fatal(err)
	}
	if got := shownRows(w.Pane(view.CallPane))[cFoo].Label; got != "foo" {
		t.Errorf("after removing: %q", got)
	}
}
