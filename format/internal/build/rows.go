package build

import "cubeview/model"

// Rows accumulates values per (metric, cnode) row of locations, sparsely:
// a row is allocated on its first value. Unlike Values it suits inputs
// whose metrics are many and mostly zero at a cnode (one metric per
// statistic of each of hundreds of atomic events) and whose metrics are
// discovered while values arrive. Metrics are numbered from 0 as they are
// added; they need not be the experiment's metric indices (see Block).
type Rows struct {
	nl   int
	rows [][][]float64 // metric → cnode → row
	slab []float64     // unused rest of the current slab of rows
}

// NewRows returns an accumulator of rows of nlocations values.
func NewRows(nlocations int) *Rows { return &Rows{nl: nlocations} }

// AddMetric adds a metric without values and returns its number.
func (r *Rows) AddMetric() int {
	r.rows = append(r.rows, nil)
	return len(r.rows) - 1
}

// Metrics returns how many metrics there are.
func (r *Rows) Metrics() int { return len(r.rows) }

// Row returns the row of metric m at cnode c, allocating it when needed.
func (r *Rows) Row(m, c int) []float64 {
	rows := r.rows[m]
	if c >= len(rows) {
		rows = append(rows, make([][]float64, c+1-len(rows))...)
		r.rows[m] = rows
	}
	if rows[c] == nil {
		if len(r.slab) < r.nl {
			// Rows come from slabs of consecutive rows: an input's values
			// then write memory in a regular stride the processor
			// prefetches, and the allocator sees few large objects.
			r.slab = make([]float64, 32*r.nl)
		}
		rows[c], r.slab = r.slab[:r.nl:r.nl], r.slab[r.nl:]
	}
	return rows[c]
}

// Add adds x to the value of metric m at cnode c and location column l;
// adding 0 allocates nothing.
func (r *Rows) Add(m, c, l int, x float64) {
	if x != 0 {
		r.Row(m, c)[l] += x
	}
}

// Has reports whether metric m has a row at cnode c.
func (r *Rows) Has(m, c int) bool {
	return m < len(r.rows) && c < len(r.rows[m]) && r.rows[m][c] != nil
}

// All reports whether every value of metric m satisfies ok.
func (r *Rows) All(m int, ok func(float64) bool) bool {
	for _, row := range r.rows[m] {
		for _, v := range row {
			if !ok(v) {
				return false
			}
		}
	}
	return true
}

// Block returns metric m's values as a data block of ncnodes cnodes,
// divided by div (a unit conversion; 1 for none). cols, when not nil,
// gives the column of each location of the block (leaving out columns or
// ordering them otherwise). Rows that are zero are left out. The block
// takes over the metric's rows: call it once per metric.
func (r *Rows) Block(m, ncnodes int, div float64, cols []int) *model.Block {
	nl := r.nl
	if cols != nil {
		nl = len(cols)
	}
	b := model.NewBlock(ncnodes, nl)
	var backing []float64
	if cols != nil {
		n := 0
		for _, row := range r.rows[m] {
			if row != nil {
				n++
			}
		}
		backing = make([]float64, n*nl)
	}
	for c, row := range r.rows[m] {
		if row == nil || c >= ncnodes {
			continue
		}
		if cols != nil {
			kept := backing[:nl:nl]
			backing = backing[nl:]
			for i, col := range cols {
				kept[i] = row[col]
			}
			row = kept
		}
		if div != 1 {
			for l := range row {
				row[l] /= div
			}
		}
		b.SetRow(c, row)
	}
	b.Compact()
	r.rows[m] = nil
	return b
}
