package callgrind

import (
	"bytes"
	"cubeview/format/importer"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// maxEvents bounds the number of event types of one file.
const maxEvents = 1024

// name contexts of compressed names: "ob", "fl" (also fi, fe, cfi, cfl,
// jfi) and "fn" (also cfn, jfn), as callgrind_annotate keeps them.
const (
	ctxOb = iota
	ctxFl
	ctxFn
)

// nameTable maps the ids of one compression context to strings.
type nameTable struct {
	dense  []int32 // id → string index + 1, for small ids
	sparse map[uint64]int32
}

const maxDenseID = 1 << 20

func (t *nameTable) get(id uint64) (int32, bool) {
	if id < uint64(len(t.dense)) {
		s := t.dense[id]
		return s - 1, s != 0
	}
	s, ok := t.sparse[id]
	return s, ok
}

func (t *nameTable) set(id uint64, s int32) {
	if id < maxDenseID {
		if id >= uint64(len(t.dense)) {
			n := max(2*len(t.dense), int(id)+1, 64)
			t.dense = append(t.dense, make([]int32, n-len(t.dense))...)
		}
		t.dense[id] = s + 1
		return
	}
	if t.sparse == nil {
		t.sparse = map[uint64]int32{}
	}
	t.sparse[id] = s
}

type regionCache struct{ file, region int32 }

type callCount struct {
	callee int32
	n      uint64
}

type arcCache struct{ callee, arc int32 }

// region is a function as callgrind_annotate keys it: file and name.
type region struct {
	file, fn int32 // string indices
	obj      int32 // object where first seen, -1 if unknown
	defined  bool  // seen on an fn= line (not only as a callee)
	minLine  int64 // smallest line with cost, 0 if none
}

// part is one dump: a header and its costs. Only the regions a part
// touches get a slot, so many parts of few functions each stay small.
type part struct {
	attrs [][2]string     // header lines in file order
	slot  map[int32]int32 // region → slot
	regs  []int32         // slot → region
	// vals holds per slot the exclusive cost of every event: slot*nev + event
	vals []uint64
	// calls lists the callee and count of every calls= line, summed per
	// callee when the experiment is built
	calls []callCount
	// the slot of the region last touched, to skip the map
	lastRegion, lastSlot int32
	// summaryAfterBody: the summary: line follows the costs
	summaryAfterBody bool
}

// slotOf returns the slot of region r in part pt, adding one when new.
func (pt *part) slotOf(r int32, nev int) int {
	if r == pt.lastRegion {
		return int(pt.lastSlot)
	}
	s, ok := pt.slot[r]
	if !ok {
		s = int32(len(pt.regs))
		pt.slot[r] = s
		pt.regs = append(pt.regs, r)
		pt.vals = append(pt.vals, make([]uint64, nev)...)
	}
	pt.lastRegion, pt.lastSlot = r, s
	return int(s)
}

// arc is a caller → callee edge summed over the whole file; its
// inclusive costs are profile.arcCost[i*nev : (i+1)*nev] for arc i.
type arc struct {
	caller, callee int32
	calls          uint64
}

// inherited is an event defined as a linear combination of others
// ("event: Sum = Ir + 2 Dr").
type inherited struct {
	name  string
	terms []term
}

type term struct {
	factor float64
	event  string
}

// profile is what the parser collects.
type profile struct {
	creator, version string
	events           []string // all event names, in order of appearance
	longNames        map[string]string
	inherited        []inherited
	strs             []string
	regions          []region
	parts            []*part
	arcs             []arc
	arcCost          []uint64 // arc*nev + event: inclusive cost of the calls
	outCalls         []uint64 // region*nev: cost of calls made by the region
	inCalls          []uint64 // region*nev: cost of calls into the region
	called           []bool   // per region: target of at least one call
	// signed is set when a cost is negative: costs are then int64 in
	// two's complement
	signed bool
}

// parser reads a callgrind or cachegrind file.
type parser struct {
	name   string
	lineNo int
	p      profile

	strIdx map[string]int32
	names  [3]nameTable
	region map[uint64]int32 // file<<32 | fn → region
	arcIdx map[uint64]int32 // caller<<32 | callee → arc
	// caches in front of the maps: per function name the region of the
	// file last seen with it, per caller the arcs last used
	fnCache  []regionCache
	arcCache [][]arcCache

	part     *part
	inBody   bool     // a body line of the current part was read
	colEvent []int    // event column of the current part → event index
	hasInstr bool     // positions include an instruction address
	hasLine  bool     // positions include a line number
	lastPos  [2]int64 // previous cost line's instr and line subpositions

	curObj, curFile, curFn int32
	curRegion              int32 // -1 until an fn= line
	cFile                  int32 // pending cfi/cfl, -1 if none
	cObj                   int32
	cRegion                int32 // callee of the next calls= line
	callCount              uint64
	callPending            bool
	costs                  []uint64 // scratch: one cost line's values
}

func newParser(name string) *parser {
	ps := &parser{
		name: name, strIdx: map[string]int32{}, region: map[uint64]int32{}, arcIdx: map[uint64]int32{},
		curObj: -1, curFile: -1, curFn: -1, curRegion: -1, cFile: -1, cObj: -1, cRegion: -1,
		hasLine: true,
	}
	ps.p.longNames = map[string]string{}
	ps.curFile = ps.str(nil) // the file of functions before any fl= line
	return ps
}

func (ps *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", ps.name, ps.lineNo, fmt.Sprintf(format, args...))
}

// parse reads the whole input, a block at a time.
func (ps *parser) parse(r io.Reader) (*profile, error) {
	buf := make([]byte, 1<<20)
	start, end := 0, 0
	for eof := false; !eof; {
		if start > 0 {
			end = copy(buf, buf[start:end])
			start = 0
		}
		if end == len(buf) { // a line longer than the buffer
			buf = append(buf, make([]byte, len(buf))...)
		}
		n, err := r.Read(buf[end:])
		end += n
		if err == io.EOF {
			eof = true
		} else if err != nil {
			return nil, fmt.Errorf("%s: %w", ps.name, err)
		}
		for start < end {
			// A common cost line goes straight to addCosts.
			if plainCostLines && ps.colEvent != nil && ps.curRegion >= 0 {
				n, line, vals, pos, ok := ps.plainCostLine(buf[start:end])
				if ok && start+n < end { // the line's '\n' is in the buffer
					ps.lineNo++
					ps.inBody = true
					ps.costs, ps.lastPos = vals, pos
					if perr := ps.addCosts(vals, line); perr != nil {
						return nil, perr
					}
					start += n + 1
					continue
				}
			}
			i := bytes.IndexByte(buf[start:end], '\n')
			if i < 0 {
				if !eof {
					break
				}
				i = end - start // the last line has no end of line
			}
			ps.lineNo++
			if perr := ps.line(trimEOL(buf[start : start+i])); perr != nil {
				return nil, perr
			}
			start += i + 1
		}
	}
	if ps.callPending {
		return nil, ps.errorf("file ends after a calls= line; the cost line of the call is missing")
	}
	if ps.part == nil {
		return nil, fmt.Errorf("%s: no callgrind data (no events: line)", ps.name)
	}
	if ps.colEvent == nil {
		return nil, fmt.Errorf("%s: no events: line", ps.name)
	}
	return &ps.p, nil
}

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}

// line handles one line (without its end of line).
func (ps *parser) line(b []byte) error {
	if len(b) == 0 || b[0] == '#' {
		return nil
	}
	switch c := b[0]; {
	case c >= '0' && c <= '9' || c == '+' || c == '-' || c == '*':
		return ps.costLine(b)
	case c == ' ' || c == '\t':
		if len(bytes.TrimSpace(b)) == 0 {
			return nil
		}
		return ps.errorf("unexpected indented line %s", clip(b))
	}
	// key=value (position or association) or key: value (header)
	for i, c := range b {
		switch c {
		case '=':
			return ps.spec(b[:i], b[i+1:])
		case ':':
			return ps.header(string(b[:i]), string(bytes.TrimSpace(b[i+1:])))
		case ' ', '\t':
			return ps.errorf("malformed line %s", clip(b))
		}
	}
	return ps.errorf("malformed line %s", clip(b))
}

func clip(b []byte) string { return importer.QuoteBytes(b) }

// header handles a "key: value" line; one after body lines starts a new part.
func (ps *parser) header(key, value string) error {
	switch key {
	case "totals", "summary":
		if ps.part == nil {
			ps.newPart()
		}
		ps.part.attrs = append(ps.part.attrs, [2]string{key, value})
		if key == "summary" && ps.inBody {
			ps.part.summaryAfterBody = true // cachegrind writes it last
		}
		return nil
	case "version":
		if v, err := strconv.Atoi(strings.TrimSpace(value)); err != nil || v > 1 {
			return ps.errorf("unsupported format version %s (this reader knows version 1)", importer.Quote(value))
		}
		ps.p.version = value
		return nil
	case "creator":
		ps.p.creator = value
		return nil
	}
	if ps.part == nil || ps.inBody {
		if ps.callPending {
			return ps.errorf("a calls= line must be followed by its cost line")
		}
		ps.newPart()
	}
	switch key {
	case "positions":
		ps.hasInstr, ps.hasLine = false, false
		for _, f := range strings.Fields(value) {
			switch f {
			case "instr", "addr":
				ps.hasInstr = true
			case "line":
				ps.hasLine = true
			default:
				return ps.errorf("unknown position %s in positions: line", importer.Quote(f))
			}
		}
	case "events":
		return ps.eventsLine(value)
	case "event":
		return ps.eventLine(value)
	}
	ps.part.attrs = append(ps.part.attrs, [2]string{key, value})
	return nil
}

func (ps *parser) newPart() {
	ps.part = &part{slot: map[int32]int32{}, lastRegion: -1}
	ps.p.parts = append(ps.p.parts, ps.part)
	ps.inBody = false
	ps.lastPos = [2]int64{}
}

// eventsLine maps the columns of cost lines to events, adding new events.
func (ps *parser) eventsLine(value string) error {
	fields := strings.Fields(value)
	if len(fields) == 0 {
		return ps.errorf("events: line names no event")
	}
	if len(fields) > maxEvents {
		return ps.errorf("%d events; at most %d are read", len(fields), maxEvents)
	}
	ps.colEvent = ps.colEvent[:0]
	for _, f := range fields {
		e := -1
		for i, name := range ps.p.events {
			if name == f {
				e = i
			}
		}
		if e < 0 {
			if len(ps.p.events) >= maxEvents {
				return ps.errorf("more than %d distinct events", maxEvents)
			}
			ps.addEvent(f)
			e = len(ps.p.events) - 1
		}
		for _, prev := range ps.colEvent {
			if prev == e {
				return ps.errorf("event %s listed twice", importer.Quote(f))
			}
		}
		ps.colEvent = append(ps.colEvent, e)
	}
	ps.costs = make([]uint64, 0, len(ps.colEvent))
	return nil
}

// addEvent appends an event, widening every per-event array.
func (ps *parser) addEvent(name string) {
	old := len(ps.p.events)
	ps.p.events = append(ps.p.events, name)
	nev := old + 1
	widen := func(a []uint64, n int) []uint64 {
		if old == 0 || len(a) == 0 {
			return make([]uint64, n*nev)
		}
		out := make([]uint64, n*nev)
		for i := 0; i < n; i++ {
			copy(out[i*nev:i*nev+old], a[i*old:(i+1)*old])
		}
		return out
	}
	nr := len(ps.p.regions)
	for _, pt := range ps.p.parts {
		pt.vals = widen(pt.vals, len(pt.regs))
	}
	ps.p.outCalls = widen(ps.p.outCalls, nr)
	ps.p.inCalls = widen(ps.p.inCalls, nr)
	ps.p.arcCost = widen(ps.p.arcCost, len(ps.p.arcs))
}

// eventLine reads "event: Name [= expr] [: long name]".
func (ps *parser) eventLine(value string) error {
	def, long, _ := strings.Cut(value, ":")
	name, expr, hasExpr := strings.Cut(def, "=")
	name = strings.TrimSpace(name)
	if name == "" {
		return ps.errorf("event: line without a name")
	}
	if l := strings.TrimSpace(long); l != "" {
		ps.p.longNames[name] = l
	}
	if !hasExpr {
		return nil
	}
	inh := inherited{name: name}
	for _, t := range strings.Split(expr, "+") {
		f := strings.Fields(strings.ReplaceAll(t, "*", " "))
		switch len(f) {
		case 1:
			inh.terms = append(inh.terms, term{1, f[0]})
		case 2:
			x, err := strconv.ParseFloat(f[0], 64)
			if err != nil {
				return ps.errorf("bad factor %s in the definition of event %s", importer.Quote(f[0]), importer.Quote(name))
			}
			inh.terms = append(inh.terms, term{x, f[1]})
		default:
			return ps.errorf("bad term %s in the definition of event %s", importer.Quote(strings.TrimSpace(t)), importer.Quote(name))
		}
	}
	ps.p.inherited = append(ps.p.inherited, inh)
	return nil
}

// str interns s.
func (ps *parser) str(b []byte) int32 {
	if i, ok := ps.strIdx[string(b)]; ok {
		return i
	}
	s := string(b)
	i := int32(len(ps.p.strs))
	ps.p.strs = append(ps.p.strs, s)
	ps.strIdx[s] = i
	return i
}

// lookup resolves a position name, "(id) name", "(id)" or "name", in
// context ctx.
func (ps *parser) lookup(ctx int, b []byte) (int32, error) {
	if len(b) > 1 && b[0] == '(' && b[1] >= '0' && b[1] <= '9' {
		end := bytes.IndexByte(b, ')')
		if end < 0 {
			return 0, ps.errorf("unterminated name id in %s", clip(b))
		}
		id, err := parseID(b[1:end])
		if err != nil {
			return 0, ps.errorf("bad name id in %s", clip(b))
		}
		rest := bytes.TrimLeft(b[end+1:], " \t")
		if len(rest) == 0 {
			s, ok := ps.names[ctx].get(id)
			if !ok {
				if ctx == ctxOb {
					// Old callgrind versions refer to objects before naming
					// them; the object is only an attribute.
					return ps.str([]byte("(object " + strconv.FormatUint(id, 10) + ")")), nil
				}
				return 0, ps.errorf("name id (%d) is used before it is defined", id)
			}
			return s, nil
		}
		s := ps.str(rest)
		ps.names[ctx].set(id, s)
		return s, nil
	}
	return ps.str(b), nil
}

// regionOf returns the region of file and fn, adding it when new.
func (ps *parser) regionOf(file, fn int32) int32 {
	if int(fn) < len(ps.fnCache) {
		if c := ps.fnCache[fn]; c.region > 0 && c.file == file {
			return c.region - 1
		}
	} else {
		ps.fnCache = append(ps.fnCache, make([]regionCache, int(fn)+1-len(ps.fnCache))...)
	}
	key := uint64(uint32(file))<<32 | uint64(uint32(fn))
	r, ok := ps.region[key]
	if !ok {
		r = ps.addRegion(file, fn, key)
	}
	ps.fnCache[fn] = regionCache{file: file, region: r + 1}
	return r
}

func (ps *parser) addRegion(file, fn int32, key uint64) int32 {
	r := int32(len(ps.p.regions))
	ps.p.regions = append(ps.p.regions, region{file: file, fn: fn, obj: -1})
	ps.region[key] = r
	nev := len(ps.p.events)
	ps.p.outCalls = append(ps.p.outCalls, make([]uint64, nev)...)
	ps.p.inCalls = append(ps.p.inCalls, make([]uint64, nev)...)
	ps.p.called = append(ps.p.called, false)
	return r
}

// spec handles "key=value" body lines.
func (ps *parser) spec(key, value []byte) error {
	if ps.part == nil {
		ps.newPart()
	}
	ps.inBody = true
	if ps.callPending && string(key) != "calls" {
		return ps.errorf("a calls= line must be followed by its cost line, not %s=", key)
	}
	var err error
	switch string(key) {
	case "ob":
		ps.curObj, err = ps.lookup(ctxOb, value)
	case "fl":
		ps.curFile, err = ps.lookup(ctxFl, value)
	case "fi", "fe":
		// Before the first fn= line (gprof2dot's and KCachegrind's inputs
		// have them) it only names the file, as fl= does.
		if ps.curFile, err = ps.lookup(ctxFl, value); err == nil && ps.curFn >= 0 {
			ps.setRegion()
		}
	case "fn":
		if ps.curFn, err = ps.lookup(ctxFn, value); err == nil {
			ps.setRegion()
			// as callgrind_annotate, the object of the last fn= line counts
			reg := &ps.p.regions[ps.curRegion]
			reg.defined = true
			reg.obj = ps.curObj
		}
	case "cob":
		ps.cObj, err = ps.lookup(ctxOb, value)
	case "cfi", "cfl":
		ps.cFile, err = ps.lookup(ctxFl, value)
	case "cfn":
		var fn int32
		if fn, err = ps.lookup(ctxFn, value); err == nil {
			file := ps.cFile
			if file < 0 {
				file = ps.curFile
			}
			ps.cRegion = ps.regionOf(file, fn)
			if reg := &ps.p.regions[ps.cRegion]; reg.obj < 0 {
				reg.obj = ps.cObj
				if reg.obj < 0 {
					reg.obj = ps.curObj
				}
			}
			ps.cFile, ps.cObj = -1, -1
		}
	case "calls":
		if ps.curRegion < 0 {
			return ps.errorf("calls= line before any fn= line")
		}
		if ps.cRegion < 0 {
			return ps.errorf("calls= line without a preceding cfn= line")
		}
		n, _, perr := scanNumber(bytes.TrimLeft(value, " \t"))
		if perr != nil {
			return ps.errorf("bad call count in calls=%s", clip(value))
		}
		ps.callCount, ps.callPending = n, n > 0 // as callgrind_annotate: calls=0 leaves an ordinary cost line
	case "jump", "jcnd":
		// jumps carry no cost
	case "jfi":
		_, err = ps.lookup(ctxFl, value)
	case "jfn":
		_, err = ps.lookup(ctxFn, value)
	default:
		return ps.errorf("unknown specification %s", importer.QuoteBytes(key))
	}
	return err
}

func (ps *parser) setRegion() {
	file := ps.curFile
	ps.curRegion = ps.regionOf(file, ps.curFn)
}

// costLine handles "subpositions costs…": an exclusive cost of the current
// function, or the inclusive cost of the call announced by calls=.
func (ps *parser) costLine(b []byte) error {
	if ps.colEvent == nil {
		return ps.errorf("cost line before the events: line")
	}
	if ps.curRegion < 0 {
		return ps.errorf("cost line before any fn= line")
	}
	ps.inBody = true
	if plainCostLines {
		if n, line, vals, pos, ok := ps.plainCostLine(b); ok && n == len(b) {
			ps.costs, ps.lastPos = vals, pos
			return ps.addCosts(vals, line)
		}
	}
	rest, line, err := ps.positions(b)
	if err != nil {
		return err
	}
	// the values of the columns, parsed with a fast path for decimals
	cols := ps.colEvent
	vals := ps.costs[:0]
	for i := 0; i < len(rest); {
		if c := rest[i]; c == ' ' || c == '\t' {
			i++
			continue
		}
		if len(vals) == len(cols) {
			return ps.errorf("more costs than the %d events of the events: line", len(cols))
		}
		j := i
		var v uint64
		for j < len(rest) && j-i < 19 {
			d := rest[j] - '0'
			if d > 9 {
				break
			}
			v = v*10 + uint64(d)
			j++
		}
		if j == i || j < len(rest) && rest[j] != ' ' && rest[j] != '\t' {
			// signed (cg_diff writes negative costs), hexadecimal, 20
			// digits or malformed
			var after []byte
			var err error
			if v, after, err = ps.scanCost(rest[i:]); err != nil {
				return ps.errorf("bad cost in %s: %v", clip(b), err)
			}
			j = len(rest) - len(after)
		}
		vals = append(vals, v)
		i = j
	}
	ps.costs = vals
	return ps.addCosts(vals, line)
}

// plainCostLines enables plainCostLine (a variable for tests, which
// compare it with the general way).
var plainCostLines = true

// plainCostLine reads the common cost line at the start of b, which ends
// at the first '\n' or at the end of b, in one pass: decimal, relative
// ('+', '-') or repeated ('*') subpositions and decimal costs of at most
// 18 digits, separated by single spaces. It returns the line's length
// (without '\n'), its line number, costs and subpositions, changing
// nothing: the caller commits pos and vals. It reports false for anything
// else, which costLine then reads the general way.
func (ps *parser) plainCostLine(b []byte) (n int, line int64, vals []uint64, pos [2]int64, ok bool) {
	i := 0
	pos = ps.lastPos
	for slot := 0; slot < 2; slot++ {
		if slot == 0 && !ps.hasInstr || slot == 1 && !ps.hasLine {
			continue
		}
		if i >= len(b) || b[i] == '\n' {
			return 0, 0, nil, pos, false
		}
		c := b[i]
		if c == '*' {
			i++
		} else {
			sign := int64(0)
			switch c {
			case '+':
				sign, i = 1, i+1
			case '-':
				sign, i = -1, i+1
			}
			j := i
			var v int64
			for j < len(b) && j-i < 18 {
				d := b[j] - '0'
				if d > 9 {
					break
				}
				v = v*10 + int64(d)
				j++
			}
			if j == i {
				return 0, 0, nil, pos, false
			}
			i = j
			if sign != 0 {
				v = pos[slot] + sign*v
			}
			pos[slot] = v
		}
		if i < len(b) && b[i] != '\n' {
			if b[i] != ' ' {
				return 0, 0, nil, pos, false
			}
			i++
		}
	}
	cols := len(ps.colEvent)
	vals = ps.costs[:0]
	for i < len(b) && b[i] != '\n' {
		if len(vals) == cols {
			return 0, 0, nil, pos, false
		}
		j := i
		var v uint64
		for j < len(b) && j-i < 18 {
			d := b[j] - '0'
			if d > 9 {
				break
			}
			v = v*10 + uint64(d)
			j++
		}
		if j == i {
			return 0, 0, nil, pos, false
		}
		vals = append(vals, v)
		i = j
		if i < len(b) && b[i] != '\n' {
			if b[i] != ' ' || i+1 == len(b) || b[i+1] == '\n' {
				return 0, 0, nil, pos, false
			}
			i++
		}
	}
	if ps.hasLine {
		line = pos[1]
	}
	return i, line, vals, pos, true
}

// addCosts adds one cost line's values: to the current function, or to
// the call announced by calls=.
func (ps *parser) addCosts(vals []uint64, line int64) error {
	cols := ps.colEvent
	nev := len(ps.p.events)
	r := int(ps.curRegion)
	if ps.callPending {
		ps.callPending = false
		callee := int(ps.cRegion)
		ai := ps.arcOf(ps.curRegion, ps.cRegion)
		ps.p.arcs[ai].calls += ps.callCount
		acost := ps.p.arcCost[ai*nev : (ai+1)*nev]
		ps.part.calls = append(ps.part.calls, callCount{int32(callee), ps.callCount})
		ps.p.called[callee] = true
		out, in := ps.p.outCalls[r*nev:(r+1)*nev], ps.p.inCalls[callee*nev:(callee+1)*nev]
		for k, v := range vals {
			e := cols[k]
			acost[e] += v
			out[e] += v
			in[e] += v
		}
		return nil
	}
	sl := ps.part.slotOf(int32(r), nev)
	self := ps.part.vals[sl*nev : (sl+1)*nev]
	for k, v := range vals {
		self[cols[k]] += v
	}
	if line > 0 {
		if reg := &ps.p.regions[r]; reg.minLine == 0 || line < reg.minLine {
			reg.minLine = line
		}
	}
	return nil
}

// arcOf returns the index of the arc from caller to callee, adding it
// when new.
func (ps *parser) arcOf(caller, callee int32) int {
	if int(caller) >= len(ps.arcCache) {
		ps.arcCache = append(ps.arcCache, make([][]arcCache, int(caller)+1-len(ps.arcCache))...)
	}
	cache := ps.arcCache[caller]
	for _, c := range cache {
		if c.callee == callee {
			return int(c.arc)
		}
	}
	i := ps.arcMap(caller, callee)
	if len(cache) < 8 {
		ps.arcCache[caller] = append(cache, arcCache{callee, int32(i)})
	}
	return i
}

func (ps *parser) arcMap(caller, callee int32) int {
	key := uint64(uint32(caller))<<32 | uint64(uint32(callee))
	i, ok := ps.arcIdx[key]
	if !ok {
		i = int32(len(ps.p.arcs))
		ps.p.arcs = append(ps.p.arcs, arc{caller: caller, callee: callee})
		ps.p.arcCost = append(ps.p.arcCost, make([]uint64, len(ps.p.events))...)
		ps.arcIdx[key] = i
	}
	return int(i)
}

// positions reads the subpositions of a cost line and returns the rest
// of the line and the line number (0 when positions has none).
func (ps *parser) positions(b []byte) ([]byte, int64, error) {
	var line int64
	for slot := 0; slot < 2; slot++ {
		if slot == 0 && !ps.hasInstr || slot == 1 && !ps.hasLine {
			continue
		}
		for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
			b = b[1:]
		}
		if len(b) == 0 {
			return nil, 0, ps.errorf("cost line without its subpositions")
		}
		prev := ps.lastPos[slot]
		var v int64
		switch b[0] {
		case '*':
			v, b = prev, b[1:]
		case '+', '-':
			d, rest, err := scanNumber(b[1:])
			if err != nil || d > math.MaxInt64/2 {
				return nil, 0, ps.errorf("bad relative subposition in %s", clip(b))
			}
			if b[0] == '+' {
				v = prev + int64(d)
			} else {
				v = prev - int64(d)
			}
			b = rest
		default:
			d, rest, err := scanNumber(b)
			if err != nil || d > math.MaxInt64/2 {
				return nil, 0, ps.errorf("bad subposition in %s", clip(b))
			}
			v, b = int64(d), rest
		}
		if len(b) > 0 && b[0] != ' ' && b[0] != '\t' {
			return nil, 0, ps.errorf("bad subposition in %s", clip(b))
		}
		ps.lastPos[slot] = v
		if slot == 1 {
			line = v
		}
	}
	return b, line, nil
}

var errNumber = errors.New("bad number")

// scanCost reads a cost at the start of b: a number as scanNumber reads
// it, possibly signed. A negative cost (what cg_diff writes) is kept in
// two's complement, so that sums stay exact, and marks the profile as
// signed.
func (ps *parser) scanCost(b []byte) (uint64, []byte, error) {
	if len(b) > 0 && b[0] == '*' {
		return 0, b, errors.New(`"*" (same as before) compresses positions, not costs`)
	}
	neg := len(b) > 0 && b[0] == '-'
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		b = b[1:]
	}
	v, rest, err := scanNumber(b)
	if err != nil {
		return 0, b, err
	}
	if neg {
		if v > 1<<63 {
			return 0, b, errNumber
		}
		ps.p.signed = true
		v = -v
	}
	return v, rest, nil
}

// scanNumber reads a decimal or 0x-prefixed hexadecimal number at the
// start of b and returns the rest.
func scanNumber(b []byte) (uint64, []byte, error) {
	if len(b) > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X') {
		i := 2
		var v uint64
		for ; i < len(b); i++ {
			c := b[i]
			var d byte
			switch {
			case c >= '0' && c <= '9':
				d = c - '0'
			case c >= 'a' && c <= 'f':
				d = c - 'a' + 10
			case c >= 'A' && c <= 'F':
				d = c - 'A' + 10
			default:
				goto done
			}
			if v>>60 != 0 {
				return 0, b, errNumber
			}
			v = v<<4 | uint64(d)
		}
	done:
		if i == 2 {
			return 0, b, errNumber
		}
		return v, b[i:], nil
	}
	i := 0
	var v uint64
	for ; i < len(b); i++ {
		c := b[i] - '0'
		if c > 9 {
			break
		}
		if v > (math.MaxUint64-uint64(c))/10 {
			return 0, b, errNumber
		}
		v = v*10 + uint64(c)
	}
	if i == 0 || i < len(b) && b[i] != ' ' && b[i] != '\t' {
		return 0, b, errNumber
	}
	return v, b[i:], nil
}

// parseID reads a decimal name id.
func parseID(b []byte) (uint64, error) {
	if len(b) == 0 || len(b) > 18 {
		return 0, errNumber
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, errNumber
		}
		v = v*10 + uint64(c-'0')
	}
	return v, nil
}
