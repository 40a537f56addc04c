package menu

import (
	"slices"
	"strings"
	"testing"

	"cubeview/algebra"
	"cubeview/document"
	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/internal/testkit/handmade"
	"cubeview/numfmt"
	"cubeview/view"
)

// findItem returns the item labelled label in menu of ms, looking into
// submenus too.
func findItem(t *testing.T, ms []Menu, menu, label string) Item {
	t.Helper()
	var find func([]Item) (Item, bool)
	find = func(items []Item) (Item, bool) {
		for _, it := range items {
			if it.Label == label {
				return it, true
			}
			if c, ok := find(it.Items); ok {
				return c, true
			}
		}
		return Item{}, false
	}
	for _, m := range ms {
		if m.Label == menu {
			if it, ok := find(m.Items); ok {
				return it
			}
		}
	}
	t.Fatalf("no %s › %s", menu, label)
	return Item{}
}

func labels(items []Item) string {
	var l []string
	for _, it := range items {
		if it.Separator {
			l = append(l, "—")
		} else {
			l = append(l, it.Label)
		}
	}
	return strings.Join(l, "|")
}

func TestMainMenuLayout(t *testing.T) {
	ms := Bar(view.NewView(handmade.Experiment()), State{Doc: &document.Doc{Exp: handmade.Experiment(), Name: "a"}})
	var bar []string
	for _, m := range ms {
		bar = append(bar, m.Label)
	}
	if got := strings.Join(bar, "|"); got != "File|View|Metric tree|Algebra|Help" {
		t.Errorf("menu bar = %s", got)
	}
	want := map[string]string{
		"File": "Open…|Open folder…|Open recent|Repository…|Save as…|Export active pane as CSV…|Export active pane as PNG…|Properties…|Memory for one metric…|—|Close",
		"View": "Flat profile|Sort|Numbers|Hide small rows|—|Expand hottest path|Hottest path goes on while a child holds more than|Find…|Find next|Find previous|—|" +
			"Colour range of the active pane…|Diverging colours|External reference|Choose external reference…|—|Source|Statistics|Callers and callees|Bottom-up view|Per-location chart|Topology|Clusters of locations",
		"Metric tree": "New derived metric…|Thresholds of the selected metric…|—|Show selected metric as column|Remove all metric columns",
		"Algebra":     "Difference…|Merge…|Mean…|—|Cut at selected call path|—|Where did it change…|Compare groups of runs…|Scaling…",
		"Help":        "Keys and mouse|About cubeview",
	}
	for _, m := range ms {
		if got := labels(m.Items); got != want[m.Label] {
			t.Errorf("%s menu = %s\nwant %s", m.Label, got, want[m.Label])
		}
	}
	if it := findItem(t, ms, "Algebra", "Merge…"); it.Command != CmdOperation || algebra.Op(it.Arg) != algebra.OpMerge {
		t.Errorf("Merge… runs %q %d", it.Command, it.Arg)
	}
	if got := labels(findItem(t, ms, "View", "Numbers").Items); !strings.HasPrefix(got, "Thousands separators (30,807.79)|Engineering notation (30.81e3)|") || !strings.HasSuffix(got, "|—|0 decimals|1 decimals|2 decimals|3 decimals|4 decimals|5 decimals|6 decimals") {
		t.Errorf("Numbers = %s", got)
	}
}

func TestMenuShortcuts(t *testing.T) {
	ms := Bar(nil, State{})
	tests := []struct{ menu, label, want string }{
		{"File", "Open…", "Ctrl+O"},
		{"File", "Save as…", "Ctrl+S"},
		{"File", "Close", "Ctrl+W"},
		{"View", "Flat profile", "Ctrl+T"},
		{"View", "Expand hottest path", "Ctrl+H"},
		{"View", "Find…", "Ctrl+F"},
		{"View", "Find next", "Ctrl+G"},
		{"View", "Find previous", "Ctrl+Shift+G"},
		{"View", "Source", "Ctrl+U"},
		{"View", "Statistics", "Ctrl+I"},
		{"View", "Callers and callees", "Ctrl+K"},
		{"View", "Bottom-up view", "Ctrl+B"},
		{"View", "Per-location chart", "Ctrl+L"},
		{"View", "Topology", "Ctrl+Shift+L"},
	}
	for _, tt := range tests {
		it := findItem(t, ms, tt.menu, tt.label)
		if it.Shortcut == nil || it.Shortcut.String() != tt.want {
			t.Errorf("%s › %s: shortcut %v, want %s", tt.menu, tt.label, it.Shortcut, tt.want)
		}
	}
	// Every shortcut is described in Help › Keys and mouse, but the ones
	// of the File menu which are the desktop's usual ones.
	for _, tt := range tests[3:] {
		if !strings.Contains(KeysHelp, tt.want) {
			t.Errorf("the keys help does not mention %s (%s)", tt.want, tt.label)
		}
	}
}

// TestMenuWithoutExperiment: an empty window offers opening files but
// nothing that needs an experiment.
func TestMenuWithoutExperiment(t *testing.T) {
	ms := Bar(nil, State{})
	for _, l := range []string{"Open…", "Open folder…", "Repository…", "Memory for one metric…", "Close"} {
		if findItem(t, ms, "File", l).Disabled {
			t.Errorf("File › %s is disabled without an experiment", l)
		}
	}
	disabled := map[string][]string{
		"File":        {"Open recent", "Save as…", "Properties…"},
		"View":        {"Flat profile", "Sort", "Numbers", "Find…", "Diverging colours", "External reference", "Choose external reference…", "Source", "Statistics", "Callers and callees", "Bottom-up view", "Per-location chart", "Topology"},
		"Metric tree": {"New derived metric…", "Thresholds of the selected metric…"},
		"Algebra":     {"Difference…", "Cut at selected call path", "Reroot here", "Prune here", "Where did it change…", "Compare groups of runs…", "Scaling…"},
	}
	for menu, ls := range disabled {
		for _, l := range ls {
			if !findItem(t, ms, menu, l).Disabled {
				t.Errorf("%s › %s is enabled without an experiment", menu, l)
			}
		}
	}
	for _, it := range findItem(t, ms, "View", "Numbers").Items {
		if it.Checked {
			t.Errorf("Numbers › %s is checked without an experiment", it.Label)
		}
	}
}

func TestMenuChecks(t *testing.T) {
	a, b, c := &document.Doc{Exp: handmade.Experiment(), Name: "a"}, &document.Doc{Exp: handmade.Experiment(), Name: "b"}, &document.Doc{Exp: handmade.Diff(), Name: "c"}
	v := view.NewView(a.Exp)
	v.SetFlat(true)
	v.SetOrder(view.ByName)
	f := numfmt.Engineer()
	f.Decimals = 3
	v.Appearance().SetNumberFormat(f)
	v.HotPath().SetThreshold(0.75)
	v.Values().SetExternal(c.Exp)
	st := State{Doc: a, Recent: []string{"x.cubex", "y.cubex"}, Others: []*document.Doc{b, c}, StatsShown: true}
	ms := Bar(v, st)
	checked := func(menu, label string) bool { return findItem(t, ms, menu, label).Checked }
	for _, l := range []string{"Flat profile", "By name", "Engineering notation (30.81e3)", "3 decimals", "75 % of its parent", "c", "Statistics"} {
		if !checked("View", l) {
			t.Errorf("View › %s is not checked", l)
		}
	}
	for _, l := range []string{"By value", "2 decimals", "50 % of its parent", "None", "b", "Diverging colours", "Source", "Callers and callees"} {
		if checked("View", l) {
			t.Errorf("View › %s is checked", l)
		}
	}
	if it := findItem(t, ms, "View", "c"); it.Command != CmdExternal || st.Others[it.Arg] != c {
		t.Errorf("View › External reference › c runs %q on %d", it.Command, it.Arg)
	}
	if it := findItem(t, ms, "View", "None"); it.Command != CmdExternal || it.Arg != -1 {
		t.Errorf("None runs %q on %d", it.Command, it.Arg)
	}
	if it := findItem(t, ms, "View", "75 % of its parent"); it.Command != CmdHotShare || it.Arg != 75 {
		t.Errorf("75 %% runs %q on %d", it.Command, it.Arg)
	}
	if it := findItem(t, ms, "View", "By name"); it.Command != CmdSort || view.SortOrder(it.Arg) != view.ByName {
		t.Errorf("By name runs %q on %d", it.Command, it.Arg)
	}
	recent := findItem(t, ms, "File", "Open recent")
	if recent.Disabled || labels(recent.Items) != "x.cubex|y.cubex" || recent.Items[1].Command != CmdOpenRecent || recent.Items[1].Arg != 1 {
		t.Errorf("Open recent = %+v", recent)
	}
	// The hand-made experiment records no call graph.
	if it := findItem(t, ms, "View", "Callers and callees"); !it.Disabled {
		t.Error("Callers and callees is enabled for an experiment without a call graph")
	}
	if it := findItem(t, ms, "Algebra", "Prune here"); it.Disabled || it.Command != CmdPrune {
		t.Errorf("Algebra › Cut › Prune here = %+v", it)
	}
}

func TestRowMenu(t *testing.T) {
	base := "Expand hottest path|Expand subtree|Collapse subtree|—|Find…|Copy value|Copy name|Copy description"
	cut := base + "|—|Reroot here (Algebra › Cut)|Prune here (Algebra › Cut)"
	tests := []struct {
		d    view.Dim
		n    view.Node
		want string
	}{
		{view.CallPane, cFoo, cut},
		{view.CallPane, rFoo, cut},
		{view.CallPane, uFoo, base},
		{view.MetricPane, mTime, base},
		{view.SystemPane, sRank0, base},
	}
	for _, tt := range tests {
		items := rowItems(tt.d, tt.n)
		if got := labels(items); got != tt.want {
			t.Errorf("RowMenu(%v, %v) = %s\nwant %s", tt.d, tt.n, got, tt.want)
		}
		cmds := []Command{}
		for _, it := range items {
			cmds = append(cmds, it.Command)
		}
		if !slices.Contains(cmds, CmdCopyDescription) || slices.Contains(cmds, CmdReroot) != (tt.want == cut) {
			t.Errorf("RowMenu(%v, %v) commands %v", tt.d, tt.n, cmds)
		}
	}
}

// Rows of the hand-made experiment whose menus the tests check.
var (
	mTime  = view.Node{Kind: view.MetricNode, Index: 0}
	cFoo   = view.Node{Kind: view.CnodeNode, Index: 1}
	sRank0 = view.Node{Kind: view.SystemNode, Index: 2}
	rFoo   = view.Node{Kind: view.RegionNode, Index: 1}
	uFoo   = view.Node{Kind: view.SubroutinesNode, Index: 1}
)

// TestColumnMenus checks the row menu items that add and remove metric
// columns.
func TestColumnMenus(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "cube4", "cpi", "profile.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	v := view.NewView(e)
	vis, bytes := e.MetricByName("visits"), e.MetricByName("bytes_sent")
	if vis < 0 || bytes < 0 {
		t.Fatal("cpi lacks visits or bytes_sent")
	}
	menu := Row(v, view.MetricPane, view.Node{Kind: view.MetricNode, Index: vis})
	i := slices.IndexFunc(menu, func(it Item) bool { return it.Command == CmdColumn })
	if i < 0 || menu[i].Arg != vis || menu[i].Label != "Show as column in the call tree" {
		t.Fatalf("metric row menu %+v", menu)
	}
	if !v.Columns().Set(vis, true) || !v.Columns().Set(bytes, true) || v.Columns().Set(vis, true) {
		t.Fatal("SetColumn reports changes wrongly")
	}
	menu = Row(v, view.MetricPane, view.Node{Kind: view.MetricNode, Index: vis})
	if i := slices.IndexFunc(menu, func(it Item) bool { return it.Command == CmdColumn }); menu[i].Label != "Remove its column from the call tree" {
		t.Errorf("menu of a metric shown: %q", menu[i].Label)
	}
	if slices.ContainsFunc(Row(v, view.CallPane, view.Node{Kind: view.CnodeNode, Index: 0}), func(it Item) bool { return it.Command == CmdColumn }) {
		t.Error("call path rows offer metric columns")
	}
}

// TestOpenDocumentation: a metric with documentation ends its row menu
// with the item that opens it.
func TestOpenDocumentation(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "cube4", "cpi", "profile.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	v := view.NewView(e)
	time := view.Node{Kind: view.MetricNode, Index: e.MetricByName("time")}
	items := Row(v, view.MetricPane, time)
	if items[len(items)-1].Command != CmdOpenURL {
		t.Errorf("metric menu ends with %+v", items[len(items)-1])
	}
}
