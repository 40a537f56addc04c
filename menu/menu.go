package menu

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"cubeview/algebra"
	"cubeview/document"
	"cubeview/numfmt"
	"cubeview/view"
)

// Command names what a menu item does.
type Command string

// The commands of the menus. Items that take an argument carry it in
// Item.Arg.
const (
	NoCommand Command = "" // a submenu's parent or a separator

	CmdOpen        Command = "open"
	CmdOpenFolder  Command = "open folder"
	CmdOpenRecent  Command = "open recent" // Arg: index in State.Recent
	CmdRepository  Command = "repository"  // the repository window
	CmdSaveAs      Command = "save as"
	CmdProperties  Command = "properties"
	CmdMemory      Command = "memory" // memory for one metric
	CmdClose       Command = "close"
	CmdFlat        Command = "flat"          // toggles the flat profile
	CmdSort        Command = "sort"          // Arg: a view.SortOrder
	CmdNumberStyle Command = "number style"  // Arg: index in numfmt.Styles
	CmdDecimals    Command = "decimals"      // Arg: the number of decimals
	CmdHottest     Command = "hottest"       // expand the hottest path
	CmdHotShare    Command = "hot threshold" // Arg: percent of the parent
	CmdSmallRows   Command = "small rows"    // Arg: index for SmallShare
	CmdFind        Command = "find"
	CmdFindNext    Command = "find next"
	CmdFindPrev    Command = "find previous"
	CmdColourRange Command = "colour range"
	CmdDiverging   Command = "diverging" // toggles diverging colours
	CmdExternal    Command = "external"  // Arg: index in State.Others, -1 for none
	CmdReference   Command = "choose reference"
	CmdSource      Command = "source"     // toggles the source panel
	CmdStats       Command = "statistics" // toggles the statistics panel
	CmdCallGraph   Command = "call graph" // toggles callers and callees
	CmdBottomUp    Command = "bottom-up"  // toggles the bottom-up view
	CmdLocations   Command = "locations"  // toggles the per-location chart
	CmdTopology    Command = "topology"   // toggles the topology view
	CmdClusters    Command = "clusters"   // toggles the clusters of locations
	CmdExportCSV   Command = "export csv" // the active (or context menu's) pane's rows shown
	CmdExportPNG   Command = "export png" // the active (or context menu's) pane as drawn
	CmdOpenURL     Command = "open url"   // a metric's documentation
	CmdDerived     Command = "derived metric"
	CmdThresholds  Command = "thresholds"
	CmdOperation   Command = "operation" // Arg: an algebra.Op
	CmdReroot      Command = "reroot"
	CmdPrune       Command = "prune"
	CmdWhere       Command = "where did it change"
	CmdGroups      Command = "compare groups of runs"
	CmdScaling     Command = "scaling"
	CmdKeysHelp    Command = "keys help"
	CmdAbout       Command = "about"

	// Commands of a row's context menu, on the row the menu belongs to.
	CmdExpandSubtree   Command = "expand subtree"
	CmdCollapseSubtree Command = "collapse subtree"
	CmdCopyValue       Command = "copy value"
	CmdCopyName        Command = "copy name"
	CmdCopyDescription Command = "copy description"
)

// Shortcut is a menu item's key: the platform's shortcut modifier (Ctrl,
// or ⌘ on macOS) with Key, and Shift too when Shift is set. Key is the
// key's name as on the keyboard: "O", "F3".
type Shortcut struct {
	Key   string
	Shift bool
}

// String describes the shortcut as the help does: "Ctrl+Shift+G".
func (s Shortcut) String() string {
	if s.Shift {
		return "Ctrl+Shift+" + s.Key
	}
	return "Ctrl+" + s.Key
}

// Item is one entry of a menu: a command, a submenu (Items) or a
// separator.
type Item struct {
	Label     string
	Command   Command
	Arg       int
	Shortcut  *Shortcut
	Checked   bool
	Disabled  bool
	Separator bool
	Items     []Item // the submenu, if any
}

// Menu is one menu of the menu bar.
type Menu struct {
	Label string
	Items []Item
}

// State describes what the menus depend on besides the window's view.
type State struct {
	Doc            *document.Doc   // the experiment shown, nil while none is
	Recent         []string        // recently opened files, newest first
	Others         []*document.Doc // the other open experiments (external references)
	SourceShown    bool
	StatsShown     bool
	CallGraphShown bool
	BottomUpShown  bool
	LocationsShown bool
	TopologyShown  bool
	ClustersShown  bool
}

func item(label string, c Command) Item { return Item{Label: label, Command: c} }

func keyed(label string, c Command, key string) Item {
	return Item{Label: label, Command: c, Shortcut: &Shortcut{Key: key}}
}

var separator = Item{Separator: true}

// hotShares are the hottest-path thresholds offered, in percent.
var hotShares = []int{25, 50, 75, 90}

// smallShares are the thresholds View › Hide small rows offers, in
// percent of the pane's total (0: show every row).
var smallShares = []float64{0, 0.1, 0.5, 1, 2, 5}

// Bar returns the menu bar of a window showing v (nil while it shows
// no experiment) in the state st.
func Bar(v *view.View, st State) []Menu {
	return []Menu{fileMenu(st), viewMenu(v, st), metricMenu(v), algebraMenu(st), helpMenu}
}

func fileMenu(st State) Menu {
	recent := item("Open recent", NoCommand)
	for i, p := range st.Recent {
		recent.Items = append(recent.Items, Item{Label: p, Command: CmdOpenRecent, Arg: i})
	}
	recent.Disabled = len(st.Recent) == 0
	save := keyed("Save as…", CmdSaveAs, "S")
	props := item("Properties…", CmdProperties)
	save.Disabled, props.Disabled = st.Doc == nil, st.Doc == nil
	exportCSV, exportPNG := item("Export active pane as CSV…", CmdExportCSV), item("Export active pane as PNG…", CmdExportPNG)
	exportCSV.Disabled, exportPNG.Disabled = st.Doc == nil, st.Doc == nil
	return Menu{"File", []Item{
		keyed("Open…", CmdOpen, "O"), item("Open folder…", CmdOpenFolder), recent,
		item("Repository…", CmdRepository), save, exportCSV, exportPNG, props,
		item("Memory for one metric…", CmdMemory), separator, keyed("Close", CmdClose, "W"),
	}}
}

func viewMenu(v *view.View, st State) Menu {
	on := v != nil
	flat := keyed("Flat profile", CmdFlat, "T")
	order := item("Sort", NoCommand)
	for _, o := range []view.SortOrder{view.FileOrder, view.ByValue, view.ByName} {
		order.Items = append(order.Items, Item{Label: o.String(), Command: CmdSort, Arg: int(o), Checked: on && v.Order() == o})
	}
	numbers := item("Numbers", NoCommand)
	for i, style := range numfmt.Styles {
		label := style.Name + " (" + style.Format().Format(30807.79, false) + ")"
		numbers.Items = append(numbers.Items, Item{Label: label, Command: CmdNumberStyle, Arg: i, Checked: on && numfmt.StyleOf(v.Appearance().NumberFormat()) == i})
	}
	numbers.Items = append(numbers.Items, separator)
	for k := 0; k <= numfmt.MaxDecimals; k++ {
		numbers.Items = append(numbers.Items, Item{Label: strconv.Itoa(k) + " decimals", Command: CmdDecimals, Arg: k, Checked: on && v.Appearance().NumberFormat().Decimals == k})
	}
	hotShare := item("Hottest path goes on while a child holds more than", NoCommand)
	for _, pc := range hotShares {
		label := fmt.Sprintf("%d %% of its parent", pc)
		hotShare.Items = append(hotShare.Items, Item{Label: label, Command: CmdHotShare, Arg: pc, Checked: on && math.Round(100*v.HotPath().Threshold()) == float64(pc)})
	}
	ext := item("External reference", NoCommand)
	ext.Items = []Item{{Label: "None", Command: CmdExternal, Arg: -1, Checked: on && v.Values().External() == nil}}
	for i, d := range st.Others {
		ext.Items = append(ext.Items, Item{Label: d.Name, Command: CmdExternal, Arg: i, Checked: on && v.Values().External() == d.Exp})
	}
	diverging := item("Diverging colours", CmdDiverging)
	if on {
		flat.Checked = v.Flat()
		diverging.Checked = v.Appearance().Scale().Diverging
	}
	hot := keyed("Expand hottest path", CmdHottest, "H")
	find, next := keyed("Find…", CmdFind, "F"), keyed("Find next", CmdFindNext, "G")
	prev := Item{Label: "Find previous", Command: CmdFindPrev, Shortcut: &Shortcut{Key: "G", Shift: true}}
	colours := item("Colour range of the active pane…", CmdColourRange)
	small := smallRowsMenu(v)
	needView := []*Item{&flat, &order, &numbers, &hot, &hotShare, &small, &find, &next, &prev, &colours, &diverging, &ext}
	reference := item("Choose external reference…", CmdReference)
	source, stats := keyed("Source", CmdSource, "U"), keyed("Statistics", CmdStats, "I")
	callGraph := keyed("Callers and callees", CmdCallGraph, "K")
	source.Checked, stats.Checked, callGraph.Checked = st.SourceShown, st.StatsShown, st.CallGraphShown
	bottomUp := keyed("Bottom-up view", CmdBottomUp, "B")
	bottomUp.Checked = st.BottomUpShown
	locations := keyed("Per-location chart", CmdLocations, "L")
	locations.Checked = st.LocationsShown
	topology := Item{Label: "Topology", Command: CmdTopology, Shortcut: &Shortcut{Key: "L", Shift: true}, Checked: st.TopologyShown}
	clusters := Item{Label: "Clusters of locations", Command: CmdClusters, Checked: st.ClustersShown}
	for _, it := range append(needView, &reference, &source, &stats, &callGraph, &bottomUp, &locations, &topology, &clusters) {
		it.Disabled = !on
	}
	callGraph.Disabled = !on || !view.HasCallGraph(v.Experiment())
	return Menu{"View", []Item{
		flat, order, numbers, small, separator,
		hot, hotShare, find, next, prev, separator,
		colours, diverging, ext, reference, separator,
		source, stats, callGraph, bottomUp, locations, topology, clusters,
	}}
}

func metricMenu(v *view.View) Menu {
	add := item("New derived metric…", CmdDerived)
	thr := item("Thresholds of the selected metric…", CmdThresholds)
	add.Disabled, thr.Disabled = v == nil, v == nil
	return Menu{"Metric tree", append([]Item{add, thr}, columnsMenuItems(v)...)}
}

func algebraMenu(st State) Menu {
	op := func(o algebra.Op) Item {
		return Item{Label: o.Title() + "…", Command: CmdOperation, Arg: int(o)}
	}
	cut := item("Cut at selected call path", NoCommand)
	cut.Items = []Item{item("Reroot here", CmdReroot), item("Prune here", CmdPrune)}
	items := []Item{
		op(algebra.OpDiff), op(algebra.OpMerge), op(algebra.OpMean), separator, cut,
		separator, item("Where did it change…", CmdWhere), item("Compare groups of runs…", CmdGroups), item("Scaling…", CmdScaling),
	}
	if st.Doc == nil {
		disable(items)
	}
	return Menu{"Algebra", items}
}

// disable disables items and their submenus' items.
func disable(items []Item) {
	for i := range items {
		items[i].Disabled = !items[i].Separator
		disable(items[i].Items)
	}
}

var helpMenu = Menu{"Help", []Item{item("Keys and mouse", CmdKeysHelp), item("About cubeview", CmdAbout)}}

// rowItems returns the items of the context menu of row n of pane d that
// need nothing but the row.
func rowItems(d view.Dim, n view.Node) []Item {
	items := []Item{
		item("Expand hottest path", CmdHottest),
		item("Expand subtree", CmdExpandSubtree),
		item("Collapse subtree", CmdCollapseSubtree),
		separator,
		item("Find…", CmdFind),
		item("Copy value", CmdCopyValue),
		item("Copy name", CmdCopyName),
		item("Copy description", CmdCopyDescription),
	}
	if d == view.CallPane && (n.Kind == view.CnodeNode || n.Kind == view.RegionNode) {
		items = append(items, separator,
			item("Reroot here (Algebra › Cut)", CmdReroot),
			item("Prune here (Algebra › Cut)", CmdPrune))
	}
	return items
}

// KeysHelp is the text of Help › Keys and mouse.
var KeysHelp = strings.Join([]string{
	"Click a row to select it; the panes to its right follow the selection.",
	"Collapsed rows show inclusive values, expanded rows exclusive ones.",
	"Up / Down, Home / End, Page Up / Page Down: move the selection.",
	"Right or + : expand; Left or − : collapse (or go to the parent).",
	"Ctrl+H: expand the hottest path below the selected row.",
	"Ctrl+F: find; Enter, Ctrl+G or F3: next match; Ctrl+Shift+G or Shift+F3: previous.",
	"Ctrl+T: flat profile. Right-click a row for more.",
	"Hover a row to see its description below the status line.",
	"Ctrl+U: source panel of the selected call path; double-click an annotated line to select its call.",
	"Ctrl+I: statistics of the selected call path across locations.",
	"Ctrl+K: callers and callees of the selected region (gprof, callgrind profiles); click one to select it.",
	"Ctrl+L: per-location chart of the selected metric and call path; click a bar to select its location.",
	"Ctrl+Shift+L: topology: the locations on their Cartesian grid (or rank × thread); click a cell to select its location.",
	"Ctrl+B: bottom-up view: every region with its callers, values split by caller; click a row to select its call path.",
	"Right-click a metric › Show as column in the call tree: metrics side by side; click a column's title to sort by it and colour by it (again: the other way).",
	"Drop experiment files or folders on the window to open them.",
}, "\n")

// About is the text of Help › About cubeview.
const About = "cubeview browses CUBE performance experiments: metric, call and system trees\n" +
	"with colour-ranked severities, and the CUBE algebra (difference, merge, mean)."

// Row returns the context menu of row n of pane d in v: rowItems and
// what depends on the row's data: metric columns, export of its pane
// and, for a metric with documentation, opening it.
func Row(v *view.View, d view.Dim, n view.Node) []Item {
	items := append(append(rowItems(d, n), columnMenu(v, d, n)...), separator,
		item("Export pane as CSV…", CmdExportCSV), item("Export pane as PNG…", CmdExportPNG))
	if v != nil && view.MetricURL(v, n) != "" {
		items = append(items, item("Open documentation", CmdOpenURL))
	}
	return items
}

// The commands of metric columns.
const (
	CmdColumn   Command = "metric column"     // Arg: a metric, shown as a column or removed
	CmdNoColumn Command = "no metric columns" // removes every metric column
)

// columnMenu returns the context-menu items of metric columns for row n
// of pane d: a metric row is shown as a column or removed.
func columnMenu(v *view.View, d view.Dim, n view.Node) []Item {
	if v == nil || d != view.MetricPane || n.Kind != view.MetricNode {
		return nil
	}
	it := Item{Label: "Show as column in the call tree", Command: CmdColumn, Arg: n.Index}
	if v.Columns().Has(n.Index) {
		it.Label = "Remove its column from the call tree"
	}
	return []Item{separator, it}
}

// columnsMenuItems are the Metric tree menu's items of metric columns.
func columnsMenuItems(v *view.View) []Item {
	show := item("Show selected metric as column", CmdColumn)
	clear := item("Remove all metric columns", CmdNoColumn)
	show.Disabled, clear.Disabled = true, true
	if v != nil {
		if s := v.Selected(view.MetricPane); s.Kind == view.MetricNode {
			show.Arg, show.Disabled, show.Checked = s.Index, false, v.Columns().Has(s.Index)
		}
		clear.Disabled = len(v.Columns().Metrics()) == 0
	}
	return []Item{separator, show, clear}
}

// smallRowsMenu is View › Hide small rows: the thresholds offered.
func smallRowsMenu(v *view.View) Item {
	it := item("Hide small rows", NoCommand)
	for i, pc := range smallShares {
		label := "Show every row"
		if pc > 0 {
			label = "Below " + strconv.FormatFloat(pc, 'g', -1, 64) + " % of the pane's total"
		}
		on := v != nil && math.Abs(100*v.SmallRows().Threshold()-pc) < 1e-9
		it.Items = append(it.Items, Item{Label: label, Command: CmdSmallRows, Arg: i, Checked: on})
	}
	return it
}

// SmallShare returns the threshold of View › Hide small rows' item i (a
// share of the total, 0 for every row).
func SmallShare(i int) float64 {
	if i < 0 || i >= len(smallShares) {
		return 0
	}
	return smallShares[i] / 100
}
