package repo

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"

	"cubeview/model"
)

// A metric's values per location are stored in chunks of whole rows
// (call paths), at most chunkValues values each unless one row is longer:
// bounded pieces that any engine stores and that are read one at a time,
// so neither an import nor a reader holds a whole metric. (A variable
// only so that tests can make chunks small.)
var chunkValues = 1 << 17

// codecPlanes is the chunk codec: rows lists the chunk's call paths as
// zig-zag varint differences; data holds the values split into eight byte
// planes (all lowest bytes, then all second bytes, …), each stored as it
// is, as one repeated byte or deflated, whichever is smallest (see
// encodePlane). Splitting the planes puts the slowly varying sign and
// exponent bytes together, which compress well even when the low
// mantissa bytes are noise.
const codecPlanes = 2

// codecRawPlanes is the chunk codec of PostgreSQL, which compresses
// stored values itself (TOAST): rows holds the call paths as big-endian
// 32-bit integers and data the eight byte planes as they are, the most
// significant first, so that SQL can read the values (location_values).
const codecRawPlanes = 3

// encodedChunk is one chunk as stored.
type encodedChunk struct {
	seq, codec, nrows int
	checksum          uint32
	rows, data        []byte
}

// chunkWriter collects rows into chunks and passes each to emit.
type chunkWriter struct {
	codec int
	nl    int
	seq   int
	cs    []int
	vals  []float64
	emit  func(encodedChunk) error
	limit int
}

func newChunkWriter(codec, nl int, emit func(encodedChunk) error) *chunkWriter {
	return &chunkWriter{codec: codec, nl: nl, emit: emit, limit: max(1, chunkValues/max(nl, 1))}
}

// add takes row c; rows of zero bits only are not stored.
func (w *chunkWriter) add(c int, row []float64) error {
	if zeroBits(row) {
		return nil
	}
	w.cs = append(w.cs, c)
	w.vals = append(w.vals, row...)
	if len(w.cs) >= w.limit {
		return w.flush()
	}
	return nil
}

// flush emits the pending rows as a chunk.
func (w *chunkWriter) flush() error {
	if len(w.cs) == 0 {
		return nil
	}
	var ch encodedChunk
	if w.codec == codecRawPlanes {
		ch = encodeRawChunk(w.cs, w.vals)
	} else {
		ch = encodeChunk(w.cs, w.vals)
	}
	ch.seq = w.seq
	w.seq++
	w.cs, w.vals = w.cs[:0], w.vals[:0]
	return w.emit(ch)
}

func zeroBits(r []float64) bool {
	for _, v := range r {
		if math.Float64bits(v) != 0 {
			return false
		}
	}
	return true
}

// encodeChunk encodes rows cs with their values (len(cs) rows of equal
// length, one after the other).
func encodeChunk(cs []int, vals []float64) encodedChunk {
	var en encoder
	prev := -1
	for _, c := range cs {
		en.int(int64(c - prev))
		prev = c
	}
	n := len(vals)
	backing := make([]byte, 8*n)
	planes := make([][]byte, 8)
	for p := range planes {
		planes[p] = backing[p*n : (p+1)*n : (p+1)*n]
	}
	for i, v := range vals {
		u := math.Float64bits(v)
		planes[0][i] = byte(u)
		planes[1][i] = byte(u >> 8)
		planes[2][i] = byte(u >> 16)
		planes[3][i] = byte(u >> 24)
		planes[4][i] = byte(u >> 32)
		planes[5][i] = byte(u >> 40)
		planes[6][i] = byte(u >> 48)
		planes[7][i] = byte(u >> 56)
	}
	out := make([][]byte, 8)
	var wg sync.WaitGroup
	for p := range planes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[p] = encodePlane(planes[p])
		}()
	}
	wg.Wait()
	size := 0
	for _, o := range out {
		size += len(o)
	}
	data := make([]byte, 0, size)
	for _, o := range out {
		data = append(data, o...)
	}
	return encodedChunk{codec: codecPlanes, nrows: len(cs), rows: en.b, data: data, checksum: checksum(en.b, data)}
}

// encodeRawChunk encodes rows cs with their values in codecRawPlanes.
func encodeRawChunk(cs []int, vals []float64) encodedChunk {
	rows := make([]byte, 4*len(cs))
	for i, c := range cs {
		binary.BigEndian.PutUint32(rows[4*i:], uint32(c))
	}
	n := len(vals)
	data := make([]byte, 8*n)
	for i, v := range vals {
		u := math.Float64bits(v)
		for p := 0; p < 8; p++ {
			data[p*n+i] = byte(u >> (56 - 8*p))
		}
	}
	return encodedChunk{codec: codecRawPlanes, nrows: len(cs), rows: rows, data: data, checksum: checksum(rows, data)}
}

// decodeChunk reads a chunk of nrows rows of nl values each, checking
// that its call paths lie below nc. It returns the call paths and the
// values, row after row.
func decodeChunk(codec, nrows int, rows, data []byte, sum uint32, nc, nl int) ([]int, []float64, error) {
	if checksum(rows, data) != sum {
		return nil, nil, errDamaged
	}
	if nl < 0 || (nl > 0 && nrows > math.MaxInt/8/nl) {
		return nil, nil, errBadBlock
	}
	cs, err := decodeRows(codec, rows, nrows, nc)
	if err != nil {
		return nil, nil, err
	}
	n := nrows * nl
	var vals []float64
	switch codec {
	case codecPlanes:
		vals, err = decodePlanes(data, n)
	case codecRawPlanes:
		vals, err = decodeRawPlanes(data, n)
	}
	if err != nil {
		return nil, nil, err
	}
	return cs, vals, nil
}

// decodeRawPlanes reads the values of codecRawPlanes.
func decodeRawPlanes(data []byte, n int) ([]float64, error) {
	if len(data) != 8*n {
		return nil, errBadBlock
	}
	vals := make([]float64, n)
	for i := range vals {
		var u uint64
		for p := 0; p < 8; p++ {
			u = u<<8 | uint64(data[p*n+i])
		}
		vals[i] = math.Float64frombits(u)
	}
	return vals, nil
}

// decodePlanes reads eight plane encodings of n bytes each.
func decodePlanes(data []byte, n int) ([]float64, error) {
	d := &decoder{b: data}
	planes, err := readPlanes(d, n)
	if err != nil {
		return nil, err
	}
	if len(d.b) != 0 {
		return nil, errBadBlock
	}
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = planeValue(planes, i)
	}
	return vals, nil
}

// readPlanes reads the eight byte planes of n values from d, decoding
// them in parallel.
func readPlanes(d *decoder, n int) ([][]byte, error) {
	planes := make([][]byte, 8)
	errs := make([]error, 8)
	var wg sync.WaitGroup
	for p := range planes {
		method, size := d.uint(), d.uint()
		if d.err != nil || size > uint64(len(d.b)) {
			wg.Wait()
			return nil, errBadBlock
		}
		src := d.b[:size]
		d.b = d.b[size:]
		wg.Add(1)
		go func() {
			defer wg.Done()
			planes[p], errs[p] = decodePlane(method, src, n)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return planes, nil
}

// planeValue joins byte i of the eight planes, least significant first,
// into a float64.
func planeValue(planes [][]byte, i int) float64 {
	return math.Float64frombits(uint64(planes[0][i]) | uint64(planes[1][i])<<8 |
		uint64(planes[2][i])<<16 | uint64(planes[3][i])<<24 | uint64(planes[4][i])<<32 |
		uint64(planes[5][i])<<40 | uint64(planes[6][i])<<48 | uint64(planes[7][i])<<56)
}

// chunkInfo locates one chunk: its sequence number and call paths.
type chunkInfo struct {
	seq int
	cs  []int
}

// loader reads a trial's metric data on first use, chunk by chunk.
type loader struct {
	r                   *Repo
	trial               int64
	ncnodes, nlocations int
	origin              model.Origin
	// summed says per metric whether its summary's per-call-path values
	// are the sums over all locations a pass over its rows computes
	// (a min or max metric's summary counts unvisited call paths as 0).
	summed []bool

	mu   sync.Mutex
	dirs map[int][]chunkInfo // per metric, read on first use
}

// Origin implements model.Originator.
func (l *loader) Origin() model.Origin { return l.origin }

// directory returns the chunks of metric m, in order, reading only
// their row lists.
func (l *loader) directory(m int) ([]chunkInfo, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if dir, ok := l.dirs[m]; ok {
		return dir, nil
	}
	var dir []chunkInfo
	err := l.r.rows(context.Background(), `SELECT seq, codec, nrows, rows FROM chunk WHERE trial = ? AND metric = ? ORDER BY seq`,
		[]any{l.trial, m}, func(s scanner) error {
			var seq, codec, nrows int
			var rows []byte
			if err := s.Scan(&seq, &codec, &nrows, &rows); err != nil {
				return err
			}
			cs, err := decodeRows(codec, rows, nrows, l.ncnodes)
			if err != nil {
				return err
			}
			dir = append(dir, chunkInfo{seq: seq, cs: cs})
			return nil
		})
	if err != nil {
		return nil, l.fail(m, err)
	}
	if dir == nil {
		if err := l.checkTrial(); err != nil {
			return nil, err
		}
	}
	if l.dirs == nil {
		l.dirs = map[int][]chunkInfo{}
	}
	l.dirs[m] = dir
	return dir, nil
}

// decodeRows reads a chunk's list of call paths.
func decodeRows(codec int, rows []byte, nrows, nc int) ([]int, error) {
	if nrows < 0 || nrows > nc {
		return nil, errBadBlock
	}
	cs := make([]int, nrows)
	switch codec {
	case codecPlanes:
		d := &decoder{b: rows}
		prev := -1
		for i := range cs {
			c := prev + int(d.int())
			if d.err != nil || c < 0 || c >= nc {
				return nil, errBadBlock
			}
			cs[i], prev = c, c
		}
		if len(d.b) != 0 {
			return nil, errBadBlock
		}
	case codecRawPlanes:
		if len(rows) != 4*nrows {
			return nil, errBadBlock
		}
		for i := range cs {
			c := int(binary.BigEndian.Uint32(rows[4*i:]))
			if c >= nc {
				return nil, errBadBlock
			}
			cs[i] = c
		}
	default:
		return nil, fmt.Errorf("metric data in unknown codec %d (a newer cubeview wrote it)", codec)
	}
	return cs, nil
}

func (l *loader) fail(m int, err error) error {
	return fmt.Errorf("repository %s: trial %d: metric %d: %w", l.r.Name(), l.trial, m, err)
}

// CnodeSums implements model.CnodeSummer from the trial's summary, so
// that call-tree values of a metric bigger than memory are one small
// read instead of a pass over all its chunks.
func (l *loader) CnodeSums(m int) ([]float64, error) {
	if m < 0 || m >= len(l.summed) || !l.summed[m] {
		return nil, nil
	}
	var b []byte
	err := l.r.db.QueryRow(l.r.d.q(`SELECT excl FROM summary WHERE trial = ? AND metric = ?`), l.trial, m).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, l.checkTrial()
	}
	if err != nil {
		return nil, l.fail(m, err)
	}
	v, err := decodeVector(b, l.ncnodes)
	if err != nil {
		return nil, l.fail(m, fmt.Errorf("summary: %w", err))
	}
	return v, nil
}

// checkTrial says so when the trial was removed while open.
func (l *loader) checkTrial() error {
	var n int
	if err := l.r.db.QueryRow(l.r.d.q(`SELECT COUNT(*) FROM trial WHERE id = ?`), l.trial).Scan(&n); err == nil && n == 0 {
		return fmt.Errorf("repository %s: trial %d was removed", l.r.Name(), l.trial)
	}
	return nil
}

// readChunk reads and decodes chunk seq of metric m.
func (l *loader) readChunk(ctx context.Context, m, seq int) ([]int, []float64, error) {
	var codec, nrows int
	var sum int64
	var rows, data []byte
	err := l.r.db.QueryRowContext(ctx, l.r.d.q(`SELECT codec, nrows, checksum, rows, data FROM chunk WHERE trial = ? AND metric = ? AND seq = ?`),
		l.trial, m, seq).Scan(&codec, &nrows, &sum, &rows, &data)
	if errors.Is(err, sql.ErrNoRows) {
		if err := l.checkTrial(); err != nil {
			return nil, nil, err
		}
		return nil, nil, l.fail(m, fmt.Errorf("chunk %d is missing", seq))
	}
	if err != nil {
		return nil, nil, l.fail(m, err)
	}
	cs, vals, err := decodeChunk(codec, nrows, rows, data, uint32(sum), l.ncnodes, l.nlocations)
	if err != nil {
		return nil, nil, l.fail(m, fmt.Errorf("chunk %d: %w", seq, err))
	}
	return cs, vals, nil
}

// StreamRowBatches implements model.RowBatchStreamer: the rows of each
// chunk in turn, one chunk in memory at a time.
func (l *loader) StreamRowBatches(m int, fn func(cs []int, rows [][]float64) error) error {
	dir, err := l.directory(m)
	if err != nil {
		return err
	}
	var rows [][]float64
	for _, ch := range dir {
		cs, vals, err := l.readChunk(context.Background(), m, ch.seq)
		if err != nil {
			return err
		}
		rows = rows[:0]
		for i := range cs {
			rows = append(rows, vals[i*l.nlocations:(i+1)*l.nlocations:(i+1)*l.nlocations])
		}
		if err := fn(cs, rows); err != nil {
			return err
		}
	}
	return nil
}

// StreamRows implements model.RowStreamer.
func (l *loader) StreamRows(m int, fn func(c int, row []float64) error) error {
	return l.StreamRowBatches(m, func(cs []int, rows [][]float64) error {
		for i, c := range cs {
			if err := fn(c, rows[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// LoadBlock implements model.Loader: the metric in memory, or, when it
// would take more than model.MemoryBudget, a block that reads its rows
// chunk by chunk on demand.
func (l *loader) LoadBlock(m int) (*model.Block, error) {
	dir, err := l.directory(m)
	if err != nil {
		return nil, err
	}
	stored := 0
	for _, ch := range dir {
		stored += len(ch.cs)
	}
	if stored == 0 {
		return nil, nil
	}
	if int64(stored)*int64(l.nlocations)*8 > model.MemoryBudget() {
		return model.NewSourceBlock(l.ncnodes, l.nlocations, l.rowSource(m, dir)), nil
	}
	b := model.NewBlock(l.ncnodes, l.nlocations)
	var all []int
	for _, ch := range dir {
		all = append(all, ch.cs...)
	}
	b.AllocRows(all)
	err = l.StreamRowBatches(m, func(cs []int, rows [][]float64) error {
		for i, c := range cs {
			copy(b.MutableRow(c), rows[i])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// OpenRows implements model.RowOpener: rows read on demand.
func (l *loader) OpenRows(m int) (model.RowSource, func(), error) {
	dir, err := l.directory(m)
	if err != nil {
		return nil, nil, err
	}
	return l.rowSource(m, dir), nil, nil
}

func (l *loader) rowSource(m int, dir []chunkInfo) *chunkRows {
	where := make(map[int]chunkSlot)
	for i, ch := range dir {
		for j, c := range ch.cs {
			where[c] = chunkSlot{i, j}
		}
	}
	return &chunkRows{l: l, m: m, dir: dir, where: where}
}

type chunkSlot struct{ chunk, row int }

// chunkRows reads the rows of one metric on demand, keeping the last
// chunk read.
type chunkRows struct {
	l     *loader
	m     int
	dir   []chunkInfo
	where map[int]chunkSlot

	mu    sync.Mutex
	cur   int // index in dir of the chunk in vals, -1 for none
	vals  []float64
	ready bool
}

func (s *chunkRows) HasRow(c int) bool {
	_, ok := s.where[c]
	return ok
}

func (s *chunkRows) ReadRow(c int, dst []float64) error {
	slot, ok := s.where[c]
	if !ok {
		clear(dst)
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.ready || s.cur != slot.chunk {
		_, vals, err := s.l.readChunk(context.Background(), s.m, s.dir[slot.chunk].seq)
		if err != nil {
			return err
		}
		s.cur, s.vals, s.ready = slot.chunk, vals, true
	}
	nl := s.l.nlocations
	copy(dst, s.vals[slot.row*nl:(slot.row+1)*nl])
	return nil
}

// ScanRows implements model.RowScanner: all rows in one pass.
func (s *chunkRows) ScanRows(fn func(c int, row []float64) error) error {
	return s.l.StreamRows(s.m, fn)
}
