package view

import (
	"sync"
	"testing"

	"cubeview/internal/synth"
	"cubeview/model"
)

var (
	bigOnce sync.Once
	bigExp  *model.Experiment
)

// big returns a generated experiment of 10,000 call paths × 1,000
// locations (8 threads per process on 8 nodes) with data in 30 % of the
// rows of each metric.
func big(tb testing.TB) *model.Experiment {
	bigOnce.Do(func() {
		bigExp = synth.Generate(synth.Config{
			Cnodes: 10000, Locations: 1000, Threads: 8, Nodes: 8,
			Metrics: 3, Density: 0.3, Seed: 7,
		})
	})
	return bigExp
}

// visibleRows formats what a window of about 40 rows per pane shows.
func visibleRows(v *View) {
	for d := MetricPane; d <= SystemPane; d++ {
		k := 0
		var walk func(ns []Node)
		walk = func(ns []Node) {
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

func benchSelect(b *testing.B, setup func(v *View), change func(v *View, i int)) {
	e := big(b)
	v := NewView(e)
	// The call root stays collapsed and selected, so that the system
	// pane aggregates over the whole call tree: the most expensive case.
	v.SetExpanded(SystemPane, Node{SystemNode, 0}, true)
	v.SetExpanded(MetricPane, Node{MetricNode, 0}, true)
	if setup != nil {
		setup(v)
	}
	mustUpdate(b, v) // loads and sums the blocks once
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		change(v, i)
		if err := v.Update(); err != nil {
			b.Fatal(err)
		}
		visibleRows(v)
	}
}

// BenchmarkSelectMetric changes the metric selection: the call pane and
// the system pane (over the whole call tree) are recomputed.
func BenchmarkSelectMetric(b *testing.B) {
	benchSelect(b, nil, func(v *View, i int) {
		v.Select(MetricPane, Node{MetricNode, i % 3})
	})
}

// BenchmarkSelectExclusiveMetric alternates the parent metric expanded
// (exclusive: children subtracted) and a child.
func BenchmarkSelectExclusiveMetric(b *testing.B) {
	benchSelect(b, nil, func(v *View, i int) {
		v.Select(MetricPane, Node{MetricNode, i % 2})
	})
}

// BenchmarkSelectCallPath changes the call selection between the root
// (whole tree) and an inner call path: the system pane is recomputed.
func BenchmarkSelectCallPath(b *testing.B) {
	benchSelect(b, nil, func(v *View, i int) {
		v.Select(CallPane, Node{CnodeNode, []int{0, 1}[i%2]})
	})
}

// BenchmarkSelectFlatRegion changes the selected region of the flat
// profile (union of the subtrees of its call paths).
func BenchmarkSelectFlatRegion(b *testing.B) {
	benchSelect(b, func(v *View) { v.SetFlat(true) }, func(v *View, i int) {
		r := v.Roots(CallPane)
		v.Select(CallPane, r[i%len(r)])
	})
}

// TestSelectionOnlyFormatsVisibleRows checks on the large experiment that
// an update formats nothing by itself; only rows asked for are formatted.
func TestSelectionOnlyFormatsVisibleRows(t *testing.T) {
	if testing.Short() {
		t.Skip("large generated experiment")
	}
	v := NewView(big(t))
	v.SetExpanded(CallPane, Node{CnodeNode, 0}, true)
	mustUpdate(t, v)
	if n := v.Values().Formatted(); n != 0 {
		t.Errorf("Update formatted %d values, want 0", n)
	}
	visibleRows(v)
	if n := v.Values().Formatted(); n > 120 {
		t.Errorf("three panes of 40 rows formatted %d values", n)
	}
}
