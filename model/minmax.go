package model

import "math"

// minMaxValues decides which stored values of a min or max metric are
// values, the one rule every aggregation of such a metric follows (see
// the package documentation): a call path whose stored values are all 0
// (or absent) has no value anywhere; otherwise a location's stored value
// is a value when the location visited the call path, which the
// experiment's visits metric says where it has a non-zero row for the
// call path, and else a non-zero stored value does.
type minMaxValues struct {
	agg    Aggregation
	visits RowSource // the experiment's visits; may be nil
	vbuf   []float64
	out    []float64
}

// newMinMaxValues returns the rule for min or max metric m. Call release
// when done.
func (d *metricData) newMinMaxValues(m int) (v *minMaxValues, release func(), err error) {
	e := d.e
	visits, release, err := d.visitsOf(m)
	if err != nil {
		return nil, nil, err
	}
	nl := e.NumLocations()
	return &minMaxValues{
		agg:    e.Metrics[m].Aggregation,
		visits: visits,
		vbuf:   make([]float64, nl),
		out:    make([]float64, nl),
	}, release, nil
}

// of returns call path c's values from its stored row, with every stored
// value that is no value replaced by the aggregation's identity (±Inf),
// which min and max pass over, and whether any value remains. The result
// is valid until the next call; row is not modified.
func (v *minMaxValues) of(c int, row []float64) ([]float64, bool, error) {
	out := v.out[:len(row)]
	id := v.agg.Identity()
	if allZero(row) {
		for l := range out {
			out[l] = id
		}
		return out, false, nil
	}
	visited := row
	if v.visits != nil && len(v.vbuf) == len(row) && v.visits.HasRow(c) {
		if err := v.visits.ReadRow(c, v.vbuf); err != nil {
			return nil, false, err
		}
		if !allZero(v.vbuf) {
			visited = v.vbuf
		}
	}
	any := false
	for l, x := range row {
		if visited[l] == 0 {
			x = id
		} else {
			any = true
		}
		out[l] = x
	}
	return out, any, nil
}

// visitsOf returns, for min or max metric m, the rows of the experiment's
// visits metric (a stored sum metric named "visits"), which tell which
// locations visited a call path, read without loading its block; nil when
// there is none. Call release when done.
func (d *metricData) visitsOf(m int) (rows RowSource, release func(), err error) {
	e := d.e
	for i := range e.Metrics {
		v := &e.Metrics[i]
		if i != m && v.UniqName == "visits" && v.Aggregation == Sum && v.HasStoredValues() && v.Unavailable == "" {
			if _, canOpen := d.loader.(RowOpener); !canOpen && !d.loaded(i) {
				break // not worth loading a block for: the non-zero rule
			}
			return d.rows(i)
		}
	}
	return nil, func() {}, nil
}

// noValueToZero replaces "no value" (an infinite identity of min or max)
// by the 0 that displays show.
func noValueToZero(v []float64) {
	for i, x := range v {
		if math.IsInf(x, 0) {
			v[i] = 0
		}
	}
}

// MinMaxValues returns the values of min or max metric m per call path
// and location that count (see the package documentation) from b, its
// stored block: a stored value that does not count is the aggregation's
// identity (±Inf), and rows without any value are absent.
func MinMaxValues(e *Experiment, m int, b *Block) (*Block, error) {
	rule, release, err := e.stored().newMinMaxValues(m)
	if err != nil {
		return nil, err
	}
	defer release()
	out := NewBlock(b.NumCnodes(), b.NumLocations())
	err = b.Scan(func(c int, row []float64) error {
		vals, ok, err := rule.of(c, row)
		if ok {
			out.SetRow(c, append([]float64(nil), vals...))
		}
		return err
	})
	if err == nil {
		err = b.Err()
	}
	return out, err
}

// Summary is a stored metric's values over a set of locations, each
// aggregated with the metric's kind as the panes aggregate them: per call
// path its own value and its value with its whole subtree, per region its
// flat-profile values, and the whole run's.
type Summary struct {
	Own, Whole             []float64 // per cnode
	RegionOwn, RegionWhole []float64 // per region
	Total                  float64   // over the whole call forest (see ForestValue)
}

// SummaryOver returns stored metric m (with its child metrics) over the
// locations cols, all of them when cols is nil, by the same rules as the
// panes: for a min or max metric only the values that count (see
// minMaxValues), a call path without any showing 0. Over all locations the
// regions' whole values are the tool's own where the experiment's call
// graph records them (FlatProfileOf).
func SummaryOver(e *Experiment, m int, cols []int) (Summary, error) {
	if err := notDerived(e, m, "its operands' summaries"); err != nil {
		return Summary{}, err
	}
	ms := MetricSel{Metric: m, Inclusive: true}
	agg := e.Metrics[m].Aggregation
	var own []float64
	var s Summary
	var err error
	if cols == nil {
		if own, err = e.stored().ownValues(ms); err != nil {
			return Summary{}, err
		}
		if s.RegionOwn, s.RegionWhole, err = e.FlatProfileOf(ms); err != nil {
			return Summary{}, err
		}
	} else {
		if own, err = e.stored().ownValuesOver(m, cols); err != nil {
			return Summary{}, err
		}
		s.RegionOwn, s.RegionWhole = e.FlatProfile(own, agg)
	}
	s.Total = ForestValue(e, own, agg)
	s.Whole = e.CallInclusive(own, agg)
	if agg != Sum {
		noValueToZero(s.Whole)
		noValueToZero(own)
	}
	s.Own = own
	return s, nil
}

// ownValuesOver returns, per cnode, stored metric m's own values
// aggregated over the locations cols, "no value" of min and max kept as
// the identity.
func (d *metricData) ownValuesOver(m int, cols []int) ([]float64, error) {
	e := d.e
	agg := e.Metrics[m].Aggregation
	b, err := d.block(m)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(e.Cnodes))
	var values *minMaxValues
	if agg != Sum {
		for c := range out {
			out[c] = agg.Identity()
		}
		var release func()
		if values, release, err = d.newMinMaxValues(m); err != nil {
			return nil, err
		}
		defer release()
	}
	err = b.Scan(func(c int, row []float64) error {
		if values != nil {
			var err error
			if row, _, err = values.of(c, row); err != nil {
				return err
			}
		}
		acc := out[c]
		for _, l := range cols {
			acc = agg.Combine(acc, row[l])
		}
		out[c] = acc
		return nil
	})
	if err == nil {
		err = b.Err()
	}
	return out, err
}

// CountedValues returns, for min or max metric m, a function that gives
// call path c's values that count (see MinMaxValues) from its stored row:
// the aggregation's identity (±Inf) where a value does not count. Its
// result is valid until the next call; row is not modified. Call release
// when done.
func CountedValues(e *Experiment, m int) (values func(c int, row []float64) ([]float64, error), release func(), err error) {
	rule, release, err := e.stored().newMinMaxValues(m)
	if err != nil {
		return nil, nil, err
	}
	return func(c int, row []float64) ([]float64, error) {
		vals, _, err := rule.of(c, row)
		return vals, err
	}, release, nil
}
