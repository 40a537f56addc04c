package analysis

import (
	"fmt"
	"math"
	"slices"

	"cubeview/algebra"
	"cubeview/model"
)

// sideValues reads one experiment's values of the compared metric on the
// domain: the rows of the stored metrics it needs (the metric itself, or
// the metrics its formula names), one call path at a time. It is the one
// place that knows where a side's values come from; a side made of
// several runs would read each run's rows here.
type sideValues struct {
	exp    *model.Experiment
	inputs []sideInput
	expr   *valueExpr
	inv    []int // domain cnode → operand cnode, −1 where the operand has none
	cols   []int // operand data column → common column, −1 outside the common part
	ident  bool  // cols is the identity onto all common columns
	buf    []float64

	callTotals [][]float64 // per input, per operand cnode: inclusive over all locations (for Structure)
	locTotals  [][]float64 // per input, per operand column: over the whole call tree (for Structure)
}

// sideInput is a stored metric a side's value is computed from.
type sideInput struct {
	metric  int // in the operand
	agg     model.Aggregation
	rows    model.RowSource
	release func()
}

// newSideValues prepares operand op's side for result metric rm; missing
// says why the operand cannot supply it (and sv is then nil).
func newSideValues(ig *algebra.Integration, op, rm int) (sv *sideValues, missing string, err error) {
	e := ig.Operands[op]
	sv = &sideValues{exp: e}
	xb := &exprBuilder{e: e, lookup: func(name string) int {
		// The operand's own metric, or else the one the integration
		// matched with the name.
		if m := e.MetricByName(name); m >= 0 {
			return m
		}
		if rx := ig.Result.MetricByName(name); rx >= 0 {
			return slices.Index(ig.Metrics[op], rx)
		}
		return -1
	}}
	om := slices.Index(ig.Metrics[op], rm)
	name := ig.Result.Metrics[rm].UniqName
	var expr *valueExpr
	if om >= 0 {
		expr, missing, err = xb.metric(om, 0)
	} else if f := ig.Result.Metrics[rm].Formula; ig.Result.Metrics[rm].IsDerived() {
		// Only the other experiment defines it: use that definition.
		expr, missing, err = xb.formula(f, name, 0)
	} else {
		missing = fmt.Sprintf("%s has no metric %q", e.Source, name)
	}
	if err != nil || missing != "" {
		return nil, missing, err
	}
	for _, m := range xb.inputs {
		rows, release, err := e.Rows(m)
		if err != nil {
			sv.release()
			return nil, "", fmt.Errorf("%s: metric %q: %w", e.Source, e.Metrics[m].UniqName, err)
		}
		sv.inputs = append(sv.inputs, sideInput{metric: m, agg: e.Metrics[m].Aggregation, rows: rows, release: release})
	}
	sv.expr = expr
	sv.inv = make([]int, len(ig.Result.Cnodes))
	for c := range sv.inv {
		sv.inv[c] = -1
	}
	for oc, rc := range ig.Cnodes[op] {
		if rc >= 0 {
			sv.inv[rc] = oc
		}
	}
	sv.buf = make([]float64, len(e.Locations))
	return sv, "", nil
}

// additive reports whether the side's value is a stored sum metric, whose
// values add up over call paths and locations.
func (sv *sideValues) additive() bool {
	return sv == nil || sv.expr.formula == nil && sv.inputs[sv.expr.input].agg == model.Sum
}

func (sv *sideValues) release() {
	for _, in := range sv.inputs {
		if in.release != nil {
			in.release()
		}
	}
	sv.inputs = nil
}

// mapColumns sets how operand op's data columns map onto the common
// columns of dom.
func (sv *sideValues) mapColumns(ig *algebra.Integration, op int, dom *domain) {
	sv.cols = make([]int, len(ig.Locations[op]))
	sv.ident = len(sv.cols) == dom.ncols
	for l, rl := range ig.Locations[op] {
		sv.cols[l] = -1
		if rl >= 0 {
			sv.cols[l] = dom.colOf[rl]
		}
		if sv.cols[l] != l {
			sv.ident = false
		}
	}
}

// readOwn fills dst (one value per common column) with input in's own
// values at domain cnode c: zeros where nothing is stored.
func (sv *sideValues) readOwn(in, c int, dst []float64) error {
	oc := sv.inv[c]
	rows := sv.inputs[in].rows
	if oc < 0 || !rows.HasRow(oc) {
		clear(dst)
		return nil
	}
	if sv.ident {
		if err := rows.ReadRow(oc, dst); err != nil {
			return fmt.Errorf("%s: metric %q: %w", sv.exp.Source, sv.exp.Metrics[sv.inputs[in].metric].UniqName, err)
		}
		return nil
	}
	if err := rows.ReadRow(oc, sv.buf); err != nil {
		return fmt.Errorf("%s: metric %q: %w", sv.exp.Source, sv.exp.Metrics[sv.inputs[in].metric].UniqName, err)
	}
	clear(dst)
	for l, v := range sv.buf {
		if j := sv.cols[l]; j >= 0 {
			dst[j] = v
		}
	}
	return nil
}

// scalar evaluates the side's value from one value per input.
func (sv *sideValues) scalar(get func(input int) (float64, error)) (float64, error) {
	vals := make([][]float64, len(sv.inputs))
	for i := range sv.inputs {
		v, err := get(i)
		if err != nil {
			return 0, err
		}
		vals[i] = []float64{v}
	}
	out, err := sv.expr.eval(1, func(i int) []float64 { return vals[i] })
	if err != nil {
		return 0, err
	}
	return out[0], nil
}

// callPathValue returns the side's inclusive value at operand cnode oc
// over all the operand's locations; NaN for a missing side.
func (sv *sideValues) callPathValue(oc int) (float64, error) {
	if sv == nil {
		return math.NaN(), nil
	}
	if sv.callTotals == nil {
		sv.callTotals = make([][]float64, len(sv.inputs))
		for i, in := range sv.inputs {
			v, err := sv.exp.CallTreeValues(model.MetricSel{Metric: in.metric, Inclusive: true}, true)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", sv.exp.Source, err)
			}
			sv.callTotals[i] = v
		}
	}
	return sv.scalar(func(i int) (float64, error) { return sv.callTotals[i][oc], nil })
}

// columnsValue returns the side's value over the whole call tree on the
// operand's data columns cols; NaN for a missing side.
func (sv *sideValues) columnsValue(cols []int) (float64, error) {
	if sv == nil {
		return math.NaN(), nil
	}
	if sv.locTotals == nil {
		sv.locTotals = make([][]float64, len(sv.inputs))
		for i, in := range sv.inputs {
			v, err := sv.exp.LocationValues(model.MetricSel{Metric: in.metric, Inclusive: true}, model.AllCnodes)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", sv.exp.Source, err)
			}
			sv.locTotals[i] = v
		}
	}
	return sv.scalar(func(i int) (float64, error) {
		agg := sv.inputs[i].agg
		acc := agg.Identity()
		for _, l := range cols {
			acc = agg.Combine(acc, sv.locTotals[i][l])
		}
		if math.IsInf(acc, 0) {
			acc = 0
		}
		return acc, nil
	})
}
