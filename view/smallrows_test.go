package view

import (
	"math"
	"slices"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// TestSmallRowsReal folds the rows under 1 % of the total in the four
// pane layouts of real experiments and checks each parent's rows against
// a view that folds nothing: the rows below the threshold (computed here
// from the model's totals) and only they are in the "(n hidden)" row,
// when there are at least two; it comes last and shows their sum; the
// other rows keep their order; nothing is lost.
func TestSmallRowsReal(t *testing.T) {
	files := [][]string{
		{"cube4", "cpi", "profile.cubex"},
		{"cube4", "lulesh", "lulesh.p27.size25.r1.cubex"},
		{"cube4", "quirks", "cube4.8_with_checksum_bug.cubex"},
		{"cube3", "example3.cube"},
		{"cube3", "ctest-pomp.cube"},
		{"tau", "openmp-64threads"},
	}
	const share = 0.01
	folded := map[Dim]int{}
	for _, file := range files {
		name := strings.Join(file, "/")
		e, err := format.Open(testkit.Data(t, file...))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, flat := range []bool{false, true} {
			v, plain := NewView(e), NewView(e)
			for _, x := range []*View{v, plain} {
				x.SetFlat(flat)
				x.SetOrder(ByValue)
				if tm := e.MetricByName("time"); tm >= 0 {
					x.Select(MetricPane, Node{MetricNode, tm})
				}
				mustUpdate(t, x)
			}
			v.SmallRows().SetThreshold(share)
			mustUpdate(t, v)
			ms, _ := metricSel(v)
			total, err := e.MetricTotal(ms)
			if err != nil {
				t.Fatal(err)
			}
			sys, err := e.SystemTreeValues(ms, kindOf(v.Selected(CallPane)).cnodes(v, v.Selected(CallPane).Index))
			if err != nil {
				t.Fatal(err)
			}
			sysTotal := 0.0
			for _, r := range e.SystemRoots {
				sysTotal += sys[r]
			}
			refs := map[Dim]float64{CallPane: total, SystemPane: sysTotal}
			for _, d := range []Dim{MetricPane, CallPane, SystemPane} {
				if d == MetricPane && flat {
					continue
				}
				n := checkFolding(t, name, v, plain, d, Node{}, share, refs[d])
				folded[d] += n
			}
		}
	}
	// Each pane must have folded something, or the test proves nothing.
	for _, d := range []Dim{MetricPane, CallPane, SystemPane} {
		if folded[d] == 0 {
			t.Errorf("%v: no row folded in any file", d)
		}
	}
	t.Logf("rows folded at 1 %%: %d metrics, %d call paths and regions, %d system nodes", folded[MetricPane], folded[CallPane], folded[SystemPane])
}

// checkFolding compares the rows below parent in pane d of v (folding at
// share of ref) with those of plain (no folding), recursively, and
// returns how many rows were folded.
func checkFolding(t *testing.T, name string, v, plain *View, d Dim, parent Node, share, ref float64) int {
	t.Helper()
	if d == MetricPane && parent.Kind == MetricNode {
		for _, c := range v.exp.Metrics[parent.Index].Children {
			plain.values.metricValues(c) // as the hottest path does: sorted by value
		}
	}
	got, want := v.Children(d, parent), plain.Children(d, parent)
	if d == MetricPane && parent.Kind == MetricNode {
		r, err := v.exp.MetricTotal(model.MetricSel{Metric: plain.metricRoot[parent.Index], Inclusive: true})
		if err != nil {
			t.Fatal(err)
		}
		ref = math.Abs(r)
	}
	var small, keep []Node
	for _, n := range want {
		x := plain.values.Inclusive(d, n)
		if d == MetricPane {
			var err error
			if x, err = v.exp.MetricTotal(model.MetricSel{Metric: n.Index, Inclusive: true}); err != nil {
				t.Fatal(err)
			}
		}
		ok := !math.IsNaN(x) && math.Abs(x) < share*math.Abs(ref)
		if d == MetricPane {
			m := &v.exp.Metrics[n.Index]
			ok = ok && parent.Kind == MetricNode && m.Aggregation == model.Sum && m.Formula == nil && m.Unit == v.exp.Metrics[parent.Index].Unit
		}
		if ok {
			small = append(small, n)
		} else {
			keep = append(keep, n)
		}
	}
	if len(small) < 2 {
		small, keep = nil, want
	}
	count := 0
	shown := got
	if len(got) > 0 && got[len(got)-1].Kind == HiddenNode {
		h := got[len(got)-1]
		shown = got[:len(got)-1]
		members := v.Children(d, h)
		if !slices.Equal(members, small) {
			t.Fatalf("%s %v below %q: hidden %v, want %v", name, d, v.Label(parent), members, small)
		}
		sum := 0.0
		for _, n := range members {
			sum += v.values.Inclusive(d, n)
			if p := v.Parent(d, n); p != h {
				t.Fatalf("%s %v: parent of folded %q is %v, want %v", name, d, v.Label(n), p, h)
			}
		}
		if got := v.values.Inclusive(d, h); math.Abs(got-sum) > 1e-9*math.Abs(sum) {
			t.Errorf("%s %v below %q: %q shows %g, the rows it hides sum to %g", name, d, v.Label(parent), v.Label(h), got, sum)
		}
		if v.Label(h) != "("+itoa(len(small))+" hidden)" || !v.IsBranch(d, h) || v.Parent(d, h) != parent {
			t.Errorf("%s %v: hidden row %q, branch %v, parent %v", name, d, v.Label(h), v.IsBranch(d, h), v.Parent(d, h))
		}
		count = len(small)
		for _, n := range members {
			count += checkFolding(t, name, v, plain, d, n, share, ref)
		}
	} else if small != nil {
		t.Fatalf("%s %v below %q: %d small rows not folded", name, d, v.Label(parent), len(small))
	}
	if !slices.Equal(shown, keep) {
		t.Fatalf("%s %v below %q: rows shown %v, want %v", name, d, v.Label(parent), shown, keep)
	}
	for _, n := range shown {
		count += checkFolding(t, name, v, plain, d, n, share, ref)
	}
	return count
}

func itoa(n int) string { return Count(n, "row")[:len(Count(n, "row"))-len(" rows")] }

// TestSmallRowsSelectAndReveal: the hidden row of LULESH's call tree
// stands for its call paths as the call selection (the system pane sums
// them), revealing a folded call path opens its hidden row, and turning
// folding off shows every row again.
func TestSmallRowsSelectAndReveal(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size25.r1.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	v := NewView(e)
	v.Select(MetricPane, Node{MetricNode, e.MetricByName("time")})
	v.SmallRows().SetThreshold(0.01)
	mustUpdate(t, v)
	h := findHidden(v, CallPane, Node{})
	if !h.Valid() {
		t.Fatal("no hidden row in LULESH's call tree at 1 %")
	}
	members := v.Children(CallPane, h)
	SelectNodes(v, v.Ancestors(CallPane, h)...)
	v.Select(CallPane, h)
	mustUpdate(t, v)
	if v.Selected(CallPane) != h {
		t.Fatalf("selection %v, want the hidden row %v", v.Selected(CallPane), h)
	}
	root := Node{SystemNode, e.SystemRoots[0]}
	got := v.values.Inclusive(SystemPane, root)
	if want := v.values.Inclusive(CallPane, h); math.Abs(got-want) > 1e-9*math.Abs(want) {
		t.Errorf("system root %g with the hidden row selected, want its sum %g", got, want)
	}
	if s := v.Explain(CallPane); !strings.Contains(s, "hidden") || !strings.Contains(s, "below 1 % of the pane's total") {
		t.Errorf("status %q", s)
	}
	// Revealing a folded call path opens the hidden row above it.
	target := members[len(members)-1]
	v.SetExpanded(CallPane, h, false)
	SelectNodes(v, target)
	if !v.Expanded(CallPane, h) || v.Selected(CallPane) != target {
		t.Errorf("revealing %q: hidden row open %v, selection %v", v.Label(target), v.Expanded(CallPane, h), v.Selected(CallPane))
	}
	v.SmallRows().SetThreshold(0)
	mustUpdate(t, v)
	if h := findHidden(v, CallPane, Node{}); h.Valid() {
		t.Errorf("folding off still shows %q", v.Label(h))
	}
	if v.Select(CallPane, h); v.Selected(CallPane) == h {
		t.Error("a hidden row that is gone could be selected")
	}
}

// findHidden returns the first hidden row of pane d below n, depth first.
func findHidden(v *View, d Dim, n Node) Node {
	for _, c := range v.Children(d, n) {
		if c.Kind == HiddenNode {
			return c
		}
		if h := findHidden(v, d, c); h.Valid() {
			return h
		}
	}
	return Node{}
}

// TestSmallRowsColumns: a metric column shows a hidden row's sum of the
// rows it hides for a metric that adds up (the main metric itself as a
// column equals the row's own value) and nothing for one that does not.
func TestSmallRowsColumns(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size25.r1.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	v := NewView(e)
	tm, vis, mx := e.MetricByName("time"), e.MetricByName("visits"), e.MetricByName("max_time")
	if tm < 0 || vis < 0 || mx < 0 {
		t.Fatal("LULESH lacks time, visits or max_time")
	}
	v.Select(MetricPane, Node{MetricNode, tm})
	v.Columns().SetAll([]int{tm, vis, mx})
	v.SmallRows().SetThreshold(0.01)
	mustUpdate(t, v)
	h := findHidden(v, CallPane, Node{})
	if !h.Valid() {
		t.Fatal("no hidden row in LULESH's call tree at 1 %")
	}
	if got, want := v.Columns().value(0, h, true), v.values.Inclusive(CallPane, h); math.Abs(got-want) > 1e-9*math.Abs(want) || want == 0 {
		t.Errorf("time column of the hidden row %g, want the row's value %g", got, want)
	}
	visits := 0.0
	for _, n := range v.Children(CallPane, h) {
		visits += v.Columns().value(1, n, true)
	}
	if got := v.Columns().value(1, h, true); got != visits || visits == 0 {
		t.Errorf("visits column of the hidden row %g, want the sum of its rows %g", got, visits)
	}
	if got := v.Columns().value(2, h, true); !math.IsNaN(got) {
		t.Errorf("max_time column of the hidden row %g, want undefined", got)
	}
}
