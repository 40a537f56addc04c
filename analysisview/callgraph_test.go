package analysisview

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
	"cubeview/view"
)

// gprofLine is one line of a gprof call-graph entry as the report prints
// it: a caller or callee (index 0 for <spontaneous>) with its calls (the
// number before any "/", -1 when none) and self + children (NaN when the
// line has no times, as inside cycles).
type gprofLine struct {
	index int
	calls int64
	cost  float64
}

func (l gprofLine) String() string {
	return fmt.Sprintf("[%d] %d calls %.2f", l.index, l.calls, l.cost)
}

// gprofEntry is one entry of the call graph: the primary line's function
// with its self and inclusive time, and its callers and callees.
type gprofEntry struct {
	index            int
	self, inclusive  float64
	callers, callees []gprofLine
}

var (
	gprofPrimary   = regexp.MustCompile(`^\[(\d+)\]\s+[\d.]+\s+([\d.]+)\s+([\d.]+)\s+.*\[(\d+)\]$`)
	gprofSecondary = regexp.MustCompile(`^\s+(?:([\d.]+)\s+([\d.]+)\s+)?(\d+)(?:/\d+)?\s+.*\[(\d+)\]$`)
)

// readGprofCallGraph reads the call graph of a gprof report the way a
// reader of the report does, independently of format/gprof.
func readGprofCallGraph(t *testing.T, path string) []gprofEntry {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []gprofEntry
	var cur gprofEntry
	var before []gprofLine
	in, primary := false, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case strings.HasPrefix(line, "index % time") || strings.HasPrefix(line, "index  % time"):
			in = true
			continue
		case !in:
			continue
		case strings.HasPrefix(line, "-----"):
			if primary {
				out = append(out, cur)
			}
			cur, before, primary = gprofEntry{}, nil, false
			continue
		case strings.TrimSpace(line) == "":
			continue
		case strings.Contains(line, "This table describes"):
			in = false
			continue
		}
		if m := gprofPrimary.FindStringSubmatch(line); m != nil {
			self, _ := strconv.ParseFloat(m[2], 64)
			children, _ := strconv.ParseFloat(m[3], 64)
			idx, _ := strconv.Atoi(m[4])
			cur = gprofEntry{index: idx, self: self, inclusive: self + children, callers: before}
			primary = true
			continue
		}
		var l gprofLine
		if strings.TrimSpace(line) == "<spontaneous>" {
			l = gprofLine{index: 0, calls: -1, cost: math.NaN()}
		} else if m := gprofSecondary.FindStringSubmatch(line); m != nil {
			l.cost = math.NaN()
			if m[1] != "" {
				self, _ := strconv.ParseFloat(m[1], 64)
				children, _ := strconv.ParseFloat(m[2], 64)
				l.cost = self + children
			}
			l.calls, _ = strconv.ParseInt(m[3], 10, 64)
			l.index, _ = strconv.Atoi(m[4])
		} else {
			t.Fatalf("%s: call graph line not understood: %q", path, line)
		}
		if primary {
			cur.callees = append(cur.callees, l)
		} else {
			before = append(before, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// gprofIndex maps gprof's index of each function to its region.
func gprofIndex(t *testing.T, e *model.Experiment) map[int]int {
	out := map[int]int{}
	for r, reg := range e.Regions {
		for _, a := range reg.Attrs {
			if a.Key == "gprof index" {
				i, err := strconv.Atoi(a.Value)
				if err != nil {
					t.Fatalf("region %s: gprof index %q", reg.Name, a.Value)
				}
				out[i] = r
			}
		}
	}
	return out
}

// sameLines compares the panel's rows with the report's lines, in any order.
func sameLines(rows []CallGraphRow, want []gprofLine, region map[int]int) error {
	byRegion := map[int]int{}
	for i, r := range region {
		byRegion[r] = i
	}
	var got []string
	for _, r := range rows {
		idx := 0
		if r.Region >= 0 {
			idx = byRegion[r.Region]
		}
		got = append(got, gprofLine{idx, r.Calls, r.Value}.String())
	}
	var exp []string
	for _, l := range want {
		exp = append(exp, l.String())
	}
	slices.Sort(got)
	slices.Sort(exp)
	if !slices.Equal(got, exp) {
		return fmt.Errorf("got %v, want %v", got, exp)
	}
	return nil
}

// gprofPrecision is how far gprof's inclusive time (self + children,
// each printed with two decimals) may be from the true value.
const gprofPrecision = 0.01 + 1e-9

// TestCallGraphEqualsGprof selects every function of real gprof reports in
// the flat profile and checks the callers and callees the view lists
// against the report's call graph entry, line by line: the same callers
// and callees, the calls along each arc and self + children as the cost;
// and the region's own and inclusive time equal the entry's primary line.
func TestCallGraphEqualsGprof(t *testing.T) {
	for _, name := range []string{"gnu1.prof", "cycle.prof"} {
		t.Run(name, func(t *testing.T) {
			path := testkit.Data(t, "gprof", name)
			entries := readGprofCallGraph(t, path)
			e, err := format.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			if !view.PrefersFlat(e) {
				t.Error("a gprof experiment should open as a flat profile")
			}
			v := view.NewView(e)
			if !view.HasCallGraph(v.Experiment()) {
				t.Fatal("no call graph")
			}
			v.SetFlat(true)
			region := gprofIndex(t, e)
			if len(entries) < 5 || len(entries) != len(region) {
				t.Fatalf("%d call graph entries in the report, %d functions in the experiment", len(entries), len(region))
			}
			for _, ent := range entries {
				r, ok := region[ent.index]
				if !ok {
					t.Errorf("no region for [%d]", ent.index)
					continue
				}
				v.Select(view.CallPane, view.Node{Kind: view.RegionNode, Index: r})
				if err := v.Update(); err != nil {
					t.Fatal(err)
				}
				rep := new(CallGraph).Report(v)
				if rep.Region != r {
					t.Fatalf("report of region %d, want %d", rep.Region, r)
				}
				if err := sameLines(rep.Callers, ent.callers, region); err != nil {
					t.Errorf("callers of [%d] %s: %v", ent.index, e.Regions[r].Name, err)
				}
				if err := sameLines(rep.Callees, ent.callees, region); err != nil {
					t.Errorf("callees of [%d] %s: %v", ent.index, e.Regions[r].Name, err)
				}
				// A cycle as a whole holds no time of its own (its members
				// do, and would be counted twice); its inclusive time is
				// gprof's.
				self, incl, row := v.Values().Exclusive(view.CallPane, view.Node{Kind: view.RegionNode, Index: r}), v.Values().Inclusive(view.CallPane, view.Node{Kind: view.RegionNode, Index: r}), v.Values().Inclusive(view.CallPane, view.Node{Kind: view.RegionNode, Index: r})
				if e.Regions[r].Role == "artificial" {
					self = ent.self
				}
				// gprof prints self and children to 0.01 s each, so its
				// inclusive time is known to within 0.01 s (the importer
				// takes the finer "total ms/call" column where it can).
				if math.Abs(self-ent.self) > 1e-9 || math.Abs(incl-ent.inclusive) > gprofPrecision || row != incl {
					t.Errorf("[%d] %s: self %v, inclusive %v (row %v), want gprof's %v and %v",
						ent.index, e.Regions[r].Name, self, incl, row, ent.self, ent.inclusive)
				}
				if rep.Inclusive.Text != v.Appearance().NumberFormat().Format(v.Values().ModeValue(view.CallPane, view.Node{Kind: view.RegionNode, Index: r}, incl), false) {
					t.Errorf("[%d]: inclusive shown as %q", ent.index, rep.Inclusive.Text)
				}
				if !strings.Contains(rep.Title, "as the tool computed it") {
					t.Errorf("title %q", rep.Title)
				}
			}
		})
	}
}

// TestCallGraphModes checks the arcs' values in the call pane's modes and
// order, and that a caller or callee names the row selecting it selects,
// in the flat profile and in the call tree.
func TestCallGraphModes(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "gprof", "gnu1.prof"))
	if err != nil {
		t.Fatal(err)
	}
	v := view.NewView(e)
	v.SetFlat(true)
	region := gprofIndex(t, e)
	main, rd, upd := region[1], region[2], region[5]
	v.Select(view.CallPane, view.Node{Kind: view.RegionNode, Index: main})
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
	rep := new(CallGraph).Report(v)
	// main [1]: called spontaneously; its callees read_all_makefiles
	// (0.00 + 0.18, 5 calls) and update_goal_chain (0.00 + 0.13, 10) first.
	if len(rep.Callers) != 1 || rep.Callers[0].Region != -1 || rep.Callers[0].Label != "<spontaneous>" || rep.Callers[0].Node.Valid() {
		t.Errorf("callers of main: %+v", rep.Callers)
	}
	if len(rep.Callees) != 28 {
		t.Fatalf("%d callees of main, want the report's 28", len(rep.Callees))
	}
	first := rep.Callees[0]
	if first.Region != rd || first.Calls != 5 || first.CallsText != "5" || first.Value != 0.18 || first.Text != "0.18" || first.Node != (view.Node{Kind: view.RegionNode, Index: rd}) {
		t.Errorf("first callee of main: %+v", first)
	}
	// eval [4] calls find_char_unquote 12980 times ("12980/23480"),
	// printed in full.
	v.Select(view.CallPane, view.Node{Kind: view.RegionNode, Index: region[4]})
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
	if r := new(CallGraph).Report(v).Callees[0]; r.Label != "find_char_unquote" || r.CallsText != "12980" {
		t.Errorf("first callee of eval: %s, %q calls", r.Label, r.CallsText)
	}
	v.Select(view.CallPane, view.Node{Kind: view.RegionNode, Index: main})
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
	rep = new(CallGraph).Report(v)
	if rep.Callees[1].Region != upd || rep.Callees[1].Value != 0.13 {
		t.Errorf("second callee of main: %+v", rep.Callees[1])
	}
	for i := 1; i < len(rep.Callees); i++ {
		if rep.Callees[i].Value > rep.Callees[i-1].Value {
			t.Errorf("callees not ordered by cost at %d: %v after %v", i, rep.Callees[i].Value, rep.Callees[i-1].Value)
		}
	}
	if first.Color == (view.Cell{}).Color || first.Relief == 0 {
		t.Errorf("first callee has no colour or relief: %+v", first.Cell)
	}
	// Percent of the whole program (gprof's "% time" column): 0.18 of 0.33 s.
	v.SetMode(view.CallPane, view.OwnRootPercent)
	total, err := e.MetricTotal(model.MetricSel{Metric: 0, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	rep = new(CallGraph).Report(v)
	if want := 100 * 0.18 / total; math.Abs(rep.Callees[0].Value-want) > 1e-9 || math.Abs(total-0.33) > 1e-9 {
		t.Errorf("read_all_makefiles in percent: %v, want %v (total %v)", rep.Callees[0].Value, want, total)
	}
	// The visits metric has no arc values: calls are shown, costs are not.
	v.SetMode(view.CallPane, view.Absolute)
	v.Select(view.MetricPane, view.Node{Kind: view.MetricNode, Index: e.MetricByName("visits")})
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
	rep = new(CallGraph).Report(v)
	for _, r := range rep.Callees {
		if !math.IsNaN(r.Value) || r.CallsText == "" || r.Text != "-" && r.Text != "" {
			t.Errorf("visits: callee %s shows %q (%v) with calls %q", r.Label, r.Text, r.Value, r.CallsText)
		}
	}
	// In the call tree a caller names its region's call path.
	v.SetFlat(false)
	v.Select(view.CallPane, regionRow(v, rd))
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
	rep = new(CallGraph).Report(v)
	if rep.Region != rd || len(rep.Callers) != 1 || rep.Callers[0].Node.Kind != view.CnodeNode || e.Cnodes[rep.Callers[0].Node.Index].Region != main {
		t.Errorf("read_all_makefiles in the call tree: region %d, callers %+v", rep.Region, rep.Callers)
	}
}

// TestCallGraphAbsent: experiments without arcs say why there is nothing.
func TestCallGraphAbsent(t *testing.T) {
	v := view.NewView(handMade())
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
	rep := new(CallGraph).Report(v)
	if view.HasCallGraph(v.Experiment()) || view.PrefersFlat(handMade()) || rep.Note == "" || len(rep.Callers)+len(rep.Callees) != 0 {
		t.Errorf("hand-made experiment: %+v", rep)
	}
}

// graphOnTwoLocations is a gprof-like flat forest, main and work, on two
// threads of one process, with the tool's inclusive times main 10 and
// work 8 (main → work, 3 calls, 8 s): own times main {1, 1}, work {5, 3}.
func graphOnTwoLocations() *model.Experiment {
	e := &model.Experiment{}
	e.Metrics = []model.Metric{{ID: 0, UniqName: "time", DataType: "DOUBLE", Unit: "sec", Parent: -1}}
	e.Regions = []model.Region{{ID: 0, Name: "main"}, {ID: 1, Name: "work"}}
	e.Cnodes = []model.Cnode{{ID: 0, Region: 0, Parent: -1, CallLine: -1}, {ID: 1, Region: 1, Parent: -1, CallLine: -1}}
	e.System = []model.SystemNode{
		{ID: 0, Kind: model.TreeNode, Class: "machine", Name: "m", Parent: -1},
		{ID: 0, Kind: model.Group, Class: "process", Name: "p", Parent: 0},
		{ID: 0, Kind: model.Leaf, Class: "thread", Name: "t0", Parent: 1},
		{ID: 1, Kind: model.Leaf, Class: "thread", Name: "t1", Rank: 1, Parent: 1},
	}
	e.Link()
	e.NumberLocations()
	b := model.NewBlock(2, 2)
	b.SetRow(0, []float64{1, 1})
	b.SetRow(1, []float64{5, 3})
	e.SetBlock(0, b)
	e.CallGraph = &model.CallGraph{
		Arcs:      []model.CallArc{{Caller: 0, Callee: 1, Calls: 3, Values: map[int]float64{0: 8}}},
		Inclusive: map[int][]float64{0: {10, 8}},
	}
	return e
}

// TestSystemValuesOfToolInclusive: the system pane shows a flat-profile
// region's tool inclusive value where it is known, never the call tree's
// value without the callees.
func TestSystemValuesOfToolInclusive(t *testing.T) {
	e := graphOnTwoLocations()
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	v := view.NewView(e)
	v.SetFlat(true)
	check := func(region int, want []float64) {
		t.Helper()
		v.Select(view.CallPane, view.Node{Kind: view.RegionNode, Index: region})
		if err := v.Update(); err != nil {
			t.Fatal(err)
		}
		for s, w := range want {
			got := v.Values().Inclusive(view.SystemPane, view.Node{Kind: view.SystemNode, Index: s})
			if got != w && !(math.IsNaN(got) && math.IsNaN(w)) {
				t.Errorf("region %s, system node %s: %v, want %v", e.Regions[region].Name, e.System[s].Name, got, w)
			}
		}
	}
	nan := math.NaN()
	// main: 10 in all, per thread unknown (its own 1 + 1 misses work).
	check(0, []float64{10, nan, nan, nan})
	if title := new(CallGraph).Report(v).Title; !strings.Contains(title, "per location unknown") {
		t.Errorf("title %q does not say why the threads show no value", title)
	}
	// work calls nothing: the tool's 8 is its own 5 + 3, per thread known.
	check(1, []float64{8, 8, 5, 3})
	if title := new(CallGraph).Report(v).Title; strings.Contains(title, "per location unknown") {
		t.Errorf("title %q", title)
	}

	// gprof: one location, which holds everything.
	g, err := format.Open(testkit.Data(t, "gprof", "gnu1.prof"))
	if err != nil {
		t.Fatal(err)
	}
	v = view.NewView(g)
	v.SetFlat(true)
	v.Select(view.CallPane, view.Node{Kind: view.RegionNode, Index: 0})
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
	loc := g.Locations[0]
	for s := loc; s >= 0; s = g.System[s].Parent {
		if got := v.Values().Inclusive(view.SystemPane, view.Node{Kind: view.SystemNode, Index: s}); math.Abs(got-0.33) > 1e-12 {
			t.Errorf("gnu1 main on %s: %v, want gprof's 0.33", g.System[s].Name, got)
		}
	}
}

func TestCallGraphRowColumns(t *testing.T) {
	r := CallGraphRow{Label: "foo", CallsText: "12", Cell: view.Cell{Text: "3.00"}}
	var got []string
	for c := range CallGraphColumns {
		got = append(got, r.Column(c))
	}
	if strings.Join(got, "|") != "3.00|12|foo" {
		t.Errorf("columns %q, want cost, calls, name", got)
	}
	if r.NoRow() != "foo has no row in the call pane" {
		t.Errorf("NoRow() = %q", r.NoRow())
	}
}
