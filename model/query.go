package model

import (
	"fmt"
	"math"
	"slices"
)

// MetricSel selects one metric as the metric pane does: a collapsed node
// (Inclusive) stands for the metric with all its descendants, an expanded
// node for the metric's own part, its value minus its children's.
type MetricSel struct {
	Metric    int
	Inclusive bool
}

// CnodeSel selects call paths: Cnode alone (exclusive) or with its whole
// subtree (Inclusive). Cnode -1 selects the whole call forest.
type CnodeSel struct {
	Cnode     int
	Inclusive bool
}

// AllCnodes selects the whole call forest.
var AllCnodes = CnodeSel{Cnode: -1, Inclusive: true}

// Identity returns the neutral element of a: 0 for Sum, +Inf for Min, −Inf for Max.
func (a Aggregation) Identity() float64 {
	switch a {
	case Min:
		return math.Inf(1)
	case Max:
		return math.Inf(-1)
	}
	return 0
}

// subtracted reports which children of metric m are subtracted to obtain
// its exclusive value: only sum metrics under a sum metric, since a min or
// max value is not a part of its parent.
func subtracted(e *Experiment, m int) []int {
	if e.Metrics[m].Aggregation != Sum || e.Metrics[m].Formula != nil {
		return nil
	}
	var out []int
	for _, ch := range e.Metrics[m].Children {
		if e.Metrics[ch].Aggregation == Sum && e.Metrics[ch].Formula == nil {
			out = append(out, ch)
		}
	}
	return out
}

// aggregator collects per-cnode and per-location aggregates of one
// metric's stored rows. For a min or max metric only values count (see
// minMaxValues): a call path or location without any keeps the identity,
// "no value".
type aggregator struct {
	agg    Aggregation
	sums   []float64
	locs   []float64
	values *minMaxValues // for min and max
}

func newAggregator(agg Aggregation, nc, nl int) *aggregator {
	a := &aggregator{agg: agg, sums: make([]float64, nc), locs: make([]float64, nl)}
	if agg != Sum {
		for l := range a.locs {
			a.locs[l] = agg.Identity()
		}
		for c := range a.sums {
			a.sums[c] = agg.Identity()
		}
		// the non-zero rule alone until aggregates gives the visits
		a.values = &minMaxValues{agg: agg, out: make([]float64, nl)}
	}
	return a
}

func (a *aggregator) add(c int, r []float64) error {
	if c < 0 || c >= len(a.sums) || len(r) != len(a.locs) {
		return fmt.Errorf("row of cnode %d with %d values does not fit %d cnodes × %d locations", c, len(r), len(a.sums), len(a.locs))
	}
	locs := a.locs[:len(r)]
	if a.agg == Sum {
		acc := 0.0
		for l, v := range r {
			acc += v
			locs[l] += v
		}
		a.sums[c] = acc
		return nil
	}
	vals, ok, err := a.values.of(c, r)
	if err != nil || !ok {
		return err
	}
	acc := a.agg.Identity()
	for l, v := range vals {
		acc = a.agg.Combine(acc, v)
		locs[l] = a.agg.Combine(locs[l], v)
	}
	a.sums[c] = acc
	return nil
}

// addBatch adds rows[i] of cnode cs[i] in order, with exactly the
// arithmetic of add: four rows of a sum metric are added side by side,
// each row's total in its own accumulator and each location's in the
// rows' order, so that the additions of one row do not wait for each
// other.
func (a *aggregator) addBatch(cs []int, rows [][]float64) error {
	if len(cs) != len(rows) {
		return fmt.Errorf("a batch of %d cnodes with %d rows", len(cs), len(rows))
	}
	i := 0
	if a.agg == Sum {
		nl := len(a.locs)
		for ; i+4 <= len(rows); i += 4 {
			c0, c1, c2, c3 := cs[i], cs[i+1], cs[i+2], cs[i+3]
			r0, r1, r2, r3 := rows[i], rows[i+1], rows[i+2], rows[i+3]
			if !a.fits(c0, r0) || !a.fits(c1, r1) || !a.fits(c2, r2) || !a.fits(c3, r3) {
				break // add reports the error
			}
			r0, r1, r2, r3 = r0[:nl], r1[:nl], r2[:nl], r3[:nl]
			locs := a.locs[:nl]
			var s0, s1, s2, s3 float64
			for l := range locs {
				v0, v1, v2, v3 := r0[l], r1[l], r2[l], r3[l]
				s0 += v0
				s1 += v1
				s2 += v2
				s3 += v3
				locs[l] = locs[l] + v0 + v1 + v2 + v3
			}
			a.sums[c0], a.sums[c1], a.sums[c2], a.sums[c3] = s0, s1, s2, s3
		}
	}
	for ; i < len(rows); i++ {
		if err := a.add(cs[i], rows[i]); err != nil {
			return err
		}
	}
	return nil
}

func (a *aggregator) fits(c int, r []float64) bool {
	return c >= 0 && c < len(a.sums) && len(r) == len(a.locs)
}

// finish returns the aggregates, for min and max with "no value" kept as
// the identity.
func (a *aggregator) finish() (sums, locs []float64) { return a.sums, a.locs }

// cnodeValues returns, for every cnode, its exclusive (own) value of the
// selected metric aggregated over all locations; a min or max call path
// without a value shows 0. A derived metric's values do not add up along
// the call tree, so for it cnodeValues returns an error wrapping
// ErrDerived: CallTreeValues answers for every metric.
func (d *metricData) cnodeValues(ms MetricSel) ([]float64, error) {
	e := d.e
	out, err := d.ownValues(ms)
	if err == nil && e.Metrics[ms.Metric].Aggregation != Sum {
		noValueToZero(out)
	}
	return out, err
}

// ownValues is cnodeValues with "no value" of a min or max metric kept as
// the identity, which CallInclusive, ForestValue and flatParts pass over.
func (d *metricData) ownValues(ms MetricSel) ([]float64, error) {
	e := d.e
	if err := notDerived(e, ms.Metric, "CallTreeValues"); err != nil {
		return nil, err
	}
	sums, err := d.cnodeSums(ms.Metric)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(sums))
	copy(out, sums)
	if !ms.Inclusive {
		for _, ch := range subtracted(e, ms.Metric) {
			cs, err := d.cnodeSums(ch)
			if err != nil {
				return nil, err
			}
			for i, v := range cs {
				out[i] -= v
			}
		}
	}
	return out, nil
}

// CallInclusive turns per-cnode exclusive values into inclusive ones: each
// cnode's value aggregated with its whole subtree. For min and max the
// identity (±Inf) is "no value", passed over; a subtree without any value
// keeps it. It does not apply to derived metrics, whose values do not add
// up: see CallTreeValues.
func (e *Experiment) CallInclusive(excl []float64, agg Aggregation) []float64 {
	incl := make([]float64, len(excl))
	copy(incl, excl)
	order := e.CnodeOrder()
	for i := len(order) - 1; i >= 0; i-- {
		c := order[i]
		if p := e.Cnodes[c].Parent; p >= 0 {
			incl[p] = agg.Combine(incl[p], incl[c])
		}
	}
	return incl
}

// ForestTotal aggregates per-cnode exclusive values over all call paths,
// whatever the experiment declares; ForestValue honours
// CUBE_CT_AGGR MAX and is what displays of the whole forest use.
func ForestTotal(excl []float64, agg Aggregation) float64 {
	acc := agg.Identity()
	for _, v := range excl {
		acc = agg.Combine(acc, v)
	}
	if math.IsInf(acc, 0) {
		return 0
	}
	return acc
}

// MetricTotal returns the value the metric pane shows for a selection: the
// metric over the whole call forest (see ForestValue) and all locations.
func (e *Experiment) MetricTotal(ms MetricSel) (float64, error) {
	if e.Metrics[ms.Metric].IsDerived() {
		return e.Metrics[ms.Metric].Formula.EvalScalar(func(name string) (float64, error) {
			op, err := operandIndex(e, ms.Metric, name)
			if err != nil {
				return 0, err
			}
			return e.MetricTotal(MetricSel{Metric: op, Inclusive: true})
		})
	}
	v, err := e.stored().ownValues(ms)
	if err != nil {
		return 0, err
	}
	return ForestValue(e, v, e.Metrics[ms.Metric].Aggregation), nil
}

// CnodeSubtree returns the cnodes a CnodeSel covers, in depth-first order.
func (e *Experiment) CnodeSubtree(cs CnodeSel) []int {
	if cs.Cnode < 0 {
		return e.CnodeOrder()
	}
	if !cs.Inclusive {
		return []int{cs.Cnode}
	}
	return DepthFirst([]int{cs.Cnode}, func(c int) []int { return e.Cnodes[c].Children })
}

// LocationValues returns, per location, the selected metric aggregated over
// the selected call paths. For the whole call forest of an experiment
// whose roots overlap (ForestMax) a location's value is the largest of
// the roots' inclusive values there. A derived metric's value at a
// location is its formula over the operands' values there.
func (e *Experiment) LocationValues(ms MetricSel, cs CnodeSel) ([]float64, error) {
	if e.Metrics[ms.Metric].IsDerived() {
		return evalDerived(e, ms.Metric, e.NumLocations(), func(op MetricSel) ([]float64, error) {
			return e.LocationValues(op, cs)
		})
	}
	if cs.Cnode < 0 && forestMax(e, ms.Metric) {
		var out []float64
		for _, r := range e.CnodeRoots {
			v, err := locationValuesOver(e, ms, e.CnodeSubtree(CnodeSel{Cnode: r, Inclusive: true}))
			if err != nil {
				return nil, err
			}
			if out == nil {
				out = v
				continue
			}
			for l, x := range v {
				out[l] = max(out[l], x)
			}
		}
		return out, nil
	}
	return locationValuesOver(e, ms, e.CnodeSubtree(cs))
}

func (d *metricData) locationAggregate(m int, cnodes []int) ([]float64, error) {
	e := d.e
	out, err := d.locationAggregateRaw(m, cnodes)
	if err == nil && e.Metrics[m].Aggregation != Sum {
		noValueToZero(out)
	}
	return out, err
}

// locationAggregateRaw is locationAggregate with "no value" of min and max
// metrics (a location without a value at any of the cnodes) kept as the
// identity, for aggregation over the system tree.
func (d *metricData) locationAggregateRaw(m int, cnodes []int) ([]float64, error) {
	e := d.e
	agg := e.Metrics[m].Aggregation
	if len(cnodes) == len(e.Cnodes) && len(cnodes) > 0 {
		// Every cnode (each listed once): the cached per-location totals.
		_, locs, err := d.aggregates(m)
		if err != nil {
			return nil, err
		}
		return slices.Clone(locs), nil
	}
	b, err := d.block(m)
	if err != nil {
		return nil, err
	}
	out := make([]float64, b.NumLocations())
	var values *minMaxValues
	if agg != Sum {
		for l := range out {
			out[l] = agg.Identity()
		}
		var release func()
		if values, release, err = d.newMinMaxValues(m); err != nil {
			return nil, err
		}
		defer release()
	}
	var buf []float64
	if b.OnDemand() {
		buf = make([]float64, b.NumLocations())
	}
	for _, c := range cnodes {
		r, ok, err := b.ReadRow(c, buf)
		if err != nil || !ok {
			if err != nil {
				return nil, err
			}
			continue // all zero: nothing to add, no value for min and max
		}
		if agg == Sum {
			for l, v := range r {
				out[l] += v
			}
			continue
		}
		vals, _, err := values.of(c, r)
		if err != nil {
			return nil, err
		}
		for l, v := range vals {
			out[l] = agg.Combine(out[l], v)
		}
	}
	return out, nil
}

// systemValue aggregates per-location values over the locations below
// system node n (n itself when it is a location).
func systemValue(e *Experiment, locValues []float64, n int, agg Aggregation) float64 {
	acc := agg.Identity()
	stack := []int{n}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		node := &e.System[s]
		if node.Location >= 0 {
			acc = agg.Combine(acc, locValues[node.Location])
		}
		stack = append(stack, node.Children...)
	}
	if math.IsInf(acc, 0) {
		return 0
	}
	return acc
}

// systemValues aggregates per-location values for every system node at
// once. It does not apply to derived metrics: see SystemTreeValues.
func systemValues(e *Experiment, locValues []float64, agg Aggregation) []float64 {
	out := make([]float64, len(e.System))
	if agg != Sum {
		for i := range out {
			out[i] = agg.Identity()
		}
	}
	order := e.SystemOrder()
	for i := len(order) - 1; i >= 0; i-- {
		s := order[i]
		n := &e.System[s]
		if n.Location >= 0 {
			out[s] = agg.Combine(out[s], locValues[n.Location])
		}
		if n.Parent >= 0 {
			out[n.Parent] = agg.Combine(out[n.Parent], out[s])
		}
	}
	for i, v := range out {
		if math.IsInf(v, 0) {
			out[i] = 0
		}
	}
	return out
}

// FlatProfile returns per-region exclusive and inclusive values from
// per-cnode exclusive values: the RegionOwn and RegionWhole parts of
// flatParts.
func (e *Experiment) FlatProfile(excl []float64, agg Aggregation) (regExcl, regIncl []float64) {
	f := flatParts(e, excl, agg)
	return f.Own, f.Whole
}
