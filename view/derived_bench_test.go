package view

import (
	"testing"

	"cubeview/model"
)

// BenchmarkSelectDerivedMetric alternates a derived metric (the ratio of
// two stored ones) and a stored one on the generated 10,000 × 1,000
// experiment: the call pane and the system pane (whole call tree) are
// recomputed after aggregation.
func BenchmarkSelectDerivedMetric(b *testing.B) {
	e := big(b)
	f, err := model.ParseFormula(e.Metrics[1].UniqName + " / " + e.Metrics[2].UniqName)
	if err != nil {
		b.Fatal(err)
	}
	d, err := e.WithDerived(model.DerivedMetric{UniqName: "ratio", Formula: f})
	if err != nil {
		b.Fatal(err)
	}
	ratio := Node{MetricNode, d.MetricByName("ratio")}
	v := NewView(d)
	v.SetExpanded(SystemPane, Node{SystemNode, 0}, true)
	v.Select(MetricPane, ratio)
	mustUpdate(b, v)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.Select(MetricPane, []Node{ratio, {MetricNode, 1}}[i%2])
		if err := v.Update(); err != nil {
			b.Fatal(err)
		}
		visibleRows(v)
	}
}

// BenchmarkSelectCallPathDerived changes the call selection with the
// derived metric selected: the system pane evaluates the formula over
// both operands' location values.
func BenchmarkSelectCallPathDerived(b *testing.B) {
	e := big(b)
	f, _ := model.ParseFormula(e.Metrics[1].UniqName + " / " + e.Metrics[2].UniqName)
	d, err := e.WithDerived(model.DerivedMetric{UniqName: "ratio", Formula: f})
	if err != nil {
		b.Fatal(err)
	}
	v := NewView(d)
	v.Select(MetricPane, Node{MetricNode, d.MetricByName("ratio")})
	mustUpdate(b, v)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.Select(CallPane, Node{CnodeNode, []int{0, 1}[i%2]})
		if err := v.Update(); err != nil {
			b.Fatal(err)
		}
		visibleRows(v)
	}
}
