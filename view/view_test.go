package view

import (
	"math"
	"slices"
	"strings"
	"testing"

	"cubeview/colormap"
	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
)

type step func(v *View)

func sel(d Dim, n Node) step            { return func(v *View) { v.Select(d, n) } }
func open(d Dim, n Node) step           { return func(v *View) { v.SetExpanded(d, n, true) } }
func mode(d Dim, m Mode) step           { return func(v *View) { v.SetMode(d, m) } }
func flat() step                        { return func(v *View) { v.SetFlat(true) } }
func external(x *model.Experiment) step { return func(v *View) { v.Values().SetExternal(x) } }

// TestValues checks displayed values against the hand computation in
// handMade's comment.
func TestValues(t *testing.T) {
	nan := math.NaN()
	// An external reference whose time total is 50: handMade with every
	// time value doubled.
	ext := handMade()
	b2 := model.NewBlock(len(ext.Cnodes), len(ext.Locations))
	b, _ := handMade().Block(0)
	for c := 0; c < b.NumCnodes(); c++ {
		if r := b.Row(c); r != nil {
			row := make([]float64, len(r))
			for i, x := range r {
				row[i] = 2 * x
			}
			b2.SetRow(c, row)
		}
	}
	ext.SetBlock(0, b2)
	renamed := handMade()
	renamed.Metrics[2].UniqName = "other"

	tests := []struct {
		name  string
		steps []step
		d     Dim
		n     Node
		want  float64
	}{
		{"metric collapsed is inclusive", nil, MetricPane, mTime, 25},
		{"metric expanded is exclusive", []step{open(MetricPane, mTime)}, MetricPane, mTime, 20},
		{"child metric", []step{open(MetricPane, mTime)}, MetricPane, mMPI, 5},
		{"integer metric", nil, MetricPane, mVisits, 16},
		{"call root collapsed", nil, CallPane, cMain, 25},
		{"call root expanded", []step{open(CallPane, cMain)}, CallPane, cMain, 6},
		{"call inner collapsed", []step{open(CallPane, cMain)}, CallPane, cFoo, 13},
		{"call inner expanded", []step{open(CallPane, cMain), open(CallPane, cFoo)}, CallPane, cFoo, 5},
		{"call follows expanded metric", []step{open(MetricPane, mTime)}, CallPane, cMain, 20},
		{"call follows child metric", []step{open(MetricPane, mTime), sel(MetricPane, mMPI)}, CallPane, cBar, 3},
		{"call follows visits", []step{sel(MetricPane, mVisits)}, CallPane, cFoo, 4},
		{"system rank all call paths", nil, SystemPane, sRank0, 18},
		{"system node all", nil, SystemPane, sNode0, 25},
		{"system expanded non-leaf undefined", []step{open(SystemPane, sRoot)}, SystemPane, sRoot, nan},
		{"system leaf", []step{open(SystemPane, sRoot), open(SystemPane, sNode0), open(SystemPane, sRank0)}, SystemPane, sT01, 10},
		{"system follows call selection", []step{sel(CallPane, cFoo)}, SystemPane, sRank0, 10},
		{"system follows expanded call", []step{open(CallPane, cMain), sel(CallPane, cFoo), open(CallPane, cFoo)}, SystemPane, sRank0, 4},
		{"system follows expanded metric", []step{open(MetricPane, mTime), sel(CallPane, cFoo)}, SystemPane, sRank0, 9},
		{"flat region inclusive, no double count", []step{flat()}, CallPane, rFoo, 13},
		{"flat region exclusive", []step{flat(), open(CallPane, rFoo)}, CallPane, rFoo, 11},
		{"flat subroutines", []step{flat(), open(CallPane, rFoo)}, CallPane, uFoo, 2},
		{"flat leaf region", []step{flat()}, CallPane, rBar, 8},
		{"flat root region", []step{flat()}, CallPane, rMain, 25},
		{"system follows flat region", []step{flat(), sel(CallPane, rFoo)}, SystemPane, sRank0, 10},
		{"system follows expanded flat region", []step{flat(), sel(CallPane, rFoo), open(CallPane, rFoo)}, SystemPane, sRank0, 8},
		{"system follows subroutines", []step{flat(), open(CallPane, rFoo), sel(CallPane, uFoo)}, SystemPane, sRank0, 2},
		{"metric own root percent", []step{open(MetricPane, mTime), mode(MetricPane, OwnRootPercent)}, MetricPane, mMPI, 20},
		{"call own root percent", []step{mode(CallPane, OwnRootPercent)}, CallPane, cFoo, 52},
		{"call metric selection percent", []step{open(MetricPane, mTime), sel(MetricPane, mMPI), mode(CallPane, MetricSelectionPercent)}, CallPane, cBar, 60},
		{"call metric root percent", []step{open(MetricPane, mTime), sel(MetricPane, mMPI), mode(CallPane, MetricRootPercent)}, CallPane, cBar, 12},
		{"system own root percent", []step{mode(SystemPane, OwnRootPercent)}, SystemPane, sRank0, 72},
		{"system call selection percent", []step{sel(CallPane, cFoo), mode(SystemPane, CallSelectionPercent)}, SystemPane, sRank0, 100 * 10.0 / 13},
		{"metric external percent", []step{external(ext), mode(MetricPane, ExternalPercent)}, MetricPane, mTime, 50},
		{"call external percent", []step{external(ext), mode(CallPane, ExternalPercent)}, CallPane, cFoo, 26},
		{"external percent without reference", []step{mode(CallPane, ExternalPercent)}, CallPane, cFoo, nan},
		{"system external percent", []step{external(ext), sel(MetricPane, mVisits), mode(SystemPane, ExternalPercent)}, SystemPane, sRank0, 75},
		{"external percent of a metric the reference lacks", []step{external(renamed), sel(MetricPane, mVisits), mode(SystemPane, ExternalPercent)}, SystemPane, sRank0, nan},
		{"mode not offered is ignored", []step{mode(MetricPane, CallSelectionPercent)}, MetricPane, mTime, 25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := NewView(handMade())
			for _, s := range tt.steps {
				s(v)
			}
			mustUpdate(t, v)
			if got := v.Values().Value(tt.d, tt.n); !near(got, tt.want) {
				t.Errorf("Value(%v, %v) = %v, want %v", tt.d, tt.n, got, tt.want)
			}
		})
	}
}

// TestValuesMatchModel checks every call-tree row of every metric against
// the model's own queries.
func TestValuesMatchModel(t *testing.T) {
	e := handMade()
	v := NewView(e)
	for m := range e.Metrics {
		for _, expanded := range []bool{false, true} {
			v.Select(MetricPane, Node{MetricNode, m})
			v.SetExpanded(MetricPane, Node{MetricNode, m}, expanded)
			mustUpdate(t, v)
			ms := model.MetricSel{Metric: m, Inclusive: !v.expandedBranch(MetricPane, Node{MetricNode, m})}
			incl, err := e.CallTreeValues(ms, true)
			if err != nil {
				t.Fatal(err)
			}
			for c := range e.Cnodes {
				if got := v.Values().Value(CallPane, Node{CnodeNode, c}); !near(got, incl[c]) {
					t.Errorf("metric %d expanded=%v cnode %d = %v, want %v", m, expanded, c, got, incl[c])
				}
			}
		}
	}
}

func TestMetricUnsupportedShowsUndefined(t *testing.T) {
	e := handMade()
	e.Metrics[2].Unavailable = "derived metric"
	v := NewView(e)
	v.Select(MetricPane, mVisits)
	mustUpdate(t, v)
	if got := v.Values().Text(MetricPane, mVisits); got != "-" {
		t.Errorf("unavailable metric shows %q, want -", got)
	}
	if got := v.Values().Text(CallPane, cMain); got != "-" {
		t.Errorf("call pane under unavailable metric shows %q, want -", got)
	}
}

func TestTextFormat(t *testing.T) {
	v := NewView(handMade())
	mustUpdate(t, v)
	if got := v.Values().Text(MetricPane, mTime); got != "25.00" {
		t.Errorf("time = %q, want 25.00", got)
	}
	if got := v.Values().Text(MetricPane, mVisits); got != "16" {
		t.Errorf("visits (integer metric) = %q, want 16", got)
	}
	v.SetMode(MetricPane, OwnRootPercent)
	if got := v.Values().Text(MetricPane, mVisits); got != "100.00" {
		t.Errorf("visits in percent = %q, want 100.00", got)
	}
	v.Select(MetricPane, mVisits)
	v.SetExpanded(SystemPane, sRoot, true)
	mustUpdate(t, v)
	if got := v.Values().Text(SystemPane, sRoot); got != "-" {
		t.Errorf("expanded system node = %q, want -", got)
	}
	if got := v.Values().Text(CallPane, cMain); got != "16" {
		t.Errorf("call pane of visits = %q, want 16", got)
	}
}

func TestReliefAndColour(t *testing.T) {
	v := NewView(handDiff())
	v.SetExpanded(CallPane, cMain, true)
	mustUpdate(t, v)
	// c4 (bar under main): 0 − 5 + 1 = −4.
	neg := v.Row(CallPane, cBar)
	if neg.Value != -4 || neg.Relief != colormap.Sunken {
		t.Errorf("bar = %v %v, want −4 sunken", neg.Value, neg.Relief)
	}
	pos := v.Row(CallPane, cFoo)
	if pos.Value != 13 || pos.Relief != colormap.Raised {
		t.Errorf("foo = %v %v, want 13 raised", pos.Value, pos.Relief)
	}
	// The scale spans the largest magnitude of the pane: main expanded
	// shows 6, foo 13, bar −4, so 13 is red.
	if pos.Color != colormap.Red {
		t.Errorf("largest value colour = %v, want red", pos.Color)
	}
	v.SetExpanded(SystemPane, sRoot, true)
	v.SetExpanded(SystemPane, sNode0, true)
	v.SetExpanded(SystemPane, sRank0, true)
	v.Select(CallPane, cBar)
	mustUpdate(t, v)
	if r := v.Row(SystemPane, sT01); r.Value != -5 || r.Relief != colormap.Sunken {
		t.Errorf("thread 1 of bar = %v %v, want −5 sunken", r.Value, r.Relief)
	}
	if r := v.Row(SystemPane, sRoot); r.Relief != colormap.Flat || r.Text != "-" || r.Color != colormap.White {
		t.Errorf("expanded system root = %q %v %v, want - flat white", r.Text, r.Relief, r.Color)
	}
}

func TestThreadLevelHidden(t *testing.T) {
	e := handMade()
	// Give rank 0 one thread only: drop t1 (system index 4).
	e.System = slices.Delete(e.System, 4, 5)
	for i := range e.System {
		if e.System[i].Parent > 4 {
			e.System[i].Parent--
		}
	}
	e.Link()
	e.NumberLocations()
	for m := range e.Metrics {
		e.SetBlock(m, model.NewBlock(len(e.Cnodes), len(e.Locations)))
	}
	v := NewView(e)
	rank0 := Node{SystemNode, 2}
	if v.IsBranch(SystemPane, rank0) || len(v.Children(SystemPane, rank0)) != 0 {
		t.Errorf("process with one thread shows children while every process has one thread")
	}
	w := NewView(handMade())
	if !w.IsBranch(SystemPane, sRank0) || len(w.Children(SystemPane, sRank0)) != 2 {
		t.Errorf("process with two threads hides them")
	}
}

// TestHottestPath follows the hand computation: main 25 > foo 13 (52 %)
// > foo 8 (62 %) > bar 2 (25 %), whose own value is 6 of 8; in the system
// tree rank 0 holds 18 of 25 and its thread t1 10 of 18.
func TestHottestPath(t *testing.T) {
	tests := []struct {
		name      string
		d         Dim
		from      Node
		threshold float64
		want      []Node
		why       []string
	}{
		{"default stops where own code dominates", CallPane, cMain, 0, []Node{cMain, cFoo, cFoo2},
			[]string{"stops at foo (8.00 sec)", "no child holds more than 50 %", "bar, holds 2.00 sec (25.0 %)", "own value is 6.00 sec (75.0 %)"}},
		{"low threshold walks to the leaf", CallPane, cMain, 0.2, []Node{cMain, cFoo, cFoo2, cBar3}, []string{"bar: nothing below it"}},
		{"high threshold stays at the root", CallPane, cMain, 0.6, []Node{cMain}, []string{"more than 60 %", "foo, holds 13.00 sec (52.0 %)"}},
		{"system", SystemPane, sRoot, 0, []Node{sRoot, sNode0, sRank0, sT01}, []string{"t1: nothing below it"}},
		{"metric", MetricPane, mTime, 0, []Node{mTime}, []string{"MPI, holds 5.00 sec (20.0 %)", "own value is 20.00 sec (80.0 %)"}},
	}
	for _, tt := range tests {
		v := NewView(handMade())
		v.HotPath().SetThreshold(tt.threshold)
		mustUpdate(t, v)
		got, why := v.HotPath().path(tt.d, tt.from)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: HottestPath = %v, want %v", tt.name, got, tt.want)
		}
		for _, w := range tt.why {
			if !strings.Contains(why, w) {
				t.Errorf("%s: why = %q, missing %q", tt.name, why, w)
			}
		}
		v.Select(tt.d, got[len(got)-1])
		if ex := v.Explain(tt.d); !strings.HasPrefix(ex, why) {
			t.Errorf("%s: status %q does not start with %q", tt.name, ex, why)
		}
		v.Select(tt.d, tt.from)
		if len(got) > 1 && strings.Contains(v.Explain(tt.d), "Hottest path") {
			t.Errorf("%s: status still explains the hottest path after moving away", tt.name)
		}
	}
}

func TestFind(t *testing.T) {
	v := NewView(handMade())
	mustUpdate(t, v)
	got := v.Finder().Find(CallPane, "BA")
	if want := []Node{cBar3, cBar}; !slices.Equal(got, want) {
		t.Fatalf("Find(ba) = %v, want %v", got, want)
	}
	if r := v.Row(CallPane, cBar3); r.Find != FoundCurrent {
		t.Errorf("first match mark = %v, want current", r.Find)
	}
	if r := v.Row(CallPane, cFoo); r.Find != FoundBelow {
		t.Errorf("collapsed ancestor mark = %v, want found below", r.Find)
	}
	if r := v.Row(CallPane, cBar); r.Find != Found {
		t.Errorf("second match mark = %v, want found", r.Find)
	}
	if n, pos, total, _ := v.Finder().step(1); n != cBar || pos != 2 || total != 2 {
		t.Errorf("next = %v %d/%d, want c4 2/2", n, pos, total)
	}
	if n, _, _, _ := v.Finder().step(1); n != cBar3 {
		t.Errorf("next wraps to %v, want c3", n)
	}
	if n, _, _, _ := v.Finder().step(-1); n != cBar {
		t.Errorf("previous wraps to %v, want c4", n)
	}
	if got := v.Finder().Find(CallPane, "ma[in"); len(got) != 0 {
		t.Errorf("invalid regexp taken literally found %v", got)
	}
	if got := v.Finder().Find(MetricPane, "^m"); !slices.Equal(got, []Node{mMPI, {MetricNode, 3}}) {
		t.Errorf("Find(^m) in metrics = %v", got)
	}
	v.Finder().Clear()
	if r := v.Row(MetricPane, mMPI); r.Find != NotFound {
		t.Errorf("after ClearFind mark = %v", r.Find)
	}
}

func TestSortOrders(t *testing.T) {
	v := NewView(handMade())
	v.Select(MetricPane, mVisits)
	mustUpdate(t, v)
	if got := v.Children(CallPane, cMain); !slices.Equal(got, []Node{cFoo, cBar}) {
		t.Errorf("file order = %v", got)
	}
	v.SetOrder(ByValue) // visits: foo 4, bar 9
	if got := v.Children(CallPane, cMain); !slices.Equal(got, []Node{cBar, cFoo}) {
		t.Errorf("by value = %v, want bar first", got)
	}
	v.SetOrder(ByName)
	v.SetFlat(true)
	if got := v.Roots(CallPane); !slices.Equal(got, []Node{rBar, rFoo, rMain}) {
		t.Errorf("flat by name = %v", got)
	}
}

// TestFlatSortedByValue checks that the flat profile starts sorted by the
// selected metric's inclusive value (visits: main 16, bar 9, foo 4; time:
// main 25, foo 13, bar 8) while the other panes keep the file order.
func TestFlatSortedByValue(t *testing.T) {
	v := NewView(handMade())
	v.Select(MetricPane, mVisits)
	v.SetFlat(true)
	mustUpdate(t, v)
	if got := v.Roots(CallPane); !slices.Equal(got, []Node{rMain, rBar, rFoo}) {
		t.Errorf("flat profile of visits = %v, want main, bar, foo", got)
	}
	if v.Order() != ByValue {
		t.Errorf("order shown = %v, want by value", v.Order())
	}
	v.Select(MetricPane, mTime)
	mustUpdate(t, v)
	if got := v.Roots(CallPane); !slices.Equal(got, []Node{rMain, rFoo, rBar}) {
		t.Errorf("flat profile of time = %v, want main, foo, bar", got)
	}
	if got := v.Roots(MetricPane); !slices.Equal(got, []Node{mTime, mVisits, {MetricNode, 3}}) {
		t.Errorf("metric pane = %v, want file order", got)
	}
	v.SetOrder(FileOrder)
	if got := v.Roots(CallPane); !slices.Equal(got, []Node{rMain, rFoo, rBar}) || v.Order() != FileOrder {
		t.Errorf("flat profile in file order = %v (%v)", got, v.Order())
	}
}

// TestWording checks singular and plural, system nodes named without
// their class twice, and why an expanded system node shows "-".
func TestWording(t *testing.T) {
	for n, want := range map[int]string{0: "0 call paths", 1: "1 call path", 2: "2 call paths", 1024: "1,024 call paths"} {
		if got := Count(n, "call path"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
	e := handMade()
	e.System[1].Name = "node jrc0280"
	v := NewView(e)
	v.Markers().SetNames(nil)
	mustUpdate(t, v)
	if got := v.Tooltip(sNode0); got != "node jrc0280" {
		t.Errorf("tooltip %q, want the name once", got)
	}
	if got := v.Tooltip(sRank0); got != "process rank 0, rank 0" {
		t.Errorf("tooltip %q", got)
	}
	if got := v.Tooltip(rBar); !strings.HasSuffix(got, "; 2 call paths") {
		t.Errorf("region tooltip %q", got)
	}
	if got := v.Tooltip(rMain); !strings.HasSuffix(got, "; 1 call path") {
		t.Errorf("region tooltip %q", got)
	}
	v.SetExpanded(SystemPane, sRoot, true)
	v.SetExpanded(SystemPane, sNode0, true)
	v.SetExpanded(SystemPane, sRank0, true)
	v.Select(SystemPane, sRank0)
	mustUpdate(t, v)
	if got := v.Values().Text(SystemPane, sRank0); got != "-" {
		t.Errorf("expanded process shows %q, want -", got)
	}
	want := "rank 0 (expanded): - · a process has no value of its own: its 2 threads carry the values (collapsed, it shows their total, 18.00 sec)"
	if got := v.Explain(SystemPane); !strings.HasPrefix(got, want) {
		t.Errorf("status %q, want it to start with %q", got, want)
	}
	v.Select(SystemPane, sNode0)
	mustUpdate(t, v)
	want = "node jrc0280 (expanded): - · a node has no value of its own: its 2 processes carry the values"
	if got := v.Explain(SystemPane); !strings.HasPrefix(got, want) {
		t.Errorf("status %q, want it to start with %q", got, want)
	}
	v.Select(SystemPane, sRoot)
	mustUpdate(t, v)
	if got, want := v.Explain(SystemPane), "its 1 node carries the values (collapsed, it shows its value, 25.00 sec)"; !strings.Contains(got, want) {
		t.Errorf("status %q misses %q", got, want)
	}
}

// TestPeerModes checks peer percent and peer distribution by hand: the
// threads' time is t0 8, t1 10 (rank 0) and t0 7 (rank 1); the processes
// 18 and 7.
func TestPeerModes(t *testing.T) {
	v := NewView(handMade())
	v.SetMode(SystemPane, PeerPercent)
	mustUpdate(t, v)
	sT00, sT10, sRank1 := Node{SystemNode, 3}, Node{SystemNode, 6}, Node{SystemNode, 5}
	for n, want := range map[Node]float64{sT00: 80, sT01: 100, sT10: 70, sRank0: 100, sRank1: 700.0 / 18, sRoot: 100} {
		if got := v.Values().Value(SystemPane, n); !near(got, want) {
			t.Errorf("peer percent of %s = %v, want %v", v.Label(n), got, want)
		}
	}
	v.SetMode(SystemPane, PeerDistribution)
	mustUpdate(t, v)
	for n, want := range map[Node]float64{sT00: 100.0 / 3, sT01: 100, sT10: 0, sRank0: 100, sRank1: 0, sRoot: 0} {
		if got := v.Values().Value(SystemPane, n); !near(got, want) {
			t.Errorf("peer distribution of %s = %v, want %v", v.Label(n), got, want)
		}
	}
	if r := v.Values().scaleRange(SystemPane, sT00); r.Min != 0 || r.Max != 100 {
		t.Errorf("scale %v, want 0–100", r)
	}
	v.Select(SystemPane, sT00)
	if got, want := v.Explain(SystemPane), "3 threads of its level from 7.00 to 10.00 sec"; !strings.Contains(got, want) {
		t.Errorf("status %q misses %q", got, want)
	}
	for s, want := range map[string]bool{"peer-distribution": true, "Peer percent": true, "absolute": true, "peer": false} {
		if m, ok := ParseMode(SystemPane, s); ok != want || ok && !strings.EqualFold(strings.ReplaceAll(s, "-", " "), m.String()) {
			t.Errorf("ParseMode(%q) = %v, %v", s, m, ok)
		}
	}
	if _, ok := ParseMode(CallPane, "peer percent"); ok {
		t.Error("peer percent parsed for the call pane")
	}
	if !slices.Contains(Modes(SystemPane), PeerDistribution) || slices.Contains(Modes(CallPane), PeerPercent) {
		t.Error("peer modes belong to the system pane only")
	}
}

// TestPeerDistributionReal spreads the 1,024 threads of example3.cube
// over 0–100 %, each by its own value against the model's.
func TestPeerDistributionReal(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "cube3", "example3.cube"))
	if err != nil {
		t.Fatal(err)
	}
	v := NewView(e)
	v.SetMode(SystemPane, PeerDistribution)
	v.Select(MetricPane, Node{MetricNode, e.MetricByName("time")})
	mustUpdate(t, v)
	sys, err := e.SystemTreeValues(model.MetricSel{Metric: e.MetricByName("time"), Inclusive: true}, e.CnodeOrder())
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	var threads []int
	for i := range e.System {
		if e.System[i].Kind == model.Leaf {
			threads = append(threads, i)
			lo, hi = math.Min(lo, sys[i]), math.Max(hi, sys[i])
		}
	}
	if len(threads) != 1024 || !(hi > lo) {
		t.Fatalf("%d threads from %v to %v", len(threads), lo, hi)
	}
	colours := map[any]bool{}
	for _, s := range threads {
		got := v.Values().Value(SystemPane, Node{SystemNode, s})
		if want := 100 * (sys[s] - lo) / (hi - lo); !near(got, want) {
			t.Fatalf("thread %d: %v, want %v", s, got, want)
		}
		colours[v.Row(SystemPane, Node{SystemNode, s}).Color] = true
	}
	if len(colours) < 10 {
		t.Errorf("1,024 threads show %d colours, want them spread", len(colours))
	}
}

func TestFlatKeepsSelections(t *testing.T) {
	v := NewView(handMade())
	v.Select(CallPane, cFoo)
	v.SetFlat(true)
	if got := v.Selected(CallPane); got.Kind != RegionNode {
		t.Errorf("flat selection = %v, want a region", got)
	}
	v.Select(CallPane, rBar)
	v.Select(CallPane, cMain) // not a flat row: ignored
	if got := v.Selected(CallPane); got != rBar {
		t.Errorf("flat selection = %v, want bar", got)
	}
	v.SetFlat(false)
	if got := v.Selected(CallPane); got != cFoo {
		t.Errorf("tree selection after flat = %v, want foo", got)
	}
}

func TestExplain(t *testing.T) {
	v := NewView(handMade())
	v.Select(CallPane, cFoo)
	v.Select(SystemPane, sRank0)
	mustUpdate(t, v)
	tests := []struct {
		d    Dim
		want []string
	}{
		{MetricPane, []string{"Time", "inclusive", "25.00 sec"}},
		{CallPane, []string{"main/foo", "inclusive", "13.00 sec", "metric Time"}},
		{SystemPane, []string{"rank 0", "10.00 sec", "call path main/foo", "rank 0"}},
	}
	for _, tt := range tests {
		got := v.Explain(tt.d)
		for _, w := range tt.want {
			if !containsFold(got, w) {
				t.Errorf("Explain(%v) = %q, missing %q", tt.d, got, w)
			}
		}
	}
}

func TestNodeIDs(t *testing.T) {
	for _, n := range []Node{mTime, cBar, rFoo, uFoo, sT01, {}} {
		if got := ParseNode(n.ID()); got != n {
			t.Errorf("ParseNode(%q) = %v, want %v", n.ID(), got, n)
		}
	}
	for _, bad := range []string{"x1", "m", "m-1", "c1x"} {
		if got := ParseNode(bad); got.Valid() {
			t.Errorf("ParseNode(%q) = %v, want invalid", bad, got)
		}
	}
}

func TestMarker(t *testing.T) {
	e := handMade()
	e.Cnodes[4].Present = 1 // only in operand 0
	e.Cnodes[1].Present = 3
	v := NewView(e)
	if got := v.Row(PaneOf(cBar), cBar).Marker; got != "" {
		t.Errorf("marker without operand names = %q", got)
	}
	v.Markers().SetNames([]string{"before", "after"})
	if got := v.Row(PaneOf(cBar), cBar).Marker; got != "A" {
		t.Errorf("marker = %q, want A", got)
	}
	if got, want := v.Tooltip(cBar), "only in A (before), not in B (after)"; !strings.HasSuffix(got, want) {
		t.Errorf("tooltip %q, want it to end in %q", got, want)
	}
	if got := v.Row(PaneOf(cFoo), cFoo).Marker; got != "" {
		t.Errorf("marker of a node in every operand = %q", got)
	}
	v.Markers().SetNames([]string{"r1", "r2", "r3"})
	e.Cnodes[4].Present = 5
	if got := v.Row(PaneOf(cBar), cBar).Marker; got != "A,C" {
		t.Errorf("marker = %q, want A,C", got)
	}
	if got, want := v.Tooltip(cBar), "in A (r1), C (r3), not in B (r2)"; !strings.HasSuffix(got, want) {
		t.Errorf("tooltip %q, want it to end in %q", got, want)
	}
	if ops := v.Markers().Legend(); !slices.Equal(ops, []string{"A r1", "B r2", "C r3"}) {
		t.Errorf("legend operands %q", ops)
	}
}

// TestLegendSigns checks that the legend's negative swatch is the colour
// the panes give negative values: blue in the diverging scale, the
// positive colour otherwise, where the text says that only the relief
// differs.
func TestLegendSigns(t *testing.T) {
	v := NewView(handMade())
	_, _, entries := v.Appearance().Legend()
	pos, neg := entries[2], entries[3]
	if pos.Color != neg.Color || !strings.Contains(neg.Meaning, "coloured by size") || neg.Relief != colormap.Sunken {
		t.Errorf("spectrum legend: positive %v, negative %v %q %v", pos.Color, neg.Color, neg.Meaning, neg.Relief)
	}
	s := v.Appearance().Scale()
	s.Diverging = true
	v.Appearance().SetScale(s)
	_, _, entries = v.Appearance().Legend()
	if neg := entries[3]; neg.Color.B < 200 || neg.Color.R > 100 || neg.Meaning != "negative (sunken)" {
		t.Errorf("diverging legend: negative %v %q, want blue", neg.Color, neg.Meaning)
	}
}

func TestMissing(t *testing.T) {
	e := handMade()
	v := NewView(e) // all blocks set in memory
	if got := v.Values().Missing(); len(got) != 0 {
		t.Errorf("Missing with all data loaded = %v", got)
	}
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// streamLoader serves another experiment's blocks and streams their rows,
// as the .cubex reader does.
type streamLoader struct{ src *model.Experiment }

func (l streamLoader) LoadBlock(m int) (*model.Block, error) { return l.src.Block(m) }

func (l streamLoader) StreamRows(m int, fn func(c int, row []float64) error) error {
	b, err := l.src.Block(m)
	if err != nil {
		return err
	}
	return b.Scan(fn)
}

// TestMissingAggregatesFirst: a window waits only for the aggregates of
// the metrics it shows (one pass over the file) while the whole call
// forest is selected, and for the selected metric's rows once a call path
// is selected.
func TestMissingAggregatesFirst(t *testing.T) {
	src := handMade()
	e := &model.Experiment{Metrics: src.Metrics, MetricRoots: src.MetricRoots, Regions: src.Regions, Cnodes: src.Cnodes,
		CnodeRoots: src.CnodeRoots, System: src.System, SystemRoots: src.SystemRoots, Locations: src.Locations}
	e.SetLoader(streamLoader{src})
	v := NewView(e)
	miss := v.Values().Missing()
	if len(miss) == 0 {
		t.Fatal("nothing missing before any data is read")
	}
	for _, r := range miss {
		if r.Rows {
			t.Errorf("metric %d: rows asked for with the whole call forest selected", r.Metric)
		}
		if _, err := r.Exp.MetricTotal(model.MetricSel{Metric: r.Metric, Inclusive: true}); err != nil {
			t.Fatal(err)
		}
	}
	if miss := v.Values().Missing(); len(miss) != 0 {
		t.Errorf("still missing after the aggregates: %v", miss)
	}
	for m := range e.Metrics {
		if e.Loaded(m) {
			t.Errorf("metric %d loaded for its aggregates", m)
		}
	}
	v.Select(CallPane, cFoo)
	miss = v.Values().Missing()
	if len(miss) == 0 || !miss[0].Rows {
		t.Fatalf("selecting a call path: missing %v, want the selected metric's rows", miss)
	}
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
}

// TestHottestPathReal follows the hottest path on real Score-P profiles,
// where it stops well above the leaves: in LULESH main keeps 79 % of its
// time itself; in BT-MZ adi spreads its time over x_, y_ and z_solve.
func TestHottestPathReal(t *testing.T) {
	tests := []struct {
		file []string
		want []string // labels along the path
		why  []string
	}{
		{[]string{"cube4", "lulesh", "lulesh.p27.size25.r1.cubex"}, []string{"lulesh2.0", "int main(int, char**)"},
			[]string{"no child holds more than 50 %", "the largest, void TimeIncrement(Domain&), holds", "(19.2 %)", "(78.8 %)"}},
		{[]string{"cube4", "quirks", "cube4.8_with_checksum_bug.cubex"}, []string{"bt-mz_B.x", "bt_mz", "adi"},
			[]string{"the largest, z_solve, holds 118.79 sec (30.5 %)"}},
	}
	for _, tt := range tests {
		e, err := format.Open(testkit.Data(t, tt.file...))
		if err != nil {
			t.Fatal(err)
		}
		v := NewView(e)
		v.Select(MetricPane, Node{MetricNode, e.MetricByName("time")})
		mustUpdate(t, v)
		path, why := v.HotPath().path(CallPane, v.Selected(CallPane))
		var got []string
		for _, n := range path {
			got = append(got, v.Label(n))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: path %q, want %q", tt.file[len(tt.file)-1], got, tt.want)
		}
		for _, w := range tt.why {
			if !strings.Contains(why, w) {
				t.Errorf("%s: %q misses %q", tt.file[len(tt.file)-1], why, w)
			}
		}
		// Each step holds more than half of its parent, by the model's values.
		incl, err := e.CallTreeValues(model.MetricSel{Metric: e.MetricByName("time"), Inclusive: true}, true)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(path); i++ {
			if a, b := incl[path[i].Index], incl[path[i-1].Index]; !(a > 0.5*b) {
				t.Errorf("step %s holds %v of %v", got[i], a, b)
			}
		}
	}
}

// TestShowing: a call path shows as itself in the call tree and as its
// region in the flat profile; a node the experiment has not shows nowhere.
func TestShowing(t *testing.T) {
	v := NewView(handMade())
	mustUpdate(t, v)
	if n := v.Showing(Node{CnodeNode, 3}); n != cBar3 {
		t.Errorf("Showing(call path 3) = %v", n)
	}
	v.SetFlat(true)
	if n := v.Showing(Node{CnodeNode, 3}); n != rBar {
		t.Errorf("flat: Showing(call path 3) = %v; want bar's region", n)
	}
	if n := v.Showing(Node{CnodeNode, 5}); n.Valid() {
		t.Error("Showing(call path 5) of 5 call paths")
	}
}
