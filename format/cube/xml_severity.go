package cube

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"cubeview/model"
)

// severity streams the <severity> section, whose start tag was just read,
// into one data block per metric. Rows are parsed in place from the
// scanner's text; nothing of the section is kept as XML.
func (p *xmlParser) severity() error {
	b := p.b
	e := b.e
	sc := p.s
	depth := sc.depth() // the <severity> element is open at this depth
	if !b.hasSeverity() {
		// A CUBE 4 anchor keeps its data in the archive members.
		return sc.skip()
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
	// A row's text: values of at most a few dozen characters each.
	maxRowText := 64*nl + 1<<20
	b.blocks = make([]*model.Block, len(e.Metrics))
	acc := matrixAcc{nl: nl, rowAt: make([]int32, len(e.Cnodes))}
	metric, metricID := -1, 0 // current matrix; -1 outside or when skipped
	inMatrix, inRow := false, false
	cnode, cnodeID := -1, 0
	var text []byte
	short, firstShort := 0, "" // rows with fewer values than threads
	sc.rawText = true
	defer func() { sc.rawText = false }()
	for {
		k, err := sc.next()
		if err != nil {
			return err
		}
		switch k {
		case tokStart:
			name := string(sc.name)
			switch {
			case name == "matrix" && !inMatrix && sc.depth() == depth+1:
				inMatrix = true
				metric = -1
				v, _ := sc.attr("metricId")
				if len(v) == 0 {
					return fmt.Errorf("line %d: <matrix> without metricId", p.line())
				}
				if metricID, err = intBytes(v, "<matrix> metricId"); err != nil {
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
			case name == "row" && inMatrix && !inRow && sc.depth() == depth+2:
				inRow = true
				text = text[:0]
				if metric < 0 {
					continue
				}
				v, _ := sc.attr("cnodeId")
				if len(v) == 0 {
					return fmt.Errorf("line %d: <row> without cnodeId", p.line())
				}
				if cnodeID, err = intBytes(v, "<row> cnodeId"); err != nil {
					return fmt.Errorf("line %d: %w", p.line(), err)
				}
				c, ok := b.cnodeByID[cnodeID]
				if !ok {
					return fmt.Errorf("line %d: severity row for unknown cnode id %d (metric id %d)", p.line(), cnodeID, metricID)
				}
				cnode = c
			default:
				return fmt.Errorf("line %d: unexpected <%s> in the severity section", p.line(), name)
			}
		case tokText:
			if inRow {
				if metric >= 0 {
					t, err := sc.textBytes()
					if err != nil {
						return err
					}
					if len(text)+len(t) > maxRowText {
						return fmt.Errorf("line %d: metric id %d, cnode id %d: the row holds more than %d bytes of text for %d threads",
							p.line(), metricID, cnodeID, maxRowText, nl)
					}
					text = append(text, t...)
				} else if err := sc.checkText(); err != nil {
					// Rows of metrics without values are checked like any text.
					return err
				}
			} else if !sc.blank() {
				t, err := sc.textBytes()
				if err != nil {
					return err
				}
				return fmt.Errorf("line %d: unexpected text %s in the severity section", p.line(), clip(string(t)))
			}
		case tokEnd:
			switch {
			case inRow:
				inRow = false
				if metric < 0 {
					continue
				}
				n, err := acc.addRow(cnode, text, colOf)
				if err != nil {
					return fmt.Errorf("line %d: metric id %d, cnode id %d: %w", p.line(), metricID, cnodeID, err)
				}
				if n > 0 && n < nl {
					if short == 0 {
						firstShort = fmt.Sprintf("line %d: metric id %d, cnode id %d: the row has %d values for %d threads",
							p.line(), metricID, cnodeID, n, nl)
					}
					short++
				}
			case inMatrix:
				inMatrix = false
				if metric >= 0 {
					b.blocks[metric] = acc.flush(b.blocks[metric], len(e.Cnodes))
				}
			default: // </severity>
				if short > 0 {
					// CubeLib reads the missing values as zeros, and so do we;
					// but a value left out in the middle of a row shifts the
					// later threads' values, so the reader must know.
					e.Warnings = append(e.Warnings, fmt.Sprintf("%s; %d rows hold fewer values than threads, read as zeros for the last threads (if a value is missing in the middle, the later threads' values are shifted)", firstShort, short))
				}
				return nil
			}
		}
	}
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if !isSpace(c) {
			return false
		}
	}
	return true
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

// addRow parses one row's values into the arena and returns how many it
// holds. A second row for the same cnode overwrites the first one's
// values where it is non-zero, as the CUBE tools do.
func (a *matrixAcc) addRow(cnode int, text []byte, colOf []int) (int, error) {
	if k := a.rowAt[cnode]; k > 0 {
		a.tmp = zeroed(a.tmp[:0], a.nl)
		_, n, err := parseRow(text, a.tmp, colOf)
		if err != nil {
			return n, err
		}
		dst := a.arena[int(k-1)*a.nl : int(k)*a.nl]
		for l, v := range a.tmp {
			if v != 0 {
				dst[l] = v
			}
		}
		return n, nil
	}
	off := len(a.arena)
	a.arena = zeroed(a.arena[:off:cap(a.arena)], off+a.nl)
	nonzero, n, err := parseRow(text, a.arena[off:], colOf)
	if err != nil {
		return n, err
	}
	if !nonzero {
		a.arena = a.arena[:off]
		return n, nil
	}
	a.cnodes = append(a.cnodes, cnode)
	a.rowAt[cnode] = int32(len(a.cnodes))
	return n, nil
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
// colOf[i] of dst. It reports whether any value is non-zero and how many
// values the row holds.
func parseRow(text []byte, dst []float64, colOf []int) (bool, int, error) {
	nonzero := false
	n := 0
	for i := 0; i < len(text); {
		if isSpace(text[i]) {
			i++
			continue
		}
		if n >= len(colOf) {
			return false, n, fmt.Errorf("%w: the row has more than %d values", errTooManyValues, len(colOf))
		}
		// Plain integers (most values of counting metrics) first.
		j, u := i, uint64(0)
		for j < len(text) && j-i < 16 {
			d := text[j] - '0'
			if d > 9 {
				break
			}
			u = u*10 + uint64(d)
			j++
		}
		var v float64
		var ok bool
		if j > i && j-i < 16 && (j == len(text) || isSpace(text[j])) {
			v, ok = float64(u), true
		} else {
			v, j, ok = scanNumber(text, i)
		}
		if !ok {
			j = i + 1
			for j < len(text) && !isSpace(text[j]) {
				j++
			}
			// string(text[i:j]) does not allocate: ParseFloat keeps no reference.
			var err error
			v, err = strconv.ParseFloat(string(text[i:j]), 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return false, n, fmt.Errorf("value %d: %s is not a number", n, clip(string(text[i:j])))
			}
		}
		if v != 0 {
			col := colOf[n]
			if col < 0 {
				return false, n, fmt.Errorf("value %d is %v but no thread has Id %d", n, v, n)
			}
			dst[col] = v
			nonzero = true
		}
		n++
		i = j
	}
	return nonzero, n, nil
}

// exactPow10 are the powers of ten that float64 holds exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// scanNumber parses the decimal number at text[i:] as CUBE writers print
// them ("12", "0.000181790997885", "-1.5e-07") when the result is exact:
// a mantissa of at most 53 bits times or divided by an exactly
// representable power of ten is one correctly rounded operation, the same
// value ParseFloat returns. It returns the value and the end of the
// number, which must be followed by a space or the end of text; it
// reports false for everything else, which ParseFloat reads.
func scanNumber(text []byte, i int) (float64, int, bool) {
	neg := false
	if i < len(text) && (text[i] == '-' || text[i] == '+') {
		neg = text[i] == '-'
		i++
	}
	var mant uint64
	digits, exp := 0, 0
	first := i
	for ; i < len(text); i++ {
		c := text[i] - '0'
		if c > 9 {
			break
		}
		if mant == 0 && c == 0 {
			continue
		}
		if digits == 19 {
			return 0, i, false
		}
		mant, digits = mant*10+uint64(c), digits+1
	}
	sawDigit := i > first
	if i < len(text) && text[i] == '.' {
		i++
		frac := i
		for ; i < len(text); i++ {
			c := text[i] - '0'
			if c > 9 {
				break
			}
			if mant == 0 && c == 0 {
				continue
			}
			if digits == 19 {
				return 0, i, false
			}
			mant, digits = mant*10+uint64(c), digits+1
		}
		exp -= i - frac
		sawDigit = sawDigit || i > frac
	}
	if !sawDigit {
		return 0, i, false
	}
	if i < len(text) && text[i]|0x20 == 'e' {
		i++
		eneg := false
		if i < len(text) && (text[i] == '-' || text[i] == '+') {
			eneg = text[i] == '-'
			i++
		}
		e, start := 0, i
		for ; i < len(text); i++ {
			c := text[i] - '0'
			if c > 9 {
				break
			}
			if e > 1000 {
				return 0, i, false
			}
			e = e*10 + int(c)
		}
		if i == start {
			return 0, i, false
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i < len(text) && !isSpace(text[i]) {
		return 0, i, false
	}
	if mant == 0 {
		if neg {
			return math.Copysign(0, -1), i, true
		}
		return 0, i, true
	}
	if mant > 1<<53 {
		return 0, i, false
	}
	f := float64(mant)
	switch {
	case exp > 0 && exp < len(exactPow10):
		f *= exactPow10[exp]
	case exp < 0 && -exp < len(exactPow10):
		f /= exactPow10[-exp]
	case exp != 0:
		return 0, i, false
	}
	if neg {
		f = -f
	}
	return f, i, true
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
