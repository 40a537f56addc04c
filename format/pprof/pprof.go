package pprof

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"

	"cubeview/format/importer"
	"cubeview/format/internal/build"
	"cubeview/model"
)

// Format is pprof's profile in the registry of formats.
var Format = importer.Format{
	Name:   "pprof profile",
	Tool:   "pprof",
	Files:  "pprof profiles (protobuf `.pb.gz`, plain or compressed, and the legacy text and binary forms)",
	Detect: Detect,
	Read:   Read,
}

// Read reads the profile in the file at path.
func Read(path string, _ importer.Options) (*model.Experiment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads a pprof profile — protobuf, plain or gzip-compressed, or
// one of the legacy formats the pprof library parses — from r. name is
// used in error messages.
func Parse(r io.Reader, name string) (*model.Experiment, error) {
	data, err := readAll(r, name)
	if err != nil {
		return nil, err
	}
	p, format, err := parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	e, err := convert(p, format)
	if err == nil {
		build.Identify(e, "pprof", identities)
	}
	return e, err
}

// readAll reads the profile's bytes. Gzip-compressed data are
// decompressed twice: first only counted, within the decompression
// budget for their size (importer.Budget), so that a bomb fails without
// taking memory; then into a buffer of exactly their size. Data
// compressed twice are refused: the pprof library would decompress the
// inner layer without any bound.
func readAll(r io.Reader, name string) ([]byte, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !importer.IsGzip(raw) {
		// A text profile may start with a UTF-8 byte-order mark (never a
		// protobuf one: 0xef is no valid field key).
		return bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf")), nil
	}
	zr, err := importer.Gunzip(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	n, err := io.Copy(io.Discard, zr)
	if err != nil {
		return nil, fmt.Errorf("%s: bad gzip data after %d decompressed bytes: %w", name, n, err)
	}
	gz, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s: bad gzip data: %w", name, err)
	}
	data := make([]byte, n)
	if _, err := io.ReadFull(gz, data); err != nil {
		return nil, fmt.Errorf("%s: bad gzip data: %w", name, err)
	}
	if importer.IsGzip(data) {
		return nil, fmt.Errorf("%s: gzip-compressed twice; decompress it once (gunzip) and open the result", name)
	}
	return bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), nil
}

// parse decodes uncompressed profile data with the pprof library and
// says which kind of file it was. A panic inside the library on hostile
// input becomes an error.
func parse(data []byte) (p *profile.Profile, format string, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("malformed profile (the pprof library failed: %v)", r)
		}
	}()
	if len(data) == 0 {
		return nil, "", errors.New("empty profile")
	}
	p, err = profile.ParseUncompressed(data)
	if err == nil {
		if err = p.CheckValid(); err != nil {
			return nil, "", fmt.Errorf("malformed profile: %w", err)
		}
		return p, "pprof (protobuf)", nil
	}
	if protoProfile(data[:min(len(data), 1024)], false) {
		return nil, "", fmt.Errorf("malformed protobuf profile: %w", err)
	}
	p, err = profile.ParseData(data)
	if err != nil {
		return nil, "", err
	}
	return p, "pprof (legacy " + legacyKind(data) + ")", nil
}

func legacyKind(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("heap profile:")):
		return "heap profile"
	case bytes.HasPrefix(data, []byte("---")):
		return "text profile"
	case bytes.Contains(data[:min(len(data), 64)], []byte(" profile: total ")):
		return "count profile"
	}
	return "CPU profile"
}

// units maps a sample unit to the experiment's unit, data type and the
// factor applied to values.
func units(unit string) (cubeUnit string, dataType model.DataType, factor float64) {
	switch strings.ToLower(unit) {
	case "nanoseconds", "nanosecond", "ns":
		return "sec", model.Double, 1e-9
	case "microseconds", "microsecond", "us":
		return "sec", model.Double, 1e-6
	case "milliseconds", "millisecond", "ms":
		return "sec", model.Double, 1e-3
	case "seconds", "second", "s":
		return "sec", model.Double, 1
	case "bytes", "byte", "b":
		return "bytes", model.Int64, 1
	case "kilobytes", "kb":
		return "bytes", model.Int64, 1 << 10
	case "megabytes", "mb":
		return "bytes", model.Int64, 1 << 20
	case "gigabytes", "gb":
		return "bytes", model.Int64, 1 << 30
	case "count", "", "samples", "objects", "events":
		return "occ", model.Int64, 1
	}
	return unit, model.Double, 1
}

// threadLabels are the sample labels, string or numeric, that name the
// thread (or goroutine) of a sample, in order of preference.
var threadLabels = []string{"thread", "thread_name", "thread name", "goroutine", "thread_id", "thread id", "threadid", "tid"}

// processLabels name the process of a sample.
var processLabels = []string{"pid", "process_id", "process"}

// labelOf returns sample s's value of label key, string or numeric.
func labelOf(s *profile.Sample, key string) (string, bool) {
	if v := s.Label[key]; len(v) > 0 {
		return v[0], true
	}
	if v := s.NumLabel[key]; len(v) > 0 {
		return strconv.FormatInt(v[0], 10), true
	}
	return "", false
}

// pickLabel returns the first of keys that some sample carries (present
// holds the label keys of all samples, see labelKeys).
func pickLabel(present map[string]bool, keys []string) string {
	for _, k := range keys {
		if present[k] {
			return k
		}
	}
	return ""
}

// labelKeys returns the keys of the labels, string or numeric, with a
// value that some sample carries.
func labelKeys(p *profile.Profile) map[string]bool {
	present := map[string]bool{}
	for _, s := range p.Sample {
		for k, v := range s.Label {
			if len(v) > 0 && !present[k] {
				present[k] = true
			}
		}
		for k, v := range s.NumLabel {
			if len(v) > 0 && !present[k] {
				present[k] = true
			}
		}
	}
	return present
}

// sortLabelValues orders label values numerically when all are integers,
// lexicographically otherwise; the empty value (samples without the
// label) comes first.
func sortLabelValues(vals []string) {
	numeric := true
	for _, v := range vals {
		if v == "" {
			continue
		}
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			numeric = false
			break
		}
	}
	sort.Slice(vals, func(i, j int) bool {
		a, b := vals[i], vals[j]
		if a == "" || b == "" {
			return a == "" && b != ""
		}
		if numeric {
			x, _ := strconv.ParseInt(a, 10, 64)
			y, _ := strconv.ParseInt(b, 10, 64)
			return x < y
		}
		return a < b
	})
}

// system builds the system tree: one process unless samples carry a
// process label, one thread per process unless they carry a thread label.
// It returns each sample's data column.
func system(b *build.Builder, p *profile.Profile) []int {
	present := labelKeys(p)
	procKey, threadKey := pickLabel(present, processLabels), pickLabel(present, threadLabels)
	procName := "process"
	if len(p.Mapping) > 0 && p.Mapping[0].File != "" {
		procName = filepath.Base(p.Mapping[0].File)
	}
	type pt struct{ proc, thread string }
	keyOf := func(s *profile.Sample) pt {
		var k pt
		if procKey != "" {
			k.proc, _ = labelOf(s, procKey)
		}
		if threadKey != "" {
			k.thread, _ = labelOf(s, threadKey)
		}
		return k
	}
	keys := make([]pt, len(p.Sample))
	threads := map[string]map[string]bool{}
	for i, s := range p.Sample {
		k := keyOf(s)
		keys[i] = k
		if threads[k.proc] == nil {
			threads[k.proc] = map[string]bool{}
		}
		threads[k.proc][k.thread] = true
	}
	if len(threads) == 0 {
		threads[""] = map[string]bool{"": true}
	}
	procs := make([]string, 0, len(threads))
	for k := range threads {
		procs = append(procs, k)
	}
	sortLabelValues(procs)
	m := b.TreeNode(-1, "machine", "machine")
	n := b.TreeNode(m, "node", "node")
	locOf := map[pt]int{}
	for rank, proc := range procs {
		name := procName
		if procKey != "" {
			name = procKey + " " + proc
			if proc == "" {
				name = "no " + procKey + " label"
			}
		}
		g := b.Process(n, rank, name)
		ths := make([]string, 0, len(threads[proc]))
		for t := range threads[proc] {
			ths = append(ths, t)
		}
		sortLabelValues(ths)
		for trank, t := range ths {
			name := "thread 0"
			if threadKey != "" {
				name = threadKey + " " + t
				if t == "" {
					name = "no " + threadKey + " label"
				}
			}
			locOf[pt{proc, t}] = b.Location(g, trank, "thread", name)
		}
	}
	cols := b.Columns()
	out := make([]int, len(p.Sample))
	for i, k := range keys {
		if i > 0 && k == keys[i-1] {
			out[i] = out[i-1]
			continue
		}
		out[i] = cols[locOf[k]]
	}
	return out
}

// frame is one entry of a stack, outermost first.
type frame struct {
	region int
	file   string // source file of the line, for the callee's call site
	line   int64
}

// callTree turns stacks into call paths. Regions are named as pprof names
// nodes at function granularity, so that the flat profile equals
// "pprof -top".
type callTree struct {
	b      *build.Builder
	stacks map[string]int // whole stack (location ids) → leaf cnode
	byHash map[uint64]seenStack
	key    []byte // scratch for stack keys
	// memo: (parent cnode+1, caller's line, location id) → cnode, by a
	// hash of the key; keys whose hash is taken go to memoFull
	memo     map[uint64]memoEntry
	memoFull map[[3]uint64]int
	frames   map[uint64][]frame // of locations with large ids
	// framesByID: of locations with ids below 2 × the number of
	// locations (pprof numbers them from 1)
	framesByID [][]frame
	conflict   []bool // per cnode: reached from several call sites
	empty      int    // cnode of samples without a stack, -1 if none
}

func (t *callTree) locationFrames(l *profile.Location) []frame {
	if l.ID < uint64(len(t.framesByID)) {
		if fr := t.framesByID[l.ID]; fr != nil {
			return fr
		}
	} else if fr, ok := t.frames[l.ID]; ok {
		return fr
	}
	var fr []frame
	objName := func() string {
		if l.Mapping != nil && l.Mapping.File != "" {
			return "[" + filepath.Base(l.Mapping.File) + "]"
		}
		return "<unknown>"
	}
	if len(l.Line) == 0 {
		r, _ := t.b.Region(objName(), "")
		fr = append(fr, frame{region: r})
	}
	for i := len(l.Line) - 1; i >= 0; i-- {
		ln := l.Line[i]
		name, file, start, sys := "", "", int64(0), ""
		if ln.Function != nil {
			name, sys, start = ln.Function.Name, ln.Function.SystemName, ln.Function.StartLine
			if ln.Function.Filename != "" {
				file = filepath.Clean(ln.Function.Filename)
			}
		}
		if name == "" {
			name, file = objName(), ""
		}
		r, added := t.b.Region(name, file)
		if added {
			reg := &t.b.E.Regions[r]
			reg.Paradigm, reg.Role = "sampling", "function"
			if start > 0 {
				reg.Begin = int(start)
			}
			if sys != "" && sys != name {
				reg.MangledName = sys
			}
			if i < len(l.Line)-1 {
				reg.Attrs = append(reg.Attrs, model.Attr{Key: "inlined", Value: "true"})
			}
		}
		fr = append(fr, frame{region: r, file: file, line: ln.Line})
	}
	if l.ID < uint64(len(t.framesByID)) {
		t.framesByID[l.ID] = fr
	} else {
		t.frames[l.ID] = fr
	}
	return fr
}

type memoEntry struct {
	key [3]uint64
	c   int
}

func memoHash(k [3]uint64) uint64 {
	h := k[0]*0x9E3779B97F4A7C15 ^ k[1]*0xC2B2AE3D27D4EB4F ^ k[2]*0x165667B19E3779F9
	return h ^ h>>29
}

func (t *callTree) memoGet(k [3]uint64) (int, bool) {
	e, ok := t.memo[memoHash(k)]
	if !ok {
		return 0, false
	}
	if e.key == k {
		return e.c, true
	}
	c, ok := t.memoFull[k]
	return c, ok
}

func (t *callTree) memoPut(k [3]uint64, c int) {
	h := memoHash(k)
	if e, ok := t.memo[h]; ok && e.key != k {
		t.memoFull[k] = c
		return
	}
	t.memo[h] = memoEntry{key: k, c: c}
}

// conflicts reports whether cnode c was reached from several call sites,
// growing the table to c.
func (t *callTree) conflicts(c int) bool {
	if c >= len(t.conflict) {
		t.conflict = append(t.conflict, make([]bool, c+1-len(t.conflict))...)
	}
	return t.conflict[c]
}

// leaf returns the cnode of sample s's innermost frame, creating the call
// path on the way. Samples with the same stack are common, so whole
// stacks are remembered: by a hash of the stack's location ids, checked
// against the stack of the sample that put it there, and by the whole
// stack when two stacks share a hash.
func (t *callTree) leaf(s *profile.Sample) int {
	h := stackHash(s.Location)
	if seen, ok := t.byHash[h]; ok {
		if sameStack(seen.stack, s.Location) {
			return seen.cnode
		}
		return t.leafByKey(s)
	}
	c := t.leafByKey(s)
	t.byHash[h] = seenStack{stack: s.Location, cnode: c}
	return c
}

// leafByKey is leaf keyed by the whole stack.
func (t *callTree) leafByKey(s *profile.Sample) int {
	key := t.key[:0]
	for _, l := range s.Location {
		key = binary.LittleEndian.AppendUint64(key, l.ID)
	}
	t.key = key
	if c, ok := t.stacks[string(key)]; ok {
		return c
	}
	c := t.walk(s)
	t.stacks[string(key)] = c
	return c
}

// seenStack is a stack met before and its leaf cnode.
type seenStack struct {
	stack []*profile.Location
	cnode int
}

// stackHash mixes the location ids of a stack.
func stackHash(stack []*profile.Location) uint64 {
	h := uint64(len(stack))*0x9E3779B97F4A7C15 + 1
	for _, l := range stack {
		h ^= l.ID
		h *= 0xBF58476D1CE4E5B9
		h ^= h >> 31
	}
	return h
}

func sameStack(a, b []*profile.Location) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID {
			return false
		}
	}
	return true
}

// walk builds the call path of sample s.
func (t *callTree) walk(s *profile.Sample) int {
	if len(s.Location) == 0 {
		if t.empty < 0 {
			r, _ := t.b.Region("<no stack>", "")
			t.empty, _ = t.b.Cnode(-1, r)
		}
		return t.empty
	}
	c := -1
	var caller *frame
	for i := len(s.Location) - 1; i >= 0; i-- {
		l := s.Location[i]
		key := [3]uint64{uint64(c + 1), 0, l.ID}
		if caller != nil {
			key[1] = uint64(caller.line)
		}
		fr := t.locationFrames(l)
		if next, ok := t.memoGet(key); ok {
			c = next
			caller = &fr[len(fr)-1]
			continue
		}
		for j := range fr {
			f := &fr[j]
			nc, added := t.b.Cnode(c, f.region)
			cn := &t.b.E.Cnodes[nc]
			file, line := "", -1
			if caller != nil && caller.line > 0 {
				file, line = caller.file, int(caller.line)
			}
			switch {
			case added:
				cn.CallFile, cn.CallLine = file, line
			case !t.conflicts(nc) && (cn.CallFile != file || cn.CallLine != line):
				t.conflict[nc] = true
				cn.CallFile, cn.CallLine = "", -1
			}
			c, caller = nc, f
		}
		t.memoPut(key, c)
	}
	return c
}

// convert builds the experiment of profile p.
func convert(p *profile.Profile, format string) (*model.Experiment, error) {
	if len(p.SampleType) == 0 {
		return nil, errors.New("profile has no sample types")
	}
	b := build.New(format)
	if p.PeriodType != nil && p.PeriodType.Type != "" {
		b.Attr("pprof period type", p.PeriodType.Type+"/"+p.PeriodType.Unit)
		b.Attr("pprof period", strconv.FormatInt(p.Period, 10))
	}
	if p.DurationNanos > 0 {
		b.Attr("pprof duration (ns)", strconv.FormatInt(p.DurationNanos, 10))
	}
	if p.TimeNanos > 0 {
		b.Attr("pprof time (ns since epoch)", strconv.FormatInt(p.TimeNanos, 10))
	}
	b.Attr("pprof default sample type", p.DefaultSampleType)
	b.Attr("pprof drop frames", p.DropFrames)
	b.Attr("pprof keep frames", p.KeepFrames)
	for _, c := range p.Comments {
		b.Attr("pprof comment", c)
	}

	factors := make([]float64, len(p.SampleType))
	seen := map[string]bool{}
	for i, st := range p.SampleType {
		unit, dtype, f := units(st.Unit)
		factors[i] = f
		uniq := st.Type
		if uniq == "" {
			uniq = "sample_type_" + strconv.Itoa(i)
		}
		for n := 2; seen[uniq]; n++ {
			uniq = st.Type + "/" + st.Unit
			if n > 2 {
				uniq += "#" + strconv.Itoa(n)
			}
		}
		seen[uniq] = true
		descr := fmt.Sprintf("pprof sample type %s/%s", st.Type, st.Unit)
		if f != 1 {
			descr += fmt.Sprintf(", converted to %s", unit)
		}
		b.Metric(uniq, st.Type, unit, dtype, descr)
	}

	cols := system(b, p)
	nl := len(b.E.Locations)
	vals := build.NewValues(len(p.SampleType), nl)
	t := &callTree{b: b, stacks: map[string]int{}, byHash: map[uint64]seenStack{}, framesByID: make([][]frame, 2*len(p.Location)+1), memo: map[uint64]memoEntry{}, memoFull: map[[3]uint64]int{}, frames: map[uint64][]frame{}, empty: -1}
	for i, s := range p.Sample {
		if len(s.Value) != len(p.SampleType) {
			return nil, fmt.Errorf("sample %d has %d values for %d sample types", i, len(s.Value), len(p.SampleType))
		}
		row := vals.Row(t.leaf(s))
		for m, v := range s.Value {
			row[m*nl+cols[i]] += float64(v)
		}
	}
	for m, f := range factors {
		vals.Scale(m, f)
	}
	if len(b.E.Cnodes) == 0 {
		r, _ := b.Region("<no samples>", "")
		b.Cnode(-1, r)
	}
	e := b.Finish(vals)
	return e, nil
}

// Detect recognises a pprof profile by its first bytes (decompressed,
// for a gzip-compressed file): a legacy text or binary CPU profile, or
// protobuf data whose first fields are those of a profile. Protobuf
// carries no signature, so that is a weak guess.
func Detect(head []byte, path string) importer.Confidence {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	for _, p := range legacyPrefixes {
		if bytes.HasPrefix(head, []byte(p)) {
			return importer.Certain
		}
	}
	if line, _, _ := bytes.Cut(head, []byte("\n")); bytes.Contains(line, []byte(" profile: total ")) {
		return importer.Likely
	}
	if legacyCPUHeader(head) {
		return importer.Likely
	}
	return protoConfidence(head)
}

var legacyPrefixes = []string{"heap profile:", "heap_v2/", "--- heapz", "--- contentionz", "--- contention", "--- mutex:", "--- threadz", "--- Thread"}

// legacyCPUHeader recognises the header of the gperftools binary CPU
// profile: words 0, 3, 0 or 1, period > 0, 0, in 32 or 64 bits of either
// byte order.
func legacyCPUHeader(h []byte) bool {
	for _, size := range []int{4, 8} {
		for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
			if len(h) < 5*size {
				continue
			}
			w := func(i int) uint64 {
				if size == 4 {
					return uint64(order.Uint32(h[i*4:]))
				}
				return order.Uint64(h[i*8:])
			}
			if w(0) == 0 && w(1) == 3 && w(2) <= 1 && w(3) > 0 && w(4) == 0 {
				return true
			}
		}
	}
	return false
}
