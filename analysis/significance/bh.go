package significance

import (
	"cmp"
	"math"
	"slices"
)

// BenjaminiHochberg returns the q-value of each p-value: the smallest
// false-discovery rate at which it would be rejected among all of them,
// q(i) = min over j ≥ i of p(j)·m/j for the p-values sorted ascending
// (R's p.adjust(p, "BH")). NaN p-values (comparisons that could not be
// made) get NaN and do not count in m.
func BenjaminiHochberg(p []float64) []float64 {
	q := make([]float64, len(p))
	var idx []int
	for i, v := range p {
		if math.IsNaN(v) {
			q[i] = math.NaN()
			continue
		}
		idx = append(idx, i)
	}
	slices.SortStableFunc(idx, func(x, y int) int { return cmp.Compare(p[x], p[y]) })
	m := float64(len(idx))
	running := 1.0
	for r := len(idx) - 1; r >= 0; r-- {
		i := idx[r]
		running = min(running, p[i]*m/float64(r+1))
		q[i] = running
	}
	return q
}

// Significant reports whether a comparison with q-value q is significant
// at false-discovery rate alpha (0 means DefaultAlpha): q < alpha.
func Significant(q, alpha float64) bool {
	if alpha <= 0 {
		alpha = DefaultAlpha
	}
	return q < alpha
}
