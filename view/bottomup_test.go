package view

import (
	"math"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
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
		v := NewView(e)
		mustUpdate(t, v)
		b := NewBottomUp(v)
		if !b.Sync() {
			t.Fatalf("%s: first Sync reports no change", name)
		}
		if b.Note() != "" {
			t.Fatalf("%s: %s", name, b.Note())
		}
		m := v.Selected(MetricPane).Index
		agg := e.Metrics[m].Aggregation
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b))) }
		sum, rows := 0.0, 0
		for _, id := range b.ChildIDs("") {
			incl, excl, _ := b.Values(id)
			r := b.rows[id].Region
			if !near(incl, v.values.regIncl[r]) || !near(excl, v.values.regExcl[r]) {
				t.Errorf("%s: region %s: %g/%g, flat profile %g/%g", name, e.Regions[r].Name, incl, excl, v.values.regIncl[r], v.values.regExcl[r])
			}
			sum += excl
			if agg != model.Sum {
				continue
			}
			var check func(id string, depth int)
			check = func(id string, depth int) {
				row := b.rows[id]
				ex, in, _ := row.Uncalled(e, v.values.callExcl, v.values.callIncl, agg)
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
		if agg == model.Sum && !near(sum, v.values.callTotal) {
			t.Errorf("%s: exclusive values add up to %g, metric total %g", name, sum, v.values.callTotal)
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
	v := NewView(e)
	mustUpdate(t, v)
	b := NewBottomUp(v)
	v.Select(MetricPane, Node{MetricNode, e.MetricByName("time")})
	mustUpdate(t, v)
	b.Sync()
	v.Select(MetricPane, Node{MetricNode, e.MetricByName("visits")})
	mustUpdate(t, v)
	if !b.Sync() {
		t.Fatal("no change after selecting visits")
	}
	id := b.ChildIDs("")[0]
	incl, _, _ := b.Values(id)
	if want := v.values.regIncl[b.rows[id].Region]; incl != want {
		t.Errorf("visits of %s: %g, want %g", id, incl, want)
	}
	if r := b.Row(id); strings.Contains(r.Columns[0], ".") {
		t.Errorf("visits print as integers, got %q", r.Columns[0])
	}
	v.Select(MetricPane, Node{MetricNode, e.MetricByName("time")})
	mustUpdate(t, v)
	if !b.Sync() || !strings.Contains(b.Title(), "Time") {
		t.Errorf("title after selecting time: %q", b.Title())
	}
	id = b.ChildIDs("")[0]
	if tgt := b.Target(id); tgt.Kind != CnodeNode || e.Cnodes[tgt.Index].Region != b.rows[id].Region {
		t.Errorf("target of %s is %v", id, tgt)
	}
}

// BenchmarkSelectMetricBottomUp changes the metric selection with the
// bottom-up view shown: the panes are recomputed, the bottom-up rows
// rebuilt and the top 40 rows and the callers of the first formatted.
func BenchmarkSelectMetricBottomUp(b *testing.B) {
	var bu *BottomUp
	benchSelect(b, func(v *View) { bu = NewBottomUp(v) }, func(v *View, i int) {
		v.Select(MetricPane, Node{MetricNode, i % 3})
		if err := v.Update(); err != nil {
			b.Fatal(err)
		}
		bu.Sync()
		top := bu.ChildIDs("")
		for _, id := range top[:min(40, len(top))] {
			_ = bu.Row(id)
		}
		for _, id := range bu.ChildIDs(top[0]) {
			_ = bu.Row(id)
		}
	})
}

// BenchmarkBottomUpSync rebuilds the top rows of the bottom-up view of
// 10,000 call paths, as a change of metric does.
func BenchmarkBottomUpSync(b *testing.B) {
	v := NewView(big(b))
	mustUpdate(b, v)
	bu := NewBottomUp(v)
	b.ReportAllocs()
	for b.Loop() {
		bu.valid = false
		bu.Sync()
	}
}
