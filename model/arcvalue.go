package model

// ArcValue returns the cost that arc a records for a metric selection:
// the arc's value of the metric (its inclusive cost along the call graph,
// with the stored meaning along the metric tree) or, for an exclusive
// selection of a metric with summed child metrics, that value minus the
// children's, as the metric pane's exclusive values are. ok is false when
// the tool recorded no such value for the arc (a derived metric, a metric
// the tool does not attribute to arcs, a call-count-only arc).
func ArcValue(e *Experiment, a CallArc, ms MetricSel) (v float64, ok bool) {
	if ms.Metric < 0 || ms.Metric >= len(e.Metrics) || e.Metrics[ms.Metric].IsDerived() {
		return 0, false
	}
	v, ok = a.Values[ms.Metric]
	if !ok || ms.Inclusive {
		return v, ok
	}
	for _, ch := range subtracted(e, ms.Metric) {
		c, ok := a.Values[ch]
		if !ok {
			return 0, false
		}
		v -= c
	}
	return v, true
}
