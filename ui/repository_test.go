package ui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"cubeview/algebra"
	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/internal/testkit/testrepo"
	"cubeview/launch"
	"cubeview/model"
	"cubeview/repo"
	"cubeview/repoview"
	"cubeview/view"
)

// openRepository opens File › Repository… of a window on a temporary
// SQLite repository holding the real trials of testrepo.Standard; it
// returns the window and each trial's file.
func openRepository(t *testing.T) (*App, *repoWindow, *repo.Repo, map[int64]string) {
	t.Helper()
	r, files := testrepo.Filled(t, testrepo.Standard)
	a := newTestApp(t)
	a.repoLocation = r.Location()
	w := a.newWindow()
	it := menuItem(w, "File", "Repository…")
	if it == nil || it.Disabled {
		t.Fatalf("File › Repository… missing or disabled: %+v", it)
	}
	it.Action()
	rw := a.repository
	if rw == nil || rw.c.Repo() == nil {
		t.Fatal("File › Repository… opened no repository window")
	}
	if rw.c.Repo().Location() != r.Location() {
		t.Fatalf("the window reads %s, not %s", rw.c.Repo().Location(), r.Location())
	}
	rw.win.Resize(fyne.NewSize(1400, 3000))
	return a, rw, r, files
}

// cellText returns what the table shows in a cell: the text and the
// check box, nil when there is none.
func cellText(rw *repoWindow, row, col int) (text string, check *widget.Check) {
	c := rw.newCell()
	rw.updateCell(widget.TableCellID{Row: row, Col: col}, c)
	objs := c.(*fyne.Container).Objects
	if left := objs[1].(*fyne.Container); left.Visible() {
		check = left.Objects[0].(*widget.Check)
	}
	return objs[0].(*widget.Label).Text, check
}

// shownTrials returns the trial ids of the tree's rows, read from the
// table's id column.
func shownTrials(t *testing.T, rw *repoWindow) []int64 {
	t.Helper()
	rows, _ := rw.b.TableSize()
	var ids []int64
	for i := 0; i < rows; i++ {
		if text, _ := cellText(rw, i, 1); text != "" {
			id, err := strconv.ParseInt(text, 10, 64)
			if err != nil {
				t.Fatalf("row %d: id %q", i, text)
			}
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

func trialIDs(t *testing.T, r *repo.Repo, filter string) []int64 {
	t.Helper()
	ts, err := r.Trials(context.Background(), filter, repo.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, tr := range ts {
		ids = append(ids, tr.ID)
	}
	return ids
}

// TestRepositoryTreeAndFilter: the window lists every trial under its
// application and experiment with its attributes; the filter box narrows
// the tree as "repo ls --where" does and shows a bad filter's column.
func TestRepositoryTreeAndFilter(t *testing.T) {
	_, rw, r, _ := openRepository(t)
	if got, want := shownTrials(t, rw), trialIDs(t, r, ""); len(want) != 6 || !slices.Equal(got, want) {
		t.Fatalf("tree shows trials %v, repository has %v", got, want)
	}
	if text, check := cellText(rw, 0, 0); text != "▾ lulesh (3 trials)" || check == nil {
		t.Errorf("first row %q (check %v)", text, check)
	}
	if _, cols := rw.b.TableSize(); rw.b.ColumnTitle(0) == "" || cols != 9 {
		t.Errorf("%d columns", cols)
	}
	// The p64 run's row: procs 64 and the user's attributes.
	row := rw.b.RowOf(5)
	for col, want := range map[int]string{1: "5", 2: "64", 5: "gcc-13", 6: "25"} {
		if got, check := cellText(rw, row, col); got != want || check != nil {
			t.Errorf("p64 row, column %s: %q, want %q", rw.b.ColumnTitle(col), got, want)
		}
	}
	for _, f := range []string{"app = lulesh and procs >= 64", "size <= 25 and app = mm", "compiler ~ 'gcc-1?'"} {
		rw.filter.SetText(f)
		if got, want := shownTrials(t, rw), trialIDs(t, r, f); len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("filter %q shows %v, repo ls gives %v", f, got, want)
		}
		if rw.filterMsg.Visible() {
			t.Errorf("filter %q: error shown: %s", f, rw.filterMsg.Text)
		}
	}
	before := shownTrials(t, rw)
	rw.filter.SetText("size <= 25 and (app = mm")
	if !rw.filterMsg.Visible() || !strings.HasPrefix(rw.filterMsg.Text, "column 25: ") {
		t.Errorf("bad filter: message %q (shown %v), want one at column 25", rw.filterMsg.Text, rw.filterMsg.Visible())
	}
	if !slices.Equal(shownTrials(t, rw), before) {
		t.Error("a bad filter changed the tree")
	}
	rw.filter.OnSubmitted(rw.filter.Text)
	if rw.filter.CursorColumn != 24 {
		t.Errorf("Enter on a bad filter puts the cursor at column %d, want 24", rw.filter.CursorColumn)
	}
	rw.filter.SetText("")
	if len(shownTrials(t, rw)) != 6 || rw.filterMsg.Visible() {
		t.Error("clearing the filter does not show every trial")
	}
	// Clicking a group closes it.
	rw.clickRow(0)
	if text, _ := cellText(rw, 0, 0); text != "▸ lulesh (3 trials)" || len(shownTrials(t, rw)) != 3 {
		t.Errorf("after clicking lulesh: %q, %d trials shown", text, len(shownTrials(t, rw)))
	}
}

// TestRepositoryImportAndAttributes imports a real file through the
// Import dialog's form, edits the new trial's attributes and removes it;
// each change is in the repository when it is opened again.
func TestRepositoryImportAndAttributes(t *testing.T) {
	_, rw, r, _ := openRepository(t)
	rw.SelectTrial(4)
	f := rw.c.ImportForm(rw.pickPath)
	if f.App.Text != "lulesh" || f.Experiment.Text != "scaling" {
		t.Errorf("import form proposes %q / %q, want the current trial's", f.App.Text, f.Experiment.Text)
	}
	cpi := testkit.Data(t, "cube4", "cpi", "profile.cubex")
	f.Set(f.Paths, cpi)
	f.Set(f.App, "cpi")
	f.Set(f.Experiment, "runs")
	f.Set(f.Name, "π on 4 ranks")
	f.Set(f.Attrs, "machine=jureca\nqueue = batch")
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	ids := repoview.Imported(rw.c.LastImport())
	if len(ids) != 1 || rw.progressBox.Visible() {
		t.Fatalf("import: %v (progress shown %v)", repoview.ImportSummary(rw.c.LastImport()), rw.progressBox.Visible())
	}
	id := ids[0]
	if rw.b.Current() != id || rw.title.Text != "π on 4 ranks" {
		t.Errorf("current trial %d %q after importing %d", rw.b.Current(), rw.title.Text, id)
	}
	if got, want := shownTrials(t, rw), trialIDs(t, r, ""); len(want) != 7 || !slices.Equal(got, want) {
		t.Fatalf("tree %v, repository %v", got, want)
	}
	reopen := func() repo.Trial {
		t.Helper()
		r2, err := repo.Open(context.Background(), r.Location())
		if err != nil {
			t.Fatal(err)
		}
		defer r2.Close()
		tr, err := r2.Trial(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	tr := reopen()
	if a, ok := tr.Attr("queue"); tr.App != "cpi" || tr.Experiment != "runs" || !ok || a.Value != "batch" {
		t.Fatalf("imported trial %+v", tr)
	}
	if e, err := format.Open(cpi); err != nil || tr.Format != e.Format {
		t.Errorf("format %q, the file's %v", tr.Format, err)
	}

	// Set an attribute by typing it and pressing Set; change one; move
	// the trial to another experiment.
	rw.attrEntry.SetText("compiler=gcc-12")
	test.Tap(rw.attrSet)
	rw.attrEntry.SetText("queue=debug")
	rw.submitAttr()
	rw.attrEntry.SetText("experiment=scorep")
	rw.submitAttr()
	tr = reopen()
	if c, _ := tr.Attr("compiler"); c.Value != "gcc-12" || c.Origin != repo.FromUser || tr.Experiment != "scorep" {
		t.Errorf("after setting: compiler %+v, experiment %q", c, tr.Experiment)
	}
	if q, _ := tr.Attr("queue"); q.Value != "debug" {
		t.Errorf("queue %q, want debug", q.Value)
	}
	if rw.b.Current() != id || !slices.ContainsFunc(rw.c.Details().Attrs, func(a repoview.AttrRow) bool { return a.Text == "compiler = gcc-12" }) {
		t.Errorf("details after setting: current %d, attributes %+v", rw.b.Current(), rw.c.Details().Attrs)
	}
	// Remove "machine": select it in the list and press Remove attribute.
	i := slices.IndexFunc(rw.c.Details().Attrs, func(a repoview.AttrRow) bool { return a.Key == "machine" })
	if i < 0 {
		t.Fatalf("machine not listed: %+v", rw.c.Details().Attrs)
	}
	if !rw.attrRm.Disabled() {
		t.Error("Remove attribute enabled with no attribute selected")
	}
	rw.attrList.Select(i)
	test.Tap(rw.attrRm)
	if tr := reopen(); hasAttr(tr, "machine") {
		t.Error("machine was not removed")
	}
	var shown error
	rw.app.fatal = func(err error) { shown = err }
	rw.attrEntry.SetText("no equals sign")
	rw.submitAttr()
	if shown == nil || !strings.Contains(shown.Error(), "key=value") {
		t.Errorf("bad attribute: %v", shown)
	}
	rw.app.fatal = func(err error) { t.Errorf("unexpected error: %v", err) }

	// Remove the trial.
	rw.b.ClearMarks()
	rw.SelectTrial(id)
	if ok, why := rw.b.Enabled(repoview.Remove); !ok || rw.buttons[repoview.Remove].Disabled() {
		t.Fatalf("Remove disabled: %s", why)
	}
	rw.c.Remove(rw.b.Targets()...)
	if got := trialIDs(t, r, ""); slices.Contains(got, id) || len(got) != 6 || slices.Contains(shownTrials(t, rw), id) {
		t.Errorf("after removing %d: repository %v, tree %v", id, got, shownTrials(t, rw))
	}
}

// TestRepositoryImportFolder imports a folder through the form: the
// progress bar ends full, files that are not experiments are passed over.
func TestRepositoryImportFolder(t *testing.T) {
	_, rw, r, _ := openRepository(t)
	dir := t.TempDir()
	for _, f := range []string{"profile.0.0.0", "profile.1.0.0", "profile.2.0.0", "profile.3.0.0"} {
		b, err := os.ReadFile(testkit.Data(t, "tau", "cpi-mpi", f))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dir, "tau"), 0o755)
		os.WriteFile(filepath.Join(dir, "tau", f), b, 0o644)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("run on 4 ranks\n"), 0o644)
	f := rw.c.ImportForm(rw.pickPath)
	f.Set(f.Paths, dir)
	f.Set(f.App, "cpi")
	f.Set(f.Experiment, "tau")
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	if ids := repoview.Imported(rw.c.LastImport()); len(ids) != 1 || len(rw.c.LastImport()) != 2 || !rw.c.LastImport()[1].Skipped && !rw.c.LastImport()[0].Skipped {
		t.Fatalf("folder import: %+v", rw.c.LastImport())
	}
	if rw.progress.Value != 1 {
		t.Errorf("progress ended at %v", rw.progress.Value)
	}
	if got := trialIDs(t, r, "app = cpi and experiment = tau"); len(got) != 1 || !slices.Contains(shownTrials(t, rw), got[0]) {
		t.Errorf("imported TAU trial %v not shown", got)
	}
}

// TestRepositorySearch: the Search dialog's hits are repo.Find's; clicking
// a hit opens its trial with the metric and call path (or region)
// selected, and a second click on a hit of the same trial reuses the window.
func TestRepositorySearch(t *testing.T) {
	a, rw, r, _ := openRepository(t)
	f := rw.c.SearchForm()
	if f.Metric.Text != "time" || !slices.Contains(f.Metric.Options, "visits") {
		t.Errorf("metric %q of %q", f.Metric.Text, f.Metric.Options)
	}
	f.Set(f.Threshold, "5%")
	f.Set(f.Where, "app = lulesh")
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	q, _ := f.Spec().Query()
	want, err := r.Find(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if rw.c.Hits() == nil || len(want) < 2 || !reflect.DeepEqual(rw.c.Hits().Hits, want) || !rw.hitsBox.Visible() {
		t.Fatalf("hits differ from repo.Find (%d): %+v", len(want), rw.c.Hits())
	}
	if rows, cols := rw.hitSize(); rows != len(want) || cols != 5 || rw.hitCell(widget.TableCellID{Row: 0, Col: 4}) != want[0].Path {
		t.Errorf("hit table %dx%d, first path %q", rows, cols, rw.hitCell(widget.TableCellID{Row: 0, Col: 4}))
	}
	for _, i := range []int{len(want) - 1, 0} {
		h := want[i]
		rw.hitTable.Select(widget.TableCellID{Row: i, Col: 2})
		_, w := rw.openDocument(h.Trial)
		if w == nil {
			t.Fatalf("hit %d: trial %d not opened", i, h.Trial)
		}
		e := w.doc.Exp
		if got := w.view.Selected(view.CallPane); got != (view.Node{Kind: view.CnodeNode, Index: h.Cnode}) || e.CnodeByPath(h.Path) != h.Cnode {
			t.Errorf("hit %d (%s): call pane selects %+v", i, h.Path, got)
		}
		if got := w.view.Selected(view.MetricPane); got.Kind != view.MetricNode || e.Metrics[got.Index].UniqName != "time" {
			t.Errorf("hit %d: metric pane selects %+v", i, got)
		}
	}
	opened := 0
	for _, w := range a.Windows() {
		if w.doc != nil {
			opened++
		}
	}
	distinct := map[int64]bool{want[0].Trial: true, want[len(want)-1].Trial: true}
	if opened != len(distinct) {
		t.Errorf("%d windows for %d trials", opened, len(distinct))
	}

	// A click on the value column's title sorts by value, largest first;
	// again, smallest first. A click on a row opens the hit shown there.
	for _, desc := range []bool{true, false} {
		if title := tapHeader(rw.hitSorted, 2); !strings.HasSuffix(title, map[bool]string{true: "▼", false: "▲"}[desc]) {
			t.Errorf("value column titled %q", title)
		}
		var values []float64
		for i := range want {
			values = append(values, want[rw.hitSorted.Row(i)].Value)
			if got := rw.hitCell(widget.TableCellID{Row: i, Col: 4}); got != want[rw.hitSorted.Row(i)].Path {
				t.Fatalf("sorted row %d shows %q", i, got)
			}
		}
		if desc {
			slices.Reverse(values)
		}
		if !slices.IsSorted(values) {
			t.Errorf("descending %v: values %v", desc, values)
		}
	}
	last := want[rw.hitSorted.Row(0)]
	rw.hitTable.Select(widget.TableCellID{Row: 0, Col: 0})
	if _, w := rw.openDocument(last.Trial); w == nil || w.view.Selected(view.CallPane) != (view.Node{Kind: view.CnodeNode, Index: last.Cnode}) {
		t.Errorf("the first row sorted by value does not open hit %+v", last)
	}

	// A flat search selects the region in the flat profile.
	f.SetOn(f.Flat, true)
	f.Set(f.Kind, "mpi")
	f.Set(f.Threshold, "1%")
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	if len(rw.c.Hits().Hits) == 0 {
		t.Fatal("no MPI region with 1 % of the time")
	}
	h := rw.c.Hits().Hits[0]
	rw.OpenHit(0)
	_, w := rw.openDocument(h.Trial)
	if got := w.view.Selected(view.CallPane); !w.view.Flat() || got.Kind != view.RegionNode || w.doc.Exp.Regions[got.Index].Name != h.Path {
		t.Errorf("flat hit %s: flat %v, selected %+v", h.Path, w.view.Flat(), got)
	}
	// A bad threshold is refused with a message, nothing searched.
	f.Set(f.Threshold, "much")
	if err := f.Confirmed(); err == nil || !strings.Contains(err.Error(), "threshold") {
		t.Errorf("bad threshold: %v", err)
	}
}

// TestRepositoryAlgebra marks two LULESH trials: Difference gives a window
// whose experiment equals algebra.Diff of the two files; Open opens one
// window per trial; Mean needs two marks.
func TestRepositoryAlgebra(t *testing.T) {
	a, rw, r, _ := openRepository(t)
	if !rw.buttons[repoview.Difference].Disabled() {
		t.Error("Difference enabled with nothing marked")
	}
	// Mark p27 size 30 first: the minuend.
	rw.Mark(rw.b.RowOf(6), true)
	if !rw.buttons[repoview.Mean].Disabled() {
		t.Error("Mean enabled with one mark")
	}
	rw.Mark(rw.b.RowOf(4), true)
	if rw.buttons[repoview.Difference].Disabled() || rw.buttons[repoview.Mean].Disabled() {
		t.Fatal("Difference or Mean disabled with two marks")
	}
	if _, check := cellText(rw, rw.b.RowOf(6), 0); !check.Checked {
		t.Error("marked row not checked")
	}
	if _, check := cellText(rw, 0, 0); !check.Partial {
		t.Error("lulesh with two of three trials marked is not shown partly checked")
	}
	before := len(a.Windows())
	test.Tap(rw.buttons[repoview.Difference])
	ws := a.Windows()
	if len(ws) != before+1 {
		t.Fatalf("Difference opened %d windows", len(ws)-before)
	}
	res := ws[len(ws)-1]
	if res.doc.Expression != "repo:6 − repo:4" {
		t.Errorf("result named %q", res.doc.Expression)
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
	if err := res.doc.Exp.Dump(&got); err != nil {
		t.Fatal(err)
	}
	if err := want.Dump(&exp); err != nil {
		t.Fatal(err)
	}
	if got.String() != exp.String() {
		t.Errorf("difference differs from algebra.Diff of the files:\n%s", testkit.Diff(exp.String(), got.String()))
	}
	if !res.view.Appearance().Scale().Diverging {
		t.Error("the difference is not shown with diverging colours")
	}

	// Open: one window per marked trial; again: no new windows.
	test.Tap(rw.buttons[repoview.Open])
	test.Tap(rw.buttons[repoview.Open])
	var paths []string
	for _, w := range a.Windows()[before+1:] {
		paths = append(paths, w.doc.Path)
	}
	if !slices.Equal(paths, []string{"repo:6", "repo:4"}) {
		t.Errorf("Open opened %q", paths)
	}
	// Merge now reuses the open documents as operands.
	test.Tap(rw.buttons[repoview.Merge])
	last := a.Windows()[len(a.Windows())-1]
	if last.doc.Expression == "" || len(last.doc.Sources) != 2 || last.doc.Sources[0] != a.Windows()[before+1].doc {
		t.Errorf("merge %q from %d sources", last.doc.Expression, len(last.doc.Sources))
	}
}

func hasAttr(t repo.Trial, key string) bool {
	_, ok := t.Attr(key)
	return ok
}

// TestRepositoryReadOnly opens a PostgreSQL repository as a role that may
// only read: the window says so and disables Import, Remove and attribute
// editing; browsing, searching and opening work.
func TestRepositoryReadOnly(t *testing.T) {
	loc := testrepo.ReadOnlyPostgres(t, testrepo.Standard[3:5])
	a := newTestApp(t)
	a.repoLocation = loc
	a.ShowRepository()
	rw := a.repository
	if rw == nil || rw.c.Repo() == nil {
		t.Fatal("no repository window")
	}
	if ids := shownTrials(t, rw); len(ids) != 2 {
		t.Fatalf("read-only role sees trials %v", ids)
	}
	if !rw.readOnly.Visible() || !strings.Contains(rw.readOnly.Text, "read-only") || !strings.Contains(rw.readOnly.Text, "Import, Remove and attribute editing are disabled") {
		t.Errorf("read-only message %q (shown %v)", rw.readOnly.Text, rw.readOnly.Visible())
	}
	rw.SelectTrial(1)
	rw.Mark(rw.b.RowOf(1), true)
	rw.Mark(rw.b.RowOf(2), true)
	for _, act := range []repoview.Action{repoview.Import, repoview.Remove} {
		if !rw.buttons[act].Disabled() {
			t.Errorf("%s enabled on a read-only repository", act)
		}
	}
	if !rw.attrSet.Disabled() || !rw.attrEntry.Disabled() {
		t.Error("attribute editing enabled on a read-only repository")
	}
	for _, act := range []repoview.Action{repoview.Open, repoview.Search, repoview.Difference, repoview.Mean} {
		if rw.buttons[act].Disabled() {
			t.Errorf("%s disabled on a read-only repository", act)
		}
	}
	f := rw.c.SearchForm()
	if err := f.Confirmed(); err != nil || rw.c.Hits() == nil || len(rw.c.Hits().Hits) == 0 {
		t.Fatalf("search as the read-only role: %v", err)
	}
	rw.OpenHit(0)
	if _, w := rw.openDocument(rw.c.Hits().Hits[0].Trial); w == nil || w.view.Selected(view.CallPane).Index != rw.c.Hits().Hits[0].Cnode {
		t.Error("a hit did not open with its call path selected")
	}
	// A change that slips through is refused by the database, with the reason.
	var shown error
	a.fatal = func(err error) { shown = err }
	rw.b.SetReadOnly("")
	rw.c.Remove(1)
	if shown == nil || !strings.Contains(shown.Error(), "read-only") {
		t.Errorf("remove as the read-only role: %v", shown)
	}
}

func TestRepositoryFlags(t *testing.T) {
	o, err := launch.Parse([]string{"--repo", "runs.db", "--repository"})
	if err != nil || o.Repo != "runs.db" || !o.Repository || len(o.Files) != 0 {
		t.Errorf("--repo runs.db --repository: %+v, %v", o, err)
	}
	a := newTestApp(t)
	if loc, err := a.RepositoryLocation(); err != nil || loc == "" {
		t.Errorf("default location %q, %v", loc, err)
	}
	a.repoLocation = "runs.db"
	if loc, _ := a.RepositoryLocation(); loc != "runs.db" {
		t.Errorf("--repo location %q", loc)
	}
}
