package cube

import (
	"bufio"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"cubeview/format/importer"
	"cubeview/model"
)

// cubexRows reads one metric's rows straight from the .cubex file, in
// canonical meaning (exclusive along the call tree), without holding the
// metric's block: for a one-pass aggregate (model.RowStreamer) and for
// metrics larger than the memory budget (model.RowSource). Uncompressed
// rows are read at their offset; ZCUBEX rows are decompressed one block
// at a time.
type cubexRows struct {
	ld  *cubexLoader
	met *model.Metric
	md  *metricData
	id  string // metric id, for messages

	rowCnode []int   // file row → cnode
	rowOf    []int32 // cnode → file row, -1 when not stored
	// convert: the file holds call-tree inclusive sums; a cnode's own
	// value is its stored row minus its children's (negative where the
	// children hold more, so that inclusive values are the stored ones),
	// and a parent of a stored row has a row too.
	convert bool
	has     []bool // per cnode: a canonical row exists

	zblocks []zblock // ZCUBEX: blocks in file order; nil for CUBEX.DATA
	zrow    []int32  // ZCUBEX: file row → index in zblocks, -1 when absent

	bufs sync.Pool // *rowBuffers
}

type rowBuffers struct {
	bytes    []byte
	scratch  []float64
	children []float64 // stored rows of children, read together
	views    [][]float64
	zr       io.ReadCloser
	br       *bufio.Reader
}

// rows returns the row reader of metric m, or nil when nothing is stored.
func (ld *cubexLoader) rows(m int) (*cubexRows, error) {
	md := ld.metrics[m]
	if md == nil {
		return nil, nil
	}
	met := &ld.e.Metrics[m]
	r, err := ld.newRows(met, md)
	if err != nil {
		return nil, fmt.Errorf("%s: metric %s: %w", ld.arch.name, importer.Quote(met.UniqName), err)
	}
	return r, nil
}

func (ld *cubexLoader) newRows(met *model.Metric, md *metricData) (*cubexRows, error) {
	e := ld.e
	id := strconv.Itoa(met.ID)
	x, err := ld.index(id, md)
	if err != nil {
		return nil, err
	}
	inclusive := strings.EqualFold(strings.TrimSpace(string(met.Type)), string(model.Inclusive))
	deep, wide := ld.enumerations()
	enum := deep
	if inclusive {
		enum = wide
	}
	r := &cubexRows{ld: ld, met: met, md: md, id: id, rowCnode: enum,
		convert: inclusive && met.Aggregation == model.Sum}
	if !x.dense {
		r.rowCnode = make([]int, len(x.positions))
		for k, p := range x.positions {
			r.rowCnode[k] = enum[p]
		}
	}
	r.rowOf = make([]int32, len(e.Cnodes))
	for c := range r.rowOf {
		r.rowOf[c] = -1
	}
	r.has = make([]bool, len(e.Cnodes))
	for k, c := range r.rowCnode {
		r.rowOf[c] = int32(k)
		r.has[c] = true
		if p := e.Cnodes[c].Parent; r.convert && p >= 0 {
			r.has[p] = true
		}
	}
	marker, err := readDataMarker(ld.arch.r, md.data)
	if err != nil {
		return nil, fmt.Errorf("%s.data: %w", id, err)
	}
	if marker == zdataMarker {
		if r.zblocks, err = readSubIndex(ld.arch.r, md.data, md.layout); err != nil {
			return nil, fmt.Errorf("%s.data: %w", id, err)
		}
		r.zrow = make([]int32, md.layout.rows)
		for k := range r.zrow {
			r.zrow[k] = -1
		}
		for i, b := range r.zblocks {
			r.zrow[b.row] = int32(i)
		}
	} else if _, err := checkDataMember(ld.arch.r, md.data, md.layout); err != nil {
		return nil, fmt.Errorf("%s.data: %w", id, err)
	}
	return r, nil
}

// index reads and checks a metric's .index member.
func (ld *cubexLoader) index(id string, md *metricData) (*cubexIndex, error) {
	buf := make([]byte, md.index.size)
	if _, err := ld.arch.r.ReadAt(buf, md.index.offset); err != nil {
		return nil, fmt.Errorf("reading %s.index: %w", id, err)
	}
	x, err := parseIndex(buf, len(ld.e.Cnodes))
	if err != nil {
		return nil, fmt.Errorf("%s.index: %w", id, err)
	}
	if x.rows(len(ld.e.Cnodes)) != md.layout.rows {
		return nil, fmt.Errorf("%s.index changed while open", id)
	}
	return x, nil
}

// bytes returns the memory a block of these rows takes.
func (r *cubexRows) bytes() int64 {
	n := int64(0)
	for _, h := range r.has {
		if h {
			n++
		}
	}
	return n * int64(len(r.ld.e.Locations)) * 8
}

// HasRow implements model.RowSource.
func (r *cubexRows) HasRow(c int) bool { return r.has[c] }

func (r *cubexRows) buffers() *rowBuffers {
	if b, ok := r.bufs.Get().(*rowBuffers); ok {
		return b
	}
	nl := len(r.ld.e.Locations)
	return &rowBuffers{scratch: make([]float64, nl)}
}

// childRows bounds how many rows of children one read takes.
func (r *cubexRows) childRows() int {
	return max(1, min(256, int(scanBatchBytes/max(r.md.layout.rowBytes(), 1))))
}

// ReadRow implements model.RowSource.
func (r *cubexRows) ReadRow(c int, dst []float64) error {
	bufs := r.buffers()
	defer r.bufs.Put(bufs)
	return r.own(c, dst, bufs)
}

// own reads cnode c's canonical row: its stored row, minus its children's
// stored rows (one after the other, in their order) when the file holds
// call-tree inclusive sums. Children whose rows follow each other in the
// file (always so for a dense index, which stores a cnode's children
// together) are read with one call.
func (r *cubexRows) own(c int, dst []float64, bufs *rowBuffers) error {
	if err := r.stored(c, dst, bufs); err != nil {
		return err
	}
	if !r.convert {
		return nil
	}
	nl := len(dst)
	ch := r.ld.e.Cnodes[c].Children
	limit := r.childRows()
	for i := 0; i < len(ch); {
		k := r.rowOf[ch[i]]
		if k < 0 {
			i++
			continue
		}
		j := i + 1
		for j < len(ch) && j-i < limit && r.rowOf[ch[j]] == k+int32(j-i) {
			j++
		}
		n := j - i
		if cap(bufs.children) < n*nl {
			bufs.children = make([]float64, max(n, min(limit, len(ch)))*nl)
		}
		back := bufs.children[:n*nl]
		views := bufs.views[:0]
		for v := 0; v < n; v++ {
			views = append(views, back[v*nl:(v+1)*nl:(v+1)*nl])
		}
		bufs.views = views
		if err := r.fileRows(int(k), n, views, bufs); err != nil {
			return err
		}
		for _, row := range views {
			for l, v := range row {
				dst[l] -= v
			}
		}
		i = j
	}
	return nil
}

// stored reads cnode c's row as stored in the file (zeros when absent).
func (r *cubexRows) stored(c int, dst []float64, bufs *rowBuffers) error {
	k := int(r.rowOf[c])
	if k < 0 {
		clear(dst)
		return nil
	}
	return r.fileRows(k, 1, [][]float64{dst}, bufs)
}

// fileRows decodes n consecutive file rows from row first into dst.
func (r *cubexRows) fileRows(first, n int, dst [][]float64, bufs *rowBuffers) error {
	d := r.md.layout
	rd := rowDecoder{d: d, dst: dst, cols: r.ld.cols, scratch: bufs.scratch}
	want := min(int64(decodeChunk), max(d.rowBytes(), 1)*int64(n))
	if int64(cap(bufs.bytes)) < want {
		bufs.bytes = make([]byte, want)
	}
	buf := bufs.bytes[:want]
	ra := r.ld.arch.r
	var err error
	if r.zblocks == nil {
		off := r.md.data.offset + int64(len(dataMarker)) + int64(first)*d.rowBytes()
		err = rd.decode(io.NewSectionReader(ra, off, int64(n)*d.rowBytes()), 0, n, buf)
	} else {
		for i := 0; i < n && err == nil; i++ {
			err = r.zrowInto(first+i, rd, i, buf, bufs)
		}
	}
	if err != nil {
		return r.explain(err, first)
	}
	return nil
}

// zrowInto decompresses file row k into destination row i of rd.
func (r *cubexRows) zrowInto(k int, rd rowDecoder, i int, buf []byte, bufs *rowBuffers) error {
	bi := r.zrow[k]
	if bi < 0 {
		clear(rd.dst[i])
		return nil
	}
	blk := r.zblocks[bi]
	sr := io.NewSectionReader(r.ld.arch.r, blk.offset, blk.size)
	if bufs.br == nil {
		bufs.br = bufio.NewReaderSize(sr, 32<<10)
	} else {
		bufs.br.Reset(sr)
	}
	var err error
	if bufs.zr == nil {
		bufs.zr, err = zlib.NewReader(bufs.br)
	} else {
		err = bufs.zr.(zlib.Resetter).Reset(bufs.br, nil)
	}
	if err != nil {
		return fmt.Errorf("compressed block %d: %w", bi, err)
	}
	if err := rd.decode(bufs.zr, i, 1, buf); err != nil {
		return fmt.Errorf("compressed block %d: %w", bi, err)
	}
	var one [1]byte
	if n, err := bufs.zr.Read(one[:]); n > 0 || (err != nil && !errors.Is(err, io.EOF)) {
		if err == nil {
			err = errors.New("block holds more than one row")
		}
		return fmt.Errorf("compressed block %d: %w", bi, err)
	}
	return nil
}

// explain names the metric's member.
func (r *cubexRows) explain(err error, first int) error {
	return fmt.Errorf("%s: metric %s: %s.data: %w", r.ld.arch.name, importer.Quote(r.met.UniqName), r.id, err)
}

// scanBatchBytes is how much uncompressed data one read of a scan takes.
const scanBatchBytes = 1 << 20

// ScanRows implements model.RowScanner: one sequential pass over the
// file. Call-tree inclusive sums need each cnode's children and are read
// cnode by cnode instead.
func (r *cubexRows) ScanRows(fn func(c int, row []float64) error) error {
	return r.scanBatches(func(cs []int, rows [][]float64) error {
		for i, c := range cs {
			if err := fn(c, rows[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// scanBatches passes the rows as ScanRows does, several at a time.
func (r *cubexRows) scanBatches(fn func(cs []int, rows [][]float64) error) error {
	nl := len(r.ld.e.Locations)
	batch := max(1, min(len(r.rowCnode), int(scanBatchBytes/max(r.md.layout.rowBytes(), 1))))
	back := make([]float64, batch*nl)
	dst := make([][]float64, batch)
	for i := range dst {
		dst[i] = back[i*nl : (i+1)*nl : (i+1)*nl]
	}
	bufs := r.buffers()
	defer r.bufs.Put(bufs)
	if r.convert {
		cs := make([]int, 0, batch)
		kept := newKeptRows(r)
		for c, h := range r.has {
			if !h {
				continue
			}
			if err := kept.own(c, dst[len(cs)], bufs); err != nil {
				return err
			}
			if cs = append(cs, c); len(cs) == batch {
				if err := fn(cs, dst); err != nil {
					return err
				}
				cs = cs[:0]
			}
		}
		if len(cs) > 0 {
			return fn(cs, dst[:len(cs)])
		}
		return nil
	}
	for first := 0; first < len(r.rowCnode); first += batch {
		n := min(batch, len(r.rowCnode)-first)
		if err := r.fileRows(first, n, dst[:n], bufs); err != nil {
			return err
		}
		if err := fn(r.rowCnode[first:first+n], dst[:n]); err != nil {
			return err
		}
	}
	return nil
}

// keptRowsBytes bounds the memory keptRows holds (a variable for tests).
var keptRowsBytes = 32 << 20

// keptRows computes canonical rows from call-tree inclusive sums cnode
// after cnode in pre-order, keeping the stored rows of the children of
// the current cnode's ancestors: a cnode's own stored row was then read
// already, as one of its parent's children, and each stored row is read
// from the file about once instead of twice.
type keptRows struct {
	r     *cubexRows
	depth []int32
	stack []keptBlock
	bytes int
	free  [][]float64 // rows of dropped blocks, for reuse
}

// keptBlock holds file rows first … first+n-1 of the children of owner.
type keptBlock struct {
	depth    int32 // owner's depth
	first, n int
	rows     []float64
}

func newKeptRows(r *cubexRows) *keptRows {
	e := r.ld.e
	deep, _ := r.ld.enumerations()
	depth := make([]int32, len(e.Cnodes))
	for _, c := range deep { // parents before children
		if p := e.Cnodes[c].Parent; p >= 0 {
			depth[c] = depth[p] + 1
		}
	}
	return &keptRows{r: r, depth: depth}
}

// own is cubexRows.own, served from and feeding the kept rows.
func (k *keptRows) own(c int, dst []float64, bufs *rowBuffers) error {
	r := k.r
	d := k.depth[c]
	for len(k.stack) > 0 && k.stack[len(k.stack)-1].depth >= d {
		top := k.stack[len(k.stack)-1]
		k.bytes -= 8 * len(top.rows)
		k.free = append(k.free, top.rows)
		k.stack = k.stack[:len(k.stack)-1]
	}
	if !k.lookup(int(r.rowOf[c]), dst) {
		if err := r.stored(c, dst, bufs); err != nil {
			return err
		}
	}
	nl := len(dst)
	ch := r.ld.e.Cnodes[c].Children
	for i := 0; i < len(ch); {
		first := r.rowOf[ch[i]]
		if first < 0 {
			i++
			continue
		}
		j := i + 1
		for j < len(ch) && r.rowOf[ch[j]] == first+int32(j-i) {
			j++
		}
		n := j - i
		if k.bytes+8*n*nl > keptRowsBytes {
			// Too much to keep: read and subtract as own does.
			return k.rest(c, i, dst, bufs)
		}
		blk := keptBlock{depth: d, first: int(first), n: n, rows: k.alloc(n * nl)}
		views := bufs.views[:0]
		for v := 0; v < n; v++ {
			views = append(views, blk.rows[v*nl:(v+1)*nl:(v+1)*nl])
		}
		bufs.views = views
		if err := r.fileRows(int(first), n, views, bufs); err != nil {
			return err
		}
		for _, row := range views {
			for l, v := range row {
				dst[l] -= v
			}
		}
		k.stack = append(k.stack, blk)
		k.bytes += 8 * len(blk.rows)
		i = j
	}
	return nil
}

// rest subtracts the stored rows of c's children from child i on, without
// keeping them.
func (k *keptRows) rest(c, i int, dst []float64, bufs *rowBuffers) error {
	r := k.r
	for _, ch := range r.ld.e.Cnodes[c].Children[i:] {
		if r.rowOf[ch] < 0 {
			continue
		}
		if cap(bufs.children) < len(dst) {
			bufs.children = make([]float64, len(dst))
		}
		row := bufs.children[:len(dst)]
		if err := r.stored(ch, row, bufs); err != nil {
			return err
		}
		for l, v := range row {
			dst[l] -= v
		}
	}
	return nil
}

// lookup copies file row k from a kept block into dst.
func (k *keptRows) lookup(row int, dst []float64) bool {
	if row < 0 {
		return false
	}
	for i := len(k.stack) - 1; i >= 0; i-- {
		b := &k.stack[i]
		if row >= b.first && row < b.first+b.n {
			nl := len(dst)
			copy(dst, b.rows[(row-b.first)*nl:(row-b.first+1)*nl])
			return true
		}
	}
	return false
}

// alloc returns n values' memory, reusing a dropped block's when one is
// large enough.
func (k *keptRows) alloc(n int) []float64 {
	for i, f := range k.free {
		if cap(f) >= n {
			k.free[i] = k.free[len(k.free)-1]
			k.free = k.free[:len(k.free)-1]
			return f[:n]
		}
	}
	return make([]float64, n)
}
