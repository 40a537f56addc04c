package model

import "math"

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
func (e *Experiment) subtracted(m int) []int {
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

// cnodeSums returns, per cnode, metric m's stored values aggregated over
// all locations. The result is cached and must not be modified.
func (e *Experiment) cnodeSums(m int) ([]float64, error) {
	b, err := e.Block(m)
	if err != nil {
		return nil, err
	}
	s := &e.blocks[m]
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sums != nil {
		return s.sums, nil
	}
	agg := e.Metrics[m].Aggregation
	sums := make([]float64, b.NumCnodes())
	for c := range sums {
		r := b.Row(c)
		if r == nil {
			if agg != Sum && b.NumLocations() == 0 {
				sums[c] = agg.Identity()
			}
			continue
		}
		acc := agg.Identity()
		switch agg {
		case Sum:
			for _, v := range r {
				acc += v
			}
		default:
			for _, v := range r {
				acc = agg.Combine(acc, v)
			}
		}
		sums[c] = acc
	}
	s.sums = sums
	return sums, nil
}

// CnodeValues returns, for every cnode, its exclusive (own) value of the
// selected metric aggregated over all locations. A derived metric's values
// do not add up along the call tree, so for it CnodeValues returns an
// error wrapping ErrDerived: CallTreeValues answers for every metric.
func (e *Experiment) CnodeValues(ms MetricSel) ([]float64, error) {
	if err := e.notDerived(ms.Metric, "CallTreeValues"); err != nil {
		return nil, err
	}
	sums, err := e.cnodeSums(ms.Metric)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(sums))
	copy(out, sums)
	if !ms.Inclusive {
		for _, ch := range e.subtracted(ms.Metric) {
			cs, err := e.cnodeSums(ch)
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
// cnode's value aggregated with its whole subtree. It does not apply to
// derived metrics, whose values do not add up: see CallTreeValues.
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

// ForestTotal aggregates per-cnode exclusive values over the whole call forest.
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
// metric over the whole call forest and all locations.
func (e *Experiment) MetricTotal(ms MetricSel) (float64, error) {
	if e.Metrics[ms.Metric].IsDerived() {
		return e.Metrics[ms.Metric].Formula.EvalScalar(func(name string) (float64, error) {
			op, err := e.operandIndex(ms.Metric, name)
			if err != nil {
				return 0, err
			}
			return e.MetricTotal(MetricSel{Metric: op, Inclusive: true})
		})
	}
	v, err := e.CnodeValues(ms)
	if err != nil {
		return 0, err
	}
	return ForestTotal(v, e.Metrics[ms.Metric].Aggregation), nil
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
// the selected call paths.
func (e *Experiment) LocationValues(ms MetricSel, cs CnodeSel) ([]float64, error) {
	return e.LocationValuesOver(ms, e.CnodeSubtree(cs))
}

func (e *Experiment) locationAggregate(m int, cnodes []int) ([]float64, error) {
	b, err := e.Block(m)
	if err != nil {
		return nil, err
	}
	agg := e.Metrics[m].Aggregation
	out := make([]float64, b.NumLocations())
	if agg != Sum {
		for l := range out {
			out[l] = agg.Identity()
		}
	}
	for _, c := range cnodes {
		r := b.Row(c)
		if r == nil {
			if agg != Sum {
				for l := range out {
					out[l] = agg.Combine(out[l], 0)
				}
			}
			continue
		}
		if agg == Sum {
			for l, v := range r {
				out[l] += v
			}
		} else {
			for l, v := range r {
				out[l] = agg.Combine(out[l], v)
			}
		}
	}
	if agg != Sum {
		for l, v := range out {
			if math.IsInf(v, 0) {
				out[l] = 0
			}
		}
	}
	return out, nil
}

// SystemValue aggregates per-location values over the locations below
// system node n (n itself when it is a location).
func (e *Experiment) SystemValue(locValues []float64, n int, agg Aggregation) float64 {
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

// SystemValues aggregates per-location values for every system node at
// once. It does not apply to derived metrics: see SystemTreeValues.
func (e *Experiment) SystemValues(locValues []float64, agg Aggregation) []float64 {
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
// per-cnode exclusive values. A region's exclusive value aggregates its
// cnodes' own values; its inclusive value aggregates the union of their
// subtrees, each cnode counted once, so recursion is not double counted.
func (e *Experiment) FlatProfile(excl []float64, agg Aggregation) (regExcl, regIncl []float64) {
	incl := e.CallInclusive(excl, agg)
	regExcl = make([]float64, len(e.Regions))
	regIncl = make([]float64, len(e.Regions))
	seen := make([]bool, len(e.Regions))
	if agg != Sum {
		for r := range regExcl {
			regExcl[r], regIncl[r] = agg.Identity(), agg.Identity()
		}
	}
	// Walk depth-first keeping, per region, how many ancestors on the
	// current path call it; only outermost instances add to the inclusive value.
	onPath := make([]int, len(e.Regions))
	type frame struct {
		c    int
		exit bool
	}
	stack := make([]frame, 0, 64)
	for i := len(e.CnodeRoots) - 1; i >= 0; i-- {
		stack = append(stack, frame{c: e.CnodeRoots[i]})
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		r := e.Cnodes[f.c].Region
		if f.exit {
			onPath[r]--
			continue
		}
		seen[r] = true
		regExcl[r] = agg.Combine(regExcl[r], excl[f.c])
		if onPath[r] == 0 {
			regIncl[r] = agg.Combine(regIncl[r], incl[f.c])
		}
		onPath[r]++
		stack = append(stack, frame{c: f.c, exit: true})
		ch := e.Cnodes[f.c].Children
		for i := len(ch) - 1; i >= 0; i-- {
			stack = append(stack, frame{c: ch[i]})
		}
	}
	for r := range regExcl {
		if !seen[r] || math.IsInf(regExcl[r], 0) {
			regExcl[r] = 0
		}
		if !seen[r] || math.IsInf(regIncl[r], 0) {
			regIncl[r] = 0
		}
	}
	return regExcl, regIncl
}
