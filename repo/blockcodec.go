package repo

import (
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"io"

	"cubeview/model"
)

// codecShuffleFlate is the codec of the whole-metric blocks of schemas 2
// and 3: the rows that hold a non-zero bit pattern, their values split
// into eight byte planes (see encodePlane).
const codecShuffleFlate = 1

const (
	planeRaw   = 0
	planeConst = 1
	planeFlate = 2
)

// sampleSize is how much of a plane is compressed first to recognise
// noise (the low mantissa bytes of measured times), which is stored as it
// is instead of spending the time to deflate it for nothing.
const sampleSize = 256 << 10

// encodePlane returns method, length and data of one byte plane.
func encodePlane(p []byte) []byte {
	var en encoder
	if len(p) > 0 && bytes.Count(p, p[:1]) == len(p) {
		en.uint(planeConst)
		en.uint(1)
		return append(en.b, p[0])
	}
	raw := func() []byte {
		en.uint(planeRaw)
		en.uint(uint64(len(p)))
		return append(append(make([]byte, 0, len(en.b)+len(p)), en.b...), p...)
	}
	if len(p) > 4*sampleSize {
		if n := deflatedSize(p[:sampleSize]); n > sampleSize-sampleSize/32 {
			return raw()
		}
	}
	buf := bytes.NewBuffer(make([]byte, 0, len(p)+len(p)/64+1024))
	w, _ := flate.NewWriter(buf, flate.BestSpeed)
	w.Write(p)
	w.Close()
	if buf.Len() >= len(p)-len(p)/50 {
		return raw()
	}
	en.uint(planeFlate)
	en.uint(uint64(buf.Len()))
	return append(append(make([]byte, 0, len(en.b)+buf.Len()), en.b...), buf.Bytes()...)
}

// deflatedSize returns the deflated size of p.
func deflatedSize(p []byte) int {
	var cw countWriter
	w, _ := flate.NewWriter(&cw, flate.BestSpeed)
	w.Write(p)
	w.Close()
	return int(cw)
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

var errBadBlock = errors.New("corrupt stored metric data")

// decodeBlock reads what encodeBlock wrote, checking it against the
// expected dimensions.
func decodeBlock(data []byte, ncnodes, nlocations int) (*model.Block, error) {
	d := &decoder{b: data}
	nc, nl := int(d.uint()), int(d.uint())
	if d.err != nil || nc != ncnodes || nl != nlocations {
		return nil, fmt.Errorf("%w: block is %d×%d, want %d×%d", errBadBlock, nc, nl, ncnodes, nlocations)
	}
	nr := d.count(1)
	if d.err != nil || nr > nc {
		return nil, errBadBlock
	}
	rows := make([]int, nr)
	prev := -1
	for i := range rows {
		c := prev + 1 + int(d.uint())
		if d.err != nil || c >= nc || c < 0 {
			return nil, errBadBlock
		}
		rows[i], prev = c, c
	}
	n := nr * nl
	if nl > 0 && n/nl != nr {
		return nil, errBadBlock
	}
	planes, err := readPlanes(d, n)
	if err != nil {
		return nil, err
	}
	b := model.NewBlock(nc, nl)
	b.AllocRows(rows)
	i := 0
	for _, c := range rows {
		r := b.MutableRow(c)
		for l := range r {
			r[l] = planeValue(planes, i)
			i++
		}
	}
	return b, nil
}

func decodePlane(method uint64, src []byte, n int) ([]byte, error) {
	switch method {
	case planeConst:
		if len(src) != 1 && n > 0 {
			return nil, errBadBlock
		}
		if n == 0 {
			return nil, nil
		}
		return bytes.Repeat(src, n), nil
	case planeRaw:
		if len(src) != n {
			return nil, errBadBlock
		}
		return src, nil
	case planeFlate:
		out := make([]byte, n)
		r := flate.NewReader(bytes.NewReader(src))
		if _, err := io.ReadFull(r, out); err != nil {
			return nil, fmt.Errorf("%w: %v", errBadBlock, err)
		}
		var one [1]byte
		if k, _ := r.Read(one[:]); k != 0 {
			return nil, errBadBlock
		}
		return out, nil
	}
	return nil, errBadBlock
}
