package view

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cubeview/colormap"
	"cubeview/format"
	"cubeview/internal/prefs"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// cubeDump is an incl.csv or excl.csv of the original CUBE tools summed
// over locations: per metric unique name, per cnode id, the value.
type cubeDump map[string]map[int]float64

func readCubeDump(t *testing.T, path string) cubeDump {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("%s: %v", path, err)
	}
	out := cubeDump{}
	for _, rec := range recs[1:] {
		id, err := strconv.Atoi(strings.TrimSpace(rec[0]))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for i, h := range recs[0][2:] {
			x, err := strconv.ParseFloat(strings.TrimSpace(rec[2+i]), 64)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			name := strings.TrimSpace(h)
			if out[name] == nil {
				out[name] = map[int]float64{}
			}
			out[name][id] += x
		}
	}
	return out
}

func closeTo(a, b float64) bool {
	return math.Abs(a-b) <= 2e-5*math.Max(1e-9, math.Max(math.Abs(a), math.Abs(b)))
}

// TestMetricColumnsReference checks the metric columns of the call tree
// and the flat profile against the values the original CUBE tools dumped
// (incl.csv, excl.csv, summed over locations) for several metrics side by
// side, collapsed (inclusive) and expanded (exclusive) rows, in absolute
// and own-root percent; and that the colour squares follow the selected
// column.
func TestMetricColumnsReference(t *testing.T) {
	for _, dir := range []string{"time.p4.n2000.x1.r0", "call_tree_test"} {
		t.Run(dir, func(t *testing.T) {
			file := "profile.cubex"
			if dir == "call_tree_test" {
				file = "call_tree_test.cubex"
			}
			e, err := format.Open(testkit.Data(t, "cube4", dir, file))
			if err != nil {
				t.Fatal(err)
			}
			incl := readCubeDump(t, testkit.Data(t, "cube4", dir, "incl.csv"))
			excl := readCubeDump(t, testkit.Data(t, "cube4", dir, "excl.csv"))
			names := []string{"visits", "max_time", "time"}
			if dir == "time.p4.n2000.x1.r0" {
				names = append(names, "bytes_sent")
			}
			v := NewView(e)
			var ms []int
			for _, n := range names {
				m := e.MetricByName(n)
				if m < 0 {
					t.Fatalf("no metric %s", n)
				}
				ms = append(ms, m)
			}
			v.Columns().SetAll(ms)
			v.Select(MetricPane, Node{MetricNode, e.MetricByName("time")})
			loadAll(t, v)
			mustUpdate(t, v)
			heads := v.Columns().Heads()
			if len(heads) != 1+len(names) || heads[0].Title != "Time (sec)" || heads[1].Title != "Visits (occ)" || !heads[0].Selected {
				t.Fatalf("heads %+v", heads)
			}
			checked := 0
			for i := range e.Cnodes {
				n := Node{CnodeNode, i}
				id := e.Cnodes[i].ID
				for _, state := range []bool{false, true} {
					if state && !v.IsBranch(CallPane, n) {
						continue
					}
					v.SetExpanded(CallPane, n, state)
					mustUpdate(t, v)
					r := v.Row(CallPane, n)
					if len(r.Columns) != len(names) {
						t.Fatalf("row %d: %d columns", i, len(r.Columns))
					}
					ref := incl
					if state {
						ref = excl
					}
					for k, name := range names {
						want := ref[name][id]
						if name == "max_time" {
							if state {
								continue // the dump's exclusive max is per location, not over them
							}
							want = math.Inf(-1)
							for _, x := range maxPerLocation(t, dir, id) {
								want = math.Max(want, x)
							}
						}
						got := r.Columns[k]
						if !closeTo(got.Value, want) {
							t.Errorf("cnode %d (%s) %s expanded=%v: %g, CUBE says %g", id, v.Label(n), name, state, got.Value, want)
						}
						integer := e.Metrics[ms[k]].IsInteger()
						if got.Text != v.Appearance().NumberFormat().Format(got.Value, integer) {
							t.Errorf("cnode %d %s: text %q for %g", id, name, got.Text, got.Value)
						}
						checked++
					}
					v.SetExpanded(CallPane, n, false)
				}
			}
			if checked < 2*len(names)*len(e.Cnodes)/2 {
				t.Errorf("only %d values compared", checked)
			}

			// Own root percent: the root is 100 % in every column.
			v.SetMode(CallPane, OwnRootPercent)
			mustUpdate(t, v)
			root := Node{CnodeNode, e.CnodeRoots[0]}
			vis := e.MetricByName("visits")
			for k, c := range v.Row(CallPane, root).Columns {
				if c.Text != "100" && c.Value != 100 && !(v.cols.absolute(k, root) == 0 && c.Value == 0) {
					t.Errorf("own root percent of column %d at the root: %v", k, c)
				}
			}
			kid := Node{CnodeNode, e.Cnodes[e.CnodeRoots[0]].Children[0]}
			wantPC := 100 * incl["visits"][e.Cnodes[kid.Index].ID] / incl["visits"][e.Cnodes[root.Index].ID]
			if got := v.Row(CallPane, kid).Columns[slices.Index(ms, vis)].Value; !closeTo(got, wantPC) {
				t.Errorf("visits of %s in own root percent: %g, want %g", v.Label(kid), got, wantPC)
			}
			v.SetMode(CallPane, Absolute)

			// The squares follow the selected column: colour of the
			// column's value on the column's own scale.
			k := slices.Index(ms, vis)
			v.Columns().SortBy(k)
			mustUpdate(t, v)
			maxVisits := 0.0
			for _, x := range incl["visits"] {
				maxVisits = math.Max(maxVisits, x)
			}
			differ := 0
			for i := range e.Cnodes {
				n := Node{CnodeNode, i}
				r := v.Row(CallPane, n)
				x := incl["visits"][e.Cnodes[i].ID]
				want := v.Appearance().Scale().Color(x, colormap.Range{Max: maxVisits})
				if x == 0 {
					want = colormap.White
				}
				if r.Color != want {
					t.Errorf("cnode %s coloured %v, want %v (visits %g of %g)", v.Label(n), r.Color, want, x, maxVisits)
				}
				v.cols.clearSort()
				if v.Row(CallPane, n).Color != r.Color {
					differ++
				}
				v.Columns().SortBy(k)
			}
			if differ == 0 {
				t.Error("colours by visits equal colours by time everywhere: the test shows nothing")
			}
			if info := v.Values().PaneInfo(CallPane, ""); !strings.HasPrefix(info, "colours: column Visits") {
				t.Errorf("pane info %q", info)
			}

			// Sorting by the column: largest visits first, then smallest.
			for _, asc := range []bool{false, true} {
				if _, sorted, a := v.Columns().Sorted(); !sorted || a != asc {
					t.Fatalf("sort state %v %v, want ascending %v", sorted, a, asc)
				}
				kids := v.Children(CallPane, root)
				var got []float64
				for _, c := range kids {
					got = append(got, incl["visits"][e.Cnodes[c.Index].ID])
				}
				sorted := slices.IsSortedFunc(got, func(a, b float64) int {
					if asc {
						return compareFloat(a, b)
					}
					return compareFloat(b, a)
				})
				if !sorted {
					t.Errorf("ascending=%v: children of the root by visits %v", asc, got)
				}
				v.Columns().SortBy(k) // again: the other direction
			}
			v.SetOrder(ByName)
			if _, sorted, _ := v.Columns().Sorted(); sorted || v.Columns().Selected() != -1 {
				t.Error("choosing a sort order keeps the column sort")
			}

			// The flat profile: a region's values are those of its call
			// paths (regions that do not call themselves).
			v.SetFlat(true)
			v.Columns().SortBy(k)
			mustUpdate(t, v)
			regions := 0
			for reg := range e.Regions {
				var cs []int
				for i := range e.Cnodes {
					if e.Cnodes[i].Region == reg {
						cs = append(cs, i)
					}
				}
				if len(cs) == 0 || recursive(e, cs) {
					continue
				}
				n := Node{RegionNode, reg}
				var wIn, wEx float64
				for _, c := range cs {
					wIn += incl["visits"][e.Cnodes[c].ID]
					wEx += excl["visits"][e.Cnodes[c].ID]
				}
				if got := v.Row(CallPane, n).Columns[k].Value; !closeTo(got, wIn) {
					t.Errorf("region %s visits %g, want %g", v.Label(n), got, wIn)
				}
				if v.IsBranch(CallPane, n) {
					v.SetExpanded(CallPane, n, true)
					mustUpdate(t, v)
					if got := v.Row(CallPane, n).Columns[k].Value; !closeTo(got, wEx) {
						t.Errorf("region %s expanded visits %g, want %g", v.Label(n), got, wEx)
					}
					v.SetExpanded(CallPane, n, false)
					mustUpdate(t, v)
				}
				regions++
			}
			if regions < 5 {
				t.Errorf("only %d regions compared", regions)
			}
			tops := v.Roots(CallPane)
			for i := 1; i < len(tops); i++ {
				if v.Row(CallPane, tops[i-1]).Columns[k].Value < v.Row(CallPane, tops[i]).Columns[k].Value {
					t.Errorf("flat profile not sorted by visits at %d", i)
				}
			}
		})
	}
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// maxPerLocation returns the inclusive max_time of cnode id per location
// from the dump.
func maxPerLocation(t *testing.T, dir string, id int) []float64 {
	t.Helper()
	f, err := os.Open(filepath.Join(testkit.DataDir(t), "cube4", dir, "incl.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.IndexFunc(recs[0], func(h string) bool { return strings.TrimSpace(h) == "max_time" })
	var out []float64
	for _, rec := range recs[1:] {
		if c, _ := strconv.Atoi(strings.TrimSpace(rec[0])); c == id {
			x, _ := strconv.ParseFloat(strings.TrimSpace(rec[col]), 64)
			out = append(out, x)
		}
	}
	return out
}

// recursive reports whether a call path of cs has another of cs above it.
func recursive(e *model.Experiment, cs []int) bool {
	for _, c := range cs {
		for p := e.Cnodes[c].Parent; p >= 0; p = e.Cnodes[p].Parent {
			if slices.Contains(cs, p) {
				return true
			}
		}
	}
	return false
}

// loadAll reads whatever the view's next Update needs.
func loadAll(t *testing.T, v *View) {
	t.Helper()
	Read(v.Values().Missing())
}

// TestMetricColumnsEdit checks adding and removing columns and the window
// state that remembers them. (The menus that do it: menu's
// TestColumnMenus.)
func TestMetricColumnsEdit(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "cube4", "cpi", "profile.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	v := NewView(e)
	vis, bytes := e.MetricByName("visits"), e.MetricByName("bytes_sent")
	if vis < 0 || bytes < 0 {
		t.Fatal("cpi lacks visits or bytes_sent")
	}
	if !v.Columns().Set(vis, true) || !v.Columns().Set(bytes, true) || v.Columns().Set(vis, true) {
		t.Fatal("SetColumn reports changes wrongly")
	}
	v.Columns().SortBy(1)
	p := prefs.Open(filepath.Join(t.TempDir(), "prefs.json"))
	SaveColumns(p, v)

	w := NewView(e)
	RestoreColumns(p, w)
	if got := w.Columns().Metrics(); !slices.Equal(got, []int{vis, bytes}) {
		t.Errorf("restored columns %v", got)
	}
	if k, sorted, asc := w.Columns().Sorted(); k != 1 || !sorted || asc || w.Columns().Selected() != 1 {
		t.Errorf("restored sort %d %v %v", k, sorted, asc)
	}

	// Removing the column sorted by falls back to the main column.
	v.Columns().Set(bytes, false)
	if k, _, _ := v.Columns().Sorted(); k != -1 || v.Columns().Selected() != -1 || !slices.Equal(v.Columns().Metrics(), []int{vis}) {
		t.Errorf("after removing the sorted column: sort %d, selected %d, columns %v", k, v.Columns().Selected(), v.Columns().Metrics())
	}
	v.Columns().Set(vis, false)
	mustUpdate(t, v)
	if v.Columns().Heads() != nil || v.Row(CallPane, Node{CnodeNode, 0}).Columns != nil {
		t.Error("columns shown after all were removed")
	}
	SaveColumns(p, v)
	RestoreColumns(p, w)
	if len(w.Columns().Metrics()) != 0 {
		t.Errorf("restored %v after none were saved", w.Columns().Metrics())
	}
}

// TestFitSplitWithCall: the call pane's need takes width from the system
// pane first, then the metric pane, never below 15 % each.
func TestFitSplitWithCall(t *testing.T) {
	width := func(s Split, total float64) (m, c, sys float64) {
		m = s.Outer * total
		c = (total - m) * s.Inner
		return m, c, total - m - c
	}
	if got, want := FitSplitWithCall(1000, 300, 300, 0), FitSplit(1000, 300, 300); got != want {
		t.Errorf("no call need: %v, want %v", got, want)
	}
	for _, tc := range []struct{ call, m, c, s float64 }{
		{400, 300, 400, 300}, // fits already
		{500, 300, 500, 200}, // the system pane gives what is missing
		{600, 250, 600, 150}, // then the metric pane
		{900, 150, 700, 150}, // both at 15 %
	} {
		m, c, s := width(FitSplitWithCall(1000, 300, 300, tc.call), 1000)
		if math.Abs(m-tc.m) > 1e-6 || math.Abs(c-tc.c) > 1e-6 || math.Abs(s-tc.s) > 1e-6 {
			t.Errorf("call needs %g: panes %g | %g | %g, want %g | %g | %g", tc.call, m, c, s, tc.m, tc.c, tc.s)
		}
	}
}

// TestDerivedMetricColumn: a derived metric as a column holds its
// expression of the operands' values at each call path (a ratio of sums),
// here time per visit from the CUBE tools' dump.
func TestDerivedMetricColumn(t *testing.T) {
	dir := "time.p4.n2000.x1.r0"
	base, err := format.Open(testkit.Data(t, "cube4", dir, "profile.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	e, err := WithDerived(base, DerivedSpec{Name: "tpv", Expression: "time / visits"})
	if err != nil {
		t.Fatal(err)
	}
	incl := readCubeDump(t, testkit.Data(t, "cube4", dir, "incl.csv"))
	v := NewView(e)
	tpv := e.MetricByName("tpv")
	v.Columns().SetAll([]int{tpv})
	loadAll(t, v)
	mustUpdate(t, v)
	compared := 0
	for i := range e.Cnodes {
		id := e.Cnodes[i].ID
		want := incl["time"][id] / incl["visits"][id]
		if incl["visits"][id] == 0 {
			continue
		}
		if got := v.Row(CallPane, Node{CnodeNode, i}).Columns[0].Value; !closeTo(got, want) {
			t.Errorf("cnode %d: time per visit %g, CUBE's values give %g", id, got, want)
		}
		compared++
	}
	if compared < 20 {
		t.Errorf("%d call paths compared", compared)
	}
}

// BenchmarkSelectCallPathColumns is BenchmarkSelectCallPath with two
// metric columns: a call selection recomputes the columns' scales, not
// their values.
func BenchmarkSelectCallPathColumns(b *testing.B) {
	benchSelect(b, func(v *View) { v.Columns().SetAll([]int{1, 2}) }, func(v *View, i int) {
		v.Select(CallPane, Node{CnodeNode, []int{0, 1}[i%2]})
	})
}

// TestPaneCSVColumns: exporting the call pane writes each metric column's
// value with every digit and as shown.
func TestPaneCSVColumns(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "cube4", "cpi", "profile.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	v := NewView(e)
	v.Columns().SetAll([]int{e.MetricByName("visits")})
	loadAll(t, v)
	mustUpdate(t, v)
	rows := v.Roots(CallPane)
	rows = append(rows, v.Children(CallPane, rows[0])...)
	var buf strings.Builder
	if err := PaneCSV(v, CallPane, rows, &buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(buf.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if h := recs[0]; h[len(h)-2] != "visits" || h[len(h)-1] != "visits shown" {
		t.Fatalf("header %q", h)
	}
	for i, n := range rows {
		rec := recs[i+1]
		c := v.Row(CallPane, n).Columns[0]
		got, err := strconv.ParseFloat(rec[len(rec)-2], 64)
		if err != nil || got != c.Value || rec[len(rec)-1] != c.Text {
			t.Errorf("row %s: %q %q, the pane shows %g %q", v.Label(n), rec[len(rec)-2], rec[len(rec)-1], c.Value, c.Text)
		}
	}
}
