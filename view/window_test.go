package view

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cubeview/colormap"
	"cubeview/format"
	"cubeview/internal/prefs"
	"cubeview/internal/testkit"
	"cubeview/model"
	"cubeview/numfmt"
)

func TestFindTexts(t *testing.T) {
	v := NewView(handMade())
	mustUpdate(t, v)
	if got := FindMiss(CallPane, ""); got != "" {
		t.Errorf("FindMiss of nothing = %q", got)
	}
	if got := FindMiss(SystemPane, "zz"); got != "no match in the system tree" {
		t.Errorf("FindMiss = %q", got)
	}
	if _, _, _, ok := v.Finder().Move(1); ok {
		t.Error("FindMove without a search moved")
	}
	v.Finder().Find(CallPane, "ba")
	for _, want := range []struct {
		delta int
		n     Node
		text  string
	}{{0, cBar3, "1 of 2 in the call tree"}, {1, cBar, "2 of 2 in the call tree"}, {1, cBar3, "1 of 2 in the call tree"}, {-1, cBar, "2 of 2 in the call tree"}} {
		d, n, text, ok := v.Finder().Move(want.delta)
		if !ok || d != CallPane || n != want.n || text != want.text {
			t.Errorf("FindMove(%d) = %v %v %q %v, want %v %q", want.delta, d, n, text, ok, want.n, want.text)
		}
	}
}

// TestPaneInfo checks the pane information line with and without an
// external reference. (The status hint: document's TestExternalHint.)
func TestPaneInfo(t *testing.T) {
	v := NewView(handMade())
	mustUpdate(t, v)
	plain := v.Values().PaneInfo(CallPane, "b.cubex")
	if !strings.HasPrefix(plain, "scale ") || strings.Contains(plain, "reference") {
		t.Errorf("absolute: %q", plain)
	}
	v.Values().SetExternal(handMade())
	v.SetMode(CallPane, ExternalPercent)
	mustUpdate(t, v)
	if got := v.Values().PaneInfo(CallPane, "b.cubex"); !strings.HasSuffix(got, " · reference b.cubex") {
		t.Errorf("external percent: %q", got)
	}
}

func TestExpandSubtree(t *testing.T) {
	v := NewView(handMade())
	ExpandSubtree(v, CallPane, cMain, true)
	for _, n := range []Node{cMain, cFoo, cFoo2} {
		if !v.Expanded(CallPane, n) {
			t.Errorf("%v not expanded", n)
		}
	}
	ExpandSubtree(v, CallPane, cFoo, false)
	if !v.Expanded(CallPane, cMain) || v.Expanded(CallPane, cFoo) || v.Expanded(CallPane, cFoo2) {
		t.Error("collapsing foo's subtree did not collapse foo and its child only")
	}
	// The walk stops after maxExpand branches.
	wide := NewView(bigCallTree(maxExpand + 50))
	root := wide.Roots(CallPane)[0]
	ExpandSubtree(wide, CallPane, root, true)
	open := 0
	for c := range wide.Experiment().Cnodes {
		if wide.Expanded(CallPane, Node{CnodeNode, c}) {
			open++
		}
	}
	if open != maxExpand {
		t.Errorf("%d branches expanded, want maxExpand = %d", open, maxExpand)
	}
}

func TestExpandHottest(t *testing.T) {
	v := NewView(handMade())
	v.Select(CallPane, cMain)
	if need := v.HotPath().Needs(CallPane); len(need) != 0 {
		t.Fatalf("data in memory, yet needs %v", need)
	}
	last, err := v.HotPath().Expand(CallPane)
	if err != nil || last != cFoo2 || v.Selected(CallPane) != cFoo2 {
		t.Errorf("ExpandHottest = %v, %v; selected %v; want foo's child", last, err, v.Selected(CallPane))
	}
	if !v.Expanded(CallPane, cMain) || !v.Expanded(CallPane, cFoo) || v.Expanded(CallPane, cFoo2) {
		t.Error("the path above the end is not expanded, or the end is")
	}
}

// TestHottestNeeds reads what the hottest path below a metric of a file
// needs, the values of the metric and of those below it, and follows it.
func TestHottestNeeds(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "cube4", "cpi", "profile.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	v := NewView(e)
	n := v.Roots(MetricPane)[0]
	v.Select(MetricPane, n)
	need := v.HotPath().Needs(MetricPane)
	if !slices.ContainsFunc(need, func(r BlockRef) bool { return r.Metric == n.Index }) {
		t.Fatalf("needs %v, not metric %d itself", need, n.Index)
	}
	Read(need)
	if need := v.HotPath().Needs(MetricPane); len(need) != 0 {
		t.Errorf("after Read still needs %v", need)
	}
	last, err := v.HotPath().Expand(MetricPane)
	if err != nil || last != n || v.Selected(MetricPane) != n {
		t.Errorf("ExpandHottest = %v, %v; want %v (no sub-metrics)", last, err, n)
	}
}

func TestRangeForm(t *testing.T) {
	v := NewView(handMade())
	done := 0
	f := RangeForm(v, SystemPane, func() { done++ })
	if f.Title != "Colour range of the system tree" || f.Confirm != "Apply" || f.Fields[0].Text != "" || f.Fields[1].Placeholder != "automatic" {
		t.Errorf("form %q %q %+v", f.Title, f.Confirm, f.Fields[1])
	}
	f.Set(f.Field("Maximum"), "10")
	if err := f.Confirmed(); err != nil || done != 1 {
		t.Fatalf("Apply: %v, done %d", err, done)
	}
	if r := v.UserRange(SystemPane); r == nil || *r != (colormap.Range{Min: 0, Max: 10}) {
		t.Errorf("range %v, want 0 to 10", r)
	}
	f = RangeForm(v, SystemPane, func() { done++ })
	if f.Fields[0].Text != "0" || f.Fields[1].Text != "10" {
		t.Errorf("the form does not show the range set: %q %q", f.Fields[0].Text, f.Fields[1].Text)
	}
	for _, bad := range [][2]string{{"5", "2"}, {"-1", "2"}, {"x", "2"}} {
		f.Set(f.Fields[0], bad[0])
		f.Set(f.Fields[1], bad[1])
		err := f.Confirmed()
		if err == nil || !strings.Contains(err.Error(), "want 0 ≤ minimum ≤ maximum, got \""+bad[0]+"\"") {
			t.Errorf("%q to %q: error %v", bad[0], bad[1], err)
		}
	}
	f.Set(f.Fields[1], " ")
	if err := f.Confirmed(); err != nil || v.UserRange(SystemPane) != nil || done != 2 {
		t.Errorf("an empty maximum: %v, range %v, done %d", err, v.UserRange(SystemPane), done)
	}
}

func TestWindowPrefs(t *testing.T) {
	p := prefs.Open(filepath.Join(t.TempDir(), "prefs.json"))
	if got := NumberFormatPref(p); got != numfmt.Grouped() {
		t.Errorf("default number format %+v", got)
	}
	f := numfmt.Engineer()
	f.Decimals = 4
	SaveNumberFormat(p, f)
	if got := NumberFormatPref(p); got != f {
		t.Errorf("number format read back %+v, want %+v", got, f)
	}
	if HotThresholdPref(p) != 0 {
		t.Error("a hot threshold without a preference")
	}
	SaveHotThreshold(p, 0.75)
	if got := HotThresholdPref(p); got != 0.75 {
		t.Errorf("hot threshold %v", got)
	}
	if _, ok := SplitPref(p); ok || HasSplitPref(p) {
		t.Error("a split without a preference")
	}
	SaveSplit(p, Split{0.25, 0.6})
	if s, ok := SplitPref(p); !ok || !s.Near(Split{0.25, 0.6}) {
		t.Errorf("split read back %v %v", s, ok)
	}
	SaveSplit(p, Split{0.95, 0.6}) // out of bounds: fitted again, but chosen
	if _, ok := SplitPref(p); ok || !HasSplitPref(p) {
		t.Error("an out-of-bounds split is taken, or not remembered as chosen")
	}
}

func TestFitSplit(t *testing.T) {
	tests := []struct {
		total, metric, system float64
		want                  Split
	}{
		{1000, 250, 200, Split{0.25, 550.0 / 750}},
		{1000, 50, 900, Split{0.15, 500.0 / 850}}, // bounded to 15 % and 35 %
		{100, 0, 0, Split{0.15, (1280 - 2*192.0) / (1280 - 192)}},
	}
	for _, tt := range tests {
		if got := FitSplit(tt.total, tt.metric, tt.system); !got.Near(tt.want) {
			t.Errorf("FitSplit(%v, %v, %v) = %v, want %v", tt.total, tt.metric, tt.system, got, tt.want)
		}
	}
	if (Split{0.2, 0.5}).Near(Split{0.2, 0.502}) {
		t.Error("splits 0.002 apart are near")
	}
}

// bigCallTree returns an experiment whose call tree is a chain of n call
// paths below main, each a branch but the last.
func bigCallTree(n int) *model.Experiment {
	e := &model.Experiment{
		Metrics: []model.Metric{{UniqName: "time", DispName: "Time", DataType: "DOUBLE", Parent: -1}},
		Regions: []model.Region{{Name: "main"}},
		System: []model.SystemNode{
			{Kind: model.Group, Class: "process", Name: "rank 0", Parent: -1},
			{Kind: model.Leaf, Class: "thread", Name: "t0", Parent: 0},
		},
	}
	for c := range n {
		e.Cnodes = append(e.Cnodes, model.Cnode{ID: c, Parent: c - 1, CallLine: -1})
	}
	e.Link()
	e.NumberLocations()
	return e
}

func TestWindowSetters(t *testing.T) {
	v := NewView(handDiff())
	v.Appearance().SetDiverging(true)
	if !v.Appearance().Scale().Diverging {
		t.Error("SetDiverging(true) left the scale as it was")
	}
	v.Appearance().SetDiverging(false)
	if v.Appearance().Scale().Diverging {
		t.Error("SetDiverging(false) left diverging colours on")
	}
	ref := handMade()
	v.Values().SetExternal(ref)
	if v.Values().External() != ref {
		t.Error("SetExternal(ref) did not set the reference")
	}
	v.Values().SetExternal(nil) // no document: see document's TestExperiment
	if v.Values().External() != nil {
		t.Error("SetExternal of no document kept a reference")
	}
	v.Appearance().SetDecimals(4)
	v.Appearance().SetNumberStyle(1)
	want := numfmt.Engineer()
	want.Decimals = 4
	if got := v.Appearance().NumberFormat(); got != want {
		t.Errorf("number format %+v, want engineering with 4 decimals", got)
	}
	v.Appearance().SetNumberStyle(len(numfmt.Styles))
	if got := v.Appearance().NumberFormat(); got != want {
		t.Errorf("a style out of range changed the format to %+v", got)
	}
}

func TestReadRows(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "cube4", "cpi", "profile.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	v := NewView(e)
	refs := v.Values().Prefetch()
	if len(refs) == 0 {
		t.Fatal("nothing to read ahead in a new view of a file")
	}
	ReadRows(refs)
	for _, r := range refs {
		if !e.Loaded(r.Metric) {
			t.Errorf("metric %d not loaded", r.Metric)
		}
	}
	if refs := v.Values().Prefetch(); len(refs) != 0 {
		t.Errorf("still to read ahead: %v", refs)
	}
}

func TestPaneTitlesAndModeNames(t *testing.T) {
	v := NewView(handMade())
	if got := PaneTitle(CallPane, v.Flat()); got != "Call tree" {
		t.Errorf("call pane title %q", got)
	}
	v.SetFlat(true)
	if got, sys := PaneTitle(CallPane, v.Flat()), PaneTitle(SystemPane, v.Flat()); got != "Flat profile" || sys != "System tree" {
		t.Errorf("titles in the flat profile %q, %q", got, sys)
	}
	names := ModeNames(SystemPane)
	if len(names) != len(Modes(SystemPane)) || names[6] != "Peer distribution" {
		t.Errorf("system modes %q", names)
	}
	for _, n := range names {
		if m, ok := ParseMode(SystemPane, n); !ok || m.String() != n {
			t.Errorf("ParseMode(%q) = %v, %v", n, m, ok)
		}
	}
}

// TestWindowSize checks that no window opens larger than the screen.
func TestWindowSize(t *testing.T) {
	tests := []struct{ want, screen, got Size }{
		{Size{}, Size{}, defaultWindowSize},
		{Size{}, Size{1366, 768}, Size{1280, 672}},
		{Size{1687, 900}, Size{1400, 900}, Size{1352, 804}},
		{Size{900, 600}, Size{1920, 1080}, Size{900, 600}},
		{Size{}, Size{320, 200}, Size{400, 300}},
	}
	for _, tt := range tests {
		if got := WindowSize(tt.want, tt.screen); got != tt.got {
			t.Errorf("WindowSize(%v, %v) = %v, want %v", tt.want, tt.screen, got, tt.got)
		}
	}
}

// TestUsesMode sees a pane's value mode.
func TestUsesMode(t *testing.T) {
	e := handMade()
	v := NewView(e)
	if UsesMode(v, ExternalPercent) {
		t.Error("a new view uses External percent")
	}
	v.SetMode(SystemPane, ExternalPercent)
	if !UsesMode(v, ExternalPercent) {
		t.Error("the system pane's mode is not seen")
	}
}

// TestPeerModeBeforeValues draws a system row in a peer mode before the
// first Update, as a window that opens with its remembered peer mode
// does: no value yet, no panic; after Update the value is there.
func TestPeerModeBeforeValues(t *testing.T) {
	v := NewView(handMade())
	v.SetMode(SystemPane, PeerPercent)
	if r := v.Row(SystemPane, sRoot); r.Text == "" {
		t.Errorf("row before Update: %+v", r)
	}
	mustUpdate(t, v)
	if x := v.Values().Value(SystemPane, sRoot); x != 100 {
		t.Errorf("peer percent of the root after Update: %g, want 100", x)
	}
}
