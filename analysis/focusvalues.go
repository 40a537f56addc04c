package analysis

import (
	"fmt"
	"math"

	"cubeview/algebra"
	"cubeview/model"
)

// focusValues answers the value of one operand's metric at any focus of
// the integrated domain.
type focusValues struct {
	ig      *algebra.Integration
	op      int
	exp     *model.Experiment
	metric  int // in the operand, −1 when it lacks the metric
	formula *model.Formula
	agg     model.Aggregation
	// values holds the stored metric's values on the domain: call-tree
	// inclusive, or exclusive when the focusValues answers own values.
	values  *model.Block
	cols    [][]int // per domain system node: the data columns below it
	operand map[string]*focusValues
}

func newFocusValues(ig *algebra.Integration, op int, metric string, cols [][]int, inclusive bool) (*focusValues, error) {
	e := ig.Operands[op]
	fv := &focusValues{ig: ig, op: op, exp: e, metric: e.MetricByName(metric), cols: cols}
	if fv.metric < 0 {
		return fv, nil
	}
	m := &e.Metrics[fv.metric]
	if m.Unavailable != "" {
		return nil, fmt.Errorf("perfdiff: %s: metric %q has no values: %s", e.Source, metric, m.Unavailable)
	}
	fv.agg = m.Aggregation
	if m.IsDerived() {
		fv.formula = m.Formula
		fv.operand = map[string]*focusValues{}
		for _, name := range m.Formula.Metrics() {
			o, err := newFocusValues(ig, op, name, cols, inclusive)
			if err != nil {
				return nil, err
			}
			fv.operand[name] = o
		}
		return fv, nil
	}
	excl, err := e.PointValues(model.MetricSel{Metric: fv.metric, Inclusive: true}, false)
	if err != nil {
		return nil, fmt.Errorf("%s: metric %q: %w", e.Source, metric, err)
	}
	if fv.values, err = onDomain(ig, op, excl, fv.agg, inclusive); err != nil {
		return nil, fmt.Errorf("%s: metric %q: %w", e.Source, metric, err)
	}
	return fv, nil
}

// onDomain maps an operand's call-tree exclusive block onto the
// integrated domain and, with inclusive, makes it call-tree inclusive, in
// one block allocation. As in the model's inclusive blocks an absent row
// counts as zeros, also for min/max metrics, and a subtree without rows
// stays absent.
func onDomain(ig *algebra.Integration, op int, excl *model.Block, agg model.Aggregation, inclusive bool) (*model.Block, error) {
	d := ig.Result
	cmap, lmap := ig.Cnodes[op], ig.Locations[op]
	nc, nl := len(d.Cnodes), len(d.Locations)
	order := d.CnodeOrder()
	has := make([]bool, nc) // a stored row in the subtree
	for c := range cmap {
		if rc := cmap[c]; rc >= 0 && excl.HasRow(c) {
			has[rc] = true
		}
	}
	for i := len(order) - 1; inclusive && i >= 0; i-- {
		c := order[i]
		if p := d.Cnodes[c].Parent; p >= 0 && has[c] {
			has[p] = true
		}
	}
	var rows []int
	for c, ok := range has {
		if ok {
			rows = append(rows, c)
		}
	}
	incl := model.NewBlock(nc, nl)
	incl.AllocRows(rows)
	set := make([]bool, nc) // own values stored (else zeros)
	err := excl.Scan(func(c int, row []float64) error {
		rc := cmap[c]
		if rc < 0 {
			return nil
		}
		dst := incl.MutableRow(rc)
		switch {
		case !set[rc]:
			for l, v := range row {
				dst[lmap[l]] = v
			}
		case agg == model.Sum:
			for l, v := range row {
				dst[lmap[l]] += v
			}
		default:
			for l, v := range row {
				dst[lmap[l]] = agg.Combine(dst[lmap[l]], v)
			}
		}
		set[rc] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := len(order) - 1; inclusive && i >= 0; i-- {
		c := order[i]
		p := d.Cnodes[c].Parent
		if p < 0 || !has[c] {
			continue
		}
		src, dst := incl.Row(c), incl.MutableRow(p)
		if agg == model.Sum {
			for l, v := range src {
				dst[l] += v
			}
			continue
		}
		for l, v := range src {
			dst[l] = agg.Combine(dst[l], v)
		}
	}
	return incl, nil
}

// systemColumns lists, per system node, the data columns below it.
func systemColumns(e *model.Experiment) [][]int {
	cols := make([][]int, len(e.System))
	order := e.SystemOrder()
	for i := len(order) - 1; i >= 0; i-- {
		s := order[i]
		n := &e.System[s]
		if n.Location >= 0 {
			cols[s] = append(cols[s], n.Location)
		}
		if n.Parent >= 0 {
			cols[n.Parent] = append(cols[n.Parent], cols[s]...)
		}
	}
	return cols
}

// over returns the operand's metric at the domain cnodes rows (call-tree
// inclusive, each subtree counted once: rows must not nest; exclusive
// when own) aggregated over the domain data columns cols.
func (fv *focusValues) over(rows, cols []int) (float64, error) {
	if fv.metric < 0 {
		return 0, nil
	}
	if fv.formula != nil {
		return fv.formula.EvalScalar(func(name string) (float64, error) {
			return fv.operand[name].over(rows, cols)
		})
	}
	blk := fv.values
	acc := fv.agg.Identity()
	for _, c := range rows {
		row := blk.Row(c)
		switch {
		case row == nil && fv.agg != model.Sum:
			acc = fv.agg.Combine(acc, 0)
		case row == nil:
		default:
			for _, l := range cols {
				acc = fv.agg.Combine(acc, row[l])
			}
		}
	}
	if err := blk.Err(); err != nil {
		return 0, err
	}
	if math.IsInf(acc, 0) {
		return 0, nil
	}
	return acc, nil
}
