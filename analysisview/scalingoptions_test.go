package analysisview

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cubeview/analysis"
	"cubeview/document"
	"cubeview/form"
	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
	"cubeview/numfmt"
)

// luleshSeries returns the LULESH weak-scaling runs (27 to 343
// processes, 25³ elements each) as open documents.
func luleshSeries(t *testing.T) []*document.Doc {
	t.Helper()
	var docs []*document.Doc
	for _, p := range []int{27, 64, 125, 216, 343} {
		path := testkit.Data(t, "cube4", "lulesh", fmt.Sprintf("lulesh.p%d.size25.r1.cubex", p))
		e, err := format.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, &document.Doc{Name: fmt.Sprintf("p%d", p), Path: path, Exp: e})
	}
	return docs
}

// TestScalingDialogOptions: the Scaling dialog has the command line's
// --predict, --rank and --per-visit; a prediction ranks by it unless a
// rank is chosen, and the table and plot follow the analysis' own
// ranking, predictions and per-visit values.
func TestScalingDialogOptions(t *testing.T) {
	docs := luleshSeries(t)
	var specs []ScalingSpec
	f := NewScalingForm(docs, docs[0], "time", func(_ []*document.Doc, s ScalingSpec) { specs = append(specs, s) })
	o := f.Options
	for _, x := range []*form.Field{o.PerVisit, o.Rank, o.Predict} {
		if !slices.Contains(f.Fields, x) {
			t.Errorf("the dialog lacks %q", x.Label)
		}
	}
	f.SetOn(o.Weak, true)
	for _, bad := range []string{"-3", "x", "0", "inf"} {
		_ = f.Set(o.Predict, bad)
		if err := f.Confirmed(); err == nil || !strings.Contains(o.Predict.Problem, "want a positive number") {
			t.Errorf("predict %q: %v, problem %q", bad, err, o.Predict.Problem)
		}
	}
	_ = f.Set(o.Predict, " 1000 ")
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	_ = f.Set(o.Predict, "")
	_ = f.Set(o.Rank, RankNames[2])
	f.SetOn(o.PerVisit, true)
	_ = f.Set(o.Basis, basisNames[analysis.BasisSum])
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	_ = f.Set(o.Rank, RankNames[3])
	f.SetOn(o.PerVisit, false)
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	if len(specs) != 3 {
		t.Fatalf("%d studies run", len(specs))
	}
	if s := specs[0]; s.Predict != 1000 || s.Rank != analysis.RankPredicted || s.PerVisit {
		t.Errorf("predict 1000, rank automatic: %+v", s)
	}
	if s := specs[1]; s.Predict != 0 || s.Rank != analysis.RankGrowth || !s.PerVisit || s.Basis != analysis.BasisSum {
		t.Errorf("growth, per visit: %+v", s)
	}
	trials := docTrials(docs)
	if _, err := newScalingReport(trials, specs[2], numfmt.Cube()); err == nil || !strings.Contains(err.Error(), "needs the x to predict at") {
		t.Errorf("rank predicted without x: %v", err)
	}
	if _, err := newScalingReport(trials[:2], specs[0], numfmt.Cube()); err == nil || !strings.Contains(err.Error(), "at least 4 runs") {
		t.Errorf("predict with 2 runs: %v", err)
	}

	// The prediction: a column, the table's order and the plot's.
	rep, err := newScalingReport(trials, specs[0], numfmt.Cube())
	if err != nil {
		t.Fatal(err)
	}
	n := len(rep.Columns)
	if rep.Columns[n-1] != "predicted @ 1000" || !strings.Contains(rep.Title, "largest at processes 1000 first") || rep.plot.PredictX != 1000 {
		t.Fatalf("columns %q, title %q, plot up to %g", rep.Columns, rep.Title, rep.plot.PredictX)
	}
	ts := make([]analysis.Trial, len(docs))
	for i, d := range docs {
		ts[i] = analysis.Trial{Name: d.Name, Exp: d.Exp, X: float64(analysis.ProcessCount(d.Exp))}
	}
	res, err := analysis.Series(ts, analysis.SeriesOptions{Metric: "time", Weak: true})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := res.Rank(analysis.RankPredicted, 0, 1000)
	checkOrder(t, "predicted", rep, want)
	for i, r := range want[:5] {
		if got, w := rep.Rows[i][n-1], numfmt.Cube().Format(r.Model.Eval(1000), false); got != w {
			t.Errorf("%s: predicted %q, model %q", r.CallPath, got, w)
		}
	}
	if kept, _ := res.Distinct(want, 5); rep.plot.Series[0].Name != kept[0].CallPath || len(rep.plot.Series) != len(kept) {
		t.Errorf("plot starts with %s, want %s", rep.plot.Series[0].Name, kept[0].CallPath)
	}

	// Growth and per visit: the sum over locations of a call path's time
	// divided by the sum of its visits, by hand from the files.
	rep, err = newScalingReport(trials, specs[1], numfmt.RoundTrip())
	if err != nil {
		t.Fatal(err)
	}
	res, err = analysis.Series(ts, analysis.SeriesOptions{Metric: "time", Weak: true, Basis: analysis.BasisSum, PerVisit: true})
	if err != nil {
		t.Fatal(err)
	}
	want, _ = res.Rank(analysis.RankGrowth, 0, 0)
	checkOrder(t, "growth", rep, want)
	if !strings.Contains(rep.Title, "per visit") || !strings.Contains(rep.Title, "largest growth first") {
		t.Errorf("title %q", rep.Title)
	}
	e := docs[0].Exp
	tm, vi := e.MetricByName("time"), e.MetricByName("visits")
	times, err := e.CallTreeValues(model.MetricSel{Metric: tm, Inclusive: true}, true)
	if err != nil {
		t.Fatal(err)
	}
	visits, err := e.CallTreeValues(model.MetricSel{Metric: vi, Inclusive: true}, false)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for i, cells := range rep.Rows {
		c := slices.IndexFunc(e.Cnodes, func(c model.Cnode) bool { return e.CallPath(c.ID) == cells[0] })
		if c < 0 || visits[c] == 0 || i > 20 {
			continue
		}
		checked++
		got, err := strconv.ParseFloat(cells[1], 64)
		if hand := times[c] / visits[c]; err != nil || math.Abs(got-hand) > 1e-12*hand {
			t.Errorf("%s: time per visit in p27 %q, by hand %g (%g / %g)", cells[0], cells[1], hand, times[c], visits[c])
		}
	}
	if checked < 5 {
		t.Errorf("%d call paths checked by hand", checked)
	}
}

// checkOrder fails unless rep's rows are the call paths of want in order.
func checkOrder(t *testing.T, what string, rep *ScalingReport, want []analysis.SeriesRow) {
	t.Helper()
	var got, w []string
	for i := range min(len(rep.Rows), 10) {
		got = append(got, rep.Rows[i][0])
	}
	for _, r := range want {
		if len(w) < len(got) && !(allZero(r.Value) && allZero(r.Basis(rep.Result.Basis))) {
			w = append(w, r.CallPath)
		}
	}
	if !slices.Equal(got, w) {
		t.Errorf("%s: table %q, analysis %q", what, got, w)
	}
}
