package analysis

import (
	"fmt"
	"math"
	"slices"

	"cubeview/algebra"
	"cubeview/model"
)

// sideValues reads one side's values of the compared metric on the
// domain, one call path at a time: the rows of the stored metrics it
// needs (the metric itself, or the metrics its formula names) in each of
// the side's runs. It is the one place that knows where a side's values
// come from. A side of several runs (a group of repeated runs) gives the
// mean of its runs' values per common column and keeps each run's values
// for the test at every differing focus.
type sideValues struct {
	runs []*runSide
	aggs []model.Aggregation // per input
	expr *valueExpr          // over the inputs, the same in every run
	// runOwn holds, with several runs, each run's own values of the last
	// call path read: per input and run, one value per common column.
	runOwn [][][]float64
}

// runSide reads one run's values of the compared metric.
type runSide struct {
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
	// counted gives, for a min or max metric, a stored row's values that
	// count (the identity ±Inf where a location did not visit the call
	// path, see model.CountedValues); nil for a sum.
	counted        func(c int, row []float64) ([]float64, error)
	releaseCounted func()
}

// newSideValues prepares the side made of operands ops for result metric
// rm; missing says why a run cannot supply it (and sv is then nil).
func newSideValues(ig *algebra.Integration, ops []int, rm int) (sv *sideValues, missing string, err error) {
	sv = &sideValues{}
	for _, op := range ops {
		rv, missing, err := newRunSide(ig, op, rm)
		if err != nil || missing != "" {
			sv.release()
			return nil, missing, err
		}
		sv.runs = append(sv.runs, rv)
	}
	first := sv.runs[0]
	sv.expr = first.expr
	for _, in := range first.inputs {
		sv.aggs = append(sv.aggs, in.agg)
	}
	// Every run must compute the metric alike: the same stored metrics
	// in the same order, the same formula.
	for _, rv := range sv.runs[1:] {
		if why := sameComputation(first, rv); why != "" {
			sv.release()
			return nil, "", fmt.Errorf("perfdiff: %s and %s compute %s differently: %s", first.exp.Source, rv.exp.Source, ig.Result.Metrics[rm].UniqName, why)
		}
	}
	if len(sv.runs) > 1 {
		sv.runOwn = make([][][]float64, len(sv.aggs))
		for in := range sv.runOwn {
			sv.runOwn[in] = make([][]float64, len(sv.runs))
		}
	}
	return sv, "", nil
}

// sameComputation says how two runs' expressions of a metric differ; ""
// when they are the same.
func sameComputation(a, b *runSide) string {
	if len(a.inputs) != len(b.inputs) {
		return fmt.Sprintf("%d and %d stored metrics", len(a.inputs), len(b.inputs))
	}
	for i := range a.inputs {
		ma, mb := &a.exp.Metrics[a.inputs[i].metric], &b.exp.Metrics[b.inputs[i].metric]
		if ma.UniqName != mb.UniqName || ma.Aggregation != mb.Aggregation {
			return fmt.Sprintf("metric %q (%v) and %q (%v)", ma.UniqName, ma.Aggregation, mb.UniqName, mb.Aggregation)
		}
	}
	fa, fb := "", ""
	if a.expr.formula != nil {
		fa = a.expr.formula.String()
	}
	if b.expr.formula != nil {
		fb = b.expr.formula.String()
	}
	if fa != fb {
		return fmt.Sprintf("formula %q and %q", fa, fb)
	}
	return ""
}

// newRunSide prepares operand op's values of result metric rm; missing
// says why the operand cannot supply them (and rv is then nil).
func newRunSide(ig *algebra.Integration, op, rm int) (rv *runSide, missing string, err error) {
	e := ig.Operands[op]
	rv = &runSide{exp: e}
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
			rv.release()
			return nil, "", fmt.Errorf("%s: metric %q: %w", e.Source, e.Metrics[m].UniqName, err)
		}
		in := sideInput{metric: m, agg: e.Metrics[m].Aggregation, rows: rows, release: release}
		if in.agg != model.Sum {
			if in.counted, in.releaseCounted, err = model.CountedValues(e, m); err != nil {
				release()
				rv.release()
				return nil, "", fmt.Errorf("%s: metric %q: %w", e.Source, e.Metrics[m].UniqName, err)
			}
		}
		rv.inputs = append(rv.inputs, in)
	}
	rv.expr = expr
	rv.inv = make([]int, len(ig.Result.Cnodes))
	for c := range rv.inv {
		rv.inv[c] = -1
	}
	for oc, rc := range ig.Cnodes[op] {
		if rc >= 0 {
			rv.inv[rc] = oc
		}
	}
	rv.buf = make([]float64, len(e.Locations))
	return rv, "", nil
}

// additive reports whether the side's value is a stored sum metric, whose
// values add up over call paths and locations.
func (sv *sideValues) additive() bool {
	return sv == nil || sv.expr.formula == nil && sv.aggs[sv.expr.input] == model.Sum
}

func (sv *sideValues) release() {
	for _, rv := range sv.runs {
		rv.release()
	}
	sv.runs = nil
}

func (rv *runSide) release() {
	for _, in := range rv.inputs {
		if in.release != nil {
			in.release()
		}
		if in.releaseCounted != nil {
			in.releaseCounted()
		}
	}
	rv.inputs = nil
}

// mapColumns sets how the runs' data columns map onto the common columns
// of dom; ops are the runs' operands.
func (sv *sideValues) mapColumns(ig *algebra.Integration, ops []int, dom *domain) {
	for r, rv := range sv.runs {
		rv.mapColumns(ig, ops[r], dom)
	}
	if sv.runOwn != nil {
		for in := range sv.runOwn {
			for r := range sv.runOwn[in] {
				sv.runOwn[in][r] = make([]float64, dom.ncols)
			}
		}
	}
}

func (rv *runSide) mapColumns(ig *algebra.Integration, op int, dom *domain) {
	rv.cols = make([]int, len(ig.Locations[op]))
	rv.ident = len(rv.cols) == dom.ncols
	for l, rl := range ig.Locations[op] {
		rv.cols[l] = -1
		if rl >= 0 {
			rv.cols[l] = dom.colOf[rl]
		}
		if rv.cols[l] != l {
			rv.ident = false
		}
	}
}

// readOwn fills dst (one value per common column) with input in's own
// values at domain cnode c: a single run's values, or the mean of the
// runs' (then each run's values are in sv.runOwn[in]). Where nothing is
// stored a sum is 0; a min or max has no value there (the identity ±Inf,
// which aggregating passes over), and a group's mean of a min or max is
// over the runs that have a value.
func (sv *sideValues) readOwn(in, c int, dst []float64) error {
	if len(sv.runs) == 1 {
		return sv.runs[0].readOwn(in, c, dst)
	}
	own := sv.runOwn[in]
	for r, rv := range sv.runs {
		if err := rv.readOwn(in, c, own[r]); err != nil {
			return err
		}
	}
	agg := sv.aggs[in]
	for j := range dst {
		sum, n := 0.0, 0
		for r := range own {
			if x := own[r][j]; !math.IsInf(x, 0) {
				sum += x
				n++
			}
		}
		switch {
		case agg == model.Sum:
			dst[j] = sum / float64(len(own))
		case n == 0:
			dst[j] = agg.Identity()
		default:
			dst[j] = sum / float64(n)
		}
	}
	return nil
}

func (rv *runSide) readOwn(in, c int, dst []float64) error {
	oc := rv.inv[c]
	input := &rv.inputs[in]
	rows := input.rows
	if oc < 0 || !rows.HasRow(oc) {
		if input.counted != nil {
			fill(dst, input.agg.Identity())
		} else {
			clear(dst)
		}
		return nil
	}
	src := dst
	if !rv.ident {
		src = rv.buf
	}
	if err := rows.ReadRow(oc, src); err != nil {
		return fmt.Errorf("%s: metric %q: %w", rv.exp.Source, rv.exp.Metrics[input.metric].UniqName, err)
	}
	if input.counted != nil {
		vals, err := input.counted(oc, src)
		if err != nil {
			return fmt.Errorf("%s: metric %q: %w", rv.exp.Source, rv.exp.Metrics[input.metric].UniqName, err)
		}
		copy(src, vals)
	}
	if rv.ident {
		return nil
	}
	if input.counted != nil {
		fill(dst, input.agg.Identity())
	} else {
		clear(dst)
	}
	for l, v := range rv.buf {
		if j := rv.cols[l]; j >= 0 {
			dst[j] = v
		}
	}
	return nil
}

// scalar evaluates the run's value from one value per input.
func (rv *runSide) scalar(get func(input int) (float64, error)) (float64, error) {
	vals := make([][]float64, len(rv.inputs))
	for i := range rv.inputs {
		v, err := get(i)
		if err != nil {
			return 0, err
		}
		vals[i] = []float64{v}
	}
	out, err := rv.expr.eval(1, func(i int) []float64 { return vals[i] })
	if err != nil {
		return 0, err
	}
	return out[0], nil
}

// callPathValue returns the side's inclusive value at domain cnode c over
// all locations: the mean over the side's runs that have the call path;
// NaN for a missing side.
func (sv *sideValues) callPathValue(c int) (float64, error) {
	if sv == nil {
		return math.NaN(), nil
	}
	sum, n := 0.0, 0
	for _, rv := range sv.runs {
		oc := rv.inv[c]
		if oc < 0 {
			continue
		}
		v, err := rv.callPathValue(oc)
		if err != nil {
			return 0, err
		}
		sum += v
		n++
	}
	if n == 0 {
		return math.NaN(), nil
	}
	return sum / float64(n), nil
}

func (rv *runSide) callPathValue(oc int) (float64, error) {
	if rv.callTotals == nil {
		rv.callTotals = make([][]float64, len(rv.inputs))
		for i, in := range rv.inputs {
			v, err := rv.exp.CallTreeValues(model.MetricSel{Metric: in.metric, Inclusive: true}, true)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", rv.exp.Source, err)
			}
			rv.callTotals[i] = v
		}
	}
	return rv.scalar(func(i int) (float64, error) { return rv.callTotals[i][oc], nil })
}

// columnsValue returns the side's value over the whole call tree on the
// runs' data columns cols (per run): the mean over the runs with some of
// those columns; NaN for a missing side.
func (sv *sideValues) columnsValue(cols [][]int) (float64, error) {
	if sv == nil {
		return math.NaN(), nil
	}
	sum, n := 0.0, 0
	for r, rv := range sv.runs {
		if len(cols[r]) == 0 {
			continue
		}
		v, err := rv.columnsValue(cols[r])
		if err != nil {
			return 0, err
		}
		sum += v
		n++
	}
	if n == 0 {
		return math.NaN(), nil
	}
	return sum / float64(n), nil
}

func (rv *runSide) columnsValue(cols []int) (float64, error) {
	if rv.locTotals == nil {
		rv.locTotals = make([][]float64, len(rv.inputs))
		for i, in := range rv.inputs {
			v, err := rv.exp.LocationValues(model.MetricSel{Metric: in.metric, Inclusive: true}, model.AllCnodes)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", rv.exp.Source, err)
			}
			rv.locTotals[i] = v
		}
	}
	return rv.scalar(func(i int) (float64, error) {
		agg := rv.inputs[i].agg
		acc := agg.Identity()
		for _, l := range cols {
			acc = agg.Combine(acc, rv.locTotals[i][l])
		}
		if math.IsInf(acc, 0) {
			acc = 0
		}
		return acc, nil
	})
}
