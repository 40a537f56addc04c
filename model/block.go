package model

// Block holds one metric's values: a row per cnode, a column per location.
// A row that is entirely zero may be absent (nil), which keeps sparse call
// trees cheap. Rows share one backing array when built with NewDenseBlock.
type Block struct {
	rows      [][]float64
	locations int
}

// NewBlock returns an all-zero block of ncnodes rows and nlocations columns.
func NewBlock(ncnodes, nlocations int) *Block {
	return &Block{rows: make([][]float64, ncnodes), locations: nlocations}
}

// NumCnodes returns the number of rows.
func (b *Block) NumCnodes() int { return len(b.rows) }

// NumLocations returns the number of columns.
func (b *Block) NumLocations() int { return b.locations }

// Row returns the values of cnode c, or nil when they are all zero. The
// returned slice must not be modified.
func (b *Block) Row(c int) []float64 { return b.rows[c] }

// Value returns the value at cnode c and location l.
func (b *Block) Value(c, l int) float64 {
	if r := b.rows[c]; r != nil {
		return r[l]
	}
	return 0
}

// SetRow stores the values of cnode c; row must have NumLocations entries
// (or be nil for an all-zero row). The block keeps the slice.
func (b *Block) SetRow(c int, row []float64) {
	if row != nil && len(row) != b.locations {
		panic("model: Block.SetRow with wrong row length")
	}
	b.rows[c] = row
}

// MutableRow returns the row of cnode c for writing, allocating it when absent.
func (b *Block) MutableRow(c int) []float64 {
	if b.rows[c] == nil {
		b.rows[c] = make([]float64, b.locations)
	}
	return b.rows[c]
}

// AllocRows gives every listed cnode a zero row carved from one allocation,
// which is much cheaper than a slice per row for large blocks.
func (b *Block) AllocRows(cnodes []int) {
	backing := make([]float64, len(cnodes)*b.locations)
	for i, c := range cnodes {
		b.rows[c] = backing[i*b.locations : (i+1)*b.locations : (i+1)*b.locations]
	}
}

// Compact drops rows that are entirely zero.
func (b *Block) Compact() {
	for c, r := range b.rows {
		if r != nil && allZero(r) {
			b.rows[c] = nil
		}
	}
}

// StoredRows returns the number of rows present.
func (b *Block) StoredRows() int {
	n := 0
	for _, r := range b.rows {
		if r != nil {
			n++
		}
	}
	return n
}

// Bytes returns the memory held by the stored values.
func (b *Block) Bytes() int64 { return int64(b.StoredRows()) * int64(b.locations) * 8 }

// Clone returns a deep copy.
func (b *Block) Clone() *Block {
	c := NewBlock(len(b.rows), b.locations)
	var present []int
	for i, r := range b.rows {
		if r != nil {
			present = append(present, i)
		}
	}
	c.AllocRows(present)
	for _, i := range present {
		copy(c.rows[i], b.rows[i])
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
