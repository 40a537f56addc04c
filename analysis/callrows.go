package analysis

import (
	"fmt"
	"math"

	"cubeview/model"
)

// callRows passes, for every cnode of e, the values per location of the
// stored metrics ms: each cnode's own values, or with inclusive its whole
// subtree's, aggregated by each metric's aggregation, as
// model.Experiment.PointValues has them (a cnode without a stored row adds
// nothing; a min or max aggregates only the values that count, see
// model.CountedValues, and is 0 where none does). Each metric's rows are read once, one cnode at a time in depth-first
// order, without loading its block; only the rows of the cnodes on the
// current path from the root are held, so memory grows with the depth of
// the call tree, not with the size of the metric. fn sees rows[i] for
// ms[i], valid during the call; with inclusive it is called once a cnode's
// subtree is done, otherwise in depth-first order.
func callRows(e *model.Experiment, ms []int, inclusive bool, fn func(c int, rows [][]float64) error) error {
	nl := len(e.Locations)
	srcs := make([]model.RowSource, len(ms))
	for i, m := range ms {
		rows, release, err := e.Rows(m)
		if err != nil {
			return fmt.Errorf("%s: metric %q: %w", e.Source, e.Metrics[m].UniqName, err)
		}
		defer release()
		srcs[i] = rows
	}
	// Inclusive min and max combine only the values that count.
	counted := make([]func(c int, row []float64) ([]float64, error), len(ms))
	if inclusive {
		for i, m := range ms {
			if e.Metrics[m].Aggregation == model.Sum {
				continue
			}
			values, release, err := model.CountedValues(e, m)
			if err != nil {
				return fmt.Errorf("%s: metric %q: %w", e.Source, e.Metrics[m].UniqName, err)
			}
			defer release()
			counted[i] = values
		}
	}
	read := func(c int, dst [][]float64) error {
		for i, src := range srcs {
			if !src.HasRow(c) {
				if counted[i] != nil {
					fill(dst[i], e.Metrics[ms[i]].Aggregation.Identity())
				} else {
					clear(dst[i])
				}
				continue
			}
			if err := src.ReadRow(c, dst[i]); err != nil {
				return fmt.Errorf("%s: metric %q: %w", e.Source, e.Metrics[ms[i]].UniqName, err)
			}
			if counted[i] != nil {
				vals, err := counted[i](c, dst[i])
				if err != nil {
					return fmt.Errorf("%s: metric %q: %w", e.Source, e.Metrics[ms[i]].UniqName, err)
				}
				copy(dst[i], vals)
			}
		}
		return nil
	}
	// shown is what fn sees of inclusive rows: no value as 0.
	shown := make([][]float64, len(ms))
	show := func(rows [][]float64) [][]float64 {
		for i := range rows {
			if counted[i] == nil {
				shown[i] = rows[i]
				continue
			}
			if len(shown[i]) != nl {
				shown[i] = make([]float64, nl)
			}
			for l, v := range rows[i] {
				if math.IsInf(v, 0) {
					v = 0
				}
				shown[i][l] = v
			}
		}
		return shown
	}
	newRows := func() [][]float64 {
		r := make([][]float64, len(ms))
		for i := range r {
			r[i] = make([]float64, nl)
		}
		return r
	}
	if !inclusive {
		rows := newRows()
		for _, c := range e.CnodeOrder() {
			if err := read(c, rows); err != nil {
				return err
			}
			if err := fn(c, rows); err != nil {
				return err
			}
		}
		return nil
	}
	var frames [][][]float64 // per depth: the cnode's inclusive rows so far
	type step struct {
		c, depth int
		exit     bool
	}
	var stack []step
	for i := len(e.CnodeRoots) - 1; i >= 0; i-- {
		stack = append(stack, step{c: e.CnodeRoots[i]})
	}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !s.exit {
			for len(frames) <= s.depth {
				frames = append(frames, newRows())
			}
			if err := read(s.c, frames[s.depth]); err != nil {
				return err
			}
			stack = append(stack, step{c: s.c, depth: s.depth, exit: true})
			kids := e.Cnodes[s.c].Children
			for i := len(kids) - 1; i >= 0; i-- {
				stack = append(stack, step{c: kids[i], depth: s.depth + 1})
			}
			continue
		}
		rows := frames[s.depth]
		if err := fn(s.c, show(rows)); err != nil {
			return err
		}
		if s.depth > 0 {
			parent := frames[s.depth-1]
			for i, m := range ms {
				combineInto(parent[i], rows[i], e.Metrics[m].Aggregation)
			}
		}
	}
	return nil
}

// fill sets every element of v to x.
func fill(v []float64, x float64) {
	for i := range v {
		v[i] = x
	}
}
