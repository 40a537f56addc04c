package analysis

import (
	"math"

	"cubeview/algebra"
	"cubeview/model"
)

// domain is the part of the integrated domain that both experiments
// have: the call paths present in both and the frames above them that
// only one recorded (a set closed towards the roots), the locations present in both (the common columns), and the
// system nodes with a common location below them, numbered compactly in
// depth-first order with a virtual root when there are several.
type domain struct {
	ig   *algebra.Integration
	d    *model.Experiment
	self bool // call paths' own parts are foci
	// ops lists each side's operands (runs) in the integration, and
	// masks the same as operand masks.
	ops   [2][]int
	masks [2]model.Mask

	common      []bool // per domain cnode: in both experiments
	commonKids  [][]int
	commonRoots []int

	ncols int   // common columns
	colOf []int // domain location → common column, −1

	// Compact system tree: node k is domain system node sysNode[k] (−1
	// for the virtual root), with parent sysParent[k] (−1 for the root,
	// k = 0) and common column sysCol[k] (−1 unless a location).
	sysNode   []int
	sysParent []int
	sysCol    []int
	sysKids   [][]int
	sysOf     []int // domain system node → compact node, −1
}

// newDomain returns the common part of the integrated runs, the first na
// operands being side A and the rest side B: what some run of A and some
// run of B have.
func newDomain(ig *algebra.Integration, self bool, na int) *domain {
	d := ig.Result
	dom := &domain{ig: ig, d: d, self: self}
	for op := range ig.Operands {
		side := 0
		if op >= na {
			side = 1
		}
		dom.ops[side] = append(dom.ops[side], op)
		dom.masks[side] |= model.Mask(1) << uint(op)
	}
	both := func(m model.Mask) bool { return m&dom.masks[0] != 0 && m&dom.masks[1] != 0 }
	dom.common = make([]bool, len(d.Cnodes))
	dom.commonKids = make([][]int, len(d.Cnodes))
	// A call path is common when both have it, or when one recorded a
	// frame the other did not (Score-P's main above TAU's MPI_Bcast) and
	// a common call path lies below it: the other's value there is what
	// it measured below.
	order := d.CnodeOrder()
	for i := len(order) - 1; i >= 0; i-- {
		c := order[i]
		n := &d.Cnodes[c]
		if both(n.Present) {
			dom.common[c] = true
		}
		if dom.common[c] && n.Parent >= 0 {
			dom.common[n.Parent] = true
		}
	}
	for _, c := range order {
		n := &d.Cnodes[c]
		if !dom.common[c] {
			continue
		}
		if n.Parent < 0 {
			dom.commonRoots = append(dom.commonRoots, c)
		} else {
			dom.commonKids[n.Parent] = append(dom.commonKids[n.Parent], c)
		}
	}
	dom.colOf = make([]int, len(d.Locations))
	for l, s := range d.Locations {
		dom.colOf[l] = -1
		if both(d.System[s].Present) {
			dom.colOf[l] = dom.ncols
			dom.ncols++
		}
	}
	// Which system nodes have a common location below them.
	has := make([]bool, len(d.System))
	sorder := d.SystemOrder()
	for i := len(sorder) - 1; i >= 0; i-- {
		s := sorder[i]
		n := &d.System[s]
		if n.Location >= 0 && dom.colOf[n.Location] >= 0 {
			has[s] = true
		}
		if has[s] && n.Parent >= 0 {
			has[n.Parent] = true
		}
	}
	var roots []int
	for _, s := range d.SystemRoots {
		if has[s] {
			roots = append(roots, s)
		}
	}
	dom.sysOf = make([]int, len(d.System))
	for s := range dom.sysOf {
		dom.sysOf[s] = -1
	}
	var add func(s, parent int)
	add = func(s, parent int) {
		k := len(dom.sysNode)
		dom.sysNode = append(dom.sysNode, s)
		dom.sysParent = append(dom.sysParent, parent)
		dom.sysKids = append(dom.sysKids, nil)
		col := -1
		kids := roots
		if s >= 0 {
			dom.sysOf[s] = k
			if l := d.System[s].Location; l >= 0 {
				col = dom.colOf[l]
			}
			kids = d.System[s].Children
			// A chain of system nodes each with one child in the common
			// part (machine, node, process of a one-process run; a
			// process of one thread) is one focus: every node of it has
			// the same locations, so the same values.
			for col < 0 {
				only, n := -1, 0
				for _, ch := range kids {
					if has[ch] {
						only, n = ch, n+1
					}
				}
				if n != 1 {
					break
				}
				dom.sysOf[only] = k
				if l := d.System[only].Location; l >= 0 {
					col = dom.colOf[l]
				}
				kids = d.System[only].Children
			}
		}
		dom.sysCol = append(dom.sysCol, col)
		if parent >= 0 {
			dom.sysKids[parent] = append(dom.sysKids[parent], k)
		}
		for _, ch := range kids {
			if has[ch] {
				add(ch, k)
			}
		}
	}
	switch len(roots) {
	case 0:
	case 1:
		add(roots[0], -1)
	default:
		add(-1, -1)
	}
	return dom
}

// hasCommon reports whether the experiments share a call path and a
// location.
func (dom *domain) hasCommon() bool { return len(dom.commonRoots) > 0 && dom.ncols > 0 }

// rootFocus returns the whole-program focus of the common part.
func (dom *domain) rootFocus() Focus {
	f := Focus{Cnode: -1, System: -1}
	if len(dom.commonRoots) == 1 {
		f.Cnode = dom.commonRoots[0]
	}
	if len(dom.sysNode) > 0 {
		f.System = dom.sysNode[0]
	}
	return f
}

// hasSelf reports whether call path c has a "(self)" focus: own parts
// are compared and c has callees in the common part.
func (dom *domain) hasSelf(c int) bool { return dom.self && c >= 0 && len(dom.commonKids[c]) > 0 }

// children returns the foci one step below f.
func (dom *domain) children(f Focus, fn func(Focus)) {
	if !f.Self {
		kids := dom.commonRoots
		if f.Cnode >= 0 {
			kids = dom.commonKids[f.Cnode]
		}
		for _, c := range kids {
			fn(Focus{Cnode: c, System: f.System})
		}
		if dom.hasSelf(f.Cnode) {
			fn(Focus{Cnode: f.Cnode, System: f.System, Self: true})
		}
	}
	k := 0
	if f.System >= 0 {
		k = dom.sysOf[f.System]
	}
	for _, ch := range dom.sysKids[k] {
		fn(Focus{Cnode: f.Cnode, System: dom.sysNode[ch], Self: f.Self})
	}
}

// aggregate combines per-column values (one per common column) up the
// compact system tree into out (one per compact node).
func (dom *domain) aggregate(cols []float64, agg model.Aggregation, out []float64) {
	if agg == model.Sum {
		clear(out)
		for k := len(out) - 1; k >= 0; k-- {
			if j := dom.sysCol[k]; j >= 0 {
				out[k] += cols[j]
			}
			if p := dom.sysParent[k]; p >= 0 {
				out[p] += out[k]
			}
		}
		return
	}
	id := agg.Identity()
	for k := range out {
		out[k] = id
	}
	for k := len(out) - 1; k >= 0; k-- {
		if j := dom.sysCol[k]; j >= 0 {
			out[k] = agg.Combine(out[k], cols[j])
		}
		if p := dom.sysParent[k]; p >= 0 {
			out[p] = agg.Combine(out[p], out[k])
		}
	}
	// A min or max without any value has none (not 0).
	for k, v := range out {
		if math.IsInf(v, 0) {
			out[k] = math.NaN()
		}
	}
}

// structure lists what only one side has: the topmost call paths of one
// side only, then the topmost system nodes whose locations are all of one
// side, with the metric's value there (a group's: the mean over its runs
// that have it).
func (dom *domain) structure(sides [2]*sideValues) ([]StructuralDiff, error) {
	d, ig := dom.d, dom.ig
	var out []StructuralDiff
	for _, c := range d.CnodeOrder() {
		n := &d.Cnodes[c]
		if dom.common[c] || (n.Parent >= 0 && !dom.common[n.Parent]) {
			continue
		}
		side := SideA
		if n.Present&dom.masks[0] == 0 {
			side = SideB
		}
		v := math.NaN()
		if sides[side] != nil {
			var err error
			if v, err = sides[side].callPathValue(c); err != nil {
				return nil, err
			}
		}
		out = append(out, StructuralDiff{Only: side, Cnode: c, System: -1, Value: v})
	}
	// Operand columns per domain location.
	opCol := make([][]int, len(ig.Operands))
	for i := range opCol {
		opCol[i] = make([]int, len(d.Locations))
		for l := range opCol[i] {
			opCol[i][l] = -1
		}
		for ol, rl := range ig.Locations[i] {
			if rl >= 0 {
				opCol[i][rl] = ol
			}
		}
	}
	var locsBelow func(s int, fn func(l int))
	locsBelow = func(s int, fn func(l int)) {
		if l := d.System[s].Location; l >= 0 {
			fn(l)
		}
		for _, ch := range d.System[s].Children {
			locsBelow(ch, fn)
		}
	}
	var visit func(s int) error
	visit = func(s int) error {
		if dom.sysOf[s] >= 0 {
			for _, ch := range d.System[s].Children {
				if err := visit(ch); err != nil {
					return err
				}
			}
			return nil
		}
		// Per side and run, the run's columns below s.
		var cols [2][][]int
		var has [2]bool
		for i := range cols {
			cols[i] = make([][]int, len(dom.ops[i]))
		}
		locsBelow(s, func(l int) {
			for i, ops := range dom.ops {
				for r, op := range ops {
					if ol := opCol[op][l]; ol >= 0 {
						cols[i][r] = append(cols[i][r], ol)
						has[i] = true
					}
				}
			}
		})
		switch {
		case !has[0] && !has[1]:
			return nil // no location at all
		case has[0] && has[1]:
			for _, ch := range d.System[s].Children {
				if err := visit(ch); err != nil {
					return err
				}
			}
			return nil
		}
		side := SideA
		if !has[0] {
			side = SideB
		}
		v, err := sides[side].columnsValue(cols[side])
		if err != nil {
			return err
		}
		out = append(out, StructuralDiff{Only: side, Cnode: -1, System: s, Value: v})
		return nil
	}
	for _, s := range d.SystemRoots {
		if err := visit(s); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// rootValues returns both experiments' values at the whole-program focus
// of the common part, in one pass over each side's rows.
func (dom *domain) rootValues(sides [2]*sideValues) (a, b float64, err error) {
	var out [2]float64
	cols := make([]float64, dom.ncols)
	sys := make([]float64, len(dom.sysNode))
	for i, sv := range sides {
		acc := make([][]float64, len(sv.aggs))
		for in := range sv.aggs {
			acc[in] = make([]float64, dom.ncols)
			if agg := sv.aggs[in]; agg != model.Sum {
				for j := range acc[in] {
					acc[in][j] = agg.Identity()
				}
			}
		}
		for c, ok := range dom.common {
			if !ok {
				continue
			}
			for in := range sv.aggs {
				if err := sv.readOwn(in, c, cols); err != nil {
					return 0, 0, err
				}
				combineInto(acc[in], cols, sv.aggs[in])
			}
		}
		vecs := make([][]float64, len(sv.aggs))
		for in := range sv.aggs {
			dom.aggregate(acc[in], sv.aggs[in], sys)
			vecs[in] = []float64{sys[0]}
		}
		v, err := sv.expr.eval(1, func(in int) []float64 { return vecs[in] })
		if err != nil {
			return 0, 0, err
		}
		out[i] = v[0]
	}
	return out[0], out[1], nil
}

// combineInto aggregates src into dst element-wise.
func combineInto(dst, src []float64, agg model.Aggregation) {
	switch agg {
	case model.Sum:
		for j, v := range src {
			dst[j] += v
		}
	default:
		for j, v := range src {
			dst[j] = agg.Combine(dst[j], v)
		}
	}
}
