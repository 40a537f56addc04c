package view

import "testing"

// TestPrimeFirstMetric sums up the first root metric with data and no
// other; an unavailable first root is passed over.
func TestPrimeFirstMetric(t *testing.T) {
	e := handMade()
	if len(e.MetricRoots) < 2 {
		t.Fatalf("the fixture has %d root metrics", len(e.MetricRoots))
	}
	first, second := e.MetricRoots[0], e.MetricRoots[1]
	PrimeFirstMetric(e)
	if !e.Summarized(first) || e.Summarized(second) {
		t.Errorf("summarized: first %v, second %v; want only the first", e.Summarized(first), e.Summarized(second))
	}

	e = handMade()
	e.Metrics[first].Unavailable = "not measured"
	PrimeFirstMetric(e)
	if e.Summarized(first) || !e.Summarized(second) {
		t.Errorf("first unavailable: summarized first %v, second %v; want only the second", e.Summarized(first), e.Summarized(second))
	}
}
