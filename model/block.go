package model

import "sync"

// Block holds one metric's values: a row per cnode, a column per location.
// A row that is entirely zero may be absent (nil), which keeps sparse call
// trees cheap. Rows share one backing array when built with NewDenseBlock.
//
// A block made by NewSourceBlock keeps its values outside memory: rows are
// read from a RowSource when asked for, so a metric larger than memory can
// still be browsed. Such a block is read-only.
type Block struct {
	rows      [][]float64
	cnodes    int
	locations int

	src   RowSource // nil for a block held in memory
	mu    sync.Mutex
	cache []cachedRow // recently read rows of a source block
	clock int
	err   error // first error of a source read through Row
}

// RowSource supplies the rows of a block that is not held in memory, for
// example a metric of a file larger than memory read row by row. It must
// be safe for concurrent use.
type RowSource interface {
	// HasRow reports whether cnode c has a stored row; an absent row is
	// all zero.
	HasRow(c int) bool
	// ReadRow fills dst (one value per location) with cnode c's values.
	ReadRow(c int, dst []float64) error
}

// RowScanner is implemented by row sources that pass all their rows faster
// in one sequential pass than one at a time.
type RowScanner interface {
	// ScanRows calls fn with every stored row once, in any order; row is
	// only valid during the call.
	ScanRows(fn func(c int, row []float64) error) error
}

type cachedRow struct {
	c   int
	row []float64
}

// sourceCacheRows is how many recently read rows a source block keeps, so
// that repeated questions about one selection do not read again.
const sourceCacheRows = 16

// NewBlock returns an all-zero block of ncnodes rows and nlocations columns.
func NewBlock(ncnodes, nlocations int) *Block {
	return &Block{rows: make([][]float64, ncnodes), cnodes: ncnodes, locations: nlocations}
}

// NewSourceBlock returns a read-only block whose rows are read from src
// on demand.
func NewSourceBlock(ncnodes, nlocations int, src RowSource) *Block {
	return &Block{cnodes: ncnodes, locations: nlocations, src: src}
}

// OnDemand reports whether the block reads its rows from a RowSource
// instead of holding them in memory.
func (b *Block) OnDemand() bool { return b.src != nil }

// NumCnodes returns the number of rows.
func (b *Block) NumCnodes() int { return b.cnodes }

// NumLocations returns the number of columns.
func (b *Block) NumLocations() int { return b.locations }

// HasRow reports whether cnode c has a stored row (Row(c) != nil), without
// reading it.
func (b *Block) HasRow(c int) bool {
	if b.src != nil {
		return b.src.HasRow(c)
	}
	return b.rows[c] != nil
}

// Row returns the values of cnode c, or nil when they are all zero. The
// returned slice must not be modified. For an on-demand block the row is
// read from its source; a read error yields nil and is kept for Err.
func (b *Block) Row(c int) []float64 {
	if b.src == nil {
		return b.rows[c]
	}
	if !b.src.HasRow(c) {
		return nil
	}
	b.mu.Lock()
	for _, cr := range b.cache {
		if cr.c == c {
			b.mu.Unlock()
			return cr.row
		}
	}
	b.mu.Unlock()
	row := make([]float64, b.locations)
	if err := b.src.ReadRow(c, row); err != nil {
		b.mu.Lock()
		if b.err == nil {
			b.err = err
		}
		b.mu.Unlock()
		return nil
	}
	b.mu.Lock()
	if len(b.cache) < sourceCacheRows {
		b.cache = append(b.cache, cachedRow{c, row})
	} else {
		b.cache[b.clock] = cachedRow{c, row}
		b.clock = (b.clock + 1) % sourceCacheRows
	}
	b.mu.Unlock()
	return row
}

// Err returns the first error met while reading rows of an on-demand
// block through Row or Value; it is always nil for a block in memory.
func (b *Block) Err() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// ReadRow returns cnode c's values and whether the row is stored. A block
// in memory returns its own row (not to be modified); an on-demand block
// reads into buf (NumLocations long) and returns it.
func (b *Block) ReadRow(c int, buf []float64) ([]float64, bool, error) {
	if b.src == nil {
		r := b.rows[c]
		return r, r != nil, nil
	}
	if !b.src.HasRow(c) {
		return nil, false, nil
	}
	if err := b.src.ReadRow(c, buf[:b.locations]); err != nil {
		return nil, false, err
	}
	return buf[:b.locations], true, nil
}

// Scan calls fn with every stored row once: in cnode order for a block in
// memory, in the source's order for an on-demand block. For an on-demand
// block row is only valid during the call.
func (b *Block) Scan(fn func(c int, row []float64) error) error {
	if b.src == nil {
		for c, r := range b.rows {
			if r != nil {
				if err := fn(c, r); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if sc, ok := b.src.(RowScanner); ok {
		return sc.ScanRows(fn)
	}
	buf := make([]float64, b.locations)
	for c := 0; c < b.cnodes; c++ {
		if !b.src.HasRow(c) {
			continue
		}
		if err := b.src.ReadRow(c, buf); err != nil {
			return err
		}
		if err := fn(c, buf); err != nil {
			return err
		}
	}
	return nil
}

// Value returns the value at cnode c and location l.
func (b *Block) Value(c, l int) float64 {
	if r := b.Row(c); r != nil {
		return r[l]
	}
	return 0
}

func (b *Block) mustBeInMemory() {
	if b.src != nil {
		panic("model: an on-demand block is read-only")
	}
}

// SetRow stores the values of cnode c; row must have NumLocations entries
// (or be nil for an all-zero row). The block keeps the slice.
func (b *Block) SetRow(c int, row []float64) {
	b.mustBeInMemory()
	if row != nil && len(row) != b.locations {
		panic("model: Block.SetRow with wrong row length")
	}
	b.rows[c] = row
}

// MutableRow returns the row of cnode c for writing, allocating it when absent.
func (b *Block) MutableRow(c int) []float64 {
	b.mustBeInMemory()
	if b.rows[c] == nil {
		b.rows[c] = make([]float64, b.locations)
	}
	return b.rows[c]
}

// AllocRows gives every listed cnode a zero row carved from one allocation,
// which is much cheaper than a slice per row for large blocks.
func (b *Block) AllocRows(cnodes []int) {
	b.mustBeInMemory()
	backing := make([]float64, len(cnodes)*b.locations)
	for i, c := range cnodes {
		b.rows[c] = backing[i*b.locations : (i+1)*b.locations : (i+1)*b.locations]
	}
}

// Compact drops rows that are entirely zero.
func (b *Block) Compact() {
	b.mustBeInMemory()
	for c, r := range b.rows {
		if r != nil && allZero(r) {
			b.rows[c] = nil
		}
	}
}

// StoredRows returns the number of rows present.
func (b *Block) StoredRows() int {
	n := 0
	for c := 0; c < b.cnodes; c++ {
		if b.HasRow(c) {
			n++
		}
	}
	return n
}

// Bytes returns the memory held by the stored values: none for an
// on-demand block.
func (b *Block) Bytes() int64 {
	if b.src != nil {
		return 0
	}
	return int64(b.StoredRows()) * int64(b.locations) * 8
}

// Clone returns a deep copy held in memory (also of an on-demand block).
func (b *Block) Clone() *Block {
	c := NewBlock(b.cnodes, b.locations)
	var present []int
	for i := 0; i < b.cnodes; i++ {
		if b.HasRow(i) {
			present = append(present, i)
		}
	}
	c.AllocRows(present)
	for _, i := range present {
		copy(c.rows[i], b.Row(i))
	}
	return c
}

func allZero(r []float64) bool {
	for _, v := range r {
		if v != 0 {
			return false
		}
	}
	return true
}
