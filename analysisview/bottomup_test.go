package analysisview

import (
	"bytes"
	"encoding/csv"
	"math"
	"strconv"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
	"cubeview/view"
)

// TestBottomUpReal checks the bottom-up view of real experiments against
// their call trees: each region's row holds the flat profile's own and
// whole values (computed another way, by model.FlatParts), the exclusive
// values of all regions add up to the metric's total, and below every
// row its callers' rows and the call paths without a caller add up to
// the row, three levels deep.
func TestBottomUpReal(t *testing.T) {
	files := [][]string{
		{"cube4", "cpi", "profile.cubex"},
		{"cube4", "time.p4.n2000.x1.r0", "profile.cubex"},
		{"cube4", "call_tree_test", "call_tree_test.cubex"},
		{"cube4", "lulesh", "lulesh.p27.size25.r1.cubex"},
		{"cube4", "quirks", "cube4.8_with_checksum_bug.cubex"},
		{"cube3", "example3.cube"},
		{"cube3", "cubew-test3.cube"},
		{"tau", "openmp-64threads"},
	}
	for _, file := range files {
		name := strings.Join(file, "/")
		e, err := format.Open(testkit.Data(t, file...))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		v := view.NewView(e)
		mustUpdate(t, v)
		b := NewBottomUp(v)
		if !b.Sync() {
			t.Fatalf("%s: first Sync reports no change", name)
		}
		if b.Note() != "" {
			t.Fatalf("%s: %s", name, b.Note())
		}
		m := v.Selected(view.MetricPane).Index
		agg := e.Metrics[m].Aggregation
		flat, err := model.RegionProfile(e, v.Selection().Metric)
		if err != nil {
			t.Fatal(err)
		}
		callExcl, callIncl, callTotal := v.Values().CallTree()
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b))) }
		sum, rows := 0.0, 0
		for _, id := range b.ChildIDs("") {
			incl, excl, _ := b.Values(id)
			r := b.rows[id].Region
			if !near(incl, flat.Whole[r]) || !near(excl, flat.Own[r]) {
				t.Errorf("%s: region %s: %g/%g, flat profile %g/%g", name, e.Regions[r].Name, incl, excl, flat.Whole[r], flat.Own[r])
			}
			sum += excl
			if agg != model.Sum {
				continue
			}
			var check func(id string, depth int)
			check = func(id string, depth int) {
				row := b.rows[id]
				ex, in, _ := row.Uncalled(e, callExcl, callIncl, agg)
				for _, k := range b.ChildIDs(id) {
					ex += b.rows[k].Excl
					in += b.rows[k].Incl
					rows++
					if depth < 3 {
						check(k, depth+1)
					}
				}
				if !near(ex, row.Excl) || !near(in, row.Incl) {
					t.Errorf("%s: %s: callers add up to %g/%g, row holds %g/%g", name, id, in, ex, row.Incl, row.Excl)
				}
			}
			check(id, 1)
		}
		if agg == model.Sum && !near(sum, callTotal) {
			t.Errorf("%s: exclusive values add up to %g, metric total %g", name, sum, callTotal)
		}
		t.Logf("%s: %d regions, %d caller rows checked", name, len(b.ChildIDs("")), rows)
		if b.Sync() {
			t.Errorf("%s: Sync without a change of metric reports a change", name)
		}
	}
}

// TestBottomUpFollowsMetric recomputes the rows for another metric and
// refuses derived metrics, whose values do not add up.
func TestBottomUpFollowsMetric(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "cube4", "cpi", "profile.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	v := view.NewView(e)
	mustUpdate(t, v)
	b := NewBottomUp(v)
	v.Select(view.MetricPane, view.Node{Kind: view.MetricNode, Index: e.MetricByName("time")})
	mustUpdate(t, v)
	b.Sync()
	v.Select(view.MetricPane, view.Node{Kind: view.MetricNode, Index: e.MetricByName("visits")})
	mustUpdate(t, v)
	if !b.Sync() {
		t.Fatal("no change after selecting visits")
	}
	id := b.ChildIDs("")[0]
	incl, _, _ := b.Values(id)
	flat, err := model.RegionProfile(e, v.Selection().Metric)
	if err != nil {
		t.Fatal(err)
	}
	if want := flat.Whole[b.rows[id].Region]; incl != want {
		t.Errorf("visits of %s: %g, want %g", id, incl, want)
	}
	if r := b.Row(id); strings.Contains(r.Columns[0], ".") {
		t.Errorf("visits print as integers, got %q", r.Columns[0])
	}
	v.Select(view.MetricPane, view.Node{Kind: view.MetricNode, Index: e.MetricByName("time")})
	mustUpdate(t, v)
	if !b.Sync() || !strings.Contains(b.Title(), "Time") {
		t.Errorf("title after selecting time: %q", b.Title())
	}
	id = b.ChildIDs("")[0]
	if tgt := b.Target(id); tgt.Kind != view.CnodeNode || e.Cnodes[tgt.Index].Region != b.rows[id].Region {
		t.Errorf("target of %s is %v", id, tgt)
	}
}

// BenchmarkSelectMetricBottomUp changes the metric selection with the
// bottom-up view shown: the panes are recomputed (about 40 rows of each
// formatted, as a window shows), the bottom-up rows rebuilt and the top
// 40 rows and the callers of the first formatted.
func BenchmarkSelectMetricBottomUp(b *testing.B) {
	v := view.NewView(big(b))
	// The call root stays collapsed and selected, so that the system
	// pane aggregates over the whole call tree: the most expensive case.
	v.SetExpanded(view.SystemPane, view.Node{Kind: view.SystemNode, Index: 0}, true)
	v.SetExpanded(view.MetricPane, view.Node{Kind: view.MetricNode, Index: 0}, true)
	bu := NewBottomUp(v)
	mustUpdate(b, v) // loads and sums the blocks once
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.Select(view.MetricPane, view.Node{Kind: view.MetricNode, Index: i % 3})
		mustUpdate(b, v)
		visibleRows(v)
		bu.Sync()
		top := bu.ChildIDs("")
		for _, id := range top[:min(40, len(top))] {
			_ = bu.Row(id)
		}
		for _, id := range bu.ChildIDs(top[0]) {
			_ = bu.Row(id)
		}
	}
}

// visibleRows formats what a window of about 40 rows per pane shows.
func visibleRows(v *view.View) {
	for d := view.MetricPane; d <= view.SystemPane; d++ {
		k := 0
		var walk func(ns []view.Node)
		walk = func(ns []view.Node) {
			for _, n := range ns {
				if k >= 40 {
					return
				}
				k++
				_ = v.Row(d, n)
				if v.Expanded(d, n) {
					walk(v.Children(d, n))
				}
			}
		}
		walk(v.Roots(d))
	}
}

// BenchmarkBottomUpSync rebuilds the top rows of the bottom-up view of
// 10,000 call paths, as a change of metric does.
func BenchmarkBottomUpSync(b *testing.B) {
	v := view.NewView(big(b))
	mustUpdate(b, v)
	bu := NewBottomUp(v)
	b.ReportAllocs()
	for b.Loop() {
		bu.valid = false
		bu.Sync()
	}
}

// TestBottomUpCSV writes rows of the bottom-up view of the MPI π profile
// (a region and its callers) as CSV and reads them back: every value with
// all its digits, as the rows hold it.
func TestBottomUpCSV(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "cube4", "cpi", "profile.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	v := view.NewView(e)
	time := view.Node{Kind: view.MetricNode, Index: e.MetricByName("time")}
	v.Select(view.MetricPane, time)
	root := view.Node{Kind: view.CnodeNode, Index: e.CnodeRoots[0]}
	v.SetExpanded(view.CallPane, root, true)
	mustUpdate(t, v)
	b := NewBottomUp(v)
	b.Sync()
	top := b.ChildIDs("")
	ids := append([]string{top[2]}, b.ChildIDs(top[2])...)
	var buf bytes.Buffer
	if err := BottomUpCSV(b, ids, &buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(recs) != len(ids)+1 {
		t.Fatalf("%v, %d records for %d rows", err, len(recs), len(ids))
	}
	for i, id := range ids {
		incl, excl, _ := b.Values(id)
		gi, _ := strconv.ParseFloat(recs[i+1][3], 64)
		ge, _ := strconv.ParseFloat(recs[i+1][4], 64)
		if math.Abs(gi-incl) > 1e-11*math.Abs(incl) || math.Abs(ge-excl) > 1e-11*math.Abs(excl)+1e-300 {
			t.Errorf("%s: %q, want %g %g", id, recs[i+1], incl, excl)
		}
	}
	if recs[2][1] == "" || recs[2][2] != "1" {
		t.Errorf("a caller row: %q", recs[2])
	}

}
