package algebra

import (
	"fmt"
	"slices"

	"cubeview/model"
)

// maxInlineDepth bounds derived metrics that name derived metrics.
const maxInlineDepth = 32

// operandCopy is a hidden metric of a difference that keeps one
// operand's values of a stored metric.
type operandCopy struct {
	metric int // the copy, in the result
	of     int // the metric copied, in the result
	op     int // the operand whose values it holds
}

// derivedDifferences makes each derived metric of a difference the
// difference of the operands' values of its formula, f(A) − f(B), never
// the formula of the differences (a ratio of differences means nothing:
// ΔINS / ΔCYC is not a change of instructions per cycle). The stored
// metrics the formula reads are kept once per operand as hidden (VOID)
// metrics, and the formula becomes f(A's copies) − f(B's copies), so the
// result is exact at every call path and system node, and the Cube tools
// compute it the same way from the saved file. A derived metric whose
// formula reads a metric that an operand lacks gets no values, with the
// reason. It returns the copies to fill.
func derivedDifferences(ig *Integration, res *model.Experiment) []operandCopy {
	var copies []operandCopy
	copyOf := map[[2]int]int{} // (metric, operand) → index in copies
	nres := len(res.Metrics)
	for m := 0; m < nres; m++ {
		rm := &res.Metrics[m]
		if !rm.IsDerived() {
			continue
		}
		f, err := inline(res, rm.Formula, 0)
		if err != nil {
			rm.Unavailable = "derived metric: " + err.Error()
			continue
		}
		var missing string
		for _, name := range f.Metrics() {
			x := res.MetricByName(name)
			for op := range ig.Operands[:2] {
				if x < 0 || !hasData(&res.Metrics[x]) || !slices.Contains(ig.Metrics[op], x) {
					missing = fmt.Sprintf("derived metric: %s of the difference needs %s in both operands; %s lacks it",
						rm.UniqName, name, operandName(ig.Operands, op))
				}
			}
		}
		if missing != "" {
			rm.Unavailable = missing
			continue
		}
		side := func(op int) *model.Formula {
			return f.Replace(func(name string) *model.Formula {
				x := res.MetricByName(name)
				k, ok := copyOf[[2]int{x, op}]
				if !ok {
					k = len(copies)
					copyOf[[2]int{x, op}] = k
					copies = append(copies, operandCopy{metric: addCopy(ig, res, x, op), of: x, op: op})
				}
				return model.MetricRef(res.Metrics[copies[k].metric].UniqName)
			})
		}
		diff := model.Difference(side(0), side(1))
		rm = &res.Metrics[m] // addCopy may have moved the slice
		orig := rm.Formula.String()
		rm.Formula = diff
		rm.Type = model.PostDerived
		rm.Expression = rm.Formula.CubePL()
		name := rm.DispName
		if name == "" {
			name = rm.UniqName
		}
		rm.DispName = name + " (A − B of each one's value)"
		rm.Descr = fmt.Sprintf("%s of A minus %s of B, each from that operand's own values (%s = %s); not the formula of the differences",
			rm.UniqName, rm.UniqName, rm.UniqName, orig)
	}
	return copies
}

// inline replaces, recursively, the derived metrics a formula names by
// their formulas, so that it reads stored metrics only.
func inline(e *model.Experiment, f *model.Formula, depth int) (*model.Formula, error) {
	if depth > maxInlineDepth {
		return nil, fmt.Errorf("formula %s: derived metrics nested too deeply", f)
	}
	var err error
	out := f.Replace(func(name string) *model.Formula {
		x := e.MetricByName(name)
		if x < 0 || !e.Metrics[x].IsDerived() || err != nil {
			return nil
		}
		var sub *model.Formula
		sub, err = inline(e, e.Metrics[x].Formula, depth+1)
		return sub
	})
	return out, err
}

// addCopy appends to res a hidden metric for operand op's values of
// result metric x and returns its index.
func addCopy(ig *Integration, res *model.Experiment, x, op int) int {
	src := res.Metrics[x]
	side := string(rune('A' + op))
	name := src.UniqName + "_" + side
	for i := 2; res.MetricByName(name) >= 0; i++ {
		name = fmt.Sprintf("%s_%s%d", src.UniqName, side, i)
	}
	disp := src.DispName
	if disp == "" {
		disp = src.UniqName
	}
	m := model.Metric{
		ID: len(res.Metrics), UniqName: name, DispName: disp + " in " + side,
		DataType: src.DataType, Unit: src.Unit, Type: "EXCLUSIVE", Aggregation: src.Aggregation,
		Val:    "VOID",
		Descr:  fmt.Sprintf("%s of operand %s (%s), kept for the difference of derived metrics", src.UniqName, side, ig.Operands[op].Source),
		Parent: -1, Present: bit(op),
	}
	res.Metrics = append(res.Metrics, m)
	res.MetricRoots = append(slices.Clone(res.MetricRoots), len(res.Metrics)-1)
	return len(res.Metrics) - 1
}
