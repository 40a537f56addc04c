package model

import "math"

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

// FlatOf returns the flat profile of a metric selection, computed once for
// all regions: FlatParts of its per-cnode values, with the tool's own
// inclusive values as Whole where the experiment's call graph records them
// (see FlatProfileOf).
func (e *Experiment) FlatOf(ms MetricSel) (Flat, error) {
	excl, err := e.CnodeValues(ms)
	if err != nil {
		return Flat{}, err
	}
	agg := e.Metrics[ms.Metric].Aggregation
	f := e.FlatParts(excl, agg)
	if err := e.graphInclusive(ms, f.Whole); err != nil {
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
// its "Subroutines" row Callees). For a stored metric it is FlatOf; for a
// derived metric each part is the formula applied to its operands' same
// part, as the other queries evaluate derived metrics.
func (e *Experiment) RegionProfile(ms MetricSel) (Flat, error) {
	if !e.Metrics[ms.Metric].IsDerived() {
		return e.FlatOf(ms)
	}
	operands := map[MetricSel]Flat{}
	var hasCallees []bool
	part := func(p RegionPart) ([]float64, error) {
		return e.evalDerived(ms.Metric, len(e.Regions), func(op MetricSel) ([]float64, error) {
			f, ok := operands[op]
			if !ok {
				var err error
				if f, err = e.RegionProfile(op); err != nil {
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
		hasCallees = e.FlatParts(make([]float64, len(e.Cnodes)), Sum).HasCallees
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

// FlatParts computes the flat profile from per-cnode exclusive values
// (CnodeValues) of a metric aggregated with agg, in one walk of the call
// forest. A region without call paths has all values 0.
func (e *Experiment) FlatParts(excl []float64, agg Aggregation) Flat {
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

// Value returns region r's part p.
func (f *Flat) Value(r int, p RegionPart) float64 { return f.part(p)[r] }

// RegionCnodes returns the call paths that part p of region r stands for,
// each once, in depth-first order: the region's own call paths
// (RegionOwn), the union of their subtrees (RegionWhole) or that union
// without the region's own call paths (RegionCallees). With
// LocationValuesOver it gives the system values of a flat-profile row.
func (e *Experiment) RegionCnodes(r int, p RegionPart) []int {
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
