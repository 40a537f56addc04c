package analysisview

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"cubeview/analysis/significance"
	"cubeview/document"
	"cubeview/form"
	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
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
	if a, b := f.A.CheckedOptions(), f.B.CheckedOptions(); !slices.Equal(a, []string{"c.cubex"}) || !slices.Equal(b, []string{"a.cubex"}) {
		t.Fatalf("preselected %q and %q, want c.cubex and a.cubex", a, b)
	}
	if f.Metric.Metric() != "visits" || !strings.Contains(strings.Join(f.Metric.Uniq(), " "), "extra") {
		t.Errorf("metric %q of %q: want visits chosen, c's extra offered", f.Metric.Metric(), f.Metric.Uniq())
	}
	// Choosing b for A offers a's and b's metrics only, keeping visits.
	f.SetChecked(f.A, 2, false)
	f.SetChecked(f.A, 1, true)
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
	if len(runs) != 1 || !slices.Equal(runs[0].A, docs[1:2]) || !slices.Equal(runs[0].B, docs[:1]) || runs[0].Grouped() {
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
	r := PerfDiffRequest{A: docs[:1], B: docs[1:2]}
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

// TestPerfDiffFormGroups: several runs ticked per side make a comparison
// of groups (the test chosen, each group at least two runs, none in
// both); its list goes to the window of mean(A) − mean(B), computed
// once.
func TestPerfDiffFormGroups(t *testing.T) {
	var docs []*document.Doc
	for i, e := range []*model.Experiment{handMade(), handMade(), handDiff(), handDiff()} {
		name := fmt.Sprintf("r%d.cubex", i+1)
		docs = append(docs, &document.Doc{Path: "/runs/" + name, Name: name, Exp: e})
	}
	var runs []PerfDiffRequest
	f := NewPerfDiffForm(docs, docs[0], "time", func(r PerfDiffRequest) { runs = append(runs, r) })
	tick := func(list *form.Field, on ...int) {
		for i := range list.Options {
			f.SetChecked(list, i, slices.Contains(on, i))
		}
	}
	for _, c := range []struct {
		a, b []int
		want string
	}{
		{[]int{0}, []int{2, 3}, "at least two runs in each group (A has 1, B 2)"},
		{[]int{0, 1}, []int{1, 2}, "r2.cubex is in both groups"},
		{nil, []int{2}, "tick experiment A and experiment B"},
	} {
		tick(f.A, c.a...)
		tick(f.B, c.b...)
		if err := f.Confirmed(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("A %v, B %v: %v, want %q", c.a, c.b, err, c.want)
		}
	}
	tick(f.A, 0, 1)
	tick(f.B, 2, 3)
	_ = f.Set(f.Test, TestMannWhitney)
	_ = f.Set(f.Delta, "0")
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || !runs[0].Grouped() || runs[0].Options.Test != significance.MannWhitney || !slices.Equal(runs[0].B, docs[2:]) {
		t.Fatalf("ran %+v", runs)
	}
	j := NewPerfDiffJob(runs[0], docs)
	if j.progress() != "Comparing 2 runs with 2 runs …" || j.InDifference != nil {
		t.Errorf("plan: %q, in %v", j.progress(), j.InDifference)
	}
	if err := j.compute(numfmt.Grouped()); err != nil {
		t.Fatal(err)
	}
	if !j.Report.Grouped() || j.Result == nil || len(j.Report.Columns) != 12 || j.Report.Result.Test != significance.MannWhitney {
		t.Fatalf("report grouped %v, result %v, columns %v", j.Report.Grouped(), j.Result, j.Report.Columns)
	}
	if !strings.Contains(j.Legend(), "Significant (yes): q < 0.05") || !strings.Contains(j.Legend(), "Mann–Whitney") {
		t.Errorf("legend %q", j.Legend())
	}
	doc := j.ResultDoc()
	if doc.Name != "mean(r1, r2) − mean(r3, r4)" || len(doc.Sources) != 4 {
		t.Errorf("result %q of %d sources", doc.Name, len(doc.Sources))
	}
	// The difference of the means is the groups' A − B at the root.
	for _, r := range j.Report.Rows {
		if r.Focus == j.Report.Result.Root && !near(r.Diff, r.A-r.B) {
			t.Errorf("root: A − B %v, A %v, B %v", r.Diff, r.A, r.B)
		}
	}
	// Open, the window of the means' difference gets the next list.
	j = NewPerfDiffJob(runs[0], append(docs, doc))
	if j.InDifference != doc {
		t.Fatalf("mean(A) − mean(B) open: the list goes to %v", j.InDifference)
	}
	if err := j.compute(numfmt.Grouped()); err != nil || j.Result != nil {
		t.Errorf("computed the means' difference again (%v, %v)", j.Result, err)
	}
	// A derived metric: the note says what A, B and the window hold.
	for _, d := range docs {
		e, err := view.WithDerived(d.Exp, view.DerivedSpec{Name: "tpv", Expression: "time / visits"})
		if err != nil {
			t.Fatal(err)
		}
		d.Exp = e
	}
	r := runs[0]
	r.Options.Metric = "tpv"
	dj := NewPerfDiffJob(r, docs)
	if err := dj.compute(numfmt.Grouped()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(dj.Report.Notes, " "), "means of each run's value of its formula") {
		t.Errorf("derived metric, notes %q", dj.Report.Notes)
	}
	// Hiding what is not significant leaves only significant rows.
	j.Report.SetHideNotSignificant(true)
	for i := range j.Report.Len() {
		if !j.Report.Row(i).Stats.Significant || j.Report.Muted(i) {
			t.Errorf("shown row %d is not significant", i)
		}
	}
}

// BenchmarkPerfDiffGroupsJob is what the window computes for Where did it
// change… over two groups of five generated runs (2,000 call paths × 64
// locations, 2 % noise, the call path of the largest own value 50 %
// slower in A): the comparison
// with a test at every differing focus, the report and mean(A) − mean(B).
func BenchmarkPerfDiffGroupsJob(b *testing.B) {
	cfg := synth.Config{Cnodes: 2000, Locations: 64, Metrics: 1, Seed: 3}
	own, err := synth.Generate(cfg).CallTreeValues(model.MetricSel{}, false)
	if err != nil {
		b.Fatal(err)
	}
	hot := 0 // the call path of the largest own value
	for c, v := range own {
		if v > own[hot] {
			hot = c
		}
	}
	var docs [2][]*document.Doc
	for g, shift := range []float64{0.5, 0} {
		for i := range 5 {
			e := synth.NoisyRun(cfg, uint64(g), i, synth.Sigma(0.02), synth.ShiftAt(hot, shift))
			docs[g] = append(docs[g], &document.Doc{Name: fmt.Sprintf("%c%d", 'a'+g, i), Exp: e})
		}
	}
	r := PerfDiffRequest{A: docs[0], B: docs[1]}
	r.Options.Metric, r.Options.Self, r.Options.Relative, r.Options.Delta = "time", true, true, 0.001
	b.ReportAllocs()
	var j *PerfDiffJob
	for b.Loop() {
		j = NewPerfDiffJob(r, nil)
		if err := j.compute(numfmt.Grouped()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(j.Report.Rows)), "foci")
	b.ReportMetric(float64(j.Report.Result.Significant()), "significant")
}
