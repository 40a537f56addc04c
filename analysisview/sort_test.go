package analysisview

import (
	"math"
	"slices"
	"testing"
)

func TestTableSort(t *testing.T) {
	nums := []float64{3, math.NaN(), -1, 3, 10}
	text := []string{"b", "a", "c", "a", "B"}
	key := func(r, c int) SortKey {
		if c == 0 {
			return NumKey(nums[r])
		}
		return TextKey(text[r])
	}
	for _, c := range []struct {
		s    TableSort
		want []int
	}{
		{Unsorted, []int{0, 1, 2, 3, 4}},
		{TableSort{Column: 0}, []int{2, 0, 3, 4, 1}},                   // NaN last, equal 3s keep their order
		{TableSort{Column: 0, Descending: true}, []int{4, 0, 3, 2, 1}}, // NaN last again
		{TableSort{Column: 1}, []int{4, 1, 3, 0, 2}},                   // byte order: "B" < "a"
		{TableSort{Column: 1, Descending: true}, []int{2, 0, 1, 3, 4}},
	} {
		if got := c.s.Order(len(nums), key); !slices.Equal(got, c.want) {
			t.Errorf("%+v: %v, want %v", c.s, got, c.want)
		}
	}
	s := Unsorted.Click(2, true)
	if s != (TableSort{Column: 2, Descending: true}) || s.Title(2, "value") != "value ▼" || s.Title(1, "name") != "name" {
		t.Errorf("first click on a numeric column: %+v %q", s, s.Title(2, "value"))
	}
	if s = s.Click(2, true); s.Descending || s.Title(2, "value") != "value ▲" {
		t.Errorf("second click: %+v", s)
	}
	if s = s.Click(0, false); s != (TableSort{Column: 0}) {
		t.Errorf("a text column: %+v", s)
	}
}
