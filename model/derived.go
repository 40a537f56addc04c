package model

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// ErrDerived is returned (wrapped) by Block for a derived metric: it has
// no stored values; the queries compute them from its operands.
var ErrDerived = errors.New("derived metric: values are computed from other metrics, not stored")

// IsDerived reports whether the metric is an evaluated derived metric:
// it has a Formula and is available.
func (m *Metric) IsDerived() bool { return m.Formula != nil && m.Unavailable == "" }

// HasStoredValues reports whether the metric's values come from a data
// block (not derived, not unavailable).
func (m *Metric) HasStoredValues() bool { return m.Formula == nil && m.Unavailable == "" }

// notDerived returns an error wrapping ErrDerived when metric m is
// derived, naming the query that answers for it instead.
func notDerived(e *Experiment, m int, instead string) error {
	if e.Metrics[m].IsDerived() {
		return fmt.Errorf("metric %q: %w; use %s", e.Metrics[m].UniqName, ErrDerived, instead)
	}
	return nil
}

// LocationsOf picks the locations' entries out of per-system-node values
// (as SystemTreeValues returns them), in data-column order.
func LocationsOf(e *Experiment, sysValues []float64) []float64 {
	out := make([]float64, len(e.Locations))
	for l, s := range e.Locations {
		out[l] = sysValues[s]
	}
	return out
}

// operandIndex returns the metric a formula of metric m names.
func operandIndex(e *Experiment, m int, name string) (int, error) {
	op := e.MetricByName(name)
	if op < 0 {
		return -1, fmt.Errorf("derived metric %q refers to %q, which the experiment does not have", e.Metrics[m].UniqName, name)
	}
	return op, nil
}

// evalDerived evaluates derived metric m element-wise over vectors of
// length n; get returns an operand metric's vector for the same query.
// Operands are taken metric-inclusive, as CubePL's metric::name() is.
func evalDerived(e *Experiment, m, n int, get func(op MetricSel) ([]float64, error)) ([]float64, error) {
	return e.Metrics[m].Formula.Eval(n, func(name string) ([]float64, error) {
		op, err := operandIndex(e, m, name)
		if err != nil {
			return nil, err
		}
		return get(MetricSel{Metric: op, Inclusive: true})
	})
}

// CallTreeValues returns, for every cnode, the selected metric over all
// locations: with inclusive, the cnode with its whole subtree, otherwise
// its own value. It is the call pane's query and holds for stored and
// derived metrics alike; for a derived metric each cnode's value is the
// formula applied to its operands' values at that cnode.
func (e *Experiment) CallTreeValues(ms MetricSel, inclusive bool) ([]float64, error) {
	if e.Metrics[ms.Metric].IsDerived() {
		return evalDerived(e, ms.Metric, len(e.Cnodes), func(op MetricSel) ([]float64, error) {
			return e.CallTreeValues(op, inclusive)
		})
	}
	if !inclusive {
		return e.stored().cnodeValues(ms)
	}
	v, err := e.stored().ownValues(ms)
	if err != nil {
		return nil, err
	}
	agg := e.Metrics[ms.Metric].Aggregation
	v = e.CallInclusive(v, agg)
	if agg != Sum {
		noValueToZero(v)
	}
	return v, nil
}

// SystemTreeValues returns, for every system node, the selected metric
// aggregated over the given cnodes (each listed once) and over the
// locations below the node: the system pane's query, for stored and
// derived metrics alike.
func (e *Experiment) SystemTreeValues(ms MetricSel, cnodes []int) ([]float64, error) {
	if e.Metrics[ms.Metric].IsDerived() {
		return evalDerived(e, ms.Metric, len(e.System), func(op MetricSel) ([]float64, error) {
			return e.SystemTreeValues(op, cnodes)
		})
	}
	agg := e.Metrics[ms.Metric].Aggregation
	if agg != Sum {
		// Locations without a value are passed over, not taken as 0.
		loc, err := e.stored().locationAggregateRaw(ms.Metric, cnodes)
		if err != nil {
			return nil, err
		}
		return systemValues(e, loc, agg), nil
	}
	loc, err := locationValuesOver(e, ms, cnodes)
	if err != nil {
		return nil, err
	}
	return systemValues(e, loc, agg), nil
}

// PointValues returns the selected metric per cnode and location:
// each cnode's own value, or with inclusive its whole subtree's. For a
// stored metric with ms.Inclusive and exclusive values it is the data
// block itself (shared, must not be modified); a derived metric gets the
// formula applied at every point.
func (e *Experiment) PointValues(ms MetricSel, inclusive bool) (*Block, error) {
	m := &e.Metrics[ms.Metric]
	if m.IsDerived() {
		f := m.Formula
		names := f.Metrics()
		ops := make(map[string]*Block, len(names))
		for _, name := range names {
			op, err := operandIndex(e, ms.Metric, name)
			if err != nil {
				return nil, err
			}
			b, err := e.PointValues(MetricSel{Metric: op, Inclusive: true}, inclusive)
			if err != nil {
				return nil, err
			}
			ops[name] = b
		}
		out := NewBlock(len(e.Cnodes), e.NumLocations())
		zero := make([]float64, e.NumLocations())
		for c := range e.Cnodes {
			present := false
			for _, b := range ops {
				present = present || b.Row(c) != nil
			}
			row, err := f.Eval(e.NumLocations(), func(name string) ([]float64, error) {
				if r := ops[name].Row(c); r != nil {
					return r, nil
				}
				return zero, nil
			})
			if err != nil {
				return nil, err
			}
			if present || !allZero(row) {
				out.SetRow(c, row)
			}
		}
		return out, nil
	}
	b, err := e.Block(ms.Metric)
	if err != nil {
		return nil, err
	}
	if !ms.Inclusive {
		if sub := subtracted(e, ms.Metric); len(sub) > 0 {
			b = b.Clone()
			for _, ch := range sub {
				cb, err := e.Block(ch)
				if err != nil {
					return nil, err
				}
				for c := 0; c < cb.NumCnodes(); c++ {
					r := cb.Row(c)
					if r == nil {
						continue
					}
					own := b.MutableRow(c)
					for l, v := range r {
						own[l] -= v
					}
				}
			}
		}
	}
	if inclusive {
		if m.Aggregation != Sum {
			// Each location's own values that are values (see
			// minMaxValues) aggregate along the call tree.
			if b, err = MinMaxValues(e, ms.Metric, b); err != nil {
				return nil, err
			}
		}
		b = callInclusiveBlock(e, b, m.Aggregation)
		if m.Aggregation != Sum {
			for c := range b.NumCnodes() {
				noValueToZero(b.Row(c))
			}
		}
	}
	return b, nil
}

// callInclusiveBlock returns a block whose row c aggregates b's rows over
// c's whole subtree, per location; an absent row adds nothing, and a
// subtree without any row stays absent. For min and max the identity
// (±Inf) is "no value", passed over and kept where nothing else is.
func callInclusiveBlock(e *Experiment, b *Block, agg Aggregation) *Block {
	out := NewBlock(b.NumCnodes(), b.NumLocations())
	order := e.CnodeOrder()
	for i := len(order) - 1; i >= 0; i-- {
		c := order[i]
		var row []float64
		if own := b.Row(c); own != nil {
			row = append([]float64(nil), own...)
		}
		for _, ch := range e.Cnodes[c].Children {
			sub := out.Row(ch)
			if sub == nil {
				continue
			}
			if row == nil {
				row = append([]float64(nil), sub...)
				continue
			}
			for l, v := range sub {
				row[l] = agg.Combine(row[l], v)
			}
		}
		out.SetRow(c, row)
	}
	return out
}

// DerivedMetric describes a derived metric to add to an experiment.
type DerivedMetric struct {
	UniqName string
	DispName string // default: UniqName
	Unit     string // default: inferred from the operands' units
	Descr    string // default: the formula
	Formula  *Formula
	// Thresholds, when not empty, names value ranges (see ParseThresholds).
	Thresholds string
}

// WithDerived returns a new experiment that is e plus the derived metric
// d as a new metric root; e is not changed and the two share all stored
// data (loaded once, through e). The formula must name only metrics of e
// that have values (stored or derived).
func (e *Experiment) WithDerived(d DerivedMetric) (*Experiment, error) {
	if d.Formula == nil {
		return nil, fmt.Errorf("derived metric %q: no formula", d.UniqName)
	}
	if !isPlainName(d.UniqName) {
		return nil, fmt.Errorf("derived metric name %q: must start with a letter or _ and hold only letters, digits, _ and dots", d.UniqName)
	}
	if e.MetricByName(d.UniqName) >= 0 {
		return nil, fmt.Errorf("derived metric %q: the experiment already has a metric of that name", d.UniqName)
	}
	if !d.Formula.CubePLNames() {
		return nil, fmt.Errorf("derived metric %q: a metric name in %s cannot be written in CubePL", d.UniqName, d.Formula)
	}
	for _, name := range d.Formula.Metrics() {
		if name == d.UniqName {
			return nil, fmt.Errorf("derived metric %q refers to itself", d.UniqName)
		}
		op := e.MetricByName(name)
		if op < 0 {
			return nil, fmt.Errorf("derived metric %q refers to %q, which the experiment does not have (it has: %s)", d.UniqName, name, strings.Join(metricNames(e), ", "))
		}
		if r := e.Metrics[op].Unavailable; r != "" {
			return nil, fmt.Errorf("derived metric %q refers to %q, which has no values: %s", d.UniqName, name, r)
		}
	}
	if d.Thresholds != "" {
		if _, err := ParseThresholds(d.Thresholds); err != nil {
			return nil, fmt.Errorf("derived metric %q: %w", d.UniqName, err)
		}
	}
	n := shallowCopy(e)
	n.Metrics = make([]Metric, len(e.Metrics), len(e.Metrics)+1)
	copy(n.Metrics, e.Metrics)
	id := 0
	for i := range e.Metrics {
		id = max(id, e.Metrics[i].ID+1)
	}
	m := Metric{
		ID: id, UniqName: d.UniqName, DispName: d.DispName, DataType: Double,
		Unit: d.Unit, Descr: d.Descr, Type: PostDerived, Expression: d.Formula.CubePL(),
		Formula: d.Formula, Aggregation: Sum, Parent: -1,
	}
	if m.DispName == "" {
		m.DispName = d.UniqName
	}
	if m.Unit == "" {
		m.Unit = d.Formula.Unit(func(name string) string { return e.Metrics[e.MetricByName(name)].Unit })
	}
	if m.Descr == "" {
		m.Descr = d.UniqName + " = " + d.Formula.String()
	}
	if d.Thresholds != "" {
		m.Attrs = []Attr{{Key: ThresholdsAttr, Value: d.Thresholds}}
	}
	n.Metrics = append(n.Metrics, m)
	n.MetricRoots = append(append([]int(nil), e.MetricRoots...), len(n.Metrics)-1)
	n.SetLoader(delegateLoader{e})
	if err := n.Validate(); err != nil {
		return nil, err
	}
	return n, nil
}

// delegateLoader reads blocks through another experiment with the same
// dimensions, so that both share loaded data.
type delegateLoader struct{ from *Experiment }

func (d delegateLoader) LoadBlock(m int) (*Block, error) {
	if m >= len(d.from.Metrics) {
		return nil, nil
	}
	return d.from.Block(m)
}

// shallowCopy returns a new experiment with every exported field of e
// (slices shared) and no data: the caller installs a loader.
func shallowCopy(e *Experiment) *Experiment {
	n := &Experiment{}
	src, dst := reflect.ValueOf(e).Elem(), reflect.ValueOf(n).Elem()
	for i := 0; i < src.NumField(); i++ {
		if src.Type().Field(i).IsExported() {
			dst.Field(i).Set(src.Field(i))
		}
	}
	return n
}

func metricNames(e *Experiment) []string {
	names := make([]string, 0, len(e.Metrics))
	for _, m := range e.MetricOrder() {
		names = append(names, e.Metrics[m].UniqName)
	}
	return names
}

// BindFormulas checks every derived metric's formula against the
// experiment: a formula that names a metric the experiment lacks, one
// without values, or that takes part in a cycle is dropped and the metric
// marked unavailable with the reason. Readers call it once after building
// the metric tree.
func (e *Experiment) BindFormulas() {
	for changed := true; changed; {
		changed = false
		for i := range e.Metrics {
			m := &e.Metrics[i]
			if !m.IsDerived() {
				continue
			}
			if err := formulaProblem(e, i); err != nil {
				m.Formula = nil
				m.Unavailable = "derived metric: " + err.Error()
				changed = true
			}
		}
	}
}

// formulaProblem reports what keeps derived metric m from being evaluated.
func formulaProblem(e *Experiment, m int) error {
	for _, name := range e.Metrics[m].Formula.Metrics() {
		op := e.MetricByName(name)
		switch {
		case op < 0:
			return fmt.Errorf("refers to %q, which the experiment does not have", name)
		case e.Metrics[op].Unavailable != "":
			return fmt.Errorf("refers to %q, which has no values", name)
		}
	}
	if formulaCycle(e, m) {
		return errors.New("its formula refers back to itself")
	}
	return nil
}

// formulaCycle reports whether derived metric m reaches itself through
// the formulas of the derived metrics it names.
func formulaCycle(e *Experiment, m int) bool {
	seen := map[int]bool{}
	var visit func(i int) bool
	visit = func(i int) bool {
		for _, name := range e.Metrics[i].Formula.Metrics() {
			op := e.MetricByName(name)
			if op < 0 || !e.Metrics[op].IsDerived() {
				continue
			}
			if op == m {
				return true
			}
			if !seen[op] {
				seen[op] = true
				if visit(op) {
					return true
				}
			}
		}
		return false
	}
	return visit(m)
}
