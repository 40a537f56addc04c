package significance

import (
	"math"
	"slices"
	"sync"
)

// Method chooses how the Mann–Whitney p-value is computed.
type Method int

const (
	// Auto is Exact for groups of fewer than 50 values without ties,
	// else Asymptotic (R's wilcox.test rule).
	Auto Method = iota
	// Exact takes P from the exact distribution of U under the null
	// hypothesis (no ties assumed; with ties the p-value is approximate).
	Exact
	// Asymptotic takes P from the normal approximation with the tie
	// correction of the variance and a continuity correction of ½.
	Asymptotic
)

// exactLimit bounds the groups the exact distribution is computed for:
// its cost grows as nA²·nB².
const exactLimit = 50

// MannWhitneyU returns the U statistic of a (the number of pairs in
// which a's value is greater, ties counting ½), the two-sided p-value
// and whether it is exact. Groups need at least one value each.
func MannWhitneyU(a, b []float64, method Method) (u, p float64, exact bool) {
	n1, n2 := len(a), len(b)
	if n1 == 0 || n2 == 0 {
		return math.NaN(), math.NaN(), false
	}
	type obs struct {
		v     float64
		fromA bool
	}
	all := make([]obs, 0, n1+n2)
	for _, v := range a {
		all = append(all, obs{v, true})
	}
	for _, v := range b {
		all = append(all, obs{v, false})
	}
	slices.SortFunc(all, func(x, y obs) int {
		switch {
		case x.v < y.v:
			return -1
		case x.v > y.v:
			return 1
		}
		return 0
	})
	// Mid-ranks; tieSum = Σ(t³ − t) over groups of tied values.
	var rankA, tieSum float64
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		mid := float64(i+j+1) / 2 // ranks i+1 … j
		for k := i; k < j; k++ {
			if all[k].fromA {
				rankA += mid
			}
		}
		if t := float64(j - i); t > 1 {
			tieSum += t*t*t - t
		}
		i = j
	}
	fn1, fn2 := float64(n1), float64(n2)
	u = rankA - fn1*(fn1+1)/2
	exact = method == Exact || (method == Auto && tieSum == 0 && n1 < exactLimit && n2 < exactLimit)
	if exact {
		return u, exactTwoSided(u, n1, n2), true
	}
	n := fn1 + fn2
	mu := fn1 * fn2 / 2
	sigma := math.Sqrt(fn1 * fn2 / 12 * ((n + 1) - tieSum/(n*(n-1))))
	if sigma == 0 {
		return u, 1, false
	}
	z := (math.Abs(u-mu) - 0.5) / sigma
	if z < 0 {
		z = 0
	}
	return u, min(1, math.Erfc(z/math.Sqrt2)), false
}

// exactTwoSided returns 2·min(P(U ≤ u), P(U ≥ u)) (at most 1) under the
// null hypothesis.
func exactTwoSided(u float64, n1, n2 int) float64 {
	cum := exactCumulative(n1, n2)
	k := int(math.Floor(u))
	low := cum[min(k, len(cum)-1)]
	high := 1.0 // P(U ≥ u) = 1 − P(U ≤ ⌈u⌉ − 1)
	if c := int(math.Ceil(u)) - 1; c >= 0 {
		high = 1 - cum[min(c, len(cum)-1)]
	}
	return min(1, 2*min(low, high))
}

type groupSizes struct{ n1, n2 int }

// exactCache holds the cumulative distributions of U computed so far:
// every call path of a comparison of the same groups needs the same one.
var exactCache sync.Map // groupSizes → []float64

// exactCumulative returns P(U ≤ k), k = 0 … n1·n2, from the counts of the
// arrangements of n1 and n2 values by their U: f(m, n, k) = f(m−1, n, k−n)
// + f(m, n−1, k), summed in float64 without cancellation.
func exactCumulative(n1, n2 int) []float64 {
	key := groupSizes{n1, n2}
	if c, ok := exactCache.Load(key); ok {
		return c.([]float64)
	}
	width := n1*n2 + 1
	// f[n] is the distribution for (m, n), updated in place from m−1 to m.
	f := make([][]float64, n2+1)
	for n := range f {
		f[n] = make([]float64, width)
		f[n][0] = 1 // m = 0: U = 0 in the one arrangement
	}
	for m := 1; m <= n1; m++ {
		for n := 1; n <= n2; n++ {
			row, left := f[n], f[n-1] // f[n-1] already holds (m, n−1)
			for k := m * n; k >= 0; k-- {
				v := left[k]
				if k >= n {
					v += row[k-n] // (m−1, n), not yet overwritten below k
				}
				row[k] = v
			}
		}
	}
	dist := f[n2]
	var total float64
	for _, c := range dist {
		total += c
	}
	cum := make([]float64, width)
	var run float64
	for k, c := range dist {
		run += c
		cum[k] = run / total
	}
	exactCache.Store(key, cum)
	return cum
}
