package analysisview

import (
	"strings"
	"testing"

	"cubeview/document"
	"cubeview/internal/testkit"
	"cubeview/numfmt"
	"cubeview/view"
)

// perfDiffDocs returns three open documents over the hand-made
// experiment and its difference fixture; the third has a metric of its
// own.
func perfDiffDocs(t *testing.T) []*document.Doc {
	t.Helper()
	c, err := view.WithDerived(handMade(), view.DerivedSpec{Name: "extra", Expression: "time * 2"})
	if err != nil {
		t.Fatal(err)
	}
	return []*document.Doc{
		{Path: "/runs/a.cubex", Name: "a.cubex", Exp: handMade()},
		{Path: "/runs/b.cubex", Name: "b.cubex", Exp: handDiff()},
		{Path: "/runs/c.cubex", Name: "c.cubex", Exp: c},
	}
}

func TestPerfDiffForm(t *testing.T) {
	docs := perfDiffDocs(t)
	var runs []PerfDiffRequest
	f := NewPerfDiffForm(docs, docs[2], "visits", func(r PerfDiffRequest) { runs = append(runs, r) })
	// From c's window: A is c, B wraps around to a.
	if f.A.Text != "c.cubex" || f.B.Text != "a.cubex" {
		t.Fatalf("preselected %q and %q, want c.cubex and a.cubex", f.A.Text, f.B.Text)
	}
	if f.Metric.Metric() != "visits" || !strings.Contains(strings.Join(f.Metric.Uniq(), " "), "extra") {
		t.Errorf("metric %q of %q: want visits chosen, c's extra offered", f.Metric.Metric(), f.Metric.Uniq())
	}
	// Choosing b for A offers a's and b's metrics only, keeping visits.
	if err := f.Set(f.A, "b.cubex"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(f.Metric.Uniq(), " "), "extra") || f.Metric.Metric() != "visits" {
		t.Errorf("after choosing b: %q offered, %q chosen", f.Metric.Uniq(), f.Metric.Metric())
	}
	for _, c := range []struct{ delta, kind string }{
		{"-1", DeltaAbsolute}, {"x", DeltaAbsolute}, {"150", DeltaRelative}, {"", DeltaAbsolute},
	} {
		_ = f.Set(f.Delta, c.delta)
		_ = f.Set(f.Kind, c.kind)
		if err := f.Confirmed(); err == nil {
			t.Errorf("δ %q (%s) accepted", c.delta, c.kind)
		}
	}
	if len(runs) != 0 {
		t.Fatalf("a bad δ ran %d comparisons", len(runs))
	}
	_ = f.Set(f.Delta, "5%")
	_ = f.Set(f.Kind, DeltaRelative)
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].A != docs[1] || runs[0].B != docs[0] {
		t.Fatalf("ran %+v, want b against a", runs)
	}
	if o := runs[0].Options; o.Metric != "visits" || o.Delta != 0.05 || !o.Relative {
		t.Errorf("options %+v, want visits, δ 0.05 relative", o)
	}
	f.Metric.Field.Text = ""
	if err := f.Confirmed(); err == nil || err.Error() != "choose a metric" {
		t.Errorf("no metric: %v", err)
	}
}

func TestPerfDiffJobPlan(t *testing.T) {
	docs := perfDiffDocs(t)
	r := PerfDiffRequest{A: docs[0], B: docs[1]}
	r.Options.Metric, r.Options.Delta = "time", 0.5
	j := NewPerfDiffJob(r, docs)
	if j.Derived || j.InDifference != nil || j.Names != [2]string{"a", "b"} || j.progress() != "Comparing a and b …" {
		t.Fatalf("plan %+v, progress %q", j, j.progress())
	}
	var busy []string
	stopped, done := 0, 0
	h := &testkit.HeldRunner{}
	j.Run(h.Run, func(what string) func() {
		busy = append(busy, what)
		return func() { stopped++ }
	}, numfmt.Grouped(), func(err error) {
		if err != nil {
			t.Fatal(err)
		}
		done++
	})
	if len(busy) != 1 || busy[0] != j.progress() || stopped != 0 || done != 0 {
		t.Fatalf("while running: busy %q, stopped %d, done %d", busy, stopped, done)
	}
	h.Flush()
	if stopped != 1 || done != 1 {
		t.Fatalf("after running: stopped %d, done %d", stopped, done)
	}
	if j.Report == nil || j.Result == nil || j.Report.NameA != "a" {
		t.Fatalf("computed report %v, result %v; want both (no window shows a − b)", j.Report, j.Result)
	}
	// With a − b open, the list goes there and a − b is not computed again.
	diff := j.Diff.Result(j.Result)
	j = NewPerfDiffJob(r, append(docs, diff))
	if j.InDifference != diff {
		t.Fatalf("a − b open: the list goes to %v", j.InDifference)
	}
	if err := j.compute(numfmt.Grouped()); err != nil || j.Result != nil {
		t.Errorf("computed a − b again (%v, %v)", j.Result, err)
	}
	if !strings.Contains(j.Legend(), "above") {
		t.Errorf("legend %q", j.Legend())
	}
	// A derived metric: below A's window, B's windows follow.
	for _, d := range docs[:2] {
		e, err := view.WithDerived(d.Exp, view.DerivedSpec{Name: "tpv", Expression: "time / visits"})
		if err != nil {
			t.Fatal(err)
		}
		d.Exp = e
	}
	r.Options.Metric = "tpv"
	j = NewPerfDiffJob(r, append(docs, diff))
	if !j.Derived || j.InDifference != nil || !strings.Contains(j.Legend(), "b's window") {
		t.Errorf("derived: %+v, legend %q", j, j.Legend())
	}
}
