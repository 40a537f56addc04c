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
	// value is its stored row minus its children's (clamped at 0 for
	// unsigned data), and a parent of a stored row has a row too.
	convert  bool
	unsigned bool
	has      []bool // per cnode: a canonical row exists

	zblocks []zblock // ZCUBEX: blocks in file order; nil for CUBEX.DATA
	zrow    []int32  // ZCUBEX: file row → index in zblocks, -1 when absent

	bufs sync.Pool // *rowBuffers
}

type rowBuffers struct {
	bytes   []byte
	scratch []float64
	child   []float64
	zr      io.ReadCloser
	br      *bufio.Reader
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
		return nil, fmt.Errorf("%s: metric %q: %w", ld.arch.name, met.UniqName, err)
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
		convert: inclusive && met.Aggregation == model.Sum, unsigned: unsignedKind(md.layout.kind)}
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
	return &rowBuffers{scratch: make([]float64, nl), child: make([]float64, nl)}
}

// ReadRow implements model.RowSource.
func (r *cubexRows) ReadRow(c int, dst []float64) error {
	bufs := r.buffers()
	defer r.bufs.Put(bufs)
	if err := r.stored(c, dst, bufs); err != nil {
		return err
	}
	if !r.convert {
		return nil
	}
	for _, ch := range r.ld.e.Cnodes[c].Children {
		if r.rowOf[ch] < 0 {
			continue
		}
		if err := r.stored(ch, bufs.child, bufs); err != nil {
			return err
		}
		for l, v := range bufs.child {
			dst[l] -= v
		}
	}
	if r.unsigned {
		for l, v := range dst {
			dst[l] = max(v, 0)
		}
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
	return fmt.Errorf("%s: metric %q: %s.data: %w", r.ld.arch.name, r.met.UniqName, r.id, err)
}

// scanBatchBytes is how much uncompressed data one read of a scan takes.
const scanBatchBytes = 1 << 20

// ScanRows implements model.RowScanner: one sequential pass over the
// file. Call-tree inclusive sums need each cnode's children and are read
// cnode by cnode instead.
func (r *cubexRows) ScanRows(fn func(c int, row []float64) error) error {
	nl := len(r.ld.e.Locations)
	if r.convert {
		row := make([]float64, nl)
		for c, h := range r.has {
			if !h {
				continue
			}
			if err := r.ReadRow(c, row); err != nil {
				return err
			}
			if err := fn(c, row); err != nil {
				return err
			}
		}
		return nil
	}
	bufs := r.buffers()
	defer r.bufs.Put(bufs)
	batch := max(1, min(len(r.rowCnode), int(scanBatchBytes/max(r.md.layout.rowBytes(), 1))))
	if r.zblocks != nil {
		batch = 1
	}
	back := make([]float64, batch*nl)
	dst := make([][]float64, batch)
	for i := range dst {
		dst[i] = back[i*nl : (i+1)*nl : (i+1)*nl]
	}
	for first := 0; first < len(r.rowCnode); first += batch {
		n := min(batch, len(r.rowCnode)-first)
		if err := r.fileRows(first, n, dst[:n], bufs); err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			if err := fn(r.rowCnode[first+i], dst[i]); err != nil {
				return err
			}
		}
	}
	return nil
}
