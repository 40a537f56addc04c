package cube

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Layout of a metric's .index member: marker, int32 endianness probe (1 in
// the producer's byte order), uint16 version, one byte index format, and
// for the sparse format a uint32 count followed by that many uint32 row
// positions in the metric's cnode enumeration.
const (
	indexMarker     = "CUBEX.INDEX"
	indexHeaderSize = len(indexMarker) + 4 + 2 + 1 // 18

	indexFormatSparse = 1
	indexFormatDense  = 3
)

// cubexIndex is a decoded .index member.
type cubexIndex struct {
	order byteOrder // byte order of this index and its .data member
	dense bool      // a row for every cnode of the enumeration
	// positions are the enumeration positions of the stored rows, in row
	// order (sparse format only).
	positions []uint32
}

// rows returns the number of rows the .data member holds for ncnodes cnodes.
func (x *cubexIndex) rows(ncnodes int) int {
	if x.dense {
		return ncnodes
	}
	return len(x.positions)
}

// parseIndexHeader decodes the fixed header of an .index member and, for
// a sparse index, the row count; it does not read the positions. b must
// hold at least the first indexHeaderSize+4 bytes of the member, or the
// whole member when it is shorter. It returns the row count (-1 for dense).
func parseIndexHeader(b []byte, size int64) (order byteOrder, count int64, err error) {
	if len(b) < indexHeaderSize || string(b[:len(indexMarker)]) != indexMarker {
		return nil, 0, errors.New("index does not start with " + indexMarker)
	}
	probe := b[len(indexMarker) : len(indexMarker)+4]
	switch {
	case binary.LittleEndian.Uint32(probe) == 1:
		order = binary.LittleEndian
	case binary.BigEndian.Uint32(probe) == 1:
		order = binary.BigEndian
	default:
		return nil, 0, fmt.Errorf("index endianness probe is % x, want 1 in either byte order", probe)
	}
	switch f := b[indexHeaderSize-1]; f {
	case indexFormatDense:
		if size != int64(indexHeaderSize) {
			return nil, 0, fmt.Errorf("dense index has %d bytes, want %d", size, indexHeaderSize)
		}
		return order, -1, nil
	case indexFormatSparse:
		if size == int64(indexHeaderSize) {
			// CubeLib writes just the header for a metric without rows.
			return order, 0, nil
		}
		if len(b) < indexHeaderSize+4 {
			return nil, 0, fmt.Errorf("sparse index of %d bytes has no row count", size)
		}
		count = int64(order.Uint32(b[indexHeaderSize:]))
		if want := int64(indexHeaderSize) + 4 + 4*count; size != want {
			return nil, 0, fmt.Errorf("sparse index of %d rows needs %d bytes, has %d", count, want, size)
		}
		return order, count, nil
	default:
		return nil, 0, fmt.Errorf("unsupported index format %d (only sparse 1 and dense 3 exist in practice)", f)
	}
}

// parseIndex decodes a whole .index member. Positions must be below
// ncnodes and must not repeat.
func parseIndex(b []byte, ncnodes int) (*cubexIndex, error) {
	order, count, err := parseIndexHeader(b, int64(len(b)))
	if err != nil {
		return nil, err
	}
	x := &cubexIndex{order: order}
	if count < 0 {
		x.dense = true
		return x, nil
	}
	x.positions = make([]uint32, count)
	if count == 0 {
		return x, nil
	}
	seen := make([]bool, ncnodes)
	p := b[indexHeaderSize+4:]
	for i := range x.positions {
		pos := order.Uint32(p[4*i:])
		if int64(pos) >= int64(ncnodes) {
			return nil, fmt.Errorf("index entry %d: row position %d outside the %d cnodes", i, pos, ncnodes)
		}
		if seen[pos] {
			return nil, fmt.Errorf("index entry %d: row position %d repeats", i, pos)
		}
		seen[pos] = true
		x.positions[i] = pos
	}
	return x, nil
}
