package algebra

import (
	"fmt"
	"slices"

	"cubeview/model"
)

// isFlatProfile reports whether e is a flat profile: more than one
// call-tree node and every one a root (a tool that records no call paths,
// e.g. a TAU profile without call paths).
func isFlatProfile(e *model.Experiment) bool {
	return len(e.Cnodes) > 1 && len(e.CnodeRoots) == len(e.Cnodes)
}

// flattenMixed returns the operands with every call tree replaced by its
// flat profile when some operands are flat profiles and others are not:
// a flat profile compares with a tree only region by region. It returns
// the operands unchanged otherwise, and says which were flattened.
func flattenMixed(ops []*model.Experiment) ([]*model.Experiment, []string) {
	var flat, trees []int
	for i, e := range ops {
		switch {
		case isFlatProfile(e):
			flat = append(flat, i)
		case len(e.Cnodes) > 1:
			trees = append(trees, i)
		}
	}
	if len(flat) == 0 || len(trees) == 0 {
		return ops, nil
	}
	out := slices.Clone(ops)
	var notes []string
	for _, i := range trees {
		out[i] = flatProfile(ops[i])
		notes = append(notes, fmt.Sprintf(
			"%s is a flat profile (no call paths), so %s is compared by its flat profile: each region's own values summed over its call paths",
			operandName(ops, flat[0]), operandName(ops, i)))
	}
	return out, notes
}

// flatProfile returns e with its call tree replaced by its flat profile:
// one root per region that has call paths, in depth-first order of first
// use, holding the region's own values (summed over its call paths; the
// smallest or largest for a min or max metric). Metadata other than the
// call tree are shared; data are computed per metric when first used.
func flatProfile(e *model.Experiment) *model.Experiment {
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
	metrics := slices.Clone(e.Metrics)
	for m := range metrics {
		metrics[m].Children = slices.Clone(metrics[m].Children)
	}
	fe := &model.Experiment{
		Source: e.Source, Format: e.Format, Attrs: e.Attrs, Mirrors: e.Mirrors,
		Metrics: metrics, MetricRoots: e.MetricRoots, Regions: e.Regions,
		Cnodes: cnodes, CnodeRoots: roots,
		System: e.System, SystemRoots: e.SystemRoots, Locations: e.Locations, Topologies: e.Topologies,
		Warnings: e.Warnings,
	}
	fe.SetLoader(&flatLoader{src: e, to: to, n: len(cnodes)})
	return fe
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
	return out, nil
}
