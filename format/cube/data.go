package cube

import (
	"bufio"
	"compress/zlib"
	"cubeview/model"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unsafe"
)

// Markers at the start of a metric's .data member.
const (
	dataMarker  = "CUBEX.DATA"  // rows of raw values follow
	zdataMarker = "ZCUBEX.DATA" // a sub-index and one zlib block per row follow
)

// byteOrder reads and appends numbers in one byte order.
type byteOrder interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

// elemKind is the binary encoding of one value in a .data member.
type elemKind uint8

const (
	elemFloat64 elemKind = iota
	elemInt64
	// elemUint64 values above maxUint64Double read as 0, see scalarTypeOf.
	elemUint64
	elemInt32
	elemUint32
	elemInt16
	elemUint16
	elemInt8
	elemUint8
)

var elemSizes = [...]int{
	elemFloat64: 8, elemInt64: 8, elemUint64: 8,
	elemInt32: 4, elemUint32: 4, elemInt16: 2, elemUint16: 2, elemInt8: 1, elemUint8: 1,
}

func (k elemKind) size() int { return elemSizes[k] }

// scalarTypeOf maps a CUBE data type name to the encoding of its values,
// reporting false for types that are not a single number (COMPLEX, RATE,
// NDOUBLES(n), HISTOGRAM(n), SCALE_FUNC, TAU_ATOMIC, …) and unknown ones.
//
// UINT64 (also spelled UNSIGNED INTEGER) values are read as CubeLib reads
// them: unsigned, except that the words above maxUint64Double (which
// CubeLib's round trip through a double turns into 0), among them the
// "all ones" 0xFFFFFFFFFFFFFFFF that hardware counters leave when a
// reading went backwards, are read as 0.
func scalarTypeOf(dtype model.DataType) (elemKind, bool) {
	switch strings.ToUpper(strings.Join(strings.Fields(string(dtype)), " ")) {
	case "DOUBLE", "FLOAT", "MINDOUBLE", "MAXDOUBLE":
		return elemFloat64, true
	case "INTEGER", "SIGNED INTEGER", "INT64":
		return elemInt64, true
	case "UNSIGNED INTEGER", "UINT64":
		return elemUint64, true
	case "INT", "SIGNED INT", "INT32":
		return elemInt32, true
	case "UNSIGNED INT", "UINT32":
		return elemUint32, true
	case "SHORT INT", "SIGNED SHORT INT", "INT16":
		return elemInt16, true
	case "UNSIGNED SHORT INT", "UINT16":
		return elemUint16, true
	case "INT8", "SIGNED CHAR":
		return elemInt8, true
	case "UINT8", "CHAR", "UNSIGNED CHAR":
		return elemUint8, true
	}
	return 0, false
}

// maxUint64Double is the largest UINT64 word that survives CubeLib's
// conversion to a double and back; larger ones come out as 0 there.
const maxUint64Double = 0xFFFF_FFFF_FFFF_FBFF

// uint64Value is the value of a stored UINT64 word, see scalarTypeOf.
func uint64Value(w uint64) float64 {
	if w > maxUint64Double {
		return 0
	}
	return float64(w)
}

// decodeValues converts len(dst) values of kind k from src (which holds
// exactly that many). Doubles may be NaN or infinite, as CubeLib writes
// them; they are kept.
func decodeValues(dst []float64, src []byte, k elemKind, order byteOrder) {
	little := order == binary.LittleEndian
	switch k {
	case elemFloat64:
		src = src[:8*len(dst)]
		if little {
			for i := range dst {
				dst[i] = math.Float64frombits(binary.LittleEndian.Uint64(src[8*i:]))
			}
		} else {
			for i := range dst {
				dst[i] = math.Float64frombits(binary.BigEndian.Uint64(src[8*i:]))
			}
		}
	case elemInt64:
		src = src[:8*len(dst)]
		for i := range dst {
			dst[i] = float64(int64(order.Uint64(src[8*i:])))
		}
	case elemUint64:
		src = src[:8*len(dst)]
		for i := range dst {
			dst[i] = uint64Value(order.Uint64(src[8*i:]))
		}
	case elemInt32:
		for i := range dst {
			dst[i] = float64(int32(order.Uint32(src[4*i:])))
		}
	case elemUint32:
		for i := range dst {
			dst[i] = float64(order.Uint32(src[4*i:]))
		}
	case elemInt16:
		for i := range dst {
			dst[i] = float64(int16(order.Uint16(src[2*i:])))
		}
	case elemUint16:
		for i := range dst {
			dst[i] = float64(order.Uint16(src[2*i:]))
		}
	case elemInt8:
		for i := range dst {
			dst[i] = float64(int8(src[i]))
		}
	case elemUint8:
		for i := range dst {
			dst[i] = float64(src[i])
		}
	}
}

// dataLayout describes the payload of a .data member.
type dataLayout struct {
	kind    elemKind
	order   byteOrder
	rows    int // rows stored (from the index)
	columns int // values per row: the number of locations
}

func (d dataLayout) rowBytes() int64 { return int64(d.columns) * int64(d.kind.size()) }

// checkDataMember verifies, without reading the values, that a .data
// member's size fits the layout: at least the rows × columns values for
// CUBEX.DATA, a complete sub-index for ZCUBEX.DATA. It returns the number
// of bytes after the indexed rows of a CUBEX.DATA member: CubeLib writes
// such surplus rows in some files and reads only the rows the index
// names, and so do we.
func checkDataMember(r io.ReaderAt, m tarMember, d dataLayout) (surplus int64, err error) {
	marker, err := readDataMarker(r, m)
	if err != nil {
		return 0, err
	}
	if marker == dataMarker {
		want := int64(len(dataMarker)) + int64(d.rows)*d.rowBytes()
		if m.size < want {
			return 0, fmt.Errorf("index/data size mismatch: %d rows × %d values of %d bytes need %d bytes of data, the member has only %d",
				d.rows, d.columns, d.kind.size(), want, m.size)
		}
		return m.size - want, nil
	}
	_, err = readSubIndex(r, m, d)
	return 0, err
}

// surplusWarning describes the bytes after the indexed rows of a .data
// member.
func surplusWarning(member string, surplus int64, d dataLayout) string {
	what := fmt.Sprintf("%d bytes", surplus)
	if rb := d.rowBytes(); rb > 0 && surplus%rb == 0 {
		what = fmt.Sprintf("%d rows (%d bytes)", surplus/rb, surplus)
		if surplus == rb {
			what = fmt.Sprintf("1 row (%d bytes)", surplus)
		}
	}
	rows := fmt.Sprintf("%d rows", d.rows)
	if d.rows == 1 {
		rows = "1 row"
	}
	return fmt.Sprintf("%s holds %s more than the %s its index names; the surplus is ignored, as CubeLib does", member, what, rows)
}

func readDataMarker(r io.ReaderAt, m tarMember) (string, error) {
	var b [len(zdataMarker)]byte
	n, err := r.ReadAt(b[:min(int64(len(b)), m.size)], m.offset)
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	switch {
	case n >= len(zdataMarker) && string(b[:len(zdataMarker)]) == zdataMarker:
		return zdataMarker, nil
	case n >= len(dataMarker) && string(b[:len(dataMarker)]) == dataMarker:
		return dataMarker, nil
	}
	return "", fmt.Errorf("data do not start with %s or %s", dataMarker, zdataMarker)
}

// zblock is one ZCUBEX.DATA sub-index record: row number and the position
// and size of its zlib block within the member.
type zblock struct {
	row          int
	offset, size int64
}

// readSubIndex decodes and checks the sub-index of a ZCUBEX.DATA member:
// a uint64 count, then per block the uint64 start of its row in the
// uncompressed payload, the uint64 start of the block after the sub-index
// and the uint64 compressed size.
func readSubIndex(r io.ReaderAt, m tarMember, d dataLayout) ([]zblock, error) {
	head := int64(len(zdataMarker))
	var b [8]byte
	if m.size < head+8 {
		return nil, fmt.Errorf("compressed data of %d bytes end inside the header", m.size)
	}
	if _, err := r.ReadAt(b[:], m.offset+head); err != nil {
		return nil, err
	}
	count := d.order.Uint64(b[:])
	if count > uint64(d.rows) {
		return nil, fmt.Errorf("index/data size mismatch: compressed data hold %d blocks for %d indexed rows", count, d.rows)
	}
	base := head + 8 + 24*int64(count)
	if m.size < base {
		return nil, fmt.Errorf("compressed data of %d bytes end inside the sub-index of %d blocks", m.size, count)
	}
	raw := make([]byte, 24*count)
	if _, err := r.ReadAt(raw, m.offset+head+8); err != nil {
		return nil, err
	}
	rowBytes := uint64(d.rowBytes())
	blocks := make([]zblock, count)
	seen := make([]bool, d.rows)
	for i := range blocks {
		start := d.order.Uint64(raw[24*i:])
		off := d.order.Uint64(raw[24*i+8:])
		size := d.order.Uint64(raw[24*i+16:])
		row := uint64(0)
		if rowBytes > 0 {
			if start%rowBytes != 0 {
				return nil, fmt.Errorf("compressed block %d starts at byte %d, not at a row boundary (%d bytes per row)", i, start, rowBytes)
			}
			row = start / rowBytes
		}
		if row >= uint64(d.rows) || seen[row] {
			return nil, fmt.Errorf("index/data size mismatch: compressed block %d is for row %d of %d rows", i, row, d.rows)
		}
		seen[row] = true
		if off > uint64(m.size-base) || size > uint64(m.size-base)-off {
			return nil, fmt.Errorf("compressed block %d (%d bytes at %d) lies outside the %d-byte member", i, size, off, m.size)
		}
		blocks[i] = zblock{row: int(row), offset: m.offset + base + int64(off), size: int64(size)}
	}
	return blocks, nil
}

// decodeChunk bounds the buffer used to read uncompressed values.
const decodeChunk = 256 << 10

// readData decodes the .data member m into dst: dst[k] (len d.columns)
// receives row k. cols, when not nil, maps a file column to its position
// in dst rows. Rows of a compressed member without a block stay zero.
func readData(r io.ReaderAt, m tarMember, d dataLayout, dst [][]float64, cols []int) error {
	if len(dst) != d.rows {
		return fmt.Errorf("internal error: %d destination rows for %d stored rows", len(dst), d.rows)
	}
	marker, err := readDataMarker(r, m)
	if err != nil {
		return err
	}
	rd := rowDecoder{d: d, dst: dst, cols: cols}
	if cols != nil {
		rd.scratch = make([]float64, d.columns)
	}
	if marker == dataMarker {
		if _, err := checkDataMember(r, m, d); err != nil {
			return err
		}
		buf := make([]byte, min(decodeChunk, max(d.rowBytes(), 1)*int64(d.rows)))
		return rd.decode(io.NewSectionReader(r, m.offset+int64(len(dataMarker)), m.size-int64(len(dataMarker))), 0, d.rows, buf)
	}
	blocks, err := readSubIndex(r, m, d)
	if err != nil {
		return err
	}
	buf := make([]byte, min(decodeChunk, max(d.rowBytes(), 1)))
	var zr io.ReadCloser
	br := bufio.NewReaderSize(nil, 32<<10)
	for i, blk := range blocks {
		br.Reset(io.NewSectionReader(r, blk.offset, blk.size))
		if zr == nil {
			zr, err = zlib.NewReader(br)
		} else {
			err = zr.(zlib.Resetter).Reset(br, nil)
		}
		if err != nil {
			return fmt.Errorf("compressed block %d: %w", i, err)
		}
		if err := rd.decode(zr, blk.row, 1, buf); err != nil {
			return fmt.Errorf("compressed block %d: %w", i, err)
		}
		var one [1]byte
		if n, err := zr.Read(one[:]); n > 0 || (err != nil && !errors.Is(err, io.EOF)) {
			if err == nil {
				err = errors.New("block holds more than one row")
			}
			return fmt.Errorf("compressed block %d: %w", i, err)
		}
	}
	return nil
}

// rowDecoder fills destination rows from a stream of encoded values.
type rowDecoder struct {
	d       dataLayout
	dst     [][]float64
	cols    []int
	scratch []float64
}

// decode reads n rows starting at row first from src, reading through
// buf; only whole values are read at a time, rows may span reads.
func (rd *rowDecoder) decode(src io.Reader, first, n int, buf []byte) error {
	if rd.direct() {
		return rd.decodeDirect(src, first, n)
	}
	es := rd.d.kind.size()
	buf = buf[:len(buf)/es*es]
	row, col := first, 0
	end := first + n
	if rd.d.columns == 0 {
		return nil
	}
	var pending []byte
	for row < end {
		if len(pending) == 0 {
			want := min(int64(len(buf)), int64(end-row)*rd.d.rowBytes()-int64(col*es))
			k, err := io.ReadFull(src, buf[:want])
			if err != nil {
				if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
					return fmt.Errorf("data end early in row %d (%d of %d bytes read)", row, k, want)
				}
				return err
			}
			pending = buf[:k]
		}
		target := rd.dst[row]
		if rd.cols != nil {
			target = rd.scratch
		}
		take := min(rd.d.columns-col, len(pending)/es)
		decodeValues(target[col:col+take], pending[:take*es], rd.d.kind, rd.d.order)
		pending = pending[take*es:]
		col += take
		if col == rd.d.columns {
			if rd.cols != nil {
				out := rd.dst[row]
				for j, v := range rd.scratch {
					out[rd.cols[j]] = v
				}
			}
			row, col = row+1, 0
		}
	}
	return nil
}

// hostLittleEndian: the machine stores a float64 as little-endian IEEE
// 754, the layout of DOUBLE values in a little-endian file.
var hostLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// directChunk bounds one read of decodeDirect.
const directChunk = 8 << 20

// direct reports whether rows can be read straight into the destination:
// little-endian doubles on a little-endian machine, columns in place.
func (rd *rowDecoder) direct() bool {
	return hostLittleEndian && rd.cols == nil && rd.d.kind == elemFloat64 &&
		rd.d.order == binary.LittleEndian && rd.d.columns > 0
}

// decodeDirect reads n rows starting at row first from src into the
// memory of the destination rows, without decoding: destination rows that
// follow each other in memory are read with one call.
func (rd *rowDecoder) decodeDirect(src io.Reader, first, n int) error {
	rb := rd.d.columns * 8
	end := first + n
	for row := first; row < end; {
		k := row + 1
		for k < end && (k-row+1)*rb <= directChunk && adjacent(rd.dst[k-1], rd.dst[k]) {
			k++
		}
		b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(rd.dst[row][:rd.d.columns]))), (k-row)*rb)
		if got, err := io.ReadFull(src, b); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return fmt.Errorf("data end early in row %d (%d of %d bytes read)", row+got/rb, got%rb, rb)
			}
			return err
		}
		row = k
	}
	return nil
}

// adjacent reports whether row b starts where row a ends in memory.
func adjacent(a, b []float64) bool {
	return len(a) > 0 && len(b) > 0 &&
		uintptr(unsafe.Pointer(unsafe.SliceData(a)))+uintptr(len(a))*8 == uintptr(unsafe.Pointer(unsafe.SliceData(b)))
}
