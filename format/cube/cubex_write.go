package cube

import (
	"archive/tar"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"time"

	"cubeview/format/importer"
	"cubeview/model"
)

// cubexWriteOptions select storage variants. The zero value is what
// WriteCubex writes: every metric call-tree exclusive, sparse index over
// the depth-first enumeration, uncompressed little-endian CUBEX.DATA.
// The other variants exist so that tests can produce every layout the
// reader accepts.
type cubexWriteOptions struct {
	// inclusive reports whether metric m is stored call-tree inclusive,
	// rows in the wide enumeration (the anchor must then say INCLUSIVE).
	inclusive func(m int) bool
	dense     bool // dense index: a row for every cnode
	compress  bool // ZCUBEX.DATA with a zlib block per row
	bigEndian bool
	// keepZeroRows writes present rows even when they are all zero.
	keepZeroRows bool
}

// writeCubexData writes the .index and .data members of every metric
// that has values (Unavailable metrics get none) to tw. It returns the
// metrics it stored call-tree inclusive, whose type in anchor.xml must
// say INCLUSIVE.
//
// A sum metric of an integer data type is stored inclusive when its own
// values do not fit the type but its inclusive ones do: a file may store
// an unsigned metric INCLUSIVE whose children hold more than the parent,
// which leaves negative own values that the type cannot hold.
func writeCubexData(tw *tar.Writer, e *model.Experiment, opt cubexWriteOptions) (inclusiveMetrics []int, err error) {
	cols := writeColumns(e)
	deep := e.CnodeOrder()
	var wide []int
	now := memberTime
	for _, m := range e.MetricOrder() {
		met := &e.Metrics[m]
		if !met.HasStoredValues() {
			continue
		}
		kind, ok := scalarTypeOf(met.DataType)
		if !ok {
			return nil, fmt.Errorf("metric %s: data type %s cannot be stored in .cubex", importer.Quote(met.UniqName), importer.Quote(string(met.DataType)))
		}
		b, err := e.Block(m)
		if err != nil {
			return nil, err
		}
		// A block read row by row from its file keeps the first read
		// error (Block.Err) and yields zeros: every pass below checks it,
		// so a damaged or truncated input never becomes zeros written.
		src := b
		enum := deep
		inclusive := opt.inclusive != nil && opt.inclusive(m)
		var incl *model.Block
		if !inclusive && kind != elemFloat64 && met.Aggregation == model.Sum {
			if err := checkFit(e, met, b, kind, "own"); err != nil {
				if rerr := src.Err(); rerr != nil {
					return nil, rerr
				}
				incl = callInclusiveBlock(e, b, met.Aggregation)
				if inclErr := checkFit(e, met, incl, kind, "call-tree inclusive"); inclErr != nil {
					return nil, fmt.Errorf("metric %s: %w; nor %s: %w", importer.Quote(met.UniqName), err, inclErr.value, inclErr.why)
				}
				inclusive = true
			}
		}
		if inclusive {
			if wide == nil {
				wide = wideOrder(e)
			}
			enum = wide
			switch {
			case incl != nil:
			case met.Aggregation == model.Sum:
				incl = callInclusiveBlock(e, b, met.Aggregation)
			default:
				// The inclusive values the model shows: only the
				// values of visited call paths count (see model).
				if incl, err = e.PointValues(model.MetricSel{Metric: m, Inclusive: true}, true); err != nil {
					return nil, err
				}
			}
			if err := src.Err(); err != nil {
				return nil, err
			}
			b = incl
			inclusiveMetrics = append(inclusiveMetrics, m)
		}
		var rows []int // enumeration positions of the stored rows
		for k, c := range enum {
			r := b.Row(c)
			if opt.dense || (r != nil && (opt.keepZeroRows || !cubexZeroRow(r))) {
				rows = append(rows, k)
			}
		}
		if err := src.Err(); err != nil {
			return nil, err
		}
		order := byteOrder(binary.LittleEndian)
		if opt.bigEndian {
			order = binary.BigEndian
		}
		enc := rowEncoder{e: e, met: met, kind: kind, order: order, cols: cols}
		id := strconv.Itoa(met.ID)
		var data []byte
		var dataSize int64
		if opt.compress {
			if data, err = compressRows(&enc, b, enum, rows); err != nil {
				return nil, err
			}
			dataSize = int64(len(data))
		} else {
			dataSize = int64(len(dataMarker)) + int64(len(rows))*int64(len(cols))*int64(kind.size())
		}
		if err := writeMember(tw, id+".data", dataSize, now); err != nil {
			return nil, err
		}
		if opt.compress {
			if _, err := tw.Write(data); err != nil {
				return nil, err
			}
		} else if err := enc.writeRows(tw, b, enum, rows); err != nil {
			return nil, err
		}
		if err := src.Err(); err != nil {
			return nil, err
		}
		index := encodeIndex(order, opt.dense, rows)
		if err := writeMember(tw, id+".index", int64(len(index)), now); err != nil {
			return nil, err
		}
		if _, err := tw.Write(index); err != nil {
			return nil, err
		}
	}
	return inclusiveMetrics, nil
}

// memberTime is the modification time of every member written: a fixed
// time, so that the same experiment always gives the same bytes.
var memberTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

func writeMember(tw *tar.Writer, name string, size int64, mtime time.Time) error {
	return tw.WriteHeader(&tar.Header{
		Typeflag: tar.TypeReg, Name: name, Size: size, Mode: 0o644, ModTime: mtime,
		Format: tar.FormatUSTAR,
	})
}

// writeColumns returns, for each value position of a .data row, the data
// column written there: position j holds the location with the j-th
// smallest Id, which is the location with Id j when the Ids are 0…L−1
// (see fileColumns).
func writeColumns(e *model.Experiment) []int {
	cols := make([]int, len(e.Locations))
	for l := range cols {
		cols[l] = l
	}
	slices.SortStableFunc(cols, func(a, b int) int { return e.Location(a).ID - e.Location(b).ID })
	return cols
}

func encodeIndex(order byteOrder, dense bool, rows []int) []byte {
	b := make([]byte, 0, indexHeaderSize+4+4*len(rows))
	b = append(b, indexMarker...)
	b = order.AppendUint32(b, 1)
	b = order.AppendUint16(b, 0)
	if dense {
		return append(b, indexFormatDense)
	}
	b = append(b, indexFormatSparse)
	b = order.AppendUint32(b, uint32(len(rows)))
	for _, k := range rows {
		b = order.AppendUint32(b, uint32(k))
	}
	return b
}

// rowEncoder turns data rows into the bytes of a metric's data type,
// refusing values that the type cannot hold.
type rowEncoder struct {
	e     *model.Experiment
	met   *model.Metric
	kind  elemKind
	order byteOrder
	cols  []int
}

// appendRow appends the encoded values of row (nil = zeros) of cnode c.
func (enc *rowEncoder) appendRow(buf []byte, row []float64, c int) ([]byte, error) {
	for _, col := range enc.cols {
		var v float64
		if row != nil {
			v = row[col]
		}
		var err error
		if buf, err = appendValue(buf, v, enc.kind, enc.order); err != nil {
			return nil, fmt.Errorf("metric %s: %w", importer.Quote(enc.met.UniqName), misfit(enc.e, enc.met, "", v, c, col, err))
		}
	}
	return buf, nil
}

// writeRows streams the listed rows (positions in enum) to w.
func (enc *rowEncoder) writeRows(w io.Writer, b *model.Block, enum, rows []int) error {
	buf := make([]byte, 0, decodeChunk+len(enc.cols)*enc.kind.size())
	buf = append(buf, dataMarker...)
	vals := make([]float64, b.NumLocations())
	for _, k := range rows {
		row, _, err := b.ReadRow(enum[k], vals)
		if err != nil {
			return err
		}
		if buf, err = enc.appendRow(buf, row, enum[k]); err != nil {
			return err
		}
		if len(buf) >= decodeChunk {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(buf)
	return err
}

// compressRows builds a complete ZCUBEX.DATA member: sub-index, then one
// zlib block per row.
func compressRows(enc *rowEncoder, b *model.Block, enum, rows []int) ([]byte, error) {
	var blocks bytes.Buffer
	var index []byte
	var row []byte
	rowBytes := uint64(len(enc.cols) * enc.kind.size())
	vals := make([]float64, b.NumLocations())
	for i, k := range rows {
		r, _, err := b.ReadRow(enum[k], vals)
		if err != nil {
			return nil, err
		}
		if row, err = enc.appendRow(row[:0], r, enum[k]); err != nil {
			return nil, err
		}
		start := blocks.Len()
		zw := zlib.NewWriter(&blocks)
		zw.Write(row)
		if err := zw.Close(); err != nil {
			return nil, err
		}
		index = enc.order.AppendUint64(index, uint64(i)*rowBytes)
		index = enc.order.AppendUint64(index, uint64(start))
		index = enc.order.AppendUint64(index, uint64(blocks.Len()-start))
	}
	out := append([]byte(zdataMarker), enc.order.AppendUint64(nil, uint64(len(rows)))...)
	out = append(out, index...)
	return append(out, blocks.Bytes()...), nil
}

// Ranges of the integer data types. The largest double below 2^64 is
// below maxUint64Double, so every UINT64 value written reads back as is.
var intRanges = map[elemKind][2]float64{
	elemInt64:  {math.MinInt64, 1 << 63},
	elemUint64: {0, 1 << 64},
	elemInt32:  {math.MinInt32, 1 << 31},
	elemUint32: {0, 1 << 32},
	elemInt16:  {math.MinInt16, 1 << 15},
	elemUint16: {0, 1 << 16},
	elemInt8:   {math.MinInt8, 1 << 7},
	elemUint8:  {0, 1 << 8},
}

// intBounds are the smallest and largest value of each integer type,
// written exactly (%v of the float bounds would print 2^64 as
// 1.8446744073709552e+19).
var intBounds = map[elemKind][2]string{
	elemInt64:  {strconv.FormatInt(math.MinInt64, 10), strconv.FormatInt(math.MaxInt64, 10)},
	elemUint64: {"0", strconv.FormatUint(math.MaxUint64, 10)},
	elemInt32:  {strconv.Itoa(math.MinInt32), strconv.Itoa(math.MaxInt32)},
	elemUint32: {"0", strconv.Itoa(math.MaxUint32)},
	elemInt16:  {strconv.Itoa(math.MinInt16), strconv.Itoa(math.MaxInt16)},
	elemUint16: {"0", strconv.Itoa(math.MaxUint16)},
	elemInt8:   {strconv.Itoa(math.MinInt8), strconv.Itoa(math.MaxInt8)},
	elemUint8:  {"0", strconv.Itoa(math.MaxUint8)},
}

// appendValue encodes v as kind, failing for values the type cannot hold.
func appendValue(buf []byte, v float64, k elemKind, order byteOrder) ([]byte, error) {
	if k == elemFloat64 {
		return order.AppendUint64(buf, math.Float64bits(v)), nil // NaN and ±Inf too
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, fmt.Errorf("not a finite number")
	}
	r := intRanges[k]
	if v != math.Trunc(v) || v < r[0] || v >= r[1] {
		return nil, fmt.Errorf("not an integer from %s to %s", intBounds[k][0], intBounds[k][1])
	}
	switch k {
	case elemInt64:
		return order.AppendUint64(buf, uint64(int64(v))), nil
	case elemUint64:
		return order.AppendUint64(buf, uint64(v)), nil
	case elemInt32, elemUint32:
		return order.AppendUint32(buf, uint32(int64(v))), nil
	case elemInt16, elemUint16:
		return order.AppendUint16(buf, uint16(int64(v))), nil
	}
	return append(buf, byte(int64(v))), nil
}

// checkFit reports the first value of b that metric met's integer type
// cannot hold; which says what the values are ("own", "inclusive").
func checkFit(e *model.Experiment, met *model.Metric, b *model.Block, kind elemKind, which string) *misfitError {
	r := intRanges[kind]
	for c := range e.Cnodes {
		for l, v := range b.Row(c) {
			if v != math.Trunc(v) || v < r[0] || v >= r[1] {
				_, err := appendValue(nil, v, kind, binary.LittleEndian)
				return misfit(e, met, which, v, c, l, err)
			}
		}
	}
	return nil
}

// misfitError is a value a metric's data type cannot hold.
type misfitError struct {
	dataType string
	value    string // which value, of which call path, at which location
	why      error
}

func (m *misfitError) Error() string {
	return fmt.Sprintf("data type %s cannot hold %s: %v", m.dataType, m.value, m.why)
}

func (m *misfitError) Unwrap() error { return m.why }

// misfit is the error for value v of cnode c and data column l: it names
// the data type, the value, the call path's region and the location,
// each with its id in the file.
func misfit(e *model.Experiment, met *model.Metric, which string, v float64, c, l int, why error) *misfitError {
	if which != "" {
		which += " "
	}
	at := fmt.Sprintf("the %svalue %v at cnode id %d", which, v, e.Cnodes[c].ID)
	if name := e.CnodeRegion(c).Name; name != "" {
		at += " (call path to " + importer.Quote(name) + ")"
	}
	loc := e.Location(l)
	at += fmt.Sprintf(", location id %d", loc.ID)
	if loc.Name != "" {
		at += " (" + importer.Quote(loc.Name)
		if p := loc.Parent; p >= 0 && e.System[p].Name != "" { // thread names repeat in every process
			at += " of " + importer.Quote(e.System[p].Name)
		}
		at += ")"
	}
	return &misfitError{dataType: importer.Quote(string(met.DataType)), value: at, why: why}
}

func cubexZeroRow(r []float64) bool {
	for _, v := range r {
		if v != 0 {
			return false
		}
	}
	return true
}

// wideOrder returns the cnodes in the wide enumeration (see enumerations).
func wideOrder(e *model.Experiment) []int {
	ld := &cubexLoader{e: e}
	_, wide := ld.enumerations()
	return wide
}

// callInclusiveBlock returns b with every row replaced by the call-tree
// inclusive values (the row summed with its whole subtree).
func callInclusiveBlock(e *model.Experiment, b *model.Block, agg model.Aggregation) *model.Block {
	out := b.Clone()
	order := e.CnodeOrder()
	for i := len(order) - 1; i >= 0; i-- {
		c := order[i]
		p := e.Cnodes[c].Parent
		src := out.Row(c)
		if p < 0 || src == nil {
			continue
		}
		dst := out.MutableRow(p)
		for l, v := range src {
			dst[l] = agg.Combine(dst[l], v)
		}
	}
	return out
}

// setInclusive rewrites the type attribute of the <metric> start tags
// whose id is in ids to INCLUSIVE, leaving the rest of anchor.xml as it is.
func setInclusive(anchor []byte, ids map[int]bool) ([]byte, error) {
	d := xml.NewDecoder(bytes.NewReader(anchor))
	d.Strict = false
	var out []byte
	done := 0
	found := 0
	for found < len(ids) {
		start := d.InputOffset()
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("anchor.xml: %w", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "metric" {
			continue
		}
		id := -1
		for _, a := range se.Attr {
			if a.Name.Local == "id" {
				if n, err := strconv.Atoi(a.Value); err == nil {
					id = n
				}
			}
		}
		if !ids[id] {
			continue
		}
		found++
		tag := anchor[start:d.InputOffset()]
		loc := typeAttr.FindIndex(tag)
		out = append(out, anchor[done:start]...)
		if loc == nil {
			// No type attribute: add one after the element name.
			out = append(out, "<metric type=\"INCLUSIVE\""...)
			out = append(out, tag[len("<metric"):]...)
		} else {
			out = append(out, tag[:loc[0]]...)
			out = append(out, " type=\"INCLUSIVE\""...)
			out = append(out, tag[loc[1]:]...)
		}
		done = int(d.InputOffset())
	}
	if found < len(ids) {
		return nil, fmt.Errorf("anchor.xml: %d of %d metrics to store inclusive not found", len(ids)-found, len(ids))
	}
	return append(out, anchor[done:]...), nil
}

var typeAttr = regexp.MustCompile(`\stype\s*=\s*("[^"]*"|'[^']*')`)
