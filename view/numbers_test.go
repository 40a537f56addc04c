package view

import (
	"strconv"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
)

// TestSmallValuesColumn checks that a column of values far below the
// format's last decimal place (gprof's seconds per call, microseconds)
// reads as numbers, not 0.00, in one form for the whole column.
func TestSmallValuesColumn(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "gprof", "gnu1.prof"))
	if err != nil {
		t.Fatal(err)
	}
	m := e.MetricByName("s/call")
	if m < 0 {
		t.Fatal("gnu1.prof has no metric s/call")
	}
	v := NewView(e)
	v.SetFlat(true)
	v.Select(MetricPane, Node{MetricNode, m})
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
	decimals := -1
	nonZero := 0
	for _, n := range v.Roots(CallPane) {
		r := v.Row(CallPane, n)
		if r.Value != r.Value || r.Value == 0 { // NaN: undefined
			continue
		}
		text := strings.ReplaceAll(r.Text, ",", "")
		_, frac, _ := strings.Cut(text, ".")
		if decimals < 0 {
			decimals = len(frac)
		} else if len(frac) != decimals {
			t.Errorf("%s: %q has %d decimals, the column %d", r.Label, r.Text, len(frac), decimals)
		}
		got, err := strconv.ParseFloat(text, 64)
		if err != nil {
			t.Errorf("%s: %q is not a plain number", r.Label, r.Text)
			continue
		}
		if got != 0 {
			nonZero++
		}
		unit := 1.0
		for range decimals {
			unit /= 10
		}
		if d := got - r.Value; d > unit/2+1e-15 || d < -unit/2-1e-15 {
			t.Errorf("%s: %q for %g", r.Label, r.Text, r.Value)
		}
	}
	if nonZero == 0 {
		t.Error("every value of the column reads 0")
	}
	if got := v.Row(MetricPane, Node{MetricNode, m}).Text; strings.Trim(got, "0.,") == "" {
		t.Errorf("metric pane: s/call reads %q", got)
	}
}
