package repoview

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cubeview/internal/testkit/testrepo"
	"cubeview/repo"
)

func load(t *testing.T, r *repo.Repo, filter string) *Browser {
	t.Helper()
	l, err := Load(context.Background(), r, filter)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBrowser()
	b.SetListing(l)
	return b
}

// TestTree lays the real trials out as application → experiment → trial
// with one column per attribute, and opens and closes groups.
func TestTree(t *testing.T) {
	r, files := testrepo.Filled(t, testrepo.Standard)
	b := load(t, r, "")
	var got []string
	for _, row := range b.Rows() {
		got = append(got, strings.Repeat("    ", row.Depth)+row.TreeText())
	}
	want := []string{
		"▾ lulesh (3 trials)",
		"    ▾ scaling (2 trials)",
		"        lulesh.p27.size25.r1.cubex",
		"        lulesh.p64.size25.r1.cubex",
		"    ▾ sizes (1 trial)",
		"        lulesh.p27.size30.r1.cubex",
		"▾ mm (3 trials)",
		"    ▾ sweep (3 trials)",
		"        mm.x10y1z1.r1.cubex",
		"        mm.x25y1z1.r1.cubex",
		"        mm.x50y1z1.r1.cubex",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("tree:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var titles []string
	for _, c := range b.Columns() {
		titles = append(titles, c.Title)
	}
	if want := []string{"id", "procs", "threads", "locations", "compiler", "size", "format", "imported"}; !slices.Equal(titles, want) {
		t.Errorf("columns %q, want %q", titles, want)
	}
	// Every trial row shows the repository's own record of the trial.
	if len(files) != 6 {
		t.Fatalf("%d trials imported", len(files))
	}
	for _, row := range b.Rows() {
		if row.Kind != TrialRow {
			continue
		}
		tr, err := r.Trial(context.Background(), row.Trial)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range b.Columns() {
			want := ""
			switch c.Title {
			case "id":
				want = strconv.FormatInt(tr.ID, 10)
			case "format":
				want = tr.Format
			case "imported":
				want = tr.Imported.Local().Format("2006-01-02 15:04")
			default:
				if a, ok := tr.Attr(c.Attr); ok {
					want = a.Value
				}
			}
			if row.Cells[i] != want {
				t.Errorf("trial %d, column %s: %q, want %q", tr.ID, c.Title, row.Cells[i], want)
			}
		}
	}
	if row := b.Rows()[b.RowOf(5)]; row.Cells[1] != "64" {
		t.Errorf("procs of LULESH p64: %q", row.Cells[1])
	}
	// Closing "scaling" hides its two trials; closing "lulesh" all three.
	if !b.Toggle(1) || len(b.Rows()) != len(want)-2 || b.Rows()[1].Expanded {
		t.Fatalf("closing an experiment: %d rows", len(b.Rows()))
	}
	if !b.Toggle(0) || len(b.Rows()) != 6 || b.Rows()[0].TreeText() != "▸ lulesh (3 trials)" {
		t.Fatalf("closing an application: %d rows, first %q", len(b.Rows()), b.Rows()[0].TreeText())
	}
	if b.Toggle(4) {
		t.Error("a trial row toggled")
	}
	b.Toggle(0)
	if len(b.Rows()) != len(want)-2 {
		t.Errorf("reopening keeps the closed experiment closed: %d rows", len(b.Rows()))
	}
}

// TestFilterAndMarks: a filter narrows the tree as repo.Trials does; a bad
// one reports its column and keeps the listing; marks follow the listing.
func TestFilterAndMarks(t *testing.T) {
	r, _ := testrepo.Filled(t, testrepo.Standard)
	ctx := context.Background()
	b := load(t, r, "")
	for _, f := range []string{"app = lulesh and procs >= 64", "size < 30", "compiler ~ 'gcc*' or app = mm", "has compiler and not size = 25"} {
		l, err := Load(ctx, r, f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		want, err := r.Trials(ctx, f, repo.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b.SetListing(l)
		var shown, wantIDs []int64
		for _, row := range b.Rows() {
			if row.Kind == TrialRow {
				shown = append(shown, row.Trial)
			}
		}
		for _, tr := range want {
			wantIDs = append(wantIDs, tr.ID)
		}
		slices.Sort(shown)
		if len(shown) == 0 || !slices.Equal(shown, wantIDs) {
			t.Errorf("%s: rows of trials %v, repo lists %v", f, shown, wantIDs)
		}
	}
	_, err := Load(ctx, r, "procs >= ")
	if err == nil {
		t.Fatal("a malformed filter loaded")
	}
	before := len(b.Rows())
	if err := b.SetFilterError(err); err != nil {
		t.Fatal(err)
	}
	msg, col := b.FilterProblem()
	if col != 10 || !strings.HasPrefix(msg, "column 10: ") {
		t.Errorf("problem %q at column %d, want column 10", msg, col)
	}
	if len(b.Rows()) != before {
		t.Error("a malformed filter changed the tree")
	}
	if other := errors.New("disk"); b.SetFilterError(other) != other {
		t.Error("SetFilterError swallowed another error")
	}

	b = load(t, r, "")
	if ok, _ := b.Enabled(Difference); ok {
		t.Error("Difference enabled with nothing marked")
	}
	if ok, why := b.Enabled(Open); ok || why == "" {
		t.Error("Open enabled with nothing selected")
	}
	b.MarkRow(b.RowOf(5), true) // p64 first: the minuend
	b.MarkRow(b.RowOf(4), true)
	if ok, why := b.Enabled(Difference); !ok {
		t.Errorf("Difference of two marked trials disabled: %s", why)
	}
	if ops, err := b.Operands(Difference); err != nil || !slices.Equal(ops, []int64{5, 4}) {
		t.Errorf("operands %v, %v; want [5 4] in marking order", ops, err)
	}
	if b.RowMark(1) != Marked || b.RowMark(0) != PartlyMarked || b.RowMark(7) != Unmarked {
		t.Errorf("marks of scaling %v, lulesh %v, mm %v", b.RowMark(1), b.RowMark(0), b.RowMark(7))
	}
	b.MarkRow(7, true) // the mm sweep: three more
	if ok, _ := b.Enabled(Difference); ok {
		t.Error("Difference enabled with five marked")
	}
	if ops, err := b.Operands(Mean); err != nil || !slices.Equal(ops, []int64{5, 4, 1, 2, 3}) {
		t.Errorf("mean operands %v, %v", ops, err)
	}
	if _, err := b.Operands(Open); err == nil {
		t.Error("Open has operands")
	}
	// A filter that hides marked trials drops their marks.
	l, _ := Load(ctx, r, "app = mm")
	b.SetListing(l)
	if got := b.Marked(); !slices.Equal(got, []int64{1, 2, 3}) {
		t.Errorf("marks after filtering %v, want the mm trials", got)
	}
	if !strings.Contains(b.MarkedText(), "#1 mm.x10y1z1.r1.cubex") {
		t.Errorf("marked text %q", b.MarkedText())
	}
	b.SetReadOnly("read-only for this user")
	for _, a := range []Action{Import, Remove, SetAttribute} {
		if ok, why := b.Enabled(a); ok || why != "read-only for this user" {
			t.Errorf("%s on a read-only repository: %v %q", a, ok, why)
		}
	}
	if ok, _ := b.Enabled(Open); !ok {
		t.Error("Open disabled on a read-only repository")
	}
}

func TestNaturalCompare(t *testing.T) {
	names := []string{"r10", "r2", "r1", "", "r02", "r", "a9b", "a10", "a9a", "x", "R1", "r1x", "n1000000000000000000000", "n999"}
	slices.SortStableFunc(names, naturalCompare)
	want := []string{"", "R1", "a9a", "a9b", "a10", "n999", "n1000000000000000000000", "r", "r1", "r1x", "r02", "r2", "r10", "x"}
	if !slices.Equal(names, want) {
		t.Errorf("%q\nwant %q", names, want)
	}
	for _, a := range want {
		for _, b := range want {
			if naturalCompare(a, b) != -naturalCompare(b, a) || (naturalCompare(a, b) == 0) != (a == b) {
				t.Errorf("%q, %q: not a total order", a, b)
			}
		}
	}
}

func TestSummary(t *testing.T) {
	b := NewBrowser()
	for _, c := range []struct {
		l    Listing
		want string
	}{
		{Listing{}, "The repository holds no trials yet: Import… stores files and folders"},
		{Listing{Filter: "procs > 1"}, "No trial matches the filter"},
		{Listing{Filter: "procs > 1", Trials: []repo.Trial{{ID: 1, App: "a"}, {ID: 2, App: "b"}}}, "2 trials in 2 applications matching the filter"},
		{Listing{Trials: []repo.Trial{{ID: 1, App: "a"}}}, "1 trial in 1 application"},
	} {
		b.SetListing(c.l)
		if got := b.Summary(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.l, got, c.want)
		}
	}
}
