package model

import (
	"math"
	"math/bits"
)

// RegionPart is one of the values a region has in a flat profile.
type RegionPart uint8

const (
	// RegionWhole is the region with everything it calls: the union of
	// the subtrees of its call paths, each call path counted once (so a
	// recursive region is not counted twice). A collapsed region row.
	RegionWhole RegionPart = iota
	// RegionOwn is the region's own part: the own values of its call
	// paths. An expanded region row.
	RegionOwn
	// RegionCallees is what the region calls: RegionWhole without the
	// region's own call paths (Cube's "Subroutines" row).
	RegionCallees
)

// Flat is the flat profile of one metric selection: per region its whole,
// own and callees values, each aggregated with the metric's own kind (sum,
// min or max). For a min metric the callees value is the minimum over the
// callees, not whole − own.
type Flat struct {
	Whole, Own, Callees []float64
	// HasCallees reports whether a region calls any other region: only
	// then does a flat profile show a callees row for it.
	HasCallees []bool
}

// flatOf returns the flat profile of a metric selection, computed once for
// all regions: flatParts of its per-cnode values, with the tool's own
// inclusive values as Whole where the experiment's call graph records them
// (see FlatProfileOf).
func flatOf(e *Experiment, ms MetricSel) (Flat, error) {
	excl, err := e.stored().ownValues(ms) // no value kept: flatParts passes over it
	if err != nil {
		return Flat{}, err
	}
	agg := e.Metrics[ms.Metric].Aggregation
	f := flatParts(e, excl, agg)
	if err := graphInclusive(e, ms, f.Whole); err != nil {
		return Flat{}, err
	}
	if agg == Sum {
		// The tool's inclusive values, where recorded, are the whole.
		for r := range f.Callees {
			if f.HasCallees[r] {
				f.Callees[r] = f.Whole[r] - f.Own[r]
			}
		}
	}
	return f, nil
}

// RegionProfile returns the flat profile of a metric selection for stored
// and derived metrics alike, computed once per selection: the flat-profile
// pane's query (a collapsed region row shows Whole, an expanded one Own,
// its "Subroutines" row Callees). For a stored metric it is flatOf; for a
// derived metric each part is the formula applied to its operands' same
// part, as the other queries evaluate derived metrics.
func RegionProfile(e *Experiment, ms MetricSel) (Flat, error) {
	if !e.Metrics[ms.Metric].IsDerived() {
		return flatOf(e, ms)
	}
	operands := map[MetricSel]Flat{}
	var hasCallees []bool
	part := func(p RegionPart) ([]float64, error) {
		return evalDerived(e, ms.Metric, len(e.Regions), func(op MetricSel) ([]float64, error) {
			f, ok := operands[op]
			if !ok {
				var err error
				if f, err = RegionProfile(e, op); err != nil {
					return nil, err
				}
				operands[op] = f
				hasCallees = f.HasCallees
			}
			return f.part(p), nil
		})
	}
	var f Flat
	var err error
	if f.Whole, err = part(RegionWhole); err != nil {
		return Flat{}, err
	}
	if f.Own, err = part(RegionOwn); err != nil {
		return Flat{}, err
	}
	if f.Callees, err = part(RegionCallees); err != nil {
		return Flat{}, err
	}
	if hasCallees == nil { // a formula without operands
		hasCallees = flatParts(e, make([]float64, len(e.Cnodes)), Sum).HasCallees
	}
	f.HasCallees = hasCallees
	return f, nil
}

// part returns the values of part p of every region.
func (f *Flat) part(p RegionPart) []float64 {
	switch p {
	case RegionOwn:
		return f.Own
	case RegionCallees:
		return f.Callees
	}
	return f.Whole
}

// flatParts computes the flat profile from per-cnode exclusive values
// (cnodeValues) of a metric aggregated with agg, in time linear in the
// number of call paths (N log N for min and max), whatever the depth of
// the call tree. A region without call paths has all values 0.
func flatParts(e *Experiment, excl []float64, agg Aggregation) Flat {
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
	order := e.CnodeOrder()
	// In depth-first order a cnode's subtree is the range pos … end-1.
	pos := make([]int32, len(e.Cnodes))
	for i, c := range order {
		pos[c] = int32(i)
	}
	end := make([]int32, len(e.Cnodes))
	for i := len(order) - 1; i >= 0; i-- {
		c := order[i]
		if end[c] == 0 {
			end[c] = int32(i + 1)
		}
		if p := e.Cnodes[c].Parent; p >= 0 && end[p] < end[c] {
			end[p] = end[c]
		}
	}
	// A region's topmost call paths (no ancestor of the same region) are
	// those whose position lies beyond the end of the previous topmost
	// one of that region; their subtrees are the region's whole.
	seen := make([]bool, nr)
	topEnd := make([]int32, nr) // end of the region's current topmost subtree
	// The callees of a region are its topmost subtrees less the region's
	// own call paths: the ranges between them, collected per region.
	type span struct{ lo, hi int32 }
	last := make([]int32, nr) // position after the region's last own call path
	var spans [][]span
	if agg != Sum {
		spans = make([][]span, nr)
	}
	addSpan := func(r int, lo, hi int32) {
		if lo < hi {
			f.HasCallees[r] = true
			if spans != nil {
				spans[r] = append(spans[r], span{lo, hi})
			}
		}
	}
	for i, c := range order {
		r := e.Cnodes[c].Region
		p := int32(i)
		f.Own[r] = agg.Combine(f.Own[r], excl[c])
		if !seen[r] || p >= topEnd[r] {
			if seen[r] {
				addSpan(r, last[r], topEnd[r]) // the rest of the previous subtree
			}
			seen[r] = true
			f.Whole[r] = agg.Combine(f.Whole[r], incl[c])
			topEnd[r] = end[c]
		} else {
			addSpan(r, last[r], p) // between two own call paths
		}
		last[r] = p + 1
	}
	for r := range seen {
		if seen[r] {
			addSpan(r, last[r], topEnd[r])
		}
	}
	if agg != Sum {
		vals := make([]float64, len(order))
		for i, c := range order {
			vals[i] = excl[c]
		}
		rq := newRangeAgg(vals, agg)
		for r, ss := range spans {
			for _, sp := range ss {
				f.Callees[r] = agg.Combine(f.Callees[r], rq.over(int(sp.lo), int(sp.hi)))
			}
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

// rangeAgg answers min or max over any range of values in constant time
// (a sparse table: level k holds the aggregate of 2^k values from each
// position), built in N log N.
type rangeAgg struct {
	agg    Aggregation
	levels [][]float64
}

func newRangeAgg(vals []float64, agg Aggregation) *rangeAgg {
	q := &rangeAgg{agg: agg, levels: [][]float64{vals}}
	for w := 1; 2*w <= len(vals); w *= 2 {
		prev := q.levels[len(q.levels)-1]
		next := make([]float64, len(vals)-2*w+1)
		for i := range next {
			next[i] = agg.Combine(prev[i], prev[i+w])
		}
		q.levels = append(q.levels, next)
	}
	return q
}

// over returns the aggregate of values lo … hi-1 (lo < hi): two blocks of
// the largest power of two that fits, overlapping, as min and max allow.
func (q *rangeAgg) over(lo, hi int) float64 {
	k := bits.Len(uint(hi-lo)) - 1
	l := q.levels[k]
	return q.agg.Combine(l[lo], l[hi-(1<<k)])
}

// Value returns region r's part p.
func (f *Flat) Value(r int, p RegionPart) float64 { return f.part(p)[r] }

// regionCnodes returns the call paths that part p of region r stands for,
// each once, in depth-first order: the region's own call paths
// (RegionOwn), the union of their subtrees (RegionWhole) or that union
// without the region's own call paths (RegionCallees). With
// locationValuesOver it gives the system values of a flat-profile row.
func regionCnodes(e *Experiment, r int, p RegionPart) []int {
	var out []int
	inside := 0 // instances of r among the ancestors of the current cnode
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
		own := e.Cnodes[fr.c].Region == r
		if fr.exit {
			if own {
				inside--
			}
			continue
		}
		switch p {
		case RegionOwn:
			if own {
				out = append(out, fr.c)
			}
		case RegionWhole:
			if own || inside > 0 {
				out = append(out, fr.c)
			}
		case RegionCallees:
			if !own && inside > 0 {
				out = append(out, fr.c)
			}
		}
		if own {
			inside++
		}
		stack = append(stack, frame{c: fr.c, exit: true})
		ch := e.Cnodes[fr.c].Children
		for i := len(ch) - 1; i >= 0; i-- {
			stack = append(stack, frame{c: ch[i]})
		}
	}
	return out
}
