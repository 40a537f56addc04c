package repoview

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"cubeview/analysisview"
	"cubeview/internal/testkit"
)

// TestImportForm proposes the current trial's application and experiment,
// adds the files and folders the user picks as lines, and imports what it
// says; without a file it says so.
func TestImportForm(t *testing.T) {
	c, w, r, _ := openStandard(t)
	c.Click(c.B.RowOf(4))
	var picked []bool
	var add func(string)
	f := c.ImportForm(func(folder bool, then func(string)) { picked, add = append(picked, folder), then })
	if f.App.Text != "lulesh" || f.Experiment.Text != "scaling" || !slices.Equal(f.App.Options, []string{"lulesh", "mm"}) {
		t.Errorf("proposes %q / %q of %q, want the current trial's", f.App.Text, f.Experiment.Text, f.App.Options)
	}
	if err := f.Confirmed(); err == nil || !strings.Contains(err.Error(), "give a file or folder") {
		t.Errorf("no file: %v", err)
	}
	redrawn := 0
	f.Redraw = func() { redrawn++ }
	cpi := testkit.Data(t, "cube4", "cpi", "profile.cubex")
	f.Paths.Action()
	add(cpi)
	f.Paths.More[0].Action()
	add("/elsewhere")
	if !slices.Equal(picked, []bool{false, true}) || f.Paths.Text != cpi+"\n/elsewhere" || redrawn != 2 {
		t.Errorf("picked %v, paths %q, redrawn %d times", picked, f.Paths.Text, redrawn)
	}
	if err := f.Set(f.Paths, cpi+"\n"); err != nil {
		t.Fatal(err)
	}
	f.Set(f.App, "cpi")
	f.Set(f.Experiment, "runs")
	f.Set(f.Name, "π on 4 ranks")
	f.Set(f.Attrs, "machine=jureca\nqueue = batch")
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	w.noErrors(t)
	ids := Imported(c.LastImport())
	if len(ids) != 1 {
		t.Fatalf("imported %v", ImportSummary(c.LastImport()))
	}
	tr, err := r.Trial(context.Background(), ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if q, _ := tr.Attr("queue"); tr.App != "cpi" || tr.Experiment != "runs" || tr.Name != "π on 4 ranks" || q.Value != "batch" {
		t.Errorf("imported %+v", tr)
	}
	// The same content again: passed over unless forced.
	f.SetOn(f.Force, true)
	if spec := f.Spec(); !spec.Force || spec.Paths != cpi+"\n" {
		t.Errorf("spec %+v", spec)
	}
}

// TestSearchForm offers the stored metrics (time first), searches the
// trials of the filter by default and finds what repo.Find finds.
func TestSearchForm(t *testing.T) {
	c, w, r, _ := openStandard(t)
	c.SetFilter("app = lulesh")
	f := c.SearchForm()
	if f.Metric.Text != "time" || !slices.Contains(f.Metric.Options, "visits") || f.Where.Text != "app = lulesh" {
		t.Errorf("metric %q of %q, trials %q", f.Metric.Text, f.Metric.Options, f.Where.Text)
	}
	f.Set(f.Threshold, "5%")
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	w.noErrors(t)
	q, _ := f.Spec().Query()
	want, err := r.Find(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 2 || c.Hits() == nil || !reflect.DeepEqual(c.Hits().Hits, want) || q.Inclusive || !q.Share || q.Where != "app = lulesh" {
		t.Fatalf("query %+v: hits %+v, want %d of repo.Find", q, c.Hits(), len(want))
	}
	f.Set(f.Values, valueChoices[1])
	f.Set(f.By, thresholdChoices[1])
	f.SetOn(f.Flat, true)
	f.Set(f.Kind, "mpi")
	f.Set(f.Threshold, "1e9")
	if q, err := f.Spec().Query(); err != nil || !q.Inclusive || q.Share || q.MinValue != 1e9 || !q.Flat || q.Kind != "mpi" {
		t.Errorf("query %+v, %v", q, err)
	}
	f.Set(f.Threshold, "much")
	if err := f.Confirmed(); err == nil || !strings.Contains(err.Error(), "threshold") {
		t.Errorf("bad threshold: %v", err)
	}
}

// TestScalingForm orders the marked trials by procs, offers their metrics
// (time chosen), previews x as the attribute changes and starts the study;
// a derived metric of an unknown metric is refused.
func TestScalingForm(t *testing.T) {
	c, w, _, _ := openStandard(t)
	if f := c.ScalingForm(); !strings.Contains(f.Preview.Text, "share no numeric attribute") {
		t.Errorf("nothing marked: preview %q", f.Preview.Text)
	}
	c.B.SetMarked(5, true)
	c.B.SetMarked(4, true)
	f := c.ScalingForm()
	if f.X.Text != "procs" || !strings.Contains(f.Preview.Text, "#5 lulesh.p64.size25.r1.cubex: 64") {
		t.Errorf("x %q, preview %q", f.X.Text, f.Preview.Text)
	}
	if f.Metric.Text != "time" || len(f.Metric.Options) < 5 || f.Metric.Placeholder != "(select one)" {
		t.Errorf("metric %q of %q", f.Metric.Text, f.Metric.Options)
	}
	if err := f.Set(f.X, "size"); err != nil || f.Preview.Text != ScalingPreview(c.B.MarkedTrials(), "size") {
		t.Errorf("x = size: preview %q, %v", f.Preview.Text, err)
	}
	f.Set(f.X, "procs")
	f.SetOn(f.Exclusive, true)
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	w.noErrors(t)
	if w.scaling == nil || w.scaling.Result.Metric != "time" || len(w.scaling.Result.Trials) != 2 || w.scaling.Result.Trials[0].X != 27 {
		t.Fatalf("study %+v", w.scaling)
	}
	if s, d, err := f.Spec(); err != nil || d != nil || !s.Exclusive || s.X != analysisview.XGiven || s.XText != "procs" {
		t.Errorf("spec %+v, %v, %v", s, d, err)
	}
	f.Set(f.Derived, "tpv = time / visits")
	if s, d, err := f.Spec(); err != nil || d == nil || s.Metric != "tpv" {
		t.Errorf("derived: spec %+v, %v", s, err)
	}
	f.Set(f.Derived, "tpv = time / nothing")
	if err := f.Confirmed(); err == nil || !strings.Contains(err.Error(), "nothing") {
		t.Errorf("unknown metric in the derived formula: %v", err)
	}
}

func TestAddLine(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"", "x"}, {"a", "a\nx"}, {"a\n\n", "a\nx"},
	} {
		if got := addLine(c.text, "x"); got != c.want {
			t.Errorf("addLine(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
