package analysis

import (
	"fmt"
	"slices"

	"cubeview/model"
)

// valueExpr computes a metric's values from stored metrics (its inputs):
// a stored metric itself, or a derived metric's formula over other value
// expressions.
type valueExpr struct {
	input   int // index in the inputs, for a stored metric
	formula *model.Formula
	args    map[string]*valueExpr
}

// eval computes the expression element-wise over vectors of length n;
// vec returns an input's vector (it is not changed).
func (x *valueExpr) eval(n int, vec func(input int) []float64) ([]float64, error) {
	if x.formula == nil {
		return vec(x.input), nil
	}
	return x.formula.Eval(n, func(name string) ([]float64, error) {
		return x.args[name].eval(n, vec)
	})
}

// exprBuilder resolves metrics of one experiment into value expressions
// over its stored metrics.
type exprBuilder struct {
	e *model.Experiment
	// lookup finds the metric a formula names, −1 when there is none.
	lookup func(name string) int
	inputs []int // the stored metrics the expressions read, each once
}

// maxFormulaNesting bounds derived metrics naming derived metrics.
const maxFormulaNesting = 32

// metric returns the expression of metric m; missing says why it cannot
// be computed (a metric without values, or one a formula names that the
// experiment lacks).
func (b *exprBuilder) metric(m, depth int) (*valueExpr, string, error) {
	mt := &b.e.Metrics[m]
	if mt.Unavailable != "" {
		return nil, fmt.Sprintf("%s: metric %q has no values: %s", b.e.Source, mt.UniqName, mt.Unavailable), nil
	}
	if mt.IsDerived() {
		return b.formula(mt.Formula, mt.UniqName, depth)
	}
	if i := slices.Index(b.inputs, m); i >= 0 {
		return &valueExpr{input: i}, "", nil
	}
	b.inputs = append(b.inputs, m)
	return &valueExpr{input: len(b.inputs) - 1}, "", nil
}

// formula returns the expression of derived metric name's formula f.
func (b *exprBuilder) formula(f *model.Formula, name string, depth int) (*valueExpr, string, error) {
	if depth > maxFormulaNesting {
		return nil, "", fmt.Errorf("%s: derived metric %q: formulas nested too deeply", b.e.Source, name)
	}
	x := &valueExpr{formula: f, args: map[string]*valueExpr{}}
	for _, arg := range f.Metrics() {
		m := b.lookup(arg)
		if m < 0 {
			return nil, fmt.Sprintf("%s has no metric %q, which %s = %s needs", b.e.Source, arg, name, f), nil
		}
		sub, missing, err := b.metric(m, depth+1)
		if err != nil || missing != "" {
			return nil, missing, err
		}
		x.args[arg] = sub
	}
	return x, "", nil
}
