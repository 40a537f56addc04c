package model

import (
	"fmt"
	"sync"
)

// metricData is an experiment's stored values: per metric its data block,
// read on first use through the loader (or set by a builder), and its
// aggregates per call path over all locations and per location over all
// call paths, computed once from the rows. It answers the queries on
// stored metrics; the experiment, which holds it (Experiment.stored),
// describes what the values belong to and evaluates derived metrics.
type metricData struct {
	e      *Experiment // the metadata: metrics, call paths, locations
	loader Loader
	slots  []blockSlot // one per metric
	once   sync.Once
}

// blockSlot is one metric's stored values.
type blockSlot struct {
	mu     sync.Mutex
	loaded bool
	block  *Block
	err    error
	sums   []float64 // per-cnode aggregate over all locations, computed on demand
	kept   []float64 // the same, as the loader keeps it (CnodeSummer)
	direct bool      // the block was set (SetBlock), not loaded
	locs   []float64 // per-location aggregate over all cnodes, computed with sums
}

// set installs metric m's block (SetBlock).
func (d *metricData) set(m int, b *Block) {
	s := &d.slots[m]
	s.mu.Lock()
	s.block, s.err, s.loaded, s.sums, s.locs, s.kept, s.direct = b, nil, true, nil, nil, nil, true
	s.mu.Unlock()
}

// block returns metric m's block, loading it on first use (Block).
func (d *metricData) block(m int) (*Block, error) {
	e := d.e
	if m < 0 || m >= len(e.Metrics) {
		return nil, fmt.Errorf("metric index %d out of range", m)
	}
	if e.Metrics[m].IsDerived() {
		return nil, fmt.Errorf("metric %q: %w", e.Metrics[m].UniqName, ErrDerived)
	}
	s := &d.slots[m]
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.loaded {
		s.block, s.err = d.load(m)
		s.loaded = true
	}
	return s.block, s.err
}

func (d *metricData) load(m int) (*Block, error) {
	e := d.e
	nc, nl := len(e.Cnodes), len(e.Locations)
	if d.loader != nil && e.Metrics[m].Unavailable == "" {
		b, err := d.loader.LoadBlock(m)
		if err != nil {
			return nil, err
		}
		if b != nil {
			if b.NumCnodes() != nc || b.NumLocations() != nl {
				return nil, fmt.Errorf("metric %q: data block is %d×%d, want %d cnodes × %d locations",
					e.Metrics[m].UniqName, b.NumCnodes(), b.NumLocations(), nc, nl)
			}
			return b, nil
		}
	}
	return NewBlock(nc, nl), nil
}

// summarized reports whether metric m's aggregates are computed (Summarized).
func (d *metricData) summarized(m int) bool {
	s := &d.slots[m]
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sums != nil
}

// loaded reports whether metric m's block is in memory (Loaded).
func (d *metricData) loaded(m int) bool {
	s := &d.slots[m]
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.loaded
}

// cnodeSums returns, per cnode, metric m's stored values aggregated over
// all locations. The result is cached and must not be modified.
func (d *metricData) cnodeSums(m int) ([]float64, error) {
	if sums, ok, err := d.keptSums(m); ok || err != nil {
		return sums, err
	}
	sums, _, err := d.aggregates(m)
	return sums, err
}

// keptSums returns metric m's per-cnode aggregates when they are computed
// already or the loader keeps them (CnodeSummer), and whether it did.
func (d *metricData) keptSums(m int) ([]float64, bool, error) {
	e := d.e
	ks, ok := d.loader.(CnodeSummer)
	if !ok || m < 0 || m >= len(e.Metrics) || e.Metrics[m].Unavailable != "" {
		return nil, false, nil
	}
	s := &d.slots[m]
	s.mu.Lock()
	switch {
	case s.sums != nil:
		defer s.mu.Unlock()
		return s.sums, true, nil
	case s.kept != nil:
		defer s.mu.Unlock()
		return s.kept, true, nil
	case s.direct:
		s.mu.Unlock()
		return nil, false, nil
	}
	s.mu.Unlock()
	sums, err := ks.CnodeSums(m)
	if err != nil || sums == nil {
		return nil, false, err
	}
	if len(sums) != len(e.Cnodes) {
		return nil, false, fmt.Errorf("metric %q: %d call-path totals kept for %d call paths", e.Metrics[m].UniqName, len(sums), len(e.Cnodes))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kept == nil {
		s.kept = sums
	}
	return s.kept, true, nil
}

// aggregates returns metric m's stored values aggregated per cnode over
// all locations and per location over all cnodes, both computed in one
// pass over the rows and cached (they must not be modified). When the
// block is not loaded and the loader can stream rows, the pass reads the
// file without building the block.
func (d *metricData) aggregates(m int) (sums, locs []float64, err error) {
	e := d.e
	if m < 0 || m >= len(e.Metrics) {
		return nil, nil, fmt.Errorf("metric index %d out of range", m)
	}
	s := &d.slots[m]
	s.mu.Lock()
	if s.sums != nil {
		sums, locs = s.sums, s.locs
		s.mu.Unlock()
		return sums, locs, nil
	}
	loaded := s.loaded
	s.mu.Unlock()
	nc, nl := len(e.Cnodes), len(e.Locations)
	acc := newAggregator(e.Metrics[m].Aggregation, nc, nl)
	if acc.agg != Sum {
		var release func()
		if acc.values, release, err = d.newMinMaxValues(m); err != nil {
			return nil, nil, err
		}
		defer release()
	}
	st, canStream := d.loader.(RowStreamer)
	bst, canBatch := d.loader.(RowBatchStreamer)
	switch {
	case !loaded && canBatch && e.Metrics[m].Unavailable == "":
		err = bst.StreamRowBatches(m, acc.addBatch)
	case !loaded && canStream && e.Metrics[m].Unavailable == "":
		err = st.StreamRows(m, acc.add)
	default:
		var b *Block
		if b, err = d.block(m); err == nil {
			err = b.Scan(acc.add)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	sums, locs = acc.finish()
	s.mu.Lock()
	if s.sums == nil {
		s.sums, s.locs = sums, locs
	}
	sums, locs = s.sums, s.locs
	s.mu.Unlock()
	return sums, locs, nil
}
