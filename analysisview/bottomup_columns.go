package analysisview

import (
	"math"
	"slices"

	"cubeview/model"
	"cubeview/view"
)

// Columns returns the titles of the bottom-up rows' value columns:
// BottomUpColumns, then each metric column's (view.Columns) inclusive
// value, absolute as the bottom-up view's own columns.
func (b *BottomUp) Columns() []string {
	out := slices.Clone(BottomUpColumns)
	e := b.v.Experiment()
	for _, m := range b.v.Columns().Metrics() {
		title := b.v.Label(view.Node{Kind: view.MetricNode, Index: m})
		if u := e.Metrics[m].Unit; u != "" {
			title += " (" + u + ")"
		}
		out = append(out, title)
	}
	return out
}

// columnTexts returns row's inclusive values of the metric columns; a
// derived metric's values do not add up along call paths, so it has none.
func (b *BottomUp) columnTexts(row *model.CallerRow) []string {
	e := b.v.Experiment()
	cols := b.v.Columns()
	var out []string
	for k, m := range cols.Metrics() {
		metric := &e.Metrics[m]
		excl, incl, ok := cols.CallTree(k)
		if !ok || metric.IsDerived() {
			out = append(out, b.fmt.Format(math.NaN(), false))
			continue
		}
		_, in := row.ValuesOf(excl, incl, metric.Aggregation)
		out = append(out, b.fmt.Format(in, metric.IsInteger()))
	}
	return out
}
