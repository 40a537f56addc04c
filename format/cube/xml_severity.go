package cube

import (
	"encoding/xml"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"cubeview/model"
)

// severity streams the <severity> section, whose start tag was just read,
// into one data block per metric. Rows are parsed in place from the
// decoder's character data; nothing of the section is kept as XML.
func (p *xmlParser) severity() error {
	b := p.b
	e := b.e
	depth := len(p.stack) // the <severity> element is open at this depth
	if !b.hasSeverity() {
		// A CUBE 4 anchor keeps its data in the archive members.
		for len(p.stack) >= depth {
			if _, err := p.token(); err != nil {
				return err
			}
		}
		return nil
	}
	nl := len(e.Locations)
	// colOf[i] is the data column of the i-th value of a row: the thread
	// with Id i in CUBE 3, the i-th thread of the document in CUBE 2.
	colOf := make([]int, nl)
	if b.v2 {
		for i, s := range b.leaves {
			colOf[i] = e.System[s].Location
		}
	} else {
		for i := range colOf {
			colOf[i] = -1
		}
		for id, col := range b.locationColumn {
			if id >= 0 && id < nl {
				colOf[id] = col
			}
		}
	}
	b.blocks = make([]*model.Block, len(e.Metrics))
	acc := matrixAcc{nl: nl, rowAt: make([]int32, len(e.Cnodes))}
	metric, metricID := -1, 0 // current matrix; -1 outside or when skipped
	inMatrix, inRow := false, false
	cnode, cnodeID := -1, 0
	var text []byte
	for {
		t, err := p.token()
		if err != nil {
			return err
		}
		switch t := t.(type) {
		case xml.StartElement:
			switch {
			case t.Name.Local == "matrix" && !inMatrix && len(p.stack) == depth+1:
				inMatrix = true
				metric = -1
				s := attrOf(t, "metricId")
				if s == "" {
					return fmt.Errorf("line %d: <matrix> without metricId", p.line())
				}
				if metricID, err = parseInt(s, "<matrix> metricId"); err != nil {
					return fmt.Errorf("line %d: %w", p.line(), err)
				}
				if b.v2 && metricID < 0 {
					continue // CUBE 2 marks ignored matrices with a negative id
				}
				m, ok := b.metricByID[metricID]
				if !ok {
					return fmt.Errorf("line %d: severity matrix for unknown metric id %d", p.line(), metricID)
				}
				if !b.skip[m] { // VOID and other metrics without values: rows ignored
					metric = m
				}
			case t.Name.Local == "row" && inMatrix && !inRow && len(p.stack) == depth+2:
				inRow = true
				text = text[:0]
				if metric < 0 {
					continue
				}
				s := attrOf(t, "cnodeId")
				if s == "" {
					return fmt.Errorf("line %d: <row> without cnodeId", p.line())
				}
				if cnodeID, err = parseInt(s, "<row> cnodeId"); err != nil {
					return fmt.Errorf("line %d: %w", p.line(), err)
				}
				c, ok := b.cnodeByID[cnodeID]
				if !ok {
					return fmt.Errorf("line %d: severity row for unknown cnode id %d (metric id %d)", p.line(), cnodeID, metricID)
				}
				cnode = c
			default:
				return fmt.Errorf("line %d: unexpected <%s> in the severity section", p.line(), t.Name.Local)
			}
		case xml.CharData:
			if inRow {
				if metric >= 0 {
					text = append(text, t...)
				}
			} else if len(strings.TrimSpace(string(t))) > 0 {
				return fmt.Errorf("line %d: unexpected text %q in the severity section", p.line(), clip(string(t)))
			}
		case xml.EndElement:
			switch {
			case inRow:
				inRow = false
				if metric < 0 {
					continue
				}
				if err := acc.addRow(cnode, text, colOf); err != nil {
					return fmt.Errorf("line %d: metric id %d, cnode id %d: %w", p.line(), metricID, cnodeID, err)
				}
			case inMatrix:
				inMatrix = false
				if metric >= 0 {
					b.blocks[metric] = acc.flush(b.blocks[metric], len(e.Cnodes))
				}
			default: // </severity>
				return nil
			}
		}
	}
}

// matrixAcc collects the rows of one matrix in a reused arena before they
// are copied into a block with a single allocation.
type matrixAcc struct {
	nl     int
	arena  []float64
	cnodes []int   // rows in arrival order
	rowAt  []int32 // per cnode: 1 + its position in cnodes, 0 when absent
	tmp    []float64
}

// addRow parses one row's values into the arena. A second row for the
// same cnode overwrites the first one's values where it is non-zero, as
// the CUBE tools do.
func (a *matrixAcc) addRow(cnode int, text []byte, colOf []int) error {
	if k := a.rowAt[cnode]; k > 0 {
		a.tmp = zeroed(a.tmp[:0], a.nl)
		if _, err := parseRow(text, a.tmp, colOf); err != nil {
			return err
		}
		dst := a.arena[int(k-1)*a.nl : int(k)*a.nl]
		for l, v := range a.tmp {
			if v != 0 {
				dst[l] = v
			}
		}
		return nil
	}
	off := len(a.arena)
	a.arena = zeroed(a.arena[:off:cap(a.arena)], off+a.nl)
	nonzero, err := parseRow(text, a.arena[off:], colOf)
	if err != nil {
		return err
	}
	if !nonzero {
		a.arena = a.arena[:off]
		return nil
	}
	a.cnodes = append(a.cnodes, cnode)
	a.rowAt[cnode] = int32(len(a.cnodes))
	return nil
}

// zeroed extends s to length n, zeroing the new tail (all of it when
// len(s) == 0).
func zeroed(s []float64, n int) []float64 {
	old := len(s)
	if cap(s) < n {
		ns := make([]float64, n, max(n, 2*cap(s)))
		copy(ns, s)
		return ns
	}
	s = s[:n]
	clear(s[old:])
	return s
}

// flush moves the collected rows into blk (a new block when nil) and
// resets the accumulator.
func (a *matrixAcc) flush(blk *model.Block, ncnodes int) *model.Block {
	if blk == nil {
		blk = model.NewBlock(ncnodes, a.nl)
		blk.AllocRows(a.cnodes)
		for k, c := range a.cnodes {
			copy(blk.MutableRow(c), a.arena[k*a.nl:(k+1)*a.nl])
		}
	} else { // a second matrix for the same metric
		for k, c := range a.cnodes {
			row := blk.MutableRow(c)
			for l, v := range a.arena[k*a.nl : (k+1)*a.nl] {
				if v != 0 {
					row[l] = v
				}
			}
		}
	}
	for _, c := range a.cnodes {
		a.rowAt[c] = 0
	}
	a.cnodes = a.cnodes[:0]
	a.arena = a.arena[:0]
	return blk
}

var errTooManyValues = errors.New("more values than threads")

// parseRow parses whitespace-separated numbers; value i goes to column
// colOf[i] of dst. It reports whether any value is non-zero.
func parseRow(text []byte, dst []float64, colOf []int) (bool, error) {
	nonzero := false
	n := 0
	for i := 0; i < len(text); {
		if isSpace(text[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && !isSpace(text[j]) {
			j++
		}
		if n >= len(colOf) {
			return false, fmt.Errorf("%w: the row has more than %d values", errTooManyValues, len(colOf))
		}
		// string(text[i:j]) does not allocate: ParseFloat keeps no reference.
		v, err := strconv.ParseFloat(string(text[i:j]), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return false, fmt.Errorf("value %d: %q is not a number", n, clip(string(text[i:j])))
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false, fmt.Errorf("value %d is %q (NaN or Inf is not allowed)", n, clip(string(text[i:j])))
		}
		if v != 0 {
			col := colOf[n]
			if col < 0 {
				return false, fmt.Errorf("value %d is %v but no thread has Id %d", n, v, n)
			}
			dst[col] = v
			nonzero = true
		}
		n++
		i = j
	}
	return nonzero, nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// finish installs the data and checks the experiment.
func (b *builder) finish() (*xmlDoc, error) {
	e := b.e
	hasSeverity := b.hasSeverity()
	if hasSeverity {
		for m := range e.Metrics {
			var blk *model.Block
			if b.blocks != nil {
				blk = b.blocks[m]
			}
			if blk == nil {
				blk = model.NewBlock(len(e.Cnodes), len(e.Locations))
			}
			e.SetBlock(m, blk)
		}
	}
	if err := e.Validate(); err != nil {
		return nil, fmt.Errorf("invalid experiment: %w", err)
	}
	return &xmlDoc{Exp: e, Version: b.version, LocationColumn: b.locationColumn, HasSeverity: hasSeverity}, nil
}
