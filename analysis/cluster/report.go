package cluster

import (
	"cmp"
	"math"
	"slices"
)

// PathValue is one call path's value in a centroid (or an outlier) and,
// for a comparison, the value it is compared with.
type PathValue struct {
	Cnode int
	Value float64
	// Other is the compared value: the mean of the other clusters'
	// members, or an outlier's nearest centroid.
	Other float64
}

// Diff returns Value − Other.
func (p PathValue) Diff() float64 { return p.Value - p.Other }

// Top returns the n call paths of cluster j's centroid with the largest
// values (by magnitude, so that a difference experiment's losses count),
// ties in cnode order.
func (r *Result) Top(j, n int) []PathValue {
	var out []PathValue
	for c, v := range r.Clusters[j].Centroid {
		if v != 0 {
			out = append(out, PathValue{Cnode: c, Value: v})
		}
	}
	return largest(out, n, func(p PathValue) float64 { return math.Abs(p.Value) })
}

// Rest returns, per cnode, the mean value of the members of every
// cluster but j (outliers left out); nil when j is the only cluster.
func (r *Result) Rest(j int) []float64 {
	if len(r.Clusters) < 2 {
		return nil
	}
	rest := make([]float64, len(r.Clusters[j].Centroid))
	total := 0
	for i, cl := range r.Clusters {
		if i == j {
			continue
		}
		total += len(cl.Members)
		for c, v := range cl.Centroid {
			rest[c] += v * float64(len(cl.Members))
		}
	}
	for c := range rest {
		rest[c] /= float64(total)
	}
	return rest
}

// Differences returns the n call paths where cluster j's centroid
// differs most from the mean of the other clusters' members: how the
// cluster differs from the others. Nil when j is the only cluster.
func (r *Result) Differences(j, n int) []PathValue {
	rest := r.Rest(j)
	if rest == nil {
		return nil
	}
	return compare(r.Clusters[j].Centroid, rest, n)
}

// OutlierDifferences returns the n call paths where outlier o differs
// most from its nearest cluster's centroid.
func (r *Result) OutlierDifferences(o, n int) []PathValue {
	out := &r.Outliers[o]
	if len(r.Clusters) == 0 {
		return nil
	}
	return compare(out.Values, r.Clusters[out.Nearest].Centroid, n)
}

func compare(values, other []float64, n int) []PathValue {
	var out []PathValue
	for c, v := range values {
		if v != other[c] {
			out = append(out, PathValue{Cnode: c, Value: v, Other: other[c]})
		}
	}
	return largest(out, n, func(p PathValue) float64 { return math.Abs(p.Diff()) })
}

// largest returns the n entries of the largest size, ties in their order.
func largest(v []PathValue, n int, size func(PathValue) float64) []PathValue {
	slices.SortStableFunc(v, func(a, b PathValue) int { return cmp.Compare(size(b), size(a)) })
	return v[:min(n, len(v))]
}
