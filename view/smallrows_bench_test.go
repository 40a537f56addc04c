package view

import "testing"

// benchSmallRows changes the metric selection on the large generated
// experiment with the call root and the system root open and folding at
// share t, and walks the rows shown as the tree widgets do (children,
// and each row's ancestors for its indentation).
func benchSmallRows(b *testing.B, t float64) {
	benchSelect(b, func(v *View) {
		v.SmallRows().SetThreshold(t)
		v.SetExpanded(CallPane, Node{CnodeNode, 0}, true)
	}, func(v *View, i int) {
		v.Select(MetricPane, Node{MetricNode, i % 3})
		for d := MetricPane; d <= SystemPane; d++ {
			for _, n := range v.Children(d, v.Roots(d)[0]) {
				_ = v.Ancestors(d, n)
			}
		}
	})
}

// BenchmarkSelectMetricAllRows is the baseline: no row folds.
func BenchmarkSelectMetricAllRows(b *testing.B) { benchSmallRows(b, 0) }

// BenchmarkSelectMetricSmallRows folds the rows under 1 %.
func BenchmarkSelectMetricSmallRows(b *testing.B) { benchSmallRows(b, 0.01) }
