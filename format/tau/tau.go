package tau

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"cubeview/format/importer"
	"cubeview/model"
)

// Format is TAU's profile format in the registry of formats.
var Format = importer.Format{
	Name:   "TAU profile",
	Tool:   "TAU",
	Files:  "a TAU profile directory of `profile.N.C.T` files (with `MULTI__<metric>` sub-directories), or one such file",
	Detect: Detect,
	Read:   Read,
}

// Detect recognises a TAU profile: a directory (head nil) holding
// profile.N.C.T files or MULTI__<metric> sub-directories, or one such
// file (whose directory is then read), recognised by its name and first
// bytes.
func Detect(head []byte, path string) importer.Confidence {
	if head != nil {
		if IsProfileName(filepath.Base(path)) && IsProfileHead(head) {
			return importer.Certain
		}
		return importer.No
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return importer.No
	}
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), multiPrefix) || !e.IsDir() && IsProfileName(e.Name()) {
			return importer.Likely
		}
	}
	return importer.No
}

// Read reads the TAU profile directory at path, or the directory of the
// profile.N.C.T file at path.
func Read(path string, _ importer.Options) (*model.Experiment, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	dir := path
	if !st.IsDir() {
		dir = filepath.Dir(path)
	}
	return ReadFS(os.DirFS(dir), dir)
}

// ReadFS reads the TAU profile directory at the root of fsys; name names
// it in error messages and is joined with the files' names there.
func ReadFS(fsys fs.FS, name string) (*model.Experiment, error) {
	l, err := scan(fsys, name)
	if err != nil {
		return nil, err
	}
	r := newReader(fsys, name, l, false)
	if err := r.read(); err != nil {
		if !errors.Is(err, errTruncated) {
			return nil, err
		}
		// Call paths cut at TAU_CALLPATH_DEPTH are suffixes of the real
		// paths: keep them as caller → callee arcs instead.
		r = newReader(fsys, name, l, true)
		if err := r.read(); err != nil {
			return nil, err
		}
	}
	return r.experiment()
}

// errTruncated says that the call paths do not form the whole call tree.
var errTruncated = errors.New("call paths are truncated")

// Output metric kinds.
const (
	outValue   = iota // a TAU metric, instrumented events
	outSampled        // a TAU metric, event-based samples
	outVisits         // calls of instrumented events (first metric)
	outSamples        // sample counts
	outUser           // an atomic event statistic
)

// User-event statistics, each a metric.
const (
	statCount = iota
	statSum
	statMin
	statMax
	statSumSqr
	numStats
)

var statNames = [numStats]string{"count", "sum", "min", "max", "sumsqr"}

type outKey struct {
	kind int
	k    int    // TAU metric, or statistic for outUser
	name string // user event
}

type cnode struct {
	parent, region, depth int
	rootRegion            int
	path                  string // the call-path event's name, "" for roots made otherwise
}

type childKey struct{ parent, region int }

type arcKey struct{ caller, callee int }

type arcAcc struct {
	calls    float64
	sample   bool
	incl     map[int]float64 // out index → value
	order    int
	hasCalls bool
}

// reader builds one experiment from the files of a layout. Files are
// parsed concurrently and applied one at a time in (thread, metric)
// order, so the result does not depend on scheduling.
type reader struct {
	fsys fs.FS
	name string
	l    layout
	flat bool // call paths become arcs of a call graph, not call paths
	nloc int

	metrics []string // TAU metric per layout directory
	isTime  []bool

	regions   []model.Region
	regionIdx map[string]int
	hasFlat   []bool // the region's paradigm comes from its own event

	cnodes   []cnode
	childIdx map[childKey]int
	pathIdx  map[string]int
	rootOf   []int // region → root cnode or -1

	outs   []outKey
	outIdx map[outKey]int
	rows   [][][]float64 // out → cnode → row
	// inclusive holds the tool's inclusive value per TAU metric output
	// (outValue and outSampled) and region, summed over locations.
	inclusive map[int][]float64
	arcs      map[arcKey]*arcAcc

	pathsSeen   bool
	maxPathLen  int
	depthLimit  int
	problem     string // why the call paths do not form a tree
	meta        [][]model.Attr
	fileMetric  []string // metric name found in the first file of each directory
	plainUser   map[string][][numStats]float64
	plainOrder  []string
	userSeen    map[string]bool
	hwCounters  []bool
	fileScratch scratch
	valueOuts   [][2]int
	predictions []prediction
	meta0       map[string]string // thread 0's metadata
	slab        []float64         // unused rest of the current slab of rows
	countOuts   [2]int            // outputs of visits and samples, plus 1
}

// scratch is per-file state indexed by region, valid where stamp == gen.
type scratch struct {
	gen                 int
	flatStamp, endStamp []int
	firstStamp, inStamp []int
	flat                [][3]float64 // calls, excl, incl
	flatSample          []bool
	end                 [][2]float64 // calls, excl of paths ending in the region
	touched             []int
	contextUser         map[string]bool
}

func newReader(fsys fs.FS, name string, l layout, flat bool) *reader {
	r := &reader{
		fsys: fsys, name: name, l: l, flat: flat, nloc: len(l.threads),
		regionIdx: map[string]int{}, childIdx: map[childKey]int{}, pathIdx: map[string]int{},
		outIdx: map[outKey]int{}, inclusive: map[int][]float64{}, arcs: map[arcKey]*arcAcc{},
		meta: make([][]model.Attr, len(l.threads)), fileMetric: make([]string, len(l.dirs)),
		hwCounters: make([]bool, len(l.dirs)),
		plainUser:  map[string][][numStats]float64{}, userSeen: map[string]bool{},
	}
	for _, d := range l.dirs {
		m := strings.TrimPrefix(d, multiPrefix)
		r.metrics = append(r.metrics, m)
		r.isTime = append(r.isTime, m == "" || isTimeMetric(m))
	}
	return r
}

type job struct {
	i, col, k int
	file      string
}

// read parses and applies every file.
func (r *reader) read() error {
	var jobs []job
	for col, t := range r.l.threads {
		for k, d := range r.l.dirs {
			jobs = append(jobs, job{i: len(jobs), col: col, k: k, file: path.Join(d, t.file())})
		}
	}
	turns := make([]chan struct{}, len(jobs)+1)
	for i := range turns {
		turns[i] = make(chan struct{})
	}
	close(turns[0])
	var (
		failed  atomic.Bool
		firstEr error
		wg      sync.WaitGroup
	)
	queue := make(chan job)
	workers := min(runtime.GOMAXPROCS(0), 4, len(jobs))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			var p profile
			for j := range queue {
				var err error
				if !failed.Load() {
					buf, err = readFile(r.fsys, j.file, buf)
					if err == nil {
						err = parseProfile(buf, path.Join(r.name, j.file), &p)
					}
				}
				<-turns[j.i]
				if err == nil && !failed.Load() {
					err = r.apply(j, &p)
				}
				if err != nil && !failed.Load() {
					firstEr = err
					failed.Store(true)
				}
				close(turns[j.i+1])
			}
		}()
	}
	for _, j := range jobs {
		queue <- j
	}
	close(queue)
	wg.Wait()
	if firstEr != nil {
		return firstEr
	}
	return r.finishPaths()
}

// readFile reads name from fsys into buf, reusing its memory.
func readFile(fsys fs.FS, name string, buf []byte) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return buf, err
	}
	size := st.Size()
	if size > 1<<32 {
		return buf, fmt.Errorf("%s: %d bytes is larger than a profile file can be", name, size)
	}
	if int64(cap(buf)) < size+1 {
		buf = make([]byte, 0, size+size/32+512)
	}
	buf = buf[:cap(buf)]
	n := 0
	for {
		m, err := f.Read(buf[n:])
		n += m
		if err == io.EOF {
			break
		}
		if err != nil {
			return buf[:0], err
		}
		if n == len(buf) { // grew while reading
			buf = append(buf, 0)[:n]
			buf = buf[:cap(buf)]
		}
	}
	return buf[:n], nil
}

func (r *reader) out(key outKey) int {
	if i, ok := r.outIdx[key]; ok {
		return i
	}
	i := len(r.outs)
	r.outs = append(r.outs, key)
	r.outIdx[key] = i
	r.rows = append(r.rows, nil) // grown by row as cnodes get values
	return i
}

func (r *reader) row(o, c int) []float64 {
	rows := r.rows[o]
	if c >= len(rows) {
		for len(rows) <= c {
			rows = append(rows, nil)
		}
		r.rows[o] = rows
	}
	if rows[c] == nil {
		if len(r.slab) < r.nloc {
			// Rows come from slabs of consecutive rows: a file's events
			// then write memory in a regular stride the processor
			// prefetches.
			r.slab = make([]float64, 32*r.nloc)
		}
		rows[c], r.slab = r.slab[:r.nloc:r.nloc], r.slab[r.nloc:]
	}
	return rows[c]
}

func (r *reader) add(o, c, col int, v float64) {
	if v != 0 {
		r.row(o, c)[col] += v
	}
}

// reserve makes room for about as many regions and cnodes as the first
// file has events of each kind, so that growing the tables does not leave
// garbage behind.
func (r *reader) reserve(n, cnodes int) {
	n, cnodes = min(n, 1<<20), min(cnodes, 1<<20)
	r.regions = slices.Grow(r.regions, n)
	r.cnodes = slices.Grow(r.cnodes, cnodes)
	if len(r.regionIdx) == 0 && len(r.pathIdx) == 0 {
		r.regionIdx = make(map[string]int, n)
		r.pathIdx = make(map[string]int, cnodes)
		r.childIdx = make(map[childKey]int, cnodes)
	}
	r.hasFlat = slices.Grow(r.hasFlat, n)
	r.rootOf = slices.Grow(r.rootOf, n)
	s := &r.fileScratch
	s.flatStamp = slices.Grow(s.flatStamp, n)
	s.endStamp = slices.Grow(s.endStamp, n)
	s.firstStamp = slices.Grow(s.firstStamp, n)
	s.inStamp = slices.Grow(s.inStamp, n)
	s.flat = slices.Grow(s.flat, n)
	s.flatSample = slices.Grow(s.flatSample, n)
	s.end = slices.Grow(s.end, n)
}

// region returns the region of a (trimmed) event name, creating it.
func (r *reader) region(name []byte) int {
	if i, ok := r.regionIdx[string(name)]; ok {
		return i
	}
	n := string(name)
	i := len(r.regions)
	reg := model.Region{ID: i, Name: n, Begin: -1, End: -1}
	if file, b, e, ok := sourceLocation(n); ok {
		reg.Module, reg.Begin, reg.End = file, b, e
	}
	reg.Paradigm, reg.Role = paradigmRole(nil, n)
	r.regions = append(r.regions, reg)
	r.regionIdx[n] = i
	r.hasFlat = append(r.hasFlat, false)
	r.rootOf = append(r.rootOf, -1)
	s := &r.fileScratch
	s.flatStamp = append(s.flatStamp, 0)
	s.endStamp = append(s.endStamp, 0)
	s.firstStamp = append(s.firstStamp, 0)
	s.inStamp = append(s.inStamp, 0)
	s.flat = append(s.flat, [3]float64{})
	s.flatSample = append(s.flatSample, false)
	s.end = append(s.end, [2]float64{})
	return i
}

// setGroup gives a region the paradigm and role of its own event's groups.
func (r *reader) setGroup(reg int, group []byte) {
	if r.hasFlat[reg] {
		return
	}
	r.hasFlat[reg] = true
	gs := groups(string(group))
	g := &r.regions[reg]
	g.Paradigm, g.Role = paradigmRole(gs, g.Name)
	if len(gs) > 0 {
		g.Attrs = append(g.Attrs, model.Attr{Key: "TAU group", Value: strings.Join(gs, "|")})
	}
}

func (r *reader) newCnode(parent, region int) int {
	c := len(r.cnodes)
	depth, root := 1, region
	if parent >= 0 {
		depth, root = r.cnodes[parent].depth+1, r.cnodes[parent].rootRegion
	}
	r.cnodes = append(r.cnodes, cnode{parent: parent, region: region, depth: depth, rootRegion: root})
	return c
}

func (r *reader) root(region int) int {
	if c := r.rootOf[region]; c >= 0 {
		return c
	}
	c := r.newCnode(-1, region)
	r.rootOf[region] = c
	return c
}

// pathCnode returns the cnode of a call path "a => b => c", creating it
// and its ancestors.
func (r *reader) pathCnode(name []byte) int {
	if c, ok := r.pathIdx[string(name)]; ok {
		return c
	}
	parts := splitPath(string(name))
	c := r.root(r.region([]byte(parts[0])))
	for _, p := range parts[1:] {
		reg := r.region([]byte(p))
		key := childKey{c, reg}
		next, ok := r.childIdx[key]
		if !ok {
			next = r.newCnode(c, reg)
			r.childIdx[key] = next
		}
		c = next
	}
	key := string(name)
	r.pathIdx[key] = c
	if r.cnodes[c].path == "" {
		r.cnodes[c].path = key
	}
	r.maxPathLen = max(r.maxPathLen, len(parts))
	return c
}

// apply adds one parsed file (thread col, metric k) to the experiment.
func (r *reader) apply(j job, p *profile) error {
	if p.hwCounters {
		r.hwCounters[j.k] = true
	}
	if r.fileMetric[j.k] == "" {
		r.fileMetric[j.k] = p.metric
	}
	if j.k == 0 {
		// Files are applied in order: thread 0's metadata are the
		// experiment's, other threads keep what differs.
		if j.col == 0 {
			r.meta[0] = attrs(p.meta)
			r.meta0 = make(map[string]string, len(r.meta[0]))
			for _, a := range r.meta[0] {
				r.meta0[a.Key] = a.Value
			}
			if v, ok := r.meta0["TAU_CALLPATH_DEPTH"]; ok {
				r.depthLimit, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		} else {
			r.meta[j.col] = r.differing(p.meta)
		}
	}
	if j.i == 0 {
		paths := 0
		for i := range p.events {
			if isPathName(p.events[i].name) {
				paths++
			}
		}
		r.reserve(len(p.events)-paths, max(paths, len(p.events)-paths))
		r.predictions = slices.Grow(r.predictions, len(p.events))
	}
	s := &r.fileScratch
	s.gen++
	s.touched = s.touched[:0]
	col, k := j.col, j.k
	for i := range p.events {
		ev := &p.events[i]
		if len(ev.name) == 0 {
			return fmt.Errorf("%s:%d: event with an empty name", path.Join(r.name, j.file), ev.line)
		}
		isPath, sample, idx := r.predict(i, ev)
		valOut := r.valueOut(k, sample)
		if !isPath {
			reg := idx
			if reg < 0 {
				reg = r.region(ev.name)
				r.remember(i, false, sample, reg)
			}
			r.setGroup(reg, ev.group)
			r.addInclusive(valOut, reg, ev.incl)
			if r.flat {
				c := r.root(reg)
				r.add(valOut, c, col, ev.excl)
				if k == 0 {
					r.add(r.callsOut(sample), c, col, ev.calls)
				}
				continue
			}
			if s.flatStamp[reg] != s.gen {
				s.flatStamp[reg] = s.gen
				s.flat[reg] = [3]float64{}
				s.touched = append(s.touched, reg)
			}
			s.flat[reg][0] += ev.calls
			s.flat[reg][1] += ev.excl
			s.flat[reg][2] += ev.incl
			s.flatSample[reg] = sample
			continue
		}
		r.pathsSeen = true
		if r.flat {
			parts := splitPath(string(ev.name))
			r.maxPathLen = max(r.maxPathLen, len(parts))
			caller, callee := r.region([]byte(parts[len(parts)-2])), r.region([]byte(parts[len(parts)-1]))
			a := r.arcs[arcKey{caller, callee}]
			if a == nil {
				a = &arcAcc{incl: map[int]float64{}, order: len(r.arcs), sample: sample}
				r.arcs[arcKey{caller, callee}] = a
			}
			if k == 0 && !sample {
				a.calls += ev.calls
				a.hasCalls = true
			}
			a.incl[valOut] += ev.incl
			continue
		}
		c := idx
		if c < 0 {
			c = r.pathCnode(ev.name)
			r.remember(i, true, sample, c)
		}
		r.add(valOut, c, col, ev.excl)
		if k == 0 {
			r.add(r.callsOut(sample), c, col, ev.calls)
		}
		last := r.cnodes[c].region
		if s.endStamp[last] != s.gen {
			s.endStamp[last] = s.gen
			s.end[last] = [2]float64{}
		}
		s.end[last][0] += ev.calls
		s.end[last][1] += ev.excl
		s.firstStamp[r.cnodes[c].rootRegion] = s.gen
		for x := c; x >= 0; x = r.cnodes[x].parent {
			s.inStamp[r.cnodes[x].region] = s.gen
		}
	}
	if !r.flat {
		if err := r.settleRoots(j, p); err != nil {
			return err
		}
	}
	if k == 0 {
		if err := r.applyUser(j, p); err != nil {
			return err
		}
	}
	return nil
}

func isPathName(name []byte) bool {
	return bytes.Contains(name, []byte(pathSeparator))
}

// valueOut returns the output of TAU metric k for instrumented or
// sampled events.
func (r *reader) valueOut(k int, sample bool) int {
	for len(r.valueOuts) <= k {
		r.valueOuts = append(r.valueOuts, [2]int{-1, -1})
	}
	s := 0
	if sample {
		s = 1
	}
	if o := r.valueOuts[k][s]; o >= 0 {
		return o
	}
	kind := outValue
	if sample {
		kind = outSampled
	}
	o := r.out(outKey{kind: kind, k: k})
	r.valueOuts[k][s] = o
	return o
}

// prediction remembers what the event at a position of the previous file
// resolved to: files of one run list their events in much the same order,
// and comparing a name with the previous one is cheaper than hashing it.
type prediction struct {
	name           string
	isPath, sample bool
	idx            int // region, or cnode of a call path (not in flat mode)
}

// predict returns whether event i is a call path and a sample and, when
// the previous file had the same name at position i, its region or cnode
// (else -1).
func (r *reader) predict(i int, ev *event) (isPath, sample bool, idx int) {
	if i < len(r.predictions) {
		p := &r.predictions[i]
		if p.name == string(ev.name) {
			if p.isPath && r.flat {
				return true, p.sample, -1
			}
			return p.isPath, p.sample, p.idx
		}
	}
	return isPathName(ev.name), bytes.Contains(ev.group, []byte("TAU_SAMPLE")), -1
}

func (r *reader) remember(i int, isPath, sample bool, idx int) {
	for len(r.predictions) <= i {
		r.predictions = append(r.predictions, prediction{idx: -1})
	}
	var key string
	if isPath {
		key = r.cnodes[idx].path
	} else {
		key = r.regions[idx].Name
	}
	r.predictions[i] = prediction{name: key, isPath: isPath, sample: sample, idx: idx}
}

// callsOut returns the output of calls (instrumented events) or sample
// counts.
func (r *reader) callsOut(sample bool) int {
	i := 0
	if sample {
		i = 1
	}
	if o := r.countOuts[i]; o > 0 {
		return o - 1
	}
	kind := outVisits
	if sample {
		kind = outSamples
	}
	o := r.out(outKey{kind: kind})
	r.countOuts[i] = o + 1
	return o
}

func (r *reader) addInclusive(o, reg int, v float64) {
	vals := r.inclusive[o]
	for len(vals) <= reg {
		vals = append(vals, 0)
	}
	vals[reg] += v
	r.inclusive[o] = vals
}

// settleRoots gives each region of a call-path file the part of its flat
// values that no call path of two or more events holds: the values of its
// top-level calls, a root of the call tree.
func (r *reader) settleRoots(j job, p *profile) error {
	s := &r.fileScratch
	for _, reg := range s.touched {
		calls, excl := s.flat[reg][0], s.flat[reg][1]
		var pathCalls, pathExcl float64
		if s.endStamp[reg] == s.gen {
			pathCalls, pathExcl = s.end[reg][0], s.end[reg][1]
		}
		remCalls, remExcl := calls-pathCalls, excl-pathExcl
		tol := 1e-9 * max(math.Abs(excl), math.Abs(pathExcl))
		if math.Abs(remExcl) <= tol {
			remExcl = 0
		}
		isRoot := s.firstStamp[reg] == s.gen || s.inStamp[reg] != s.gen
		if !isRoot && remCalls == 0 && remExcl == 0 {
			continue
		}
		if (remCalls < 0 || remExcl < 0) && r.problem == "" {
			r.problem = fmt.Sprintf("%s: the call paths ending in %q hold more than its own event", path.Join(r.name, j.file), r.regions[reg].Name)
		}
		c := r.root(reg)
		kind := outValue
		if s.flatSample[reg] {
			kind = outSampled
		}
		r.add(r.out(outKey{kind: kind, k: j.k}), c, j.col, remExcl)
		if j.k == 0 {
			r.add(r.callsOut(s.flatSample[reg]), c, j.col, remCalls)
		}
	}
	return nil
}

// finishPaths decides whether the call paths form the call tree: they do
// not when they were cut at TAU's depth limit, when paths hold more than
// an event's own values, or when a region that calls others was never
// called at the top level.
func (r *reader) finishPaths() error {
	if r.flat || !r.pathsSeen {
		return nil
	}
	if r.depthLimit > 0 && r.maxPathLen >= r.depthLimit {
		return errTruncated
	}
	if r.problem != "" {
		return errTruncated
	}
	hasChildren := make([]bool, len(r.cnodes))
	for _, c := range r.cnodes {
		if c.parent >= 0 {
			hasChildren[c.parent] = true
		}
	}
	visits, hasVisits := r.outIdx[outKey{kind: outVisits}]
	if !hasVisits {
		return nil
	}
	for reg, c := range r.rootOf {
		if c < 0 || !hasChildren[c] || r.hasSampleGroup(reg) {
			continue
		}
		if c >= len(r.rows[visits]) || r.rows[visits][c] == nil {
			return errTruncated
		}
	}
	return nil
}

func (r *reader) hasSampleGroup(reg int) bool {
	return r.regions[reg].Paradigm == "sampling"
}

// applyUser adds the atomic events of a file of the first metric.
func (r *reader) applyUser(j job, p *profile) error {
	s := &r.fileScratch
	if s.contextUser == nil {
		s.contextUser = map[string]bool{}
	}
	clear(s.contextUser)
	type ctxEvent struct {
		ev  *userEvent
		key string
		cn  int
	}
	var ctx []ctxEvent
	for i := range p.user {
		u := &p.user[i]
		if len(u.name) == 0 {
			return fmt.Errorf("%s:%d: user event with an empty name", path.Join(r.name, j.file), u.line)
		}
		if u.count == 0 {
			continue
		}
		if name, where, ok := r.splitContext(string(u.name)); ok {
			s.contextUser[name] = true
			var c int
			if r.flat {
				parts := splitPath(where)
				c = r.root(r.region([]byte(parts[len(parts)-1])))
			} else {
				c = r.pathCnode([]byte(where))
			}
			ctx = append(ctx, ctxEvent{u, name, c})
		}
	}
	for _, e := range ctx {
		r.addStats(e.key, e.cn, j.col, e.ev)
	}
	for i := range p.user {
		u := &p.user[i]
		if u.count == 0 {
			continue
		}
		name := string(u.name)
		if _, _, ok := r.splitContext(name); ok || s.contextUser[name] {
			continue
		}
		vals, ok := r.plainUser[name]
		if !ok {
			vals = make([][numStats]float64, r.nloc)
			r.plainUser[name] = vals
			r.plainOrder = append(r.plainOrder, name)
		}
		st := stats(u)
		acc := &vals[j.col]
		if acc[statCount] == 0 {
			*acc = st
		} else {
			combineStats(acc, st)
		}
		r.userMetrics(name)
	}
	return nil
}

// splitContext splits a context event "name : a => b" into its name and
// call path; the path must be a call path or a known event.
func (r *reader) splitContext(full string) (name, where string, ok bool) {
	i := strings.Index(full, " : ")
	if i < 0 {
		return "", "", false
	}
	name, where = strings.TrimSpace(full[:i]), strings.TrimSpace(full[i+3:])
	if where == "" || name == "" {
		return "", "", false
	}
	if strings.Contains(where, pathSeparator) {
		return name, where, true
	}
	if _, known := r.regionIdx[where]; known {
		return name, where, true
	}
	return "", "", false
}

func stats(u *userEvent) [numStats]float64 {
	return [numStats]float64{u.count, u.mean * u.count, u.min, u.max, u.sumsqr}
}

func combineStats(acc *[numStats]float64, st [numStats]float64) {
	acc[statCount] += st[statCount]
	acc[statSum] += st[statSum]
	acc[statMin] = math.Min(acc[statMin], st[statMin])
	acc[statMax] = math.Max(acc[statMax], st[statMax])
	acc[statSumSqr] += st[statSumSqr]
}

// userMetrics makes sure the outputs of user event name exist, in order.
func (r *reader) userMetrics(name string) [numStats]int {
	var outs [numStats]int
	for st := range outs {
		outs[st] = r.out(outKey{kind: outUser, k: st, name: name})
	}
	r.userSeen[name] = true
	return outs
}

func (r *reader) addStats(name string, c, col int, u *userEvent) {
	outs := r.userMetrics(name)
	st := stats(u)
	row := func(st int) []float64 { return r.row(outs[st], c) }
	first := row(statCount)[col] == 0
	row(statCount)[col] += st[statCount]
	row(statSum)[col] += st[statSum]
	row(statSumSqr)[col] += st[statSumSqr]
	if first {
		row(statMin)[col], row(statMax)[col] = st[statMin], st[statMax]
	} else {
		row(statMin)[col] = math.Min(row(statMin)[col], st[statMin])
		row(statMax)[col] = math.Max(row(statMax)[col], st[statMax])
	}
}

// differing returns the metadata that differ from thread 0's.
func (r *reader) differing(raw []rawAttr) []model.Attr {
	var out []model.Attr
	for _, a := range raw {
		v, ok := r.meta0[string(a.key)]
		if ok && bytes.IndexByte(a.key, '&') < 0 && bytes.IndexByte(a.value, '&') < 0 && v == string(a.value) {
			continue
		}
		key, val := text(a.key), text(a.value)
		if v, ok := r.meta0[key]; ok && v == val {
			continue
		}
		out = append(out, model.Attr{Key: key, Value: val})
	}
	return out
}

func attrValue(as []model.Attr, key string) (string, bool) {
	for _, a := range as {
		if a.Key == key {
			return a.Value, true
		}
	}
	return "", false
}
