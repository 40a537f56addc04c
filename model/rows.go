package model

import "fmt"

// RowOpener is implemented by loaders that can read one metric's rows
// (canonical values) on demand without loading its block. OpenRows
// returns nil when it cannot; release, when not nil, is called once the
// rows are no longer read.
type RowOpener interface {
	OpenRows(metric int) (rows RowSource, release func(), err error)
}

// Rows returns a reader of stored metric m's rows, one cnode at a time,
// for a pass that needs one row at a time (printing rows in order): the
// block when it is in memory, else the loader's on-demand reader, which
// does not load the block. Call release when done.
func (e *Experiment) Rows(m int) (rows RowSource, release func(), err error) {
	return e.stored().rows(m)
}

// rows returns a reader of metric m's rows (Rows).
func (d *metricData) rows(m int) (rows RowSource, release func(), err error) {
	e := d.e
	if m < 0 || m >= len(e.Metrics) {
		return nil, nil, fmt.Errorf("metric index %d out of range", m)
	}
	if e.Metrics[m].IsDerived() {
		return nil, nil, fmt.Errorf("metric %q: %w", e.Metrics[m].UniqName, ErrDerived)
	}
	if op, ok := d.loader.(RowOpener); ok && !d.loaded(m) && e.Metrics[m].Unavailable == "" {
		r, rel, err := op.OpenRows(m)
		if err != nil {
			return nil, nil, err
		}
		if rel == nil {
			rel = func() {}
		}
		if r != nil {
			return r, rel, nil
		}
		rel()
	}
	b, err := d.block(m)
	if err != nil {
		return nil, nil, err
	}
	return blockRows{b}, func() {}, nil
}

// blockRows reads the rows of a block.
type blockRows struct{ b *Block }

func (r blockRows) HasRow(c int) bool { return r.b.Row(c) != nil }

func (r blockRows) ReadRow(c int, dst []float64) error {
	if row := r.b.Row(c); row != nil {
		copy(dst, row)
	} else {
		clear(dst)
	}
	return r.b.Err()
}
