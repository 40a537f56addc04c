package repo

import (
	"fmt"

	"cubeview/model"
)

// vectors are a metric's values as searches and summaries use them: per
// cnode (own and with callees), per region (flat profile) and the run's
// total, each aggregated over a set of locations.
type vectors struct {
	excl, incl       []float64
	regExcl, regIncl []float64
	total            float64
}

// maxDerivedDepth bounds chains of derived metrics (and catches cycles).
const maxDerivedDepth = 32

// evalFormula evaluates a derived metric after aggregation: each vector is
// the formula applied to its operands' vectors of the same kind, as the
// model evaluates derived metrics at every node shown.
func evalFormula(f *model.Formula, nc, nr int, operand func(name string) (vectors, error)) (vectors, error) {
	ops := map[string]vectors{}
	for _, name := range f.Metrics() {
		v, err := operand(name)
		if err != nil {
			return vectors{}, err
		}
		ops[name] = v
	}
	// A part that some operand lacks (a search reads only the parts it
	// needs) is left out of the result too.
	part := func(sel func(vectors) []float64, n int) ([]float64, error) {
		for _, op := range ops {
			if sel(op) == nil {
				return nil, nil
			}
		}
		return f.Eval(n, func(name string) ([]float64, error) { return sel(ops[name]), nil })
	}
	var v vectors
	var err error
	if v.excl, err = part(func(x vectors) []float64 { return x.excl }, nc); err != nil {
		return v, err
	}
	if v.incl, err = part(func(x vectors) []float64 { return x.incl }, nc); err != nil {
		return v, err
	}
	if v.regExcl, err = part(func(x vectors) []float64 { return x.regExcl }, nr); err != nil {
		return v, err
	}
	if v.regIncl, err = part(func(x vectors) []float64 { return x.regIncl }, nr); err != nil {
		return v, err
	}
	v.total, err = f.EvalScalar(func(name string) (float64, error) { return ops[name].total, nil })
	return v, err
}

// experimentVectors returns the vectors of e's metric m over the data
// columns cols (nil: all locations), for stored and derived metrics.
func experimentVectors(e *model.Experiment, m int, cols []int, depth int) (vectors, error) {
	met := &e.Metrics[m]
	if met.IsDerived() {
		if depth > maxDerivedDepth {
			return vectors{}, fmt.Errorf("derived metric %q: definitions nest too deep or form a cycle", met.UniqName)
		}
		return evalFormula(met.Formula, len(e.Cnodes), len(e.Regions), func(name string) (vectors, error) {
			op := e.MetricByName(name)
			if op < 0 {
				return vectors{}, fmt.Errorf("derived metric %q refers to %q, which the experiment does not have", met.UniqName, name)
			}
			return experimentVectors(e, op, cols, depth+1)
		})
	}
	// The model's summary follows the panes' rules (min and max count
	// only visited call paths); the run's total is what the metric pane
	// shows, and over all locations the flat profile keeps the tool's
	// own inclusive values where a call graph records them.
	s, err := model.SummaryOver(e, m, cols)
	if err != nil {
		return vectors{}, err
	}
	return vectors{excl: s.Own, incl: s.Whole, regExcl: s.RegionOwn, regIncl: s.RegionWhole, total: s.Total}, nil
}
