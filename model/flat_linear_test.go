package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// deepChain returns a call chain n deep cycling over k regions (k = n:
// every call path its own region), over nl locations, with a time and a
// min metric.
func deepChain(n, k, nl int) *Experiment {
	e := &Experiment{}
	e.Metrics = []Metric{
		{ID: 0, UniqName: "time", DataType: "DOUBLE", Unit: "sec", Parent: -1},
		{ID: 1, UniqName: "min_t", DataType: "MINDOUBLE", Unit: "sec", Parent: -1, Aggregation: Min},
	}
	for r := 0; r < k; r++ {
		e.Regions = append(e.Regions, Region{ID: r, Name: "f" + strconv.Itoa(r)})
	}
	for c := 0; c < n; c++ {
		e.Cnodes = append(e.Cnodes, Cnode{ID: c, Region: c % k, Parent: c - 1, CallLine: -1})
	}
	e.System = []SystemNode{{Kind: TreeNode, Class: "machine", Parent: -1}, {Kind: Group, Class: "process", Parent: 0}}
	for l := 0; l < nl; l++ {
		e.System = append(e.System, SystemNode{ID: l, Kind: Leaf, Class: "thread", Rank: l, Parent: 1})
	}
	e.Link()
	e.NumberLocations()
	for m := range e.Metrics {
		b := NewBlock(n, nl)
		for c := 0; c < n; c++ {
			r := b.MutableRow(c)
			for l := range r {
				r[l] = float64(1 + (c*7+l)%13)
			}
		}
		e.SetBlock(m, b)
	}
	return e
}

// randomForest returns a random call forest with recursion (regions
// repeat along paths) and random values, some zero.
func randomForest(rng *rand.Rand, n, k int) (*Experiment, []float64) {
	e := &Experiment{}
	for r := 0; r < k; r++ {
		e.Regions = append(e.Regions, Region{ID: r, Name: "f" + strconv.Itoa(r)})
	}
	for c := 0; c < n; c++ {
		p := -1
		if c > 0 && rng.IntN(8) > 0 {
			p = rng.IntN(c)
		}
		e.Cnodes = append(e.Cnodes, Cnode{ID: c, Region: rng.IntN(k), Parent: p, CallLine: -1})
	}
	e.Link()
	excl := make([]float64, n)
	for c := range excl {
		if rng.IntN(4) > 0 {
			excl[c] = float64(rng.IntN(100)) - 20
		}
	}
	return e, excl
}

// TestFlatPartsMatchesPathWalk: the linear flat profile equals the walk
// that adds each call path to every region on its path, on random forests
// with recursion, for sum, min and max.
func TestFlatPartsMatchesPathWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		e, excl := randomForest(rng, 1+rng.IntN(60), 1+rng.IntN(8))
		for _, agg := range []Aggregation{Sum, Min, Max} {
			got, want := flatParts(e, excl, agg), flatPartsByPath(e, excl, agg)
			for _, part := range []struct {
				name     string
				got, exp []float64
			}{{"whole", got.Whole, want.Whole}, {"own", got.Own, want.Own}, {"callees", got.Callees, want.Callees}} {
				for r := range part.got {
					if math.Abs(part.got[r]-part.exp[r]) > 1e-9 {
						t.Fatalf("forest %d, %v, region %d: %s %v, want %v", i, agg, r, part.name, part.got[r], part.exp[r])
					}
				}
			}
			for r := range got.HasCallees {
				if got.HasCallees[r] != want.HasCallees[r] {
					t.Fatalf("forest %d, %v, region %d: HasCallees %v", i, agg, r, got.HasCallees[r])
				}
			}
		}
	}
}

// BenchmarkFlatDeep is the flat profile of a call chain 100,000 deep,
// every level its own region (the worst case of a walk along paths), and
// of one 12,500 deep. Its bound: eight times the depth may take at most
// 20 times the time (linear: about 8; a walk along paths: 64).
func BenchmarkFlatDeep(b *testing.B) {
	perOp := map[string]float64{}
	for _, n := range []int{12_500, 100_000} {
		e := deepChain(n, n, 4)
		for m := range e.Metrics {
			name := e.Metrics[m].UniqName
			b.Run(fmt.Sprintf("depth=%d/%s", n, name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := flatOf(e, MetricSel{Metric: m, Inclusive: true}); err != nil {
						b.Fatal(err)
					}
				}
				perOp[fmt.Sprint(n, name)] = float64(b.Elapsed()) / float64(b.N)
			})
		}
	}
	for _, name := range []string{"time", "min_t"} {
		small, big := perOp[fmt.Sprint(12_500, name)], perOp[fmt.Sprint(100_000, name)]
		if small > 0 && big/small > 20 {
			b.Errorf("%s: depth 100,000 takes %.0f× the time of depth 12,500: not linear", name, big/small)
		}
	}
}
func flatPartsByPath(e *Experiment, excl []float64, agg Aggregation) Flat {
	nr := len(e.Regions)
	f := Flat{
		Whole: make([]float64, nr), Own: make([]float64, nr), Callees: make([]float64, nr),
		HasCallees: make([]bool, nr),
	}
	if agg != Sum {
		for r := range f.Whole {
			f.Whole[r], f.Own[r], f.Callees[r] = agg.Identity(), agg.Identity(), agg.Identity()
		}
	}
	incl := e.CallInclusive(excl, agg)
	seen := make([]bool, nr)
	// onPath counts a region's instances among the ancestors of the
	// current cnode; path lists the regions with a nonzero count, so
	// that a cnode adds to the callees of exactly those regions.
	onPath := make([]int, nr)
	var path []int
	type frame struct {
		c    int
		exit bool
	}
	stack := make([]frame, 0, 64)
	for i := len(e.CnodeRoots) - 1; i >= 0; i-- {
		stack = append(stack, frame{c: e.CnodeRoots[i]})
	}
	for len(stack) > 0 {
		fr := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		r := e.Cnodes[fr.c].Region
		if fr.exit {
			if onPath[r]--; onPath[r] == 0 {
				path = path[:len(path)-1] // r was the last region added
			}
			continue
		}
		seen[r] = true
		f.Own[r] = agg.Combine(f.Own[r], excl[fr.c])
		if onPath[r] == 0 {
			f.Whole[r] = agg.Combine(f.Whole[r], incl[fr.c])
		}
		for _, a := range path {
			if a != r {
				f.HasCallees[a] = true
				if agg != Sum {
					f.Callees[a] = agg.Combine(f.Callees[a], excl[fr.c])
				}
			}
		}
		if onPath[r] == 0 {
			path = append(path, r)
		}
		onPath[r]++
		stack = append(stack, frame{c: fr.c, exit: true})
		ch := e.Cnodes[fr.c].Children
		for i := len(ch) - 1; i >= 0; i-- {
			stack = append(stack, frame{c: ch[i]})
		}
	}
	for r := range f.Whole {
		if !seen[r] {
			f.Whole[r], f.Own[r], f.Callees[r] = 0, 0, 0
			continue
		}
		if agg == Sum {
			// Every own call path lies in the union, so the rest is
			// exactly what the region calls.
			if f.HasCallees[r] {
				f.Callees[r] = f.Whole[r] - f.Own[r]
			}
			continue
		}
		for _, p := range []*float64{&f.Whole[r], &f.Own[r], &f.Callees[r]} {
			if math.IsInf(*p, 0) {
				*p = 0
			}
		}
	}
	return f
}
