package view

import (
	"slices"
	"strings"
	"testing"

	"cubeview/algebra"
	"cubeview/numfmt"
)

// findItem returns the item labelled label in menu of ms, looking into
// submenus too.
func findItem(t *testing.T, ms []Menu, menu, label string) MenuItem {
	t.Helper()
	var find func([]MenuItem) (MenuItem, bool)
	find = func(items []MenuItem) (MenuItem, bool) {
		for _, it := range items {
			if it.Label == label {
				return it, true
			}
			if c, ok := find(it.Items); ok {
				return c, true
			}
		}
		return MenuItem{}, false
	}
	for _, m := range ms {
		if m.Label == menu {
			if it, ok := find(m.Items); ok {
				return it
			}
		}
	}
	t.Fatalf("no %s › %s", menu, label)
	return MenuItem{}
}

func labels(items []MenuItem) string {
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
	ms := MainMenu(NewView(handMade()), MenuState{Doc: &Doc{Exp: handMade(), Name: "a"}})
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
	ms := MainMenu(nil, MenuState{})
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
	ms := MainMenu(nil, MenuState{})
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
	a, b, c := &Doc{Exp: handMade(), Name: "a"}, &Doc{Exp: handMade(), Name: "b"}, &Doc{Exp: handDiff(), Name: "c"}
	v := NewView(a.Exp)
	v.SetFlat(true)
	v.SetOrder(ByName)
	f := numfmt.Engineer()
	f.Decimals = 3
	v.Appearance().SetNumberFormat(f)
	v.HotPath().SetThreshold(0.75)
	v.Values().SetExternal(c.Exp)
	st := MenuState{Doc: a, Recent: []string{"x.cubex", "y.cubex"}, Others: []*Doc{b, c}, StatsShown: true}
	ms := MainMenu(v, st)
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
	if it := findItem(t, ms, "View", "By name"); it.Command != CmdSort || SortOrder(it.Arg) != ByName {
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
		d    Dim
		n    Node
		want string
	}{
		{CallPane, cFoo, cut},
		{CallPane, rFoo, cut},
		{CallPane, uFoo, base},
		{MetricPane, mTime, base},
		{SystemPane, sRank0, base},
	}
	for _, tt := range tests {
		items := RowMenu(tt.d, tt.n)
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
