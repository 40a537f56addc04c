package model

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
)

// memSource serves a block's rows as a RowSource and counts reads.
type memSource struct {
	b     *Block
	mu    sync.Mutex
	reads int
	fail  int // cnode whose read fails, -1 for none
}

func (s *memSource) HasRow(c int) bool { return s.b.Row(c) != nil }

func (s *memSource) ReadRow(c int, dst []float64) error {
	s.mu.Lock()
	s.reads++
	s.mu.Unlock()
	if c == s.fail {
		return errors.New("disk on fire")
	}
	copy(dst, s.b.Row(c))
	return nil
}

// streamingLoader serves small()'s blocks as on-demand blocks and streams
// rows for aggregates, recording what was asked.
type streamingLoader struct {
	src     *Experiment
	mu      sync.Mutex
	streams []int
	loads   []int
}

func (l *streamingLoader) LoadBlock(m int) (*Block, error) {
	l.mu.Lock()
	l.loads = append(l.loads, m)
	l.mu.Unlock()
	b, _ := l.src.Block(m)
	return NewSourceBlock(b.NumCnodes(), b.NumLocations(), &memSource{b: b, fail: -1}), nil
}

func (l *streamingLoader) StreamRows(m int, fn func(c int, row []float64) error) error {
	l.mu.Lock()
	l.streams = append(l.streams, m)
	l.mu.Unlock()
	b, _ := l.src.Block(m)
	// Backwards, to show that the order does not matter.
	for c := b.NumCnodes() - 1; c >= 0; c-- {
		if r := b.Row(c); r != nil {
			if err := fn(c, slices.Clone(r)); err != nil {
				return err
			}
		}
	}
	return nil
}

// onDemandVariants returns small() three ways: in memory, with on-demand
// blocks, and behind a loader that streams rows and serves on-demand blocks.
func onDemandVariants() map[string]*Experiment {
	mem := small()
	od := smallMeta()
	for m := range mem.Metrics {
		b, _ := mem.Block(m)
		od.SetBlock(m, NewSourceBlock(b.NumCnodes(), b.NumLocations(), &memSource{b: b, fail: -1}))
	}
	st := smallMeta()
	st.SetLoader(&streamingLoader{src: small()})
	return map[string]*Experiment{"memory": mem, "on demand": od, "streamed": st}
}

// TestOnDemandQueries answers every query of the hand-checked tests on
// blocks read on demand and through a streaming loader, and wants the
// answers of the blocks in memory.
func TestOnDemandQueries(t *testing.T) {
	answers := func(e *Experiment) []float64 {
		var out []float64
		for m := range e.Metrics {
			for _, incl := range []bool{true, false} {
				ms := MetricSel{m, incl}
				v, err := e.stored().cnodeValues(ms)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, v...)
				tot, err := e.MetricTotal(ms)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, tot)
				for _, cs := range []CnodeSel{AllCnodes, {0, true}, {0, false}, {1, true}, {2, false}, {4, true}} {
					loc, err := e.LocationValues(ms, cs)
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, loc...)
				}
				loc, err := locationValuesOver(e, ms, []int{3, 1})
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, loc...)
			}
		}
		return out
	}
	vs := onDemandVariants()
	want := answers(vs["memory"])
	for name, e := range vs {
		if got := answers(e); !slices.Equal(got, want) {
			t.Errorf("%s: answers differ from the blocks in memory:\n got %v\nwant %v", name, got, want)
		}
		if err := e.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	var a, b strings.Builder
	if err := vs["memory"].Dump(&a); err != nil {
		t.Fatal(err)
	}
	if err := vs["on demand"].Dump(&b); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Error("Dump of on-demand blocks differs")
	}
}

// TestStreamedAggregates: call-tree values and whole-forest location
// values come from one streaming pass, without loading the block; a
// single call path's location values load it (on demand).
func TestStreamedAggregates(t *testing.T) {
	e := smallMeta()
	l := &streamingLoader{src: small()}
	e.SetLoader(l)
	if _, err := e.stored().cnodeValues(MetricSel{0, false}); err != nil { // time minus mpi
		t.Fatal(err)
	}
	if _, err := e.LocationValues(MetricSel{0, true}, AllCnodes); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(l.streams, []int{0, 1}) || len(l.loads) != 0 || e.Loaded(0) {
		t.Fatalf("streams %v, loads %v; want streams of metrics 0 and 1 and no load", l.streams, l.loads)
	}
	got, err := e.LocationValues(MetricSel{0, true}, CnodeSel{1, false})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []float64{4, 0, 1}) || !slices.Equal(l.loads, []int{0}) {
		t.Errorf("foo alone = %v with loads %v; want [4 0 1] after loading metric 0", got, l.loads)
	}
}

func TestOnDemandBlock(t *testing.T) {
	mem := NewBlock(3, 2)
	mem.SetRow(1, []float64{1, 2})
	src := &memSource{b: mem, fail: 2}
	b := NewSourceBlock(3, 2, src)
	if !b.OnDemand() || b.Bytes() != 0 || b.StoredRows() != 1 || b.HasRow(0) || !b.HasRow(1) {
		t.Errorf("OnDemand %v, Bytes %d, StoredRows %d", b.OnDemand(), b.Bytes(), b.StoredRows())
	}
	for i := 0; i < 3; i++ {
		if r := b.Row(1); !slices.Equal(r, []float64{1, 2}) {
			t.Fatalf("Row(1) = %v", r)
		}
	}
	if src.reads != 1 {
		t.Errorf("%d reads for three Row calls; recent rows should be kept", src.reads)
	}
	if b.Row(0) != nil || b.Value(0, 1) != 0 || b.Value(1, 1) != 2 {
		t.Error("absent row is not zero")
	}
	c := b.Clone()
	if c.OnDemand() || c.Value(1, 0) != 1 {
		t.Error("Clone of an on-demand block is not a copy in memory")
	}
	mem.SetRow(2, []float64{3, 4})
	if r := b.Row(2); r != nil || b.Err() == nil || !strings.Contains(b.Err().Error(), "disk on fire") {
		t.Errorf("failed read: row %v, Err %v", r, b.Err())
	}
	if _, _, err := b.ReadRow(2, make([]float64, 2)); err == nil {
		t.Error("ReadRow hides the source's error")
	}
	if err := b.Scan(func(int, []float64) error { return nil }); err == nil {
		t.Error("Scan hides the source's error")
	}
	defer func() {
		if recover() == nil {
			t.Error("writing an on-demand block does not panic")
		}
	}()
	b.MutableRow(0)
}

func TestMemoryBudget(t *testing.T) {
	defer SetMemoryBudget(0)
	if d := MemoryBudget(); d < 16<<20 {
		t.Errorf("default budget %d", d)
	}
	SetMemoryBudget(123 << 20)
	if MemoryBudget() != 123<<20 {
		t.Errorf("budget %d after SetMemoryBudget", MemoryBudget())
	}
	for in, want := range map[string]int64{"512M": 512 << 20, "2G": 2 << 30, "1.5GiB": 3 << 29, "1000": 1000, "64kb": 64 << 10} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "lots", "-1G", "1e30T"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) accepted", in)
		}
	}
}

// summingLoader is a streamingLoader that keeps per-cnode totals for the
// metrics in kept (CnodeSummer), computed from the source experiment.
type summingLoader struct {
	streamingLoader
	kept  map[int]bool
	asked []int
}

func (l *summingLoader) CnodeSums(m int) ([]float64, error) {
	l.mu.Lock()
	l.asked = append(l.asked, m)
	l.mu.Unlock()
	if !l.kept[m] {
		return nil, nil
	}
	return l.src.stored().cnodeValues(MetricSel{Metric: m, Inclusive: true})
}

// TestKeptCnodeSums: call-tree values and totals come from the totals a
// loader keeps, without reading the metric's rows, and equal those
// computed from the rows; a metric whose totals are not kept, and one
// whose block was replaced, is read as before.
func TestKeptCnodeSums(t *testing.T) {
	want := small()
	e := smallMeta()
	l := &summingLoader{streamingLoader: streamingLoader{src: small()}, kept: map[int]bool{0: true, 1: true}}
	e.SetLoader(l)
	for m := range e.Metrics {
		if e.Metrics[m].IsDerived() {
			continue
		}
		for _, incl := range []bool{false, true} {
			ms := MetricSel{Metric: m, Inclusive: incl}
			got, err := e.CallTreeValues(ms, true)
			if err != nil {
				t.Fatal(err)
			}
			exp, _ := want.CallTreeValues(ms, true)
			if !slices.Equal(got, exp) {
				t.Errorf("metric %d inclusive %v: %v, want %v", m, incl, got, exp)
			}
		}
	}
	for _, m := range append(l.streams, l.loads...) {
		if l.kept[m] {
			t.Errorf("metric %d read although its totals are kept (streams %v, loads %v)", m, l.streams, l.loads)
		}
	}
	if len(l.streams)+len(l.loads) == 0 {
		t.Error("no metric was read: the loader keeps the totals of only some")
	}
	// A block set directly replaces what the loader keeps.
	b := NewBlock(len(e.Cnodes), len(e.Locations))
	b.SetRow(0, slices.Repeat([]float64{2}, len(e.Locations)))
	e.SetBlock(0, b)
	got, err := e.stored().cnodeValues(MetricSel{Metric: 0, Inclusive: true})
	if err != nil || got[0] != 2*float64(len(e.Locations)) {
		t.Errorf("after SetBlock: %v %v", got, err)
	}
}
