package analysisview

import (
	"slices"
	"strings"
	"testing"

	"cubeview/document"
	"cubeview/internal/synth"
	"cubeview/numfmt"
	"cubeview/view"
)

// groupRuns returns n open documents of generated runs of one
// configuration: each call path scaled by 1 + 2 %·N(0, 1) per run and
// operand call path planted (≥ 0) by 1 + shift.
func groupRuns(t *testing.T, prefix string, n int, seed uint64, planted int, shift float64) []*document.Doc {
	t.Helper()
	var docs []*document.Doc
	for i := range n {
		e := synth.NoisyRun(synth.Config{Cnodes: 40, Locations: 4, Metrics: 1, Seed: 7}, seed, i, synth.Sigma(0.02), synth.ShiftAt(planted, shift))
		name := prefix + string(rune('1'+i)) + ".cubex"
		docs = append(docs, &document.Doc{Path: "/runs/" + name, Name: name, Exp: e})
	}
	return docs
}

func TestGroupsFormAndReport(t *testing.T) {
	const planted = 9
	a := groupRuns(t, "a", 5, 1, planted, 0.25)
	b := groupRuns(t, "b", 5, 2, -1, 0)
	docs := append(append([]*document.Doc{}, a...), b...)
	var got []GroupsRequest
	f := NewGroupsForm(docs, docs[0], "time", func(r GroupsRequest) { got = append(got, r) })
	if !f.A.Checked[0] || f.Metric.Metric() != "time" {
		t.Fatalf("preselected %v, metric %q", f.A.Checked, f.Metric.Metric())
	}
	if err := f.Confirmed(); err == nil || !strings.Contains(err.Error(), "at least two runs") {
		t.Errorf("one run in A, none in B: %v", err)
	}
	for i := range docs {
		f.SetChecked(f.A, i, i < 5)
		f.SetChecked(f.B, i, i >= 4)
	}
	if err := f.Confirmed(); err == nil || !strings.Contains(err.Error(), "in both groups") {
		t.Errorf("a run in both groups: %v", err)
	}
	f.SetChecked(f.B, 4, false)
	if err := f.Confirmed(); err != nil || len(got) != 1 {
		t.Fatalf("confirm: %v, %d requests", err, len(got))
	}
	j := &GroupsJob{GroupsRequest: got[0]}
	if len(j.A) != 5 || len(j.B) != 5 || j.A[0] != a[0] || j.B[0] != b[0] {
		t.Fatalf("groups %d and %d", len(j.A), len(j.B))
	}
	var done error = errNotRun
	j.Run(func(work, finish func()) { work(); finish() }, func(string) func() { return func() {} }, numfmt.Brief(), func(err error) { done = err })
	if done != nil {
		t.Fatal(done)
	}
	r := j.Report
	plantedPath := a[0].Exp.CallPath(planted)
	if r.Len() != 40 || !strings.Contains(r.Headline, "1 of 40 call paths differ significantly") || !strings.Contains(r.Legend, "Muted rows are not significant") {
		t.Fatalf("%d rows, headline %q", r.Len(), r.Headline)
	}
	muted := 0
	for i := range r.Len() {
		sig := r.Cell(i, GroupsSignificant) == "★"
		if sig != (r.Cell(i, GroupsCallPath) == plantedPath) || r.Muted(i) == sig {
			t.Errorf("row %d %s: ★ %v muted %v", i, r.Cell(i, GroupsCallPath), sig, r.Muted(i))
		}
		if r.Muted(i) {
			muted++
		}
	}
	if muted != 39 {
		t.Errorf("%d muted rows, want 39", muted)
	}
	r.SetHideNotSignificant(true)
	if r.Len() != 1 || r.Cell(0, GroupsCallPath) != plantedPath || r.Muted(0) {
		t.Fatalf("filtered: %d rows", r.Len())
	}
	// The row selects its call path in a run's window.
	v := view.NewView(a[1].Exp)
	if n := GroupsNode(v, r, 0); n.Kind != view.CnodeNode || a[1].Exp.CallPath(n.Index) != plantedPath {
		t.Errorf("node %+v", n)
	}
	r.SetHideNotSignificant(false)
	if r.Len() != 40 {
		t.Errorf("unfiltered again: %d rows", r.Len())
	}
}

type notRun struct{}

func (notRun) Error() string { return "not run" }

var errNotRun error = notRun{}

// TestGroupsFormOpensPerGroup: Open file… beside a group adds the
// experiment opened to both lists, ticked in that group only, keeping the
// other ticks; a file that could not be read adds nothing.
func TestGroupsFormOpensPerGroup(t *testing.T) {
	a := groupRuns(t, "a", 2, 1, -1, 0)
	b := groupRuns(t, "b", 3, 2, -1, 0)
	f := NewGroupsForm(a, a[0], "time", func(GroupsRequest) {})
	f.SetChecked(f.A, 1, true)
	var next []*document.Doc
	open := func(then func(*document.Doc)) { then(next[0]); next = next[1:] }
	f.OfferOpen(open, open)
	if f.A.Button != "Open file…" || f.B.Button != "Open file…" || len(f.B.More) != 1 || f.B.More[0].Text != "Open folder…" {
		t.Fatalf("buttons %q %q %+v", f.A.Button, f.B.Button, f.B.More)
	}
	next = []*document.Doc{b[0], nil, b[1]}
	f.B.Action()
	f.B.Action() // could not be read
	f.B.More[0].Action()
	if len(f.A.Options) != 4 || !slices.Equal(f.A.Checked, []bool{true, true, false, false}) || !slices.Equal(f.B.Checked, []bool{false, false, true, true}) {
		t.Fatalf("A %q %v, B %v", f.A.Options, f.A.Checked, f.B.Checked)
	}
	r, err := f.request()
	if err != nil || !slices.Equal(r.A, a) || !slices.Equal(r.B, b[:2]) {
		t.Fatalf("request %v %v, %v", r.A, r.B, err)
	}
	next = []*document.Doc{b[1]} // opened again: ticked in A too
	f.A.Action()
	if len(f.A.Options) != 4 || !f.A.Checked[3] {
		t.Errorf("after reopening: A %q %v", f.A.Options, f.A.Checked)
	}
}
