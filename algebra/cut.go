package algebra

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"cubeview/model"
)

// CutOptions name the regions Cut works on; at least one name is needed and
// no name may be in both lists.
type CutOptions struct {
	// Reroot keeps only the subtrees of call-tree nodes whose callee
	// region has one of these names; they become the roots of the result
	// and everything outside them is dropped. Rerooted nodes must not
	// contain each other. Empty keeps the existing roots.
	Reroot []string
	// Prune removes the subtrees of call-tree nodes (within the kept part)
	// whose callee region has one of these names: the node and its
	// descendants disappear and their values are added to the parent's
	// own values, so the parent's exclusive value grows by the pruned
	// subtree's inclusive value and every total above stays the same.
	Prune []string
}

// Cut returns e with its call tree rerooted and pruned as opt says. Every
// name must match at least one call-tree node, and a root cannot be pruned
// since there is no parent to take its values. Metrics and the system tree
// are unchanged; only regions that remain referenced are kept. For min and
// max metrics a pruned node's values are combined into the parent's by min
// or max, which keeps every aggregate exact. A call graph (model.CallGraph)
// is dropped: the tool's inclusive values and arcs describe the whole
// program, not the part that is kept.
func Cut(e *model.Experiment, opt CutOptions) (*model.Experiment, error) {
	if e == nil {
		return nil, errors.New("cut: no operand")
	}
	if len(opt.Reroot) == 0 && len(opt.Prune) == 0 {
		return nil, errors.New("cut: no region to reroot or prune")
	}
	reroot, prune := map[string]bool{}, map[string]bool{}
	for _, n := range opt.Reroot {
		reroot[n] = true
	}
	for _, n := range opt.Prune {
		if reroot[n] {
			return nil, fmt.Errorf("cut: region %q cannot be both rerooted and pruned", n)
		}
		prune[n] = true
	}
	for c := range e.Cnodes {
		if r := e.Cnodes[c].Region; r < 0 || r >= len(e.Regions) {
			return nil, fmt.Errorf("cut: %s: cnode id %d refers to region index %d of %d", e.Source, e.Cnodes[c].ID, r, len(e.Regions))
		}
	}
	name := func(c int) string { return e.Regions[e.Cnodes[c].Region].Name }

	roots := e.CnodeRoots
	if len(reroot) > 0 {
		roots = nil
		found := map[string]bool{}
		within := make([]int, len(e.Cnodes)) // nearest rerooted ancestor or self, -1 for none
		for _, c := range e.CnodeOrder() {
			anc := -1
			if p := e.Cnodes[c].Parent; p >= 0 {
				anc = within[p]
			}
			if reroot[name(c)] {
				if anc >= 0 {
					return nil, fmt.Errorf("cut: cannot reroot at both %q and %q, the first contains the second",
						e.CallPath(anc), e.CallPath(c))
				}
				anc = c
				roots = append(roots, c)
				found[name(c)] = true
			}
			within[c] = anc
		}
		for _, n := range opt.Reroot {
			if !found[n] {
				return nil, fmt.Errorf("cut: %s: no call path ends in region %q to reroot", e.Source, n)
			}
		}
	}

	res := &model.Experiment{Format: "derived"}
	cmap := newMap(len(e.Cnodes))
	absorbed := make([]bool, len(e.Cnodes))
	isRoot := map[int]bool{}
	for _, r := range roots {
		isRoot[r] = true
	}
	regions := newMap(len(e.Regions))
	pruned := map[string]bool{}
	for _, c := range model.DepthFirst(roots, func(c int) []int { return e.Cnodes[c].Children }) {
		oc := &e.Cnodes[c]
		if isRoot[c] {
			if prune[name(c)] {
				return nil, fmt.Errorf("cut: cannot prune root call path %q: no parent to take its values", e.CallPath(c))
			}
		} else if p := oc.Parent; absorbed[p] || prune[name(c)] {
			if !absorbed[p] {
				pruned[name(c)] = true
			}
			absorbed[c] = true
			cmap[c] = cmap[p]
			continue
		}
		r := regions[oc.Region]
		if r < 0 {
			r = len(res.Regions)
			regions[oc.Region] = r
			nr := e.Regions[oc.Region]
			nr.ID = r
			nr.Attrs = slices.Clone(nr.Attrs)
			res.Regions = append(res.Regions, nr)
		}
		nc := *oc
		nc.ID = len(res.Cnodes)
		nc.Region = r
		nc.Parent = -1
		if !isRoot[c] {
			nc.Parent = cmap[oc.Parent]
		}
		nc.Children = nil
		nc.Present = bit(0)
		nc.Params = slices.Clone(oc.Params)
		nc.Attrs = slices.Clone(oc.Attrs)
		cmap[c] = len(res.Cnodes)
		res.Cnodes = append(res.Cnodes, nc)
	}
	for _, n := range opt.Prune {
		if !pruned[n] {
			return nil, fmt.Errorf("cut: %s: no call path ends in region %q to prune", e.Source, n)
		}
	}

	res.Metrics = slices.Clone(e.Metrics)
	for m := range res.Metrics {
		rm := &res.Metrics[m]
		rm.Present = bit(0)
		rm.Attrs = slices.Clone(rm.Attrs)
		rm.Children = nil
		if hasData(rm) {
			rm.Type = "EXCLUSIVE"
		}
	}
	res.System = slices.Clone(e.System)
	for s := range res.System {
		res.System[s].Present = bit(0)
		res.System[s].Attrs = slices.Clone(res.System[s].Attrs)
		res.System[s].Children = nil
	}
	res.Locations = slices.Clone(e.Locations)
	res.Topologies = e.Topologies
	res.Mirrors = e.Mirrors
	res.Link()

	var args []string
	for _, n := range opt.Reroot {
		args = append(args, "reroot="+strconv.Quote(n))
	}
	for _, n := range opt.Prune {
		args = append(args, "prune="+strconv.Quote(n))
	}
	prov, err := provenanceOf("cut", []*model.Experiment{e}, args, false)
	if err != nil {
		return nil, fmt.Errorf("cut: %w", err)
	}
	res.Source = prov.Expression
	for _, a := range e.Attrs {
		if !strings.HasPrefix(a.Key, "cubeview::") {
			res.Attrs = append(res.Attrs, a)
		}
	}
	res.Attrs = append(res.Attrs, prov.attrs()...)

	for m := range res.Metrics {
		if !hasData(&res.Metrics[m]) {
			continue
		}
		b, err := e.Block(m)
		if err != nil {
			return nil, fmt.Errorf("cut: %s: metric %q: %w", e.Source, e.Metrics[m].UniqName, err)
		}
		if b.NumCnodes() != len(e.Cnodes) || b.NumLocations() != len(e.Locations) {
			return nil, fmt.Errorf("cut: %s: metric %q: data block is %d×%d, want %d×%d", e.Source,
				e.Metrics[m].UniqName, b.NumCnodes(), b.NumLocations(), len(e.Cnodes), len(e.Locations))
		}
		agg := res.Metrics[m].Aggregation
		src := b
		if agg != model.Sum {
			// Only the values that count combine (see model).
			if src, err = model.MinMaxValues(e, m, b); err != nil {
				return nil, fmt.Errorf("cut: %s: metric %q: %w", e.Source, e.Metrics[m].UniqName, err)
			}
		}
		res.SetBlock(m, cutBlock(src, cmap, len(res.Cnodes), agg))
		if err := b.Err(); err != nil { // rows of an on-demand block that could not be read
			return nil, fmt.Errorf("cut: %w", err)
		}
	}
	if err := res.Validate(); err != nil {
		return nil, fmt.Errorf("%s: result is invalid: %w", res.Source, err)
	}
	return res, nil
}

// cutBlock moves the rows of b to their result cnodes, combining rows that
// land on the same cnode by agg. For min and max, b holds the values that
// count, the identity (±Inf) where none does (model.MinMaxValues), and
// the result stores 0 where no merged row has a value.
func cutBlock(b *model.Block, cmap []int, ncnodes int, agg model.Aggregation) *model.Block {
	nl := b.NumLocations()
	out := model.NewBlock(ncnodes, nl)
	has := make([]bool, ncnodes)
	for c, r := range cmap {
		if r >= 0 && b.Row(c) != nil {
			has[r] = true
		}
	}
	var rows []int
	for c, ok := range has {
		if ok {
			rows = append(rows, c)
		}
	}
	out.AllocRows(rows)
	if agg == model.Sum {
		for c, r := range cmap {
			if src := b.Row(c); r >= 0 && src != nil {
				dst := out.MutableRow(r)
				for l, v := range src {
					dst[l] += v
				}
			}
		}
		return out
	}
	for _, r := range rows {
		dst := out.MutableRow(r)
		for l := range dst {
			dst[l] = agg.Identity()
		}
	}
	for c, r := range cmap {
		if src := b.Row(c); r >= 0 && src != nil {
			dst := out.MutableRow(r)
			for l, v := range src {
				dst[l] = agg.Combine(dst[l], v)
			}
		}
	}
	for _, r := range rows {
		dst := out.MutableRow(r)
		for l, v := range dst {
			if math.IsInf(v, 0) {
				dst[l] = 0
			}
		}
	}
	return out
}
