package view

import "cubeview/model"

// PrimeFirstMetric sums up the first available metric of exp, which a new
// window shows first, so that the window opens without waiting; call it
// off the UI goroutine.
func PrimeFirstMetric(exp *model.Experiment) {
	for _, m := range exp.MetricRoots {
		if exp.Metrics[m].Unavailable == "" {
			_ = exp.Summarize(m)
			return
		}
	}
}
