package repoview

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"cubeview/analysisview"
	"cubeview/document"
	"cubeview/internal/testkit/testrepo"
	"cubeview/repo"
)

func TestSplitByExperiment(t *testing.T) {
	trial := func(id int64, app, exp string) repo.Trial {
		return repo.Trial{ID: id, Name: fmt.Sprint("run", id), App: app, Experiment: exp}
	}
	runs, group := SplitByExperiment([]repo.Trial{
		trial(4, "lulesh", "opt"), trial(1, "lulesh", "base"), trial(2, "lulesh", "opt"),
		trial(3, "mm", "opt"), trial(5, "lulesh", "base"),
	})
	if want := []int{0, 1, 0, -1, 1}; !slices.Equal(group, want) {
		t.Errorf("groups %v, want %v (first marked experiment A, next B, others neither)", group, want)
	}
	if runs[0].Trial != 4 || runs[0].Label != "#4 run4 (lulesh / opt)" || runs[0].Path != "" {
		t.Errorf("first run %+v", runs[0])
	}
	if r := fileRun("/data/b1.cubex"); r.Trial != 0 || r.Label != "b1.cubex — file /data/b1.cubex" {
		t.Errorf("file run %+v", r)
	}
}

// groupsController opens a repository of n generated runs each of a base
// configuration and one whose call path 7 is 50 % slower.
func groupsController(t *testing.T, n int) (*Controller, *window, []int64, []int64, string) {
	t.Helper()
	r, base, slower, planted := testrepo.Groups(t, n, 7, 0.5)
	c, w := newController(t)
	c.Open(r.Location(), r)
	w.noErrors(t)
	return c, w, base, slower, planted
}

// significantPaths returns the call paths rep marks significant.
func significantPaths(rep *analysisview.GroupsReport) []string {
	var out []string
	for i := range rep.Len() {
		if r := rep.Row(i); r.Significant {
			out = append(out, r.CallPath)
		}
	}
	return out
}

// TestCompareGroupsOfExperiments marks two experiments of repeated runs
// as wholes: the dialog ticks each in its group, offers their metrics,
// and the comparison finds the planted call path and nothing else,
// shown with group A's first trial.
func TestCompareGroupsOfExperiments(t *testing.T) {
	c, w, base, slower, planted := groupsController(t, 4)
	if ok := c.Enabled(CompareGroups); !ok {
		t.Error("Compare groups… disabled")
	}
	// Mark the experiments' rows (the slower one first: it becomes A).
	for _, exp := range []string{"slower", "base"} {
		i := slices.IndexFunc(c.B.Rows(), func(r Row) bool { return r.Kind == ExperimentRow && strings.Contains(r.TreeText(), exp) })
		if i < 0 {
			t.Fatalf("no row of experiment %s", exp)
		}
		c.B.MarkRow(i, true)
	}
	f := c.GroupsForm(func(func(string)) { t.Error("a file was asked for") })
	w.noErrors(t)
	if f.Metric.Text != "" || !slices.Contains(f.Metric.Options, "time") {
		t.Errorf("metric %q of %q, want time's default offering the trials' metrics", f.Metric.Text, f.Metric.Options)
	}
	s, err := f.Spec()
	if err != nil {
		t.Fatal(err)
	}
	ids := func(runs []GroupRun) []int64 {
		var out []int64
		for _, r := range runs {
			out = append(out, r.Trial)
		}
		slices.Sort(out)
		return out
	}
	if !slices.Equal(ids(s.A), slower) || !slices.Equal(ids(s.B), base) {
		t.Fatalf("groups %v and %v, want %v and %v", ids(s.A), ids(s.B), slower, base)
	}
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	w.noErrors(t)
	rep := w.groups
	if rep == nil {
		t.Fatal("no comparison shown")
	}
	if got := significantPaths(rep); !slices.Equal(got, []string{planted}) {
		t.Errorf("significant %q, want only %s", got, planted)
	}
	if rep.Result.NA != 4 || rep.Result.NB != 4 || rep.Row(0).CallPath != planted || !(rep.Row(0).Diff > 0) {
		t.Errorf("%d vs %d runs, first row %s diff %g", rep.Result.NA, rep.Result.NB, rep.Row(0).CallPath, rep.Row(0).Diff)
	}
	if w.groupsWith == nil || w.groupsWith.Path != TrialRef(s.A[0].Trial) {
		t.Errorf("shown with %+v, want %s", w.groupsWith, TrialRef(s.A[0].Trial))
	}
	if want := "Compared 4 runs with 4: 1 of 30 call paths differ significantly."; w.lastStatus() != want {
		t.Errorf("status %q, want %q", w.lastStatus(), want)
	}
}

// TestCompareGroupsWithFiles marks one experiment (group A) and adds
// group B's runs from files; a trial open in a window is used as it is.
func TestCompareGroupsWithFiles(t *testing.T) {
	c, w, base, _, planted := groupsController(t, 3)
	for _, id := range base {
		c.B.SetMarked(id, true)
	}
	var doc *document.Doc
	c.OpenTrial(base[0], func(d *document.Doc) { doc = d })
	w.open[base[0]] = doc
	dir := t.TempDir()
	var files []string
	for i := range 3 {
		p, _ := testrepo.RunFile(t, dir, fmt.Sprintf("slow%d.cubex", i), 1, i, 7, 0.5)
		files = append(files, p)
	}
	next := 0
	f := c.GroupsForm(func(add func(string)) { add(files[next%len(files)]); next++ })
	if _, err := f.Spec(); err == nil || !strings.Contains(err.Error(), "A has 3, B 0") {
		t.Errorf("nothing in B: %v", err)
	}
	for range files {
		f.B.Action()
	}
	if len(f.A.Options) != 6 || !slices.Equal(f.A.Checked, []bool{true, true, true, false, false, false}) ||
		!slices.Equal(f.B.Checked, []bool{false, false, false, true, true, true}) {
		t.Fatalf("after adding 3 files to B: A %q %v, B %v", f.A.Options, f.A.Checked, f.B.Checked)
	}
	f.A.Action() // the first file again: ticked in A too, not offered twice
	if len(f.B.Options) != 6 || !f.A.Checked[3] {
		t.Errorf("a file added twice: %q, A %v", f.B.Options, f.A.Checked)
	}
	if _, err := f.Spec(); err == nil || !strings.Contains(err.Error(), "slow0.cubex — file "+files[0]+" is in both groups") {
		t.Errorf("a run in both groups: %v", err)
	}
	f.SetChecked(f.A, 3, false)
	f.Metric.Text = "nosuch"
	if err := f.Confirmed(); err != nil || len(w.errs) != 1 || !strings.Contains(w.errs[0].Error(), "nosuch") {
		t.Errorf("no such metric: %v, shown %v", err, w.errs)
	}
	w.errs = nil
	f.Metric.Text = " time "
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	w.noErrors(t)
	if got := significantPaths(w.groups); !slices.Equal(got, []string{planted}) {
		t.Errorf("significant %q, want only %s", got, planted)
	}
	if w.groupsWith != doc || w.groups.Row(0).Diff >= 0 {
		t.Errorf("shown with %+v (want the open document), A − B of %s %g (want < 0)", w.groupsWith, w.groups.Row(0).CallPath, w.groups.Row(0).Diff)
	}
	// A file that is no experiment: the error names it.
	bad := dir + "/none.cubex"
	c.CompareGroups(GroupsSpec{A: f.group(f.A), B: []GroupRun{fileRun(files[0]), fileRun(bad)}})
	if len(w.errs) != 1 || !strings.Contains(w.errs[0].Error(), "none.cubex") {
		t.Errorf("errors %v, want one naming none.cubex", w.errs)
	}
}
