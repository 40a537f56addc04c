package repoview

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"cubeview/algebra"
	"cubeview/analysisview"
	"cubeview/document"
	"cubeview/internal/testkit"
	"cubeview/internal/testkit/testrepo"
	"cubeview/model"
	"cubeview/numfmt"
	"cubeview/repo"
)

// window records what a Controller tells its window.
type window struct {
	status      []string
	errs        []error
	opened      *repo.Repo
	problem     string
	listings    int
	details     int
	changed     int
	progress    []Progress
	hits        *HitTable
	shown       []*document.Doc
	summary     string
	scaling     *analysisview.ScalingReport
	plot        image.Image
	scalingDocs []*document.Doc
	groups      *analysisview.GroupsReport
	groupsWith  *document.Doc
	open        map[int64]*document.Doc // the documents open in windows
	importing   []bool                  // Enabled(Import) at each progress during an import
	deferred    []func()                // work and done held back when deferring
	deferring   bool
	c           *Controller
}

// newController returns a controller whose work runs at once (or, with
// w.deferring, when the test runs w.deferred) and what it told its window.
func newController(t *testing.T) (*Controller, *window) {
	t.Helper()
	w := &window{open: map[int64]*document.Doc{}}
	run := func(work, done func()) {
		if w.deferring {
			w.deferred = append(w.deferred, func() { work(); done() })
			return
		}
		work()
		done()
	}
	w.c = NewController(run, func(f func()) { f() }, Events{
		Status:        func(s string) { w.status = append(w.status, s) },
		Error:         func(err error) { w.errs = append(w.errs, err) },
		Opened:        func(r *repo.Repo) { w.opened = r },
		Listing:       func() { w.listings++ },
		FilterProblem: func(msg string) { w.problem = msg },
		Details:       func() { w.details++ },
		Changed:       func() { w.changed++ },
		Progress: func(p Progress) {
			w.progress = append(w.progress, p)
			if p.Fills && p.Fraction > 0 {
				w.importing = append(w.importing, w.c.Enabled(Import))
			}
		},
		Hits:     func(h *HitTable) { w.hits = h },
		Doc:      func(id int64) *document.Doc { return w.open[id] },
		Show:     func(d *document.Doc) { w.shown = append(w.shown, d) },
		Imported: func(s string) { w.summary = s },
		Scaling: func(rep *analysisview.ScalingReport, img image.Image, docs []*document.Doc) {
			w.scaling, w.plot, w.scalingDocs = rep, img, docs
		},
		Groups: func(rep *analysisview.GroupsReport, with *document.Doc) { w.groups, w.groupsWith = rep, with },
		Format: numfmt.Cube,
	})
	return w.c, w
}

// noErrors fails the test on any error the controller showed.
func (w *window) noErrors(t *testing.T) {
	t.Helper()
	for _, err := range w.errs {
		t.Errorf("error shown: %v", err)
	}
	w.errs = nil
}

// lastStatus returns the status line.
func (w *window) lastStatus() string {
	if len(w.status) == 0 {
		return ""
	}
	return w.status[len(w.status)-1]
}

// openStandard opens the standard real trials' repository in a
// controller.
func openStandard(t *testing.T) (*Controller, *window, *repo.Repo, map[int64]string) {
	t.Helper()
	r, files := testrepo.Filled(t, testrepo.Standard)
	c, w := newController(t)
	c.Open(r.Location(), nil)
	w.noErrors(t)
	if w.opened == nil || c.Repo() != w.opened || w.opened.Location() != r.Location() {
		t.Fatalf("opened %v, want %s", w.opened, r.Location())
	}
	t.Cleanup(func() { c.Repo().Close() })
	return c, w, r, files
}

func listedIDs(c *Controller) []int64 {
	var ids []int64
	for _, t := range c.B.Trials() {
		ids = append(ids, t.ID)
	}
	slices.Sort(ids)
	return ids
}

// TestControllerOpenAndFilter opens a repository, reads its listing and
// the listings of filters; a bad filter keeps the listing and says where
// it is wrong; a repository that cannot be opened says so.
func TestControllerOpenAndFilter(t *testing.T) {
	c, w, _, _ := openStandard(t)
	if got := listedIDs(c); len(got) != 6 || w.listings != 1 {
		t.Fatalf("listed %v in %d listings", got, w.listings)
	}
	if c.Title() != "cubeview — repository "+c.Repo().Name() || c.ReadOnlyNote() != "" {
		t.Errorf("title %q, read-only note %q", c.Title(), c.ReadOnlyNote())
	}
	if want := "Repository " + c.Repo().Name() + " (sqlite)"; w.lastStatus() != want {
		t.Errorf("status %q, want %q", w.lastStatus(), want)
	}
	c.SetFilter("app = mm")
	if got := listedIDs(c); !slices.Equal(got, []int64{1, 2, 3}) || w.problem != "" || c.Filter() != "app = mm" {
		t.Errorf("app = mm lists %v, problem %q", got, w.problem)
	}
	c.SetFilter("size <= 25 and (app = mm")
	if !strings.HasPrefix(w.problem, "column 25: ") || !slices.Equal(listedIDs(c), []int64{1, 2, 3}) {
		t.Errorf("bad filter: problem %q, listing %v", w.problem, listedIDs(c))
	}
	w.noErrors(t)

	c2, w2 := newController(t)
	notFolder := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notFolder, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c2.Open(filepath.Join(notFolder, "repository.db"), nil)
	if len(w2.errs) != 1 || w2.lastStatus() != "The repository could not be opened." || c2.Repo() != nil || w2.opened != nil {
		t.Errorf("unopenable repository: errors %v, status %q", w2.errs, w2.lastStatus())
	}
}

// TestControllerLatestListingWins: listings read in the background may
// end in any order; only the last one asked for is shown.
func TestControllerLatestListingWins(t *testing.T) {
	c, w, _, _ := openStandard(t)
	w.deferring = true
	c.SetFilter("app = mm")
	c.SetFilter("app = lulesh")
	if len(w.deferred) != 2 {
		t.Fatalf("%d listings under way", len(w.deferred))
	}
	listings := w.listings
	w.deferring = false
	w.deferred[1]()
	w.deferred[0]() // the older filter ends last
	if got := listedIDs(c); !slices.Equal(got, []int64{4, 5, 6}) || w.listings != listings+1 {
		t.Errorf("listed %v after %d listings, want lulesh's trials once", got, w.listings-listings)
	}
}

// TestControllerAttributesAndRemove sets and removes attributes of the
// current trial, asks before removing two marked trials and removes
// them; a read-only repository refuses with the reason.
func TestControllerAttributesAndRemove(t *testing.T) {
	c, w, r, _ := openStandard(t)
	if c.CanEditAttrs() || c.Details().Title() != "No trial selected" {
		t.Errorf("attributes editable (%v) or details %q with no trial selected", c.CanEditAttrs(), c.Details().Title())
	}
	if c.Click(c.B.RowOf(5)) || c.Details().Trial.ID != 5 || c.Details().Title() != "lulesh.p64.size25.r1.cubex" || !c.CanEditAttrs() {
		t.Fatalf("after clicking trial 5: details of %d titled %q", c.Details().Trial.ID, c.Details().Title())
	}
	if !c.Click(0) || c.B.Rows()[0].TreeText() != "▸ lulesh (3 trials)" {
		t.Errorf("clicking lulesh does not close it: %q", c.B.Rows()[0].TreeText())
	}
	c.Click(0)
	done := false
	c.SubmitAttr("compiler=gcc-12", func() { done = true })
	c.SubmitAttr("queue = debug", nil)
	w.noErrors(t)
	tr, err := r.Trial(context.Background(), 5)
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := tr.Attr("compiler"); a.Value != "gcc-12" || !done || w.lastStatus() != "Set queue of trial 5." {
		t.Errorf("compiler %q (done %v), status %q", a.Value, done, w.lastStatus())
	}
	if i := slices.IndexFunc(c.Details().Attrs, func(a AttrRow) bool { return a.Key == "queue" }); i < 0 || c.Details().Attrs[i].Line() != "queue = debug   (user)" {
		t.Errorf("details' attributes %+v", c.Details().Attrs)
	}
	c.RemoveAttr(5, "queue")
	if tr, _ := r.Trial(context.Background(), 5); slices.ContainsFunc(tr.Attrs, func(a repo.Attribute) bool { return a.Key == "queue" }) {
		t.Error("queue not removed")
	}
	c.SubmitAttr("no equals sign", nil)
	if len(w.errs) != 1 || !strings.Contains(w.errs[0].Error(), "key=value") {
		t.Errorf("bad attribute: %v", w.errs)
	}
	w.errs = nil

	c.B.SetMarked(4, true)
	c.B.SetMarked(6, true)
	ids, q := c.RemoveQuestion()
	want := "Remove 2 trial(s) from the repository?\n#4 lulesh.p27.size25.r1.cubex\n#6 lulesh.p27.size30.r1.cubex\n\nThis cannot be undone."
	if !slices.Equal(ids, []int64{4, 6}) || q != want {
		t.Errorf("remove %v asking %q, want %q", ids, q, want)
	}
	c.B.SetReadOnly("the role may only read")
	c.Remove(ids...)
	c.SetAttr(5, model.Attr{Key: "x", Value: "1"}, nil)
	if len(w.errs) != 2 || w.errs[0].Error() != "the role may only read" || w.errs[1].Error() != "the role may only read" {
		t.Errorf("changes of a read-only repository: %v", w.errs)
	}
	if c.ReadOnlyNote() != "Read-only: the role may only read. Import, Remove and attribute editing are disabled." || c.Enabled(Import) || c.CanEditAttrs() {
		t.Errorf("read-only note %q, Import enabled %v", c.ReadOnlyNote(), c.Enabled(Import))
	}
	w.errs = nil
	c.B.SetReadOnly("")
	c.Remove(ids...)
	w.noErrors(t)
	if got := listedIDs(c); !slices.Equal(got, []int64{1, 2, 3, 5}) || len(c.B.Marked()) != 0 || w.lastStatus() != "Removed 2 trial(s)." {
		t.Errorf("after removing 4 and 6: listed %v, marked %v, status %q", got, c.B.Marked(), w.lastStatus())
	}
}

func TestJoinLines(t *testing.T) {
	var names []string
	for i := range 12 {
		names = append(names, fmt.Sprint(i))
	}
	if got := joinLines(names[:2], 10); got != "0\n1\n" {
		t.Errorf("two lines: %q", got)
	}
	if got := joinLines(names, 10); got != "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n… and 2 more" {
		t.Errorf("twelve lines: %q", got)
	}
}

// TestControllerImport imports a real file with progress: Import is
// disabled while it runs (also when the listing is read again meanwhile),
// the progress line ends hidden, and the new trial becomes current.
func TestControllerImport(t *testing.T) {
	c, w, _, _ := openStandard(t)
	cpi := testkit.Data(t, "cube4", "cpi", "profile.cubex")
	c.Import([]string{cpi}, repo.ImportOptions{App: "cpi", Experiment: "runs"})
	w.noErrors(t)
	ids := Imported(c.LastImport())
	if len(ids) != 1 || c.B.Current() != ids[0] || len(listedIDs(c)) != 7 {
		t.Fatalf("imported %v, current %d, listed %v", ids, c.B.Current(), listedIDs(c))
	}
	if first := w.progress[0]; !first.Shown || !first.Fills || first.Text != "Importing …" || w.progress[len(w.progress)-1] != (Progress{}) {
		t.Errorf("progress %+v … %+v", first, w.progress[len(w.progress)-1])
	}
	if len(w.importing) == 0 || slices.Contains(w.importing, true) || !c.Enabled(Import) || c.Importing() {
		t.Errorf("Import enabled during the import: %v; after: %v", w.importing, c.Enabled(Import))
	}
	if w.summary != ImportSummary(c.LastImport()) || !slices.Contains(w.status, "Imported 1 trial: #7.") {
		t.Errorf("summary %q, status %q", w.summary, w.status)
	}
	// A listing read while an import runs keeps Import disabled.
	c.cancel = func() {}
	c.Reload(0)
	if c.Enabled(Import) {
		t.Error("Import enabled while an import runs")
	}
	c.cancel = nil
	if !c.Enabled(Import) {
		t.Error("Import disabled after the import")
	}
}

// TestControllerOpenAndCompute reads trials as documents and computes the
// difference of two marked trials: the same experiment as algebra.Diff
// of their files; an open trial is used as it is.
func TestControllerOpenAndCompute(t *testing.T) {
	c, w, r, _ := openStandard(t)
	var doc *document.Doc
	c.OpenTrial(4, func(d *document.Doc) { doc = d })
	w.noErrors(t)
	if doc == nil || doc.Path != "repo:4" || doc.Name != "lulesh.p27.size25.r1.cubex (repo:4)" || w.lastStatus() != "Opened trial 4." {
		t.Fatalf("trial 4 read as %+v, status %q", doc, w.lastStatus())
	}
	if !doc.Exp.Summarized(doc.Exp.MetricRoots[0]) {
		t.Error("the first metric is not summed up for the window")
	}
	w.open[4] = doc
	c.B.SetMarked(6, true)
	c.Compute(Difference)
	if len(w.errs) != 1 || !strings.Contains(w.errs[0].Error(), "two operands") {
		t.Errorf("difference of one trial: %v", w.errs)
	}
	w.errs = nil
	c.B.SetMarked(4, true)
	c.Compute(Difference)
	w.noErrors(t)
	if len(w.shown) != 1 {
		t.Fatalf("%d results shown", len(w.shown))
	}
	res := w.shown[0]
	if res.Expression != "repo:6 − repo:4" || res.Sources[1] != doc || res.Sources[0].Path != "repo:6" || w.lastStatus() != "Computed "+res.Name+"." {
		t.Errorf("result %q from %v, status %q", res.Expression, res.Sources, w.lastStatus())
	}
	if p := w.progress; len(p) != 2 || !p[0].Shown || p[0].Fills || p[0].Text != "Reading 2 trials and computing their Difference …" || p[1].Shown {
		t.Errorf("progress %+v", p)
	}
	// The trials as stored: the result records the repository and each
	// trial's checksum, as it records files.
	open := func(id int64) *model.Experiment {
		e, err := r.Open(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	want, err := algebra.Diff(open(6), open(4), algebra.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got, exp bytes.Buffer
	if err := res.Exp.Dump(&got); err != nil {
		t.Fatal(err)
	}
	if err := want.Dump(&exp); err != nil {
		t.Fatal(err)
	}
	if got.String() != exp.String() {
		t.Errorf("difference differs from algebra.Diff of the files:\n%s", testkit.Diff(exp.String(), got.String()))
	}
	if !SameTrial(doc, &document.Doc{Path: "repo:4"}) || SameTrial(doc, res.Sources[0]) || SameTrial(doc, res) || SameTrial(nil, doc) {
		t.Error("SameTrial")
	}
}

// TestControllerSearch shows repo.Find's hits as a table.
func TestControllerSearch(t *testing.T) {
	c, w, r, _ := openStandard(t)
	q, err := SearchSpec{Metric: "time", ByShare: true, Threshold: "5%", Where: "app = lulesh"}.Query()
	if err != nil {
		t.Fatal(err)
	}
	c.Search(q)
	w.noErrors(t)
	want, err := r.Find(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if w.hits == nil || c.Hits() != w.hits || len(want) < 2 || !reflect.DeepEqual(w.hits.Hits, want) || w.lastStatus() != w.hits.Title {
		t.Fatalf("hits %+v, want %d of repo.Find; status %q", w.hits, len(want), w.lastStatus())
	}
	c.CloseHits()
	if c.Hits() != nil {
		t.Error("hits kept after closing them")
	}
	q.Where = "size <= ("
	c.Search(q)
	if len(w.errs) != 1 || w.lastStatus() != "The search failed." {
		t.Errorf("search of an unknown metric: %v, status %q", w.errs, w.lastStatus())
	}
}

// TestControllerScaling runs a scaling study of two marked LULESH trials
// by procs, with and without a derived metric; the derived metric is
// added to the study's copies only.
func TestControllerScaling(t *testing.T) {
	c, w, _, _ := openStandard(t)
	spec := analysisview.ScalingSpec{Metric: "time", X: analysisview.XGiven, XText: "procs"}
	if err := c.Scaling(nil, spec, nil); err == nil || !strings.Contains(err.Error(), "two or more") {
		t.Errorf("nothing marked: %v", err)
	}
	var doc *document.Doc
	c.OpenTrial(4, func(d *document.Doc) { doc = d })
	w.open[4] = doc
	c.B.SetMarked(5, true)
	c.B.SetMarked(4, true)
	if err := c.Scaling(c.B.MarkedTrials(), spec, nil); err != nil {
		t.Fatal(err)
	}
	w.noErrors(t)
	if got := w.scaling.Result.Trials; len(got) != 2 || got[0].X != 27 || got[1].X != 64 || w.plot.Bounds().Dx() != analysisview.ScalingPlotW {
		t.Fatalf("trials %+v", got)
	}
	if len(w.scalingDocs) != 2 || w.scalingDocs[1] != doc || w.scalingDocs[0].Path != "repo:5" {
		t.Errorf("documents %+v", w.scalingDocs)
	}
	if want := "Scaling of 2 trials: " + w.scaling.Runs + "."; w.lastStatus() != want || !strings.HasPrefix(w.scaling.Runs, "procs 27: #4 ") {
		t.Errorf("status %q, want %q", w.lastStatus(), want)
	}
	d, err := ScalingDerived("tpv = time / visits")
	if err != nil {
		t.Fatal(err)
	}
	spec.Metric = d.UniqName
	if err := c.Scaling(c.B.MarkedTrials(), spec, d); err != nil {
		t.Fatal(err)
	}
	w.noErrors(t)
	if w.scaling.Result.Metric != "tpv" || w.scalingDocs[1] == doc || doc.Exp.MetricByName("tpv") >= 0 {
		t.Errorf("derived study of %q; the open trial got it: %v", w.scaling.Result.Metric, doc.Exp.MetricByName("tpv") >= 0)
	}
	for _, c2 := range []struct {
		spec analysisview.ScalingSpec
		want string
	}{
		{analysisview.ScalingSpec{Metric: "time", XText: "compiler"}, `compiler = "gcc-13" is not a positive number`},
		{analysisview.ScalingSpec{XText: "procs"}, "choose a metric"},
	} {
		if err := c.Scaling(c.B.MarkedTrials(), c2.spec, nil); err == nil || !strings.Contains(err.Error(), c2.want) {
			t.Errorf("%+v: %v, want %q", c2.spec, err, c2.want)
		}
	}
}
