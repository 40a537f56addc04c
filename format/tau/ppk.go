package tau

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"cubeview/format/importer"
	"cubeview/model"
)

// Packed is ParaProf's packed profile format in the registry of formats.
var Packed = importer.Format{
	Name:   "TAU packed profile",
	Tool:   "TAU",
	Files:  "a ParaProf packed profile (`.ppk`), as `paraprof --pack` and TAUdb write one",
	Detect: DetectPacked,
	Read:   ReadPacked,
}

// DetectPacked recognises a packed profile by its signature (in the
// decompressed content; ParaProf also reads one stored uncompressed).
func DetectPacked(head []byte, _ string) importer.Confidence {
	if head != nil && IsPackedHead(head) {
		return importer.Certain
	}
	return importer.No
}

// ppkMagic starts a packed profile: "PPK" as three big-endian UTF-16
// characters (Java's DataOutputStream.writeChar).
var ppkMagic = []byte("\x00P\x00P\x00K")

// IsPackedHead reports whether head, the first bytes of a file's
// (decompressed) content, start like a ParaProf packed profile.
func IsPackedHead(head []byte) bool { return bytes.HasPrefix(head, ppkMagic) }

// ppkSource is a ParaProf packed profile (.ppk) decoded in memory: what
// ParaProf's "pack" and TAUdb export hold of a run.
type ppkSource struct {
	name       string
	version    int
	metrics    []metricDef
	threads    []thread
	meta       [][]rawAttr // per thread column: the trial's, then the thread's own
	funcs      []ppkFunc
	userEvents [][]byte
	data       []ppkThread // per thread column
	trailing   int         // bytes after the last thread
}

type ppkFunc struct {
	name, group []byte
	// derived: ParaProf computed it from other functions (groups
	// TAU_CALLPATH_DERIVED, TAU_DERIVED: call-path suffixes, sample
	// summaries); it is not measured data.
	derived bool
}

type ppkThread struct {
	fps  []ppkFunctionProfile
	ueps []ppkUserEventProfile
}

type ppkFunctionProfile struct {
	fn          int
	calls, subr float64
	vals        []float64 // exclusive, inclusive per metric
}

type ppkUserEventProfile struct {
	ue                            int
	count, min, max, mean, sumsqr float64
}

func (s *ppkSource) threadList() []thread    { return s.threads }
func (s *ppkSource) metricList() []metricDef { return s.metrics }

// load gives the profile of thread col and metric k as the reader takes
// it from a profile file: functions become events, user events and
// metadata come with the first metric.
func (s *ppkSource) load(col, k int, buf []byte, p *profile) ([]byte, error) {
	*p = profile{name: fmt.Sprintf("%s: thread %s, metric %s", s.name, s.threads[col], label(s.metrics[k].name)),
		metric: s.metrics[k].name, events: p.events[:0], user: p.user[:0], meta: p.meta[:0]}
	for _, fp := range s.data[col].fps {
		f := &s.funcs[fp.fn]
		if f.derived {
			continue
		}
		p.events = append(p.events, event{name: f.name, group: f.group, calls: fp.calls,
			excl: fp.vals[2*k], incl: fp.vals[2*k+1]})
	}
	if k == 0 {
		for _, u := range s.data[col].ueps {
			p.user = append(p.user, userEvent{name: s.userEvents[u.ue], count: u.count, max: u.max, min: u.min, mean: u.mean, sumsqr: u.sumsqr})
		}
		p.meta = append(p.meta, s.meta[col]...)
	}
	return buf, nil
}

// ppkDecoder reads the big-endian values of Java's DataInputStream from
// a packed profile, failing with the file's name, the offset and the
// field.
type ppkDecoder struct {
	name string
	data []byte
	pos  int
	err  error
}

func (d *ppkDecoder) fail(field, format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%s: byte %d, %s: %s", d.name, d.pos, field, fmt.Sprintf(format, args...))
	}
}

func (d *ppkDecoder) bytes(n int, field string) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.data)-d.pos {
		d.fail(field, "the file ends early (truncated?)")
		return nil
	}
	b := d.data[d.pos : d.pos+n]
	d.pos += n
	return b
}

func (d *ppkDecoder) int32(field string) int {
	b := d.bytes(4, field)
	if b == nil {
		return 0
	}
	return int(int32(binary.BigEndian.Uint32(b)))
}

// count reads a number of items each at least size bytes long, refusing
// one the rest of the file cannot hold.
func (d *ppkDecoder) count(field string, size int) int {
	at := d.pos
	n := d.int32(field)
	if d.err == nil && (n < 0 || n > (len(d.data)-d.pos)/size) {
		d.pos = at
		d.fail(field, "count %d is impossible in the %d bytes that follow", n, len(d.data)-at-4)
		return 0
	}
	return n
}

// index reads an index into a table of n entries.
func (d *ppkDecoder) index(field string, n int) int {
	at := d.pos
	i := d.int32(field)
	if d.err == nil && (i < 0 || i >= n) {
		d.pos = at
		d.fail(field, "index %d is not among the %d defined", i, n)
		return 0
	}
	return i
}

// float64 reads a finite double.
func (d *ppkDecoder) float64(field string) float64 {
	at := d.pos
	b := d.bytes(8, field)
	if b == nil {
		return 0
	}
	v := math.Float64frombits(binary.BigEndian.Uint64(b))
	if math.IsNaN(v) || math.IsInf(v, 0) {
		d.pos = at
		d.fail(field, "%v is not a value", v)
		return 0
	}
	return v
}

// utf reads a string as Java's writeUTF writes it: a 16-bit length and
// modified UTF-8.
func (d *ppkDecoder) utf(field string) []byte {
	b := d.bytes(2, field)
	if b == nil {
		return nil
	}
	at := d.pos
	s := d.bytes(int(binary.BigEndian.Uint16(b)), field)
	if s == nil {
		return nil
	}
	out, ok := modifiedUTF8(s)
	if !ok {
		d.pos = at
		d.fail(field, "not modified UTF-8 text: %s", importer.QuoteBytes(s))
	}
	return out
}

// modifiedUTF8 converts Java's modified UTF-8 (NUL as C0 80, characters
// beyond the BMP as two encoded surrogates) to UTF-8.
func modifiedUTF8(s []byte) ([]byte, bool) {
	if utf8.Valid(s) {
		return s, true
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c < 0x80:
			out = append(out, c)
			i++
		case c == 0xC0 && i+1 < len(s) && s[i+1] == 0x80:
			out = append(out, 0)
			i += 2
		case c == 0xED && i+5 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xAF && s[i+3] == 0xED && s[i+4] >= 0xB0 && s[i+4] <= 0xBF:
			hi := rune(s[i+1]&0x0F)<<6 | rune(s[i+2]&0x3F)
			lo := rune(s[i+4]&0x0F)<<6 | rune(s[i+5]&0x3F)
			out = utf8.AppendRune(out, 0x10000+(hi<<10|lo))
			i += 6
		default:
			r, n := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError {
				return nil, false
			}
			out = append(out, s[i:i+n]...)
			i += n
		}
	}
	return out, true
}

// ppkCompatible is the newest packed-profile layout this reader knows;
// a file says the oldest reader layout it needs.
const ppkCompatible = 2

// decodePacked decodes the (decompressed) packed profile data; name
// names it in errors.
func decodePacked(data []byte, name string) (*ppkSource, error) {
	d := &ppkDecoder{name: name, data: data}
	if !IsPackedHead(data) {
		return nil, fmt.Errorf("%s: not a ParaProf packed profile (no PPK signature)", name)
	}
	d.pos = len(ppkMagic)
	s := &ppkSource{name: name}
	s.version = d.int32("version")
	if compatible := d.int32("compatible version"); d.err == nil && compatible > ppkCompatible {
		return nil, fmt.Errorf("%s: a packed profile of version %d that needs a reader of version %d; this reader knows version %d", name, s.version, compatible, ppkCompatible)
	}
	threadMeta := map[thread][]rawAttr{}
	var trialMeta []rawAttr
	if s.version >= 2 {
		trialMeta, threadMeta = d.metadataHeader()
	} else {
		d.bytes(d.count("header size", 1), "header")
	}
	for range d.count("number of metrics", 2) {
		m := string(d.utf("metric name"))
		s.metrics = append(s.metrics, metricDef{name: m, isTime: isTimeMetric(m)})
	}
	if d.err == nil && len(s.metrics) == 0 {
		return nil, fmt.Errorf("%s: the packed profile has no metrics", name)
	}
	groupNames := make([][]byte, d.count("number of groups", 2))
	for i := range groupNames {
		groupNames[i] = d.utf("group name")
	}
	s.funcs = make([]ppkFunc, d.count("number of functions", 6))
	for i := range s.funcs {
		s.funcs[i] = d.function(groupNames)
	}
	s.userEvents = make([][]byte, d.count("number of user events", 2))
	for i := range s.userEvents {
		if s.userEvents[i] = d.utf("user event name"); d.err == nil && len(bytes.TrimSpace(s.userEvents[i])) == 0 {
			d.fail("user event name", "user event %d has an empty name", i)
		}
	}
	s.threadData(d, trialMeta, threadMeta)
	if d.err != nil {
		return nil, d.err
	}
	s.trailing = len(data) - d.pos
	return s, nil
}

// metadataHeader reads the trial's and the threads' metadata (version 2
// and later); its declared size bounds it.
func (d *ppkDecoder) metadataHeader() ([]rawAttr, map[thread][]rawAttr) {
	size := d.count("metadata header size", 1)
	end := d.pos + size
	d.bytes(d.count("reserved header size", 1), "reserved header")
	trial := d.attrs("trial metadata")
	threads := map[thread][]rawAttr{}
	for range d.count("number of threads with metadata", 16) {
		t := d.threadID()
		threads[t] = append(threads[t], d.attrs("thread metadata")...)
	}
	if d.err == nil && d.pos > end {
		d.fail("metadata header", "the metadata take %d bytes, more than the %d the header declares", d.pos-(end-size), size)
	}
	if d.err == nil && d.pos < end {
		d.pos = end // a later version's addition
	}
	return trial, threads
}

func (d *ppkDecoder) attrs(field string) []rawAttr {
	var out []rawAttr
	for range d.count("number of "+field, 4) {
		k, v := d.utf(field+" name"), d.utf(field+" value")
		out = append(out, rawAttr{escapeAmp(k), escapeAmp(v)})
	}
	return out
}

// escapeAmp escapes the ampersands of metadata text, which rawAttr holds
// as profile files write it (XML-escaped).
func escapeAmp(b []byte) []byte {
	if bytes.IndexByte(b, '&') < 0 {
		return b
	}
	return bytes.ReplaceAll(b, []byte("&"), []byte("&amp;"))
}

func (d *ppkDecoder) threadID() thread {
	n, c, t := d.int32("node id"), d.int32("context id"), d.int32("thread id")
	if d.err == nil && (n < 0 || c < 0 || t < 0 || n > 1<<24 || c > 1<<24 || t > 1<<24) {
		d.fail("thread id", "node, context or thread %d, %d, %d out of range", n, c, t)
	}
	return thread{n, c, t}
}

func (d *ppkDecoder) function(groupNames [][]byte) ppkFunc {
	var f ppkFunc
	f.name = bytes.TrimSpace(d.utf("function name"))
	if d.err == nil && len(f.name) == 0 {
		d.fail("function name", "a function with an empty name")
	}
	var gs []string
	for range d.count("number of the function's groups", 4) {
		g := string(groupNames[d.index("group index", len(groupNames))])
		if g == "TAU_CALLPATH_DERIVED" || g == "TAU_DERIVED" {
			f.derived = true
		}
		gs = append(gs, g)
	}
	f.group = []byte(strings.Join(gs, "|"))
	return f
}

// threadData reads each thread's function and user event profiles.
func (s *ppkSource) threadData(d *ppkDecoder, trialMeta []rawAttr, threadMeta map[thread][]rawAttr) {
	nm := len(s.metrics)
	type read struct {
		t thread
		d ppkThread
	}
	var threads []read
	seen := map[thread]bool{}
	for range d.count("number of threads", 16) {
		t := d.threadID()
		if d.err == nil && seen[t] {
			d.fail("thread id", "thread %s is listed twice", t)
		}
		seen[t] = true
		var td ppkThread
		td.fps = make([]ppkFunctionProfile, d.count("number of function profiles", 20+16*nm))
		vals := make([]float64, 2*nm*len(td.fps))
		for i := range td.fps {
			fp := &td.fps[i]
			fp.fn = d.index("function index", len(s.funcs))
			fp.calls, fp.subr = d.float64("calls"), d.float64("subroutine calls")
			fp.vals = vals[2*nm*i : 2*nm*(i+1) : 2*nm*(i+1)]
			for k := range 2 * nm {
				fp.vals[k] = d.float64([2]string{"exclusive value", "inclusive value"}[k%2])
			}
		}
		td.ueps = make([]ppkUserEventProfile, d.count("number of user event profiles", 40))
		for i := range td.ueps {
			u := &td.ueps[i]
			u.ue = d.index("user event index", len(s.userEvents))
			u.count = float64(d.int32("number of samples"))
			u.min, u.max = d.float64("minimum"), d.float64("maximum")
			u.mean, u.sumsqr = d.float64("mean"), d.float64("sum of squares")
		}
		if d.err != nil {
			return
		}
		threads = append(threads, read{t, td})
	}
	if d.err == nil && len(threads) == 0 {
		d.fail("number of threads", "the packed profile has no threads")
		return
	}
	slices.SortFunc(threads, func(a, b read) int {
		return cmp.Or(a.t.node-b.t.node, a.t.context-b.t.context, a.t.thread-b.t.thread)
	})
	for _, th := range threads {
		s.threads = append(s.threads, th.t)
		s.data = append(s.data, th.d)
		s.meta = append(s.meta, append(slices.Clip(trialMeta), threadMeta[th.t]...))
	}
}

// readPacked reads the experiment of a packed profile's decompressed data.
func readPacked(data []byte, name string, opts importer.Options) (*model.Experiment, error) {
	s, err := decodePacked(data, name)
	if err != nil {
		return nil, err
	}
	e, err := readRun(s, opts, fmt.Sprintf("ParaProf packed profile (TAU, %d threads, %d metric%s)", len(s.threads), len(s.metrics), plural(len(s.metrics))))
	if err != nil {
		return nil, err
	}
	if s.trailing > 0 {
		if opts.Strict {
			return nil, fmt.Errorf("%s: %d bytes after the last thread's data", name, s.trailing)
		}
		e.Warnings = append(e.Warnings, fmt.Sprintf("%s: %d bytes after the last thread's data ignored", name, s.trailing))
	}
	return e, nil
}

// ReadPacked reads the ParaProf packed profile (.ppk) at path, plain or
// gzip-compressed (within the shared decompression budget). Functions
// ParaProf derived from others (groups TAU_CALLPATH_DERIVED, TAU_DERIVED)
// are left out; the rest is read as the profile directory it was packed
// from. Without opts.Strict, bytes after the last thread are ignored with
// a warning.
func ReadPacked(path string, opts importer.Options) (*model.Experiment, error) {
	data, err := readContent(path)
	if err != nil {
		return nil, err
	}
	return readPacked(data, path, opts)
}
