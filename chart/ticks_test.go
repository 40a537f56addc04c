package chart

import "testing"

func TestDistinctTicks(t *testing.T) {
	for _, r := range [][2]float64{{100.41, 100.52}, {0, 1e6}, {-3, 7}, {0.0001, 0.0002}, {1e9, 1.0000001e9}} {
		seen := map[string]float64{}
		n := 0
		for _, tk := range (distinctTicks{}).Ticks(r[0], r[1]) {
			if tk.Label == "" {
				continue
			}
			n++
			if v, dup := seen[tk.Label]; dup {
				t.Errorf("range %v: label %q for %v and %v", r, tk.Label, v, tk.Value)
			}
			seen[tk.Label] = tk.Value
		}
		if n < 2 {
			t.Errorf("range %v: %d labelled ticks", r, n)
		}
	}
	for _, c := range []struct {
		v      float64
		digits int
		want   string
	}{{100.44, 5, "100.44"}, {100.5, 5, "100.5"}, {2e6, 2, "2e+06"}, {0.25, 2, "0.25"}, {500000, 1, "500000"}, {0, 3, "0"}} {
		if got := formatDigits(c.v, c.digits); got != c.want {
			t.Errorf("formatDigits(%v, %d) = %q, want %q", c.v, c.digits, got, c.want)
		}
	}
}
