package chart

import (
	"bytes"
	"strings"
	"testing"
)

// TestScalingChartPanels: efficiency only when x counts processes, the
// values with their models across the top when given, and the kind of
// scaling in the titles.
func TestScalingChartPanels(t *testing.T) {
	xs := []float64{8, 27, 64, 125}
	ser := ScalingSeries{Name: "main", Speedup: []float64{1, 0.9, 0.8, 0.7}, Efficiency: []float64{1, 0.3, 0.1, 0.05}}
	for _, tt := range []struct {
		processX, weak, values bool
		panels                 int
		top                    bool
		words                  []string
	}{
		{true, false, false, 2, false, []string{"strong scaling: speedup", "parallel efficiency"}},
		{false, false, false, 1, false, []string{"strong scaling: speedup"}},
		{false, true, true, 1, true, []string{"weak scaling: ratio", "measured (points) and models (lines)", "main: 1 + 2·x"}},
		{true, true, true, 2, true, []string{"weak scaling: parallel efficiency"}},
	} {
		s := Scaling{Title: "Time", XLabel: "processes", X: xs, Series: []ScalingSeries{ser}, ProcessX: tt.processX, Weak: tt.weak}
		if tt.values {
			s.Series[0].Values = []float64{5, 7, 9, 11}
			s.Series[0].Model = func(x float64) float64 { return 1 + 2*x }
			s.Series[0].ModelText = "1 + 2·x"
		}
		c, err := ScalingChart(s)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.plots) != tt.panels || (c.top != nil) != tt.top {
			t.Errorf("%+v: %d panels, top %v", tt, len(c.plots), c.top != nil)
		}
		var buf bytes.Buffer
		if err := c.Write(&buf, "svg", 1200, 800); err != nil {
			t.Fatal(err)
		}
		svg := buf.String()
		for _, w := range tt.words {
			if !strings.Contains(svg, w) {
				t.Errorf("%+v: no %q in the SVG", tt, w)
			}
		}
		if !tt.processX && strings.Contains(svg, "efficiency") {
			t.Errorf("%+v: efficiency drawn though x is no process count", tt)
		}
	}
}

// TestBoxChartLogAxis: medians three decades apart get a log axis, with
// zeros drawn at its left end; close ones and negative values keep the
// linear one.
func TestBoxChartLogAxis(t *testing.T) {
	box := func(med float64) Box {
		return Box{Label: "b", Min: 0, LowWhisker: med / 2, Q1: med * 0.8, Median: med, Q3: med * 1.2, HighWhisker: med * 1.5, Max: med * 2, Mean: med}
	}
	for _, tt := range []struct {
		boxes []Box
		log   bool
	}{
		{[]Box{box(100), box(0.1)}, true},
		{[]Box{box(100), box(5)}, false},
		{[]Box{box(100), {Label: "n", Min: -1, Q1: 0.01, Median: 0.05, Q3: 0.1, Max: 0.2, HighWhisker: 0.2, LowWhisker: -1}}, false},
	} {
		c, err := BoxChart("t", "time", tt.boxes)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := c.Write(&buf, "svg", 800, 600); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(buf.String(), "log scale"); got != tt.log {
			t.Errorf("medians %v, %v: log axis %v, want %v", tt.boxes[0].Median, tt.boxes[1].Median, got, tt.log)
		}
		if lo, _, _ := logRangeOf(tt.boxes); tt.log && !(lo > 0 && lo < 0.1*0.5) {
			t.Errorf("log axis from %v", lo)
		}
	}
}
