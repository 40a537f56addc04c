package algebra

import (
	"fmt"
	"math"
	"slices"

	"cubeview/model"
)

// isFlatProfile reports whether e is a flat profile: more than one
// call-tree node and every one a root (a tool that records no call paths,
// e.g. a TAU profile without call paths).
func isFlatProfile(e *model.Experiment) bool {
	return len(e.Cnodes) > 1 && len(e.CnodeRoots) == len(e.Cnodes)
}

// flattenMixed returns the operands with a call tree replaced by its flat
// profile where a flat profile among them holds regions that the tree has
// below its roots: a flat profile compares with a tree only region by
// region. It returns the operands unchanged otherwise, and says which
// were flattened.
func flattenMixed(ops []*model.Experiment) ([]*model.Experiment, []string, error) {
	var flat []int
	for i, e := range ops {
		if isFlatProfile(e) {
			flat = append(flat, i)
		}
	}
	if len(flat) == 0 || len(flat) == len(ops) {
		return ops, nil, nil
	}
	flatRegions := map[string]bool{}
	for _, i := range flat {
		e := ops[i]
		for c := range e.Cnodes {
			flatRegions[CanonicalRegionName(e.CnodeRegion(c).Name)] = true
		}
	}
	var out []*model.Experiment
	var notes []string
	for i, e := range ops {
		if isFlatProfile(e) || !slices.ContainsFunc(e.Cnodes, func(c model.Cnode) bool {
			return c.Parent >= 0 && flatRegions[CanonicalRegionName(e.Regions[c.Region].Name)]
		}) {
			continue
		}
		if out == nil {
			out = slices.Clone(ops)
		}
		fe, err := flatProfile(e)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", operandName(ops, i), err)
		}
		out[i] = fe
		notes = append(notes, fmt.Sprintf(
			"%s is a flat profile (no call paths), so %s is compared by its flat profile: each region's own values summed over its call paths, and its inclusive values",
			operandName(ops, flat[0]), operandName(ops, i)))
	}
	if out == nil {
		return ops, nil, nil
	}
	return out, notes, nil
}

// flatProfile returns e with its call tree replaced by its flat profile:
// one root per region that has call paths, in depth-first order of first
// use, holding the region's own values (summed over its call paths; the
// smallest or largest for a min or max metric), and a call graph with
// each region's inclusive value (each call path counted once, as
// Experiment.FlatProfileOf reports it) and the caller → callee arcs of
// the tree with their inclusive costs. Metadata other than the call tree
// are shared; the own values are computed per metric when first used.
func flatProfile(e *model.Experiment) (*model.Experiment, error) {
	to := make([]int, len(e.Cnodes))
	of := map[int]int{} // region → flat cnode
	var cnodes []model.Cnode
	var roots []int
	for _, c := range e.CnodeOrder() {
		r := e.Cnodes[c].Region
		f, ok := of[r]
		if !ok {
			f = len(cnodes)
			of[r] = f
			cnodes = append(cnodes, model.Cnode{ID: f, Region: r, CallLine: -1, Parent: -1})
			roots = append(roots, f)
		}
		to[c] = f
	}
	g := &model.CallGraph{Inclusive: map[int][]float64{}}
	type arcKey struct{ caller, callee int }
	arcs := map[arcKey]int{}
	for c := range e.Cnodes {
		if p := e.Cnodes[c].Parent; p >= 0 {
			k := arcKey{e.Cnodes[p].Region, e.Cnodes[c].Region}
			if _, ok := arcs[k]; !ok {
				arcs[k] = len(g.Arcs)
				g.Arcs = append(g.Arcs, model.CallArc{Caller: k.caller, Callee: k.callee, Calls: -1, Values: map[int]float64{}})
			}
		}
	}
	for m := range e.Metrics {
		if !hasData(&e.Metrics[m]) {
			continue
		}
		sel := model.MetricSel{Metric: m, Inclusive: true}
		_, incl, err := e.FlatProfileOf(sel)
		if err != nil {
			return nil, fmt.Errorf("metric %q: %w", e.Metrics[m].UniqName, err)
		}
		g.Inclusive[m] = incl
		if e.Metrics[m].Aggregation != model.Sum {
			continue // an arc's cost of a min or max metric is not known
		}
		paths, err := e.CallTreeValues(sel, true)
		if err != nil {
			return nil, fmt.Errorf("metric %q: %w", e.Metrics[m].UniqName, err)
		}
		for c := range e.Cnodes {
			if p := e.Cnodes[c].Parent; p >= 0 {
				g.Arcs[arcs[arcKey{e.Cnodes[p].Region, e.Cnodes[c].Region}]].Values[m] += paths[c]
			}
		}
	}
	metrics := slices.Clone(e.Metrics)
	for m := range metrics {
		metrics[m].Children = slices.Clone(metrics[m].Children)
	}
	fe := &model.Experiment{
		Source: e.Source, Format: e.Format, Attrs: e.Attrs, Mirrors: e.Mirrors,
		Metrics: metrics, MetricRoots: e.MetricRoots, Regions: e.Regions,
		Cnodes: cnodes, CnodeRoots: roots, CallGraph: g,
		System: e.System, SystemRoots: e.SystemRoots, Locations: e.Locations, Topologies: e.Topologies,
		Warnings: e.Warnings,
	}
	fe.SetLoader(&flatLoader{src: e, to: to, n: len(cnodes)})
	return fe, nil
}

// flatLoader computes a flat profile's data from the call tree's.
type flatLoader struct {
	src *model.Experiment
	to  []int // source cnode → flat cnode
	n   int
}

// LoadBlock implements model.Loader.
func (l *flatLoader) LoadBlock(m int) (*model.Block, error) {
	b, err := l.src.Block(m)
	if err != nil {
		return nil, err
	}
	agg := l.src.Metrics[m].Aggregation
	if agg != model.Sum {
		// Only the values that count combine (see model); none is 0.
		if b, err = model.MinMaxValues(l.src, m, b); err != nil {
			return nil, err
		}
	}
	out := model.NewBlock(l.n, l.src.NumLocations())
	err = b.Scan(func(c int, row []float64) error {
		f := l.to[c]
		if !out.HasRow(f) {
			copy(out.MutableRow(f), row)
			return nil
		}
		dst := out.MutableRow(f)
		for k, v := range row {
			dst[k] = agg.Combine(dst[k], v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if agg != model.Sum {
		for c := range l.n {
			if row := out.Row(c); row != nil {
				for k, v := range row {
					if math.IsInf(v, 0) {
						row[k] = 0
					}
				}
			}
		}
	}
	return out, nil
}
