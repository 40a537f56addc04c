package hpctoolkit

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"cubeview/format/importer"
	"cubeview/format/internal/build"
	"cubeview/model"
)

// A blob is one *.db file of the sparse format, read whole, with bounds-
// checked accessors. Every failure names the file and the offset.
type blob struct {
	path string
	data []byte
	err  error // first access error; later accesses return zero values
}

func (b *blob) fail(off uint64, format string, args ...any) {
	if b.err == nil {
		b.err = fmt.Errorf("%s: at offset %#x: %s", b.path, off, fmt.Sprintf(format, args...))
	}
}

func (b *blob) bytes(off, n uint64) []byte {
	if b.err != nil {
		return nil
	}
	if off > uint64(len(b.data)) || n > uint64(len(b.data))-off {
		b.fail(off, "%d bytes needed, but the file has %d bytes", n, len(b.data))
		return nil
	}
	return b.data[off : off+n]
}

func (b *blob) u8(off uint64) uint8 {
	if s := b.bytes(off, 1); s != nil {
		return s[0]
	}
	return 0
}

func (b *blob) u16(off uint64) uint16 {
	if s := b.bytes(off, 2); s != nil {
		return binary.LittleEndian.Uint16(s)
	}
	return 0
}

func (b *blob) u32(off uint64) uint32 {
	if s := b.bytes(off, 4); s != nil {
		return binary.LittleEndian.Uint32(s)
	}
	return 0
}

func (b *blob) u64(off uint64) uint64 {
	if s := b.bytes(off, 8); s != nil {
		return binary.LittleEndian.Uint64(s)
	}
	return 0
}

func (b *blob) f64(off uint64) float64 {
	v := math.Float64frombits(b.u64(off))
	if b.err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
		b.fail(off, "value %v", v)
		return 0
	}
	return v
}

// str reads the NUL-terminated string at off (0: no string).
func (b *blob) str(off uint64) string {
	if off == 0 || b.err != nil {
		return ""
	}
	if off >= uint64(len(b.data)) {
		b.fail(off, "string pointer past the end of the file (%d bytes)", len(b.data))
		return ""
	}
	rest := b.data[off:]
	for i, c := range rest {
		if c == 0 {
			return string(rest[:i])
		}
	}
	b.fail(off, "unterminated string")
	return ""
}

// path8 reads the path of a load module or source file specification at
// p (its char* at offset 8); p 0 means none.
func (b *blob) path8(p uint64) string {
	if p == 0 {
		return ""
	}
	return b.str(b.u64(p + 8))
}

// count checks that n items of size bytes from off fit into the file.
func (b *blob) count(off, n, size uint64, what string) bool {
	if b.err != nil {
		return false
	}
	if size == 0 || n > uint64(len(b.data))/size || off > uint64(len(b.data)) || n*size > uint64(len(b.data))-off {
		b.fail(off, "%d %s of %d bytes do not fit into the file (%d bytes)", n, what, size, len(b.data))
		return false
	}
	return true
}

// readBlob reads a *.db file and checks its header and footer.
func readBlob(path, format, footer string) (*blob, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return newBlob(path, data, format, footer)
}

// newBlob checks the header and footer of a *.db file's data.
func newBlob(path string, data []byte, format, footer string) (*blob, error) {
	b := &blob{path: path, data: data}
	if len(data) < 16+8 || string(data[:10]) != "HPCTOOLKIT" {
		return nil, fmt.Errorf("%s: not an HPCToolkit database file (wrong magic)", path)
	}
	if string(data[10:14]) != format {
		return nil, fmt.Errorf("%s: format %q, want %q", path, data[10:14], format)
	}
	if data[14] != 4 {
		return nil, fmt.Errorf("%s: major version %d; this reader knows version 4", path, data[14])
	}
	if string(data[len(data)-8:]) != footer {
		return nil, fmt.Errorf("%s: truncated: the footer %q is missing", path, footer)
	}
	return b, nil
}

// section returns the pointer of header section i (0-based).
func (b *blob) section(i int) (size, ptr uint64) {
	return b.u64(0x10 + 16*uint64(i)), b.u64(0x18 + 16*uint64(i))
}

// metaMetric is one metric of meta.db with the ids of its propagated values.
type metaMetric struct {
	name      string
	point     int // propMetricId of the "point" scope, -1 if absent
	execution int // "execution" (inclusive) scope
	function  int // a transitive scope (exclusive), with its bit
	funcBit   uint
	sumStat   int // statMetricId of the sum over threads of "execution" values, -1 if none
}

// context is one node of meta.db's context tree.
type context struct {
	id          uint32
	parent      int // index in contexts, -1 for an entry point
	relation    uint8
	lexical     uint8
	propagation uint16
	function    string
	file        string
	line        int
	module      string
	offset      uint64
	entry       string // entry point's pretty name
}

// metaDB is what meta.db says.
type metaDB struct {
	title, description string
	kindNames          []string
	metrics            []metaMetric
	contexts           []context
}

func readMeta(path string) (*metaDB, error) {
	b, err := readBlob(path, "meta", "_meta.db")
	if err != nil {
		return nil, err
	}
	return parseMeta(b)
}

// parseMeta reads the sections of meta.db that the experiment needs.
func parseMeta(b *blob) (*metaDB, error) {
	m := &metaDB{}
	_, general := b.section(0)
	m.title, m.description = b.str(b.u64(general)), b.str(b.u64(general+8))

	_, names := b.section(1)
	pNames, nKinds := b.u64(names), uint64(b.u8(names+8))
	if b.count(pNames, nKinds, 8, "identifier names") {
		for i := uint64(0); i < nKinds; i++ {
			m.kindNames = append(m.kindNames, b.str(b.u64(pNames+8*i)))
		}
	}

	_, mets := b.section(2)
	pMetrics, nMetrics, szMetric := b.u64(mets), uint64(b.u32(mets+8)), uint64(b.u8(mets+0x0c))
	szInst, szSummary := uint64(b.u8(mets+0x0d)), uint64(b.u8(mets+0x0e))
	if b.count(pMetrics, nMetrics, max(szMetric, 1), "metrics") {
		// pName is the metric's canonical name: propMetricId identifies the
		// values of one name and scope, so a name must be there and be unique.
		named := map[string]uint64{}
		for i := uint64(0); i < nMetrics && b.err == nil; i++ {
			md := pMetrics + i*szMetric
			mm := metaMetric{name: b.str(b.u64(md)), point: -1, execution: -1, function: -1, sumStat: -1}
			if first, dup := named[mm.name]; b.err == nil && (mm.name == "" || dup) {
				if mm.name == "" {
					b.fail(md, "metric %d has no name", i)
				} else {
					b.fail(md, "metric %d has the name %s of metric %d; metric names must be unique", i, importer.Quote(mm.name), first)
				}
				break
			}
			named[mm.name] = i
			pInst, nInst := b.u64(md+8), uint64(b.u16(md+0x18))
			if !b.count(pInst, nInst, max(szInst, 1), "propagated sub-metrics") {
				break
			}
			for j := uint64(0); j < nInst; j++ {
				psi := pInst + j*szInst
				scope, id := b.u64(psi), int(b.u16(psi+8))
				typ, bit := b.u8(scope+8), uint(b.u8(scope+9))
				switch name := b.str(b.u64(scope)); {
				case typ == 1 || typ == 0 && name == "point":
					mm.point = id
				case typ == 2 || typ == 0 && name == "execution":
					mm.execution = id
				case typ == 3 && bit < 16:
					if mm.function < 0 || name == "function" {
						mm.function, mm.funcBit = id, bit
					}
				}
			}
			pSum, nSum := b.u64(md+0x10), uint64(b.u16(md+0x1a))
			if !b.count(pSum, nSum, max(szSummary, 1), "summary statistics") {
				break
			}
			for j := uint64(0); j < nSum; j++ {
				ss := pSum + j*szSummary
				scope := b.u64(ss)
				if b.u8(scope+8) == 2 && b.str(b.u64(ss+8)) == "$$" && b.u8(ss+0x10) == 0 {
					mm.sumStat = int(b.u16(ss + 0x12))
				}
			}
			m.metrics = append(m.metrics, mm)
		}
	}

	_, ctxSec := b.section(3)
	pEntries, nEntries, szEntry := b.u64(ctxSec), uint64(b.u16(ctxSec+8)), uint64(b.u8(ctxSec+0x0a))
	if b.count(pEntries, nEntries, max(szEntry, 1), "entry points") {
		m.readContexts(b, pEntries, nEntries, szEntry)
	}
	if b.err != nil {
		return nil, b.err
	}
	return m, nil
}

// readContexts walks the context tree from the entry points, iteratively
// and with every context visited at most once.
func (m *metaDB) readContexts(b *blob, pEntries, nEntries, szEntry uint64) {
	funcs := map[uint64][3]string{} // function pointer → name, file, module
	type span struct {
		parent   int
		ptr, end uint64
	}
	var work []span
	ids := map[uint32]bool{0: true}
	addID := func(off uint64, id uint32) bool {
		if ids[id] {
			b.fail(off, "context id %d occurs twice (or is 0)", id)
			return false
		}
		ids[id] = true
		return true
	}
	for i := uint64(0); i < nEntries && b.err == nil; i++ {
		e := pEntries + i*szEntry
		c := context{id: b.u32(e + 0x10), parent: -1, entry: b.str(b.u64(e + 0x18))}
		if c.entry == "" {
			c.entry = "entry point " + strconv.Itoa(int(b.u16(e+0x14)))
		}
		if !addID(e, c.id) {
			return
		}
		m.contexts = append(m.contexts, c)
		if sz := b.u64(e); sz > 0 {
			work = append(work, span{len(m.contexts) - 1, b.u64(e + 8), 0})
			work[len(work)-1].end = work[len(work)-1].ptr + sz
		}
	}
	maxContexts := len(b.data) / 0x20
	for len(work) > 0 && b.err == nil {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		if s.end < s.ptr || s.end > uint64(len(b.data)) {
			b.fail(s.ptr, "children array of %d bytes runs past the end of the file", s.end-s.ptr)
			return
		}
		for off := s.ptr; off < s.end && b.err == nil; {
			if len(m.contexts) >= maxContexts {
				b.fail(off, "more contexts than the file can hold: the context tree is malformed")
				return
			}
			c := context{
				id: b.u32(off + 0x10), parent: s.parent, relation: b.u8(off + 0x15),
				lexical: b.u8(off + 0x16), propagation: b.u16(off + 0x18), line: -1,
			}
			flags, nFlex := b.u8(off+0x14), uint64(b.u8(off+0x17))
			if !addID(off, c.id) {
				return
			}
			// flex sub-fields, packed in order at their natural alignment
			word, half := uint64(0), int64(-1)
			next64 := func() uint64 {
				if word >= nFlex {
					b.fail(off, "context id %d: flex data of %d words is too short", c.id, nFlex)
					return 0
				}
				v := b.u64(off + 0x20 + 8*word)
				word++
				return v
			}
			next32 := func() uint32 {
				if half >= 0 {
					v := b.u32(off + 0x20 + 8*uint64(half) + 4)
					half = -1
					return v
				}
				if word >= nFlex {
					b.fail(off, "context id %d: flex data of %d words is too short", c.id, nFlex)
					return 0
				}
				v := b.u32(off + 0x20 + 8*word)
				half = int64(word)
				word++
				return v
			}
			if flags&1 != 0 {
				fp := next64()
				f, ok := funcs[fp]
				if !ok && fp != 0 {
					f = [3]string{b.str(b.u64(fp)), b.path8(b.u64(fp + 0x18)), b.path8(b.u64(fp + 8))}
					if f[0] == "" { // an anonymous function: name it by where it is
						f[0] = fmt.Sprintf("<anonymous function at %s+%#x>", filepath.Base(f[2]), b.u64(fp+0x10))
					}
					funcs[fp] = f
				}
				c.function, c.file, c.module = f[0], f[1], f[2]
			}
			if flags&2 != 0 {
				c.file = b.path8(next64())
				c.line = int(next32())
			}
			if flags&4 != 0 {
				c.module = b.path8(next64())
				c.offset = next64()
			}
			m.contexts = append(m.contexts, c)
			if sz := b.u64(off); sz > 0 {
				p := b.u64(off + 8)
				work = append(work, span{len(m.contexts) - 1, p, p + sz})
			}
			off += 0x20 + 8*nFlex
		}
	}
}

// sparseProfile is one application thread's values in profile.db.
type sparseProfile struct {
	ids     [][3]uint64 // identifier tuple: kind, logical id, physical id
	values  map[uint32][]metricValue
	summary bool
}

type metricValue struct {
	metric uint16
	value  float64
}

func readProfiles(path string) ([]sparseProfile, error) {
	b, err := readBlob(path, "prof", "_prof.db")
	if err != nil {
		return nil, err
	}
	return parseProfiles(b)
}

// parseProfiles reads every profile of profile.db.
func parseProfiles(b *blob) ([]sparseProfile, error) {
	_, infos := b.section(0)
	pProfiles, nProfiles, szProfile := b.u64(infos), uint64(b.u32(infos+8)), uint64(b.u8(infos+0x0c))
	if !b.count(pProfiles, nProfiles, max(szProfile, 1), "profiles") {
		return nil, b.err
	}
	var out []sparseProfile
	for i := uint64(0); i < nProfiles && b.err == nil; i++ {
		pi := pProfiles + i*szProfile
		p := sparseProfile{values: map[uint32][]metricValue{}, summary: b.u32(pi+0x28)&1 != 0}
		if tup := b.u64(pi + 0x20); tup != 0 {
			n := uint64(b.u16(tup))
			if b.count(tup+8, n, 16, "identifiers") {
				for j := uint64(0); j < n; j++ {
					id := tup + 8 + 16*j
					p.ids = append(p.ids, [3]uint64{uint64(b.u8(id)), uint64(b.u32(id + 4)), b.u64(id + 8)})
				}
			}
		}
		nValues, pValues := b.u64(pi), b.u64(pi+8)
		nCtxs, pIdx := uint64(b.u32(pi+0x10)), b.u64(pi+0x18)
		if !b.count(pValues, nValues, 10, "values") || !b.count(pIdx, nCtxs, 12, "context indices") {
			break
		}
		for k := uint64(0); k < nCtxs && b.err == nil; k++ {
			ctx, start := b.u32(pIdx+12*k), b.u64(pIdx+12*k+4)
			end := nValues
			if k+1 < nCtxs {
				end = b.u64(pIdx + 12*(k+1) + 4)
			}
			if start > end || end > nValues {
				b.fail(pIdx+12*k, "profile %d: values %d to %d of context %d are out of range (%d values)", i, start, end, ctx, nValues)
				break
			}
			vals := make([]metricValue, 0, end-start)
			for v := start; v < end; v++ {
				vals = append(vals, metricValue{b.u16(pValues + 10*v), b.f64(pValues + 10*v + 2)})
			}
			p.values[ctx] = vals
		}
		out = append(out, p)
	}
	if b.err != nil {
		return nil, b.err
	}
	return out, nil
}

// openSparse reads a database of the sparse format (version 4).
func openSparse(dir string) (*model.Experiment, error) {
	meta, err := readMeta(filepath.Join(dir, "meta.db"))
	if err != nil {
		return nil, err
	}
	profiles, err := readProfiles(filepath.Join(dir, "profile.db"))
	if err != nil {
		return nil, err
	}
	e, _ := sparseExperiment(meta, profiles)
	return e, nil
}

// sparseExperiment builds the experiment; it also returns the data column
// of each thread profile (the profiles that are not summaries, in order).
func sparseExperiment(meta *metaDB, profiles []sparseProfile) (*model.Experiment, []int) {
	b := build.New("HPCToolkit database (meta.db)")
	b.Attr("Creator", "HPCToolkit")
	b.Attr("HPCToolkit title", meta.title)

	type metricPlan struct {
		factor float64
		mm     metaMetric
	}
	var plans []metricPlan
	var names []string
	for _, mm := range meta.metrics {
		if mm.point < 0 && mm.execution < 0 && mm.function < 0 {
			continue
		}
		plans = append(plans, metricPlan{mm: mm})
		names = append(names, mm.name)
	}
	for i, n := range metricNames(names) {
		descr := "HPCToolkit metric " + names[i]
		if n.factor != 1 {
			descr += ", converted to seconds"
		}
		b.Metric(n.uniq, n.uniq, n.unit, model.Double, descr)
		plans[i].factor = n.factor
	}

	// contexts → cnodes
	idx := make(map[uint32]int, len(meta.contexts))
	cnode := make([]int, len(meta.contexts))
	children := make([][]int, len(meta.contexts))
	var roots []int
	for i, c := range meta.contexts {
		idx[c.id] = i
		if c.parent >= 0 {
			children[c.parent] = append(children[c.parent], i)
		} else {
			roots = append(roots, i)
		}
		cnode[i] = sparseCnode(b, meta, i, cnode)
	}
	var cols []int
	var threads []sparseProfile
	for _, p := range profiles {
		if !p.summary {
			threads = append(threads, p)
		}
	}
	cols = sparseSystem(b, meta, threads)
	// Each plan reads one propagated metric: the inclusive ("execution")
	// values where there are any, since profile.db also holds values of
	// contexts that meta.db leaves out of the tree (call instructions below
	// a line), which only the inclusive values of their ancestors account
	// for; else the exclusive ("function") values; else the raw ones.
	const (
		fromExecution = iota
		fromFunction
		fromPoint
	)
	kind := make([]int, len(plans))
	reads := map[uint16]int{} // propagated metric id → plan
	for m, plan := range plans {
		switch mm := plan.mm; {
		case mm.execution >= 0:
			kind[m], reads[uint16(mm.execution)] = fromExecution, m
		case mm.function >= 0:
			kind[m], reads[uint16(mm.function)] = fromFunction, m
		default:
			kind[m], reads[uint16(mm.point)] = fromPoint, m
		}
	}
	nctx := len(meta.contexts)
	vals := build.NewValues(len(plans), len(b.E.Locations))
	read := make([]float64, len(plans)*nctx) // per plan and context
	global := make([]float64, len(plans))    // the implicit global context
	globalCnode := -1
	for t, p := range threads {
		clear(read)
		clear(global)
		for id, vs := range p.values {
			i, inTree := idx[id]
			for _, v := range vs {
				m, ok := reads[v.metric]
				switch {
				case !ok:
				case id == 0:
					global[m] = v.value
				case inTree:
					read[m*nctx+i] = v.value
				}
			}
		}
		for m, plan := range plans {
			r := read[m*nctx : (m+1)*nctx]
			for i := range meta.contexts {
				v := r[i]
				switch kind[m] {
				case fromExecution:
					for _, ch := range children[i] {
						v -= r[ch]
					}
				case fromFunction:
					for _, ch := range children[i] {
						if meta.contexts[ch].propagation&(1<<plan.mm.funcBit) != 0 {
							v -= r[ch]
						}
					}
				}
				if v != 0 {
					vals.Add(cnode[i], m, cols[t], v*plan.factor)
				}
			}
			// the global context holds what its entry points propagate;
			// anything beyond that is cost of its own
			if kind[m] == fromExecution {
				g := global[m]
				for _, root := range roots {
					g -= r[root]
				}
				if math.Abs(g) > 1e-9*math.Abs(global[m]) {
					if globalCnode < 0 {
						reg, _ := b.Region("<global context>", "")
						globalCnode = b.NewCnode(-1, reg)
					}
					vals.Add(globalCnode, m, cols[t], g*plan.factor)
				}
			}
		}
	}
	if len(b.E.Cnodes) == 0 {
		r, _ := b.Region("<empty context tree>", "")
		b.NewCnode(-1, r)
	}
	return b.Finish(vals), cols
}

// sparseCnode adds the cnode of context i (whose parent's cnode is known).
func sparseCnode(b *build.Builder, meta *metaDB, i int, cnode []int) int {
	c := &meta.contexts[i]
	parent := -1
	if c.parent >= 0 {
		parent = cnode[c.parent]
	}
	var name, role string
	module := c.file
	switch {
	case c.parent < 0:
		name, role = "<"+c.entry+">", "artificial"
	case c.lexical == 0:
		name, role = c.function, "function"
		if name == "" {
			name = "<unknown function>"
		}
	case c.lexical == 1:
		name, role = fmt.Sprintf("loop at %s:%d", filepath.Base(c.file), c.line), "loop"
	case c.lexical == 2:
		name, role = fmt.Sprintf("%s:%d", filepath.Base(c.file), c.line), "statement"
	default:
		name, role = fmt.Sprintf("%s@%#x", filepath.Base(c.module), c.offset), "instruction"
		module = c.module
	}
	r, added := b.Region(name, module)
	if added {
		rg := &b.E.Regions[r]
		rg.Role = role
		if c.line > 0 && c.lexical != 0 {
			rg.Begin = c.line
			if c.lexical == 2 {
				rg.End = c.line
			}
		}
		if c.lexical == 0 && c.module != "" {
			rg.Attrs = append(rg.Attrs, model.Attr{Key: "load module", Value: c.module})
		}
	}
	cn := b.NewCnode(parent, r)
	if c.relation == 1 || c.relation == 2 {
		node := &b.E.Cnodes[cn]
		if p := c.parent; p >= 0 && meta.contexts[p].line > 0 {
			node.CallFile, node.CallLine = meta.contexts[p].file, meta.contexts[p].line
		}
		if c.relation == 2 {
			node.Attrs = append(node.Attrs, model.Attr{Key: "inlined", Value: "true"})
		}
	}
	return cn
}

// sparseSystem builds node → rank → thread or GPU stream from the
// identifier tuples and returns each profile's data column.
func sparseSystem(b *build.Builder, meta *metaDB, threads []sparseProfile) []int {
	kind := func(k uint64) string {
		if k < uint64(len(meta.kindNames)) {
			return strings.ToUpper(meta.kindNames[k])
		}
		return "KIND" + strconv.FormatUint(k, 10)
	}
	type ident struct {
		node       string
		rank       uint64
		gpu        bool
		name       string
		order      [3]uint64
		hasNode    bool
		hasRank    bool
		profileIdx int
	}
	ids := make([]ident, len(threads))
	for i, p := range threads {
		id := ident{profileIdx: i}
		var parts []string
		for _, t := range p.ids {
			switch k := kind(t[0]); k {
			case "NODE":
				id.node, id.hasNode = fmt.Sprintf("node %x", t[2]), true
			case "RANK":
				id.rank, id.hasRank = t[1], true
			case "THREAD":
				parts = append(parts, "thread "+strconv.FormatUint(t[1], 10))
				id.order[1] = t[1]
			case "GPUCONTEXT":
				id.gpu = true
				parts = append(parts, "GPU context "+strconv.FormatUint(t[1], 10))
				id.order[1] = t[1]
			case "GPUSTREAM":
				id.gpu = true
				parts = append(parts, "stream "+strconv.FormatUint(t[1], 10))
				id.order[2] = t[1]
			default:
				parts = append(parts, strings.ToLower(k)+" "+strconv.FormatUint(t[1], 10))
			}
		}
		if id.gpu {
			id.order[0] = 1
		}
		id.name = strings.Join(parts, " ")
		if id.name == "" {
			id.name = "thread"
		}
		ids[i] = id
	}
	sort.SliceStable(ids, func(i, j int) bool {
		a, c := ids[i], ids[j]
		if a.rank != c.rank {
			return a.rank < c.rank
		}
		return a.order[0] < c.order[0] || a.order[0] == c.order[0] && (a.order[1] < c.order[1] || a.order[1] == c.order[1] && a.order[2] < c.order[2])
	})
	m := b.TreeNode(-1, "machine", "machine")
	nodes := map[string]int{}
	procs := map[uint64]int{}
	count := map[int]int{}
	sys := make([]int, len(threads))
	for _, id := range ids {
		nodeName := id.node
		if !id.hasNode {
			nodeName = "node"
		}
		n, ok := nodes[nodeName]
		if !ok {
			n = b.TreeNode(m, "node", nodeName)
			nodes[nodeName] = n
		}
		g, ok := procs[id.rank]
		if !ok {
			g = b.Process(n, int(id.rank), "rank "+strconv.FormatUint(id.rank, 10))
			procs[id.rank] = g
		}
		class := "thread"
		if id.gpu {
			class = "gpu"
		}
		sys[id.profileIdx] = b.Location(g, count[g], class, id.name)
		count[g]++
	}
	if len(threads) == 0 {
		n := b.TreeNode(m, "node", "node")
		g := b.Process(n, 0, "rank 0")
		b.Location(g, 0, "thread", "no profiles")
	}
	cols := b.Columns()
	out := make([]int, len(threads))
	for i, s := range sys {
		out[i] = cols[s]
	}
	return out
}
