package model

import "math"

// The bottom-up view (hpcviewer's) turns the call tree upside down: at
// the top every region with the values of all its call paths, below a
// region the regions that called it, below those their callers, and so
// on up to the roots. A row stands for the region's call paths reached
// through the chain of callers above it, and its values are split among
// its callers: the exclusive values of the rows below a row add up to
// the row's, except for the call paths that are roots (nobody called
// them), which end at the row.

// CallerPath is one call path of a bottom-up tree's top region as a row
// of the tree sees it: the call path, its ancestor at the row's depth
// (the row's region is that ancestor's), and whether the call path is
// outermost (no ancestor belongs to the top region): only outermost
// call paths count towards inclusive values, so that a recursive region
// is not counted twice.
type CallerPath struct {
	Cnode, At int
	Outer     bool
}

// CallerRow is one row of a bottom-up tree.
type CallerRow struct {
	// Region is the row's region: the top region at depth 0, else the
	// caller reached Depth calls above it.
	Region int
	Depth  int
	// Excl and Incl aggregate the exclusive values of all Paths and the
	// inclusive values of the outermost ones.
	Excl, Incl float64
	Paths      []CallerPath
}

// BottomUp returns the top rows of the bottom-up tree for per-cnode
// exclusive and inclusive values (CallTreeValues) of a metric aggregated
// with agg: one row per region that has call paths, in region order. A
// row's Excl and Incl are the region's own and whole values of the flat
// profile (flatParts).
func BottomUp(e *Experiment, excl, incl []float64, agg Aggregation) []CallerRow {
	// One backing array, cut into each region's part.
	count := make([]int, len(e.Regions))
	for i := range e.Cnodes {
		count[e.Cnodes[i].Region]++
	}
	all := make([]CallerPath, len(e.Cnodes))
	byRegion := make([][]CallerPath, len(e.Regions))
	off := 0
	for r, n := range count {
		byRegion[r] = all[off : off : off+n]
		off += n
	}
	inside := make([]int, len(e.Regions)) // instances of a region among the current path's ancestors
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
			inside[r]--
			continue
		}
		byRegion[r] = append(byRegion[r], CallerPath{Cnode: fr.c, At: fr.c, Outer: inside[r] == 0})
		inside[r]++
		stack = append(stack, frame{c: fr.c, exit: true})
		kids := e.Cnodes[fr.c].Children
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, frame{c: kids[i]})
		}
	}
	out := make([]CallerRow, 0, len(e.Regions))
	for r, paths := range byRegion {
		if len(paths) > 0 {
			out = append(out, newCallerRow(r, 0, paths, excl, incl, agg))
		}
	}
	return out
}

// Callers returns the rows below row: its paths grouped by the region of
// the caller one call further up, in the order of the call paths. Paths
// whose ancestor at the row is a root have no caller and no row below.
func Callers(e *Experiment, row CallerRow, excl, incl []float64, agg Aggregation) []CallerRow {
	groups := map[int][]CallerPath{}
	var order []int
	for _, p := range row.Paths {
		up := e.Cnodes[p.At].Parent
		if up < 0 {
			continue
		}
		r := e.Cnodes[up].Region
		if _, ok := groups[r]; !ok {
			order = append(order, r)
		}
		groups[r] = append(groups[r], CallerPath{Cnode: p.Cnode, At: up, Outer: p.Outer})
	}
	out := make([]CallerRow, 0, len(order))
	for _, r := range order {
		out = append(out, newCallerRow(r, row.Depth+1, groups[r], excl, incl, agg))
	}
	return out
}

// Uncalled returns the part of row's values whose call paths reach a root
// at the row: what its callers' rows do not hold.
func (row CallerRow) Uncalled(e *Experiment, excl, incl []float64, agg Aggregation) (ex, in float64, n int) {
	var ps []CallerPath
	for _, p := range row.Paths {
		if e.Cnodes[p.At].Parent < 0 {
			ps = append(ps, p)
		}
	}
	r := newCallerRow(row.Region, row.Depth, ps, excl, incl, agg)
	return r.Excl, r.Incl, len(ps)
}

func newCallerRow(region, depth int, paths []CallerPath, excl, incl []float64, agg Aggregation) CallerRow {
	row := CallerRow{Region: region, Depth: depth, Paths: paths, Excl: agg.Identity(), Incl: agg.Identity()}
	for _, p := range paths {
		row.Excl = agg.Combine(row.Excl, excl[p.Cnode])
		if p.Outer {
			row.Incl = agg.Combine(row.Incl, incl[p.Cnode])
		}
	}
	// A min or max over nothing is no value: 0, as in the flat profile.
	for _, x := range []*float64{&row.Excl, &row.Incl} {
		if math.IsInf(*x, 0) {
			*x = 0
		}
	}
	return row
}
