package model

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAddBatchMatchesAdd: adding rows in batches gives bit for bit the
// per-cnode and per-location aggregates of adding them one at a time, for
// every aggregation and batch length (the side-by-side path takes groups of
// four, the rest goes one by one).
func TestAddBatchMatchesAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const nc, nl = 23, 37
	rows := make([][]float64, nc)
	cs := make([]int, nc)
	for c := range rows {
		cs[c] = (c * 7) % nc // not in cnode order
		rows[c] = make([]float64, nl)
		for l := range rows[c] {
			rows[c][l] = (rng.Float64() - 0.3) * math.Pow(10, float64(rng.IntN(30)-15))
		}
	}
	for _, agg := range []Aggregation{Sum, Min, Max} {
		one := newAggregator(agg, nc, nl)
		for i, c := range cs {
			if err := one.add(c, rows[i]); err != nil {
				t.Fatal(err)
			}
		}
		wantSums, wantLocs := one.finish()
		for _, batch := range []int{1, 3, 4, 5, 8, nc} {
			a := newAggregator(agg, nc, nl)
			for i := 0; i < nc; i += batch {
				j := min(nc, i+batch)
				if err := a.addBatch(cs[i:j], rows[i:j]); err != nil {
					t.Fatal(err)
				}
			}
			sums, locs := a.finish()
			for c := range sums {
				if math.Float64bits(sums[c]) != math.Float64bits(wantSums[c]) {
					t.Fatalf("%v, batch %d: cnode %d: %v, want %v", agg, batch, c, sums[c], wantSums[c])
				}
			}
			for l := range locs {
				if math.Float64bits(locs[l]) != math.Float64bits(wantLocs[l]) {
					t.Fatalf("%v, batch %d: location %d: %v, want %v", agg, batch, l, locs[l], wantLocs[l])
				}
			}
		}
	}
	a := newAggregator(Sum, nc, nl)
	if err := a.addBatch([]int{0, 1, 2, nc}, rows[:4]); err == nil {
		t.Error("a cnode out of range in a batch of four: no error")
	}
	if err := a.addBatch([]int{0}, rows[:2]); err == nil {
		t.Error("a batch with more rows than cnodes: no error")
	}
}

// TestFormatSizeReadsBack: FormatSize writes sizes that ParseSize reads
// as the same number of bytes, in the largest unit that divides them.
func TestFormatSizeReadsBack(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{1 << 30, "1G"}, {3 << 29, "1536M"}, {512 << 20, "512M"}, {1000000, "1000000"}, {4 << 40, "4T"}, {2048, "2K"}, {1, "1"}} {
		got := FormatSize(c.n)
		if got != c.want {
			t.Errorf("FormatSize(%d) = %q, want %q", c.n, got, c.want)
		}
		if back, err := ParseSize(got); err != nil || back != c.n {
			t.Errorf("ParseSize(FormatSize(%d)) = %d, %v", c.n, back, err)
		}
	}
}
