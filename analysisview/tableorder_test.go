package analysisview

import (
	"math"
	"slices"
	"testing"
)

func TestTableOrder(t *testing.T) {
	names := []string{"b", "a", "c", "d"}
	costs := []float64{2, math.NaN(), 5, 1}
	key := func(r, c int) SortKey {
		if c == 0 {
			return TextKey(names[r])
		}
		return NumKey(costs[r])
	}
	o := NewTableOrder(func() int { return len(names) }, key)
	shown := func() []int {
		var out []int
		for i := 0; i < o.Len(); i++ {
			out = append(out, o.Row(i))
		}
		return out
	}
	for _, step := range []struct {
		name string
		do   func()
		want []int
		sort TableSort
	}{
		{"report order", func() {}, []int{0, 1, 2, 3}, Unsorted},
		{"cost, largest first", func() { o.Click(1, true) }, []int{2, 0, 3, 1}, TableSort{1, true}},
		{"cost again, smallest first", func() { o.Click(1, true) }, []int{3, 0, 2, 1}, TableSort{1, false}},
		{"name, from A", func() { o.Click(0, false) }, []int{1, 0, 2, 3}, TableSort{0, false}},
		{"reset", o.Reset, []int{0, 1, 2, 3}, Unsorted},
	} {
		step.do()
		if got := shown(); !slices.Equal(got, step.want) || o.Sort != step.sort {
			t.Errorf("%s: rows %v sorted %+v, want %v sorted %+v", step.name, got, o.Sort, step.want, step.sort)
		}
	}
	if o.Row(-1) != -1 || o.Row(4) != -1 {
		t.Errorf("rows outside the table: %d, %d; want -1", o.Row(-1), o.Row(4))
	}
	names, costs = append(names, "e"), append(costs, 9)
	o.Click(1, true)
	if o.Len() != 5 || o.Row(0) != 4 {
		t.Errorf("after the report grew: %d rows, first %d; want 5, the new row 4", o.Len(), o.Row(0))
	}
}
