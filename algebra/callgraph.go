package algebra

import (
	"fmt"
	"math"
	"slices"

	"cubeview/model"
)

// callGraph returns the call graph of the result of op, or nil when no
// operand has one. Regions are matched as the integration matched them.
//
//   - Inclusive values: for every result metric with data that some
//     operand's graph records, each operand contributes its flat-profile
//     inclusive values (the tool's own where its graph has them, computed
//     from its call tree otherwise, as Experiment.FlatProfileOf reports
//     them), combined like the metric's data: a − b, the mean, or those of
//     the first operand that has the metric. The result's flat profile
//     therefore shows the difference, mean or merge of what the operands
//     show.
//   - Arcs are matched by caller and callee region. Merge keeps the call
//     count of the first operand that has the arc and each metric's cost
//     from the operand the metric's data come from. Diff and mean combine
//     the arcs' per-metric costs like the data (a missing arc counts as
//     0); so do their call counts where every operand that has the arc
//     knows its count and the result is a whole non-negative number of
//     calls; otherwise the combined arc's count is unknown (-1).
func (ig *Integration) callGraph(op Op) (*model.CallGraph, error) {
	any := false
	for _, e := range ig.Operands {
		if e.CallGraph != nil {
			any = true
			break
		}
	}
	if !any {
		return nil, nil
	}
	res := ig.Result
	n := len(ig.Operands)
	weight := func(i int) float64 {
		switch op {
		case OpDiff:
			if i == 1 {
				return -1
			}
		}
		return 1
	}
	div := 1.0 // the mean divides sums by n at the end
	if op == OpMean {
		div = float64(n)
	}
	// from returns the operands whose values of result metric m enter the
	// result, with operand i's own index of the metric.
	from := func(m int) (ops, om []int) {
		for i := range ig.Operands {
			if j := slices.Index(ig.Metrics[i], m); j >= 0 {
				ops, om = append(ops, i), append(om, j)
				if op == OpMerge {
					break
				}
			}
		}
		return ops, om
	}

	g := &model.CallGraph{}
	for m := range res.Metrics {
		if !hasData(&res.Metrics[m]) || res.Metrics[m].Unavailable != "" {
			continue
		}
		ops, oms := from(m)
		recorded := false
		for k, i := range ops {
			recorded = recorded || hasToolInclusive(ig.Operands[i], oms[k])
		}
		if !recorded {
			continue
		}
		vals := make([]float64, len(res.Regions))
		for k, i := range ops {
			e := ig.Operands[i]
			_, incl, err := e.FlatProfileOf(model.MetricSel{Metric: oms[k], Inclusive: true})
			if err != nil {
				return nil, fmt.Errorf("%s: metric %q: %w", operandName(ig.Operands, i), e.Metrics[oms[k]].UniqName, err)
			}
			w := weight(i)
			for r, v := range incl {
				if rr := ig.Regions[i][r]; rr >= 0 {
					vals[rr] += w * v
				}
			}
		}
		if div != 1 {
			for r := range vals {
				vals[r] /= div
			}
		}
		if g.Inclusive == nil {
			g.Inclusive = map[int][]float64{}
		}
		g.Inclusive[m] = vals
	}

	type arcKey struct{ caller, callee int }
	index := map[arcKey]int{}
	calls := []float64{}                     // per arc: combined count, NaN once unknown
	firstOf := make([]int, len(res.Metrics)) // operand whose values a merge keeps
	for m := range firstOf {
		firstOf[m] = -1
		if ops, _ := from(m); len(ops) > 0 {
			firstOf[m] = ops[0]
		}
	}
	for i, e := range ig.Operands {
		if e.CallGraph == nil {
			continue
		}
		w := weight(i)
		for _, a := range e.CallGraph.Arcs {
			key := arcKey{-1, ig.Regions[i][a.Callee]}
			if a.Caller >= 0 {
				key.caller = ig.Regions[i][a.Caller]
			}
			if key.callee < 0 || (a.Caller >= 0 && key.caller < 0) {
				continue
			}
			k, seen := index[key]
			if !seen {
				k = len(g.Arcs)
				index[key] = k
				g.Arcs = append(g.Arcs, model.CallArc{Caller: key.caller, Callee: key.callee, Calls: a.Calls})
				calls = append(calls, 0)
				if op != OpMerge && a.Calls < 0 {
					calls[k] = math.NaN()
				} else if op != OpMerge {
					calls[k] = w * float64(a.Calls)
				}
			} else if op != OpMerge {
				if a.Calls < 0 {
					calls[k] = math.NaN()
				} else {
					calls[k] += w * float64(a.Calls)
				}
			}
			for om, v := range a.Values {
				m := ig.Metrics[i][om]
				if m < 0 || !hasData(&res.Metrics[m]) {
					continue
				}
				if op == OpMerge && firstOf[m] != i {
					continue
				}
				arc := &g.Arcs[k]
				if arc.Values == nil {
					arc.Values = map[int]float64{}
				}
				arc.Values[m] += w * v
			}
		}
	}
	for k := range g.Arcs {
		if op == OpMerge {
			break
		}
		for m := range g.Arcs[k].Values {
			g.Arcs[k].Values[m] /= div
		}
		c := calls[k] / div
		if c >= 0 && c == math.Trunc(c) && c < 1<<62 {
			g.Arcs[k].Calls = int64(c)
		} else {
			g.Arcs[k].Calls = -1
		}
	}
	return g, nil
}

// hasToolInclusive reports whether e's call graph records inclusive
// values of metric m.
func hasToolInclusive(e *model.Experiment, m int) bool {
	if e.CallGraph == nil {
		return false
	}
	_, ok := e.CallGraph.Inclusive[m]
	return ok
}
