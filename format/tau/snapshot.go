package tau

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"cubeview/format/importer"
	"cubeview/model"
)

// XML is TAU's XML profile format in the registry of formats.
var XML = importer.Format{
	Name:   "TAU XML profile",
	Tool:   "TAU",
	Files:  "a TAU XML profile: `tauprofile.xml` (plain or gzip-compressed), or a directory of `snapshot.N.C.T` files (TAU's and Score-P's snapshot format) or one such file",
	Detect: DetectXML,
	Read:   ReadXML,
}

// DetectXML recognises a TAU XML profile by its root element, or a
// directory holding snapshot.N.C.T files.
func DetectXML(head []byte, path string) importer.Confidence {
	if head != nil {
		if IsSnapshotHead(head) {
			return importer.Certain
		}
		return importer.No
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return importer.No
	}
	for _, e := range entries {
		if !e.IsDir() && IsSnapshotName(e.Name()) {
			return importer.Likely
		}
	}
	return importer.No
}

// IsSnapshotHead reports whether head, the first bytes of a file's
// (decompressed) content, start like a TAU XML profile: a <profile_xml>
// document, as tau_snapshot, TAU_PROFILE_FORMAT=snapshot or merged, and
// Score-P's TAU snapshot writer produce.
func IsSnapshotHead(head []byte) bool {
	head = bytes.TrimPrefix(head, utf8BOM)
	head = bytes.TrimLeft(head, " \t\r\n\x00")
	if bytes.HasPrefix(head, []byte("<?xml")) {
		if end := bytes.Index(head, []byte("?>")); end >= 0 {
			head = bytes.TrimLeft(head[end+2:], " \t\r\n")
		}
	}
	return bytes.HasPrefix(head, []byte("<profile_xml>")) || bytes.HasPrefix(head, []byte("<profile_xml "))
}

var snapshotName = regexp.MustCompile(`^snapshot\.(\d+)\.(\d+)\.(\d+)(\.gz)?$`)

// IsSnapshotName reports whether name (a base name) is a snapshot file
// name, snapshot.N.C.T: one per thread (TAU) or rank (Score-P).
func IsSnapshotName(name string) bool { return snapshotName.MatchString(name) }

// snapSource is the threads of one or more TAU XML documents.
type snapSource struct {
	metrics []metricDef
	threads []thread
	data    []*snapThread // per thread column
	nameOf  []string      // the file each thread comes from
}

func (s *snapSource) threadList() []thread    { return s.threads }
func (s *snapSource) metricList() []metricDef { return s.metrics }

func (s *snapSource) load(col, k int, buf []byte, p *profile) ([]byte, error) {
	th := s.data[col]
	*p = profile{name: fmt.Sprintf("%s: thread %s, metric %s", s.nameOf[col], s.threads[col], label(s.metrics[k].name)),
		metric: s.metrics[k].name, events: p.events[:0], user: p.user[:0], meta: p.meta[:0]}
	for _, iv := range th.intervals {
		if k >= len(iv.excl) || !iv.has[k] {
			continue
		}
		p.events = append(p.events, event{name: iv.ev.name, group: iv.ev.group, calls: iv.calls, excl: iv.excl[k], incl: iv.incl[k]})
	}
	if k == 0 {
		for _, a := range th.atomics {
			p.user = append(p.user, userEvent{name: a.name, count: a.count, max: a.max, min: a.min, mean: a.mean, sumsqr: a.sumsqr})
		}
		p.meta = append(p.meta, th.meta...)
	}
	return buf, nil
}

// snapThread is what the documents hold of one thread: its metadata and
// its last profile (snapshot), which holds the totals up to its time.
type snapThread struct {
	id        string
	t         thread
	meta      []rawAttr
	intervals []*snapInterval
	byEvent   map[*snapEventDef]*snapInterval
	atomics   []snapAtomic
}

type snapInterval struct {
	ev         *snapEventDef
	calls      float64
	excl, incl []float64 // per metric of the run
	has        []bool
}

type snapAtomic struct {
	name                          []byte
	count, max, min, mean, sumsqr float64
}

type snapEventDef struct {
	name, group []byte
	// helper marks the "X => X" events Score-P's writer adds below its
	// per-region summaries (their calls and time are those of X's
	// callees): not a call path.
	helper bool
}

// snapDefs are the definitions of a thread (or, thread="*", of all
// threads of a document): ids of metrics, events and user events.
type snapDefs struct {
	metrics map[int]int // id → metric of the run
	events  map[int]*snapEventDef
	user    map[int][]byte
}

func newSnapDefs() *snapDefs {
	return &snapDefs{metrics: map[int]int{}, events: map[int]*snapEventDef{}, user: map[int][]byte{}}
}

// snapParser reads the <profile_xml> documents of one file.
type snapParser struct {
	name    string
	d       *xml.Decoder
	run     *snapRun
	unified *snapDefs
	defs    map[string]*snapDefs // per thread id
	threads map[string]*snapThread

	// The state of the element being read.
	stack              []string
	text               bytes.Buffer
	thread             *snapThread
	curDefs            *snapDefs
	curID              int
	elName, group, val []byte
	hasGroup           bool // the event being defined has a <group>
	inMetadata         bool
	metricsOfInterval  []int
}

// snapRun collects the threads and metrics of all files of a run.
type snapRun struct {
	metrics   []string
	metricIdx map[string]int
	threads   []*snapThread
	files     []string
}

func (r *snapRun) metric(name string) int {
	if i, ok := r.metricIdx[name]; ok {
		return i
	}
	r.metricIdx[name] = len(r.metrics)
	r.metrics = append(r.metrics, name)
	return len(r.metrics) - 1
}

// cleanXML replaces the bytes XML does not allow (NULs between the
// documents TAU's merged output concatenates, other control characters)
// by blanks, as ParaProf does.
type cleanXML struct{ r io.Reader }

func (c cleanXML) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i, b := range p[:n] {
		if b < 0x20 && b != '\t' && b != '\n' && b != '\r' {
			p[i] = ' '
		}
	}
	return n, err
}

func (p *snapParser) fail(format string, args ...any) error {
	line, _ := p.d.InputPos()
	return fmt.Errorf("%s:%d: %s", p.name, line, fmt.Sprintf(format, args...))
}

func attr(se xml.StartElement, name string) (string, bool) {
	for _, a := range se.Attr {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// intAttr returns the integer attribute name of element se.
func (p *snapParser) intAttr(se xml.StartElement, name string) (int, error) {
	v, ok := attr(se, name)
	if !ok {
		return 0, p.fail("<%s> without the %s attribute", label(se.Name.Local), name)
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 || n > 1<<24 {
		return 0, p.fail("<%s %s=%s>: not an id", se.Name.Local, name, importer.Quote(v))
	}
	return n, nil
}

// parse reads the file's documents.
func (p *snapParser) parse() error {
	for {
		tok, err := p.d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return fmt.Errorf("%s:%d: not well-formed XML: %s", p.name, se.Line, se.Msg)
			}
			return fmt.Errorf("%s: %w", p.name, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			err = p.start(t)
		case xml.CharData:
			if p.text.Len() < 1<<30 {
				p.text.Write(t)
			}
		case xml.EndElement:
			err = p.end(t)
		}
		if err != nil {
			return err
		}
	}
}

func (p *snapParser) parent() string {
	if len(p.stack) == 0 {
		return ""
	}
	return p.stack[len(p.stack)-1]
}

// start handles the start of an element.
func (p *snapParser) start(t xml.StartElement) error {
	el := t.Name.Local
	p.text.Reset()
	var err error
	switch el {
	case "derivedentity", "derivedprofile":
		// Statistics ParaProf can compute itself (total, mean, …).
		if err := p.d.Skip(); err != nil {
			return p.fail("%v", err)
		}
		return nil
	case "thread":
		p.thread, err = p.threadElement(t)
	case "metadata":
		p.inMetadata = p.parent() == "thread"
	case "definitions":
		p.curDefs = p.definitions(t)
	case "metric", "event", "userevent":
		if p.curDefs == nil {
			return p.fail("<%s> outside <definitions>", label(el))
		}
		p.curID, err = p.intAttr(t, "id")
		p.elName, p.group, p.hasGroup = nil, nil, false
	case "attribute":
		p.elName, p.val = nil, nil
	case "profile":
		id, _ := attr(t, "thread")
		th := p.threads[id]
		if th == nil {
			return p.fail("<profile thread=%s> of a thread no <thread> element defines", importer.Quote(id))
		}
		// A later snapshot holds the totals up to its time.
		th.intervals, th.atomics, th.byEvent = nil, nil, map[*snapEventDef]*snapInterval{}
		p.thread = th
	case "interval_data":
		err = p.intervalMetrics(t)
	case "atomic_data":
		if p.thread == nil || p.parent() != "profile" {
			return p.fail("<atomic_data> outside <profile>")
		}
	}
	p.stack = append(p.stack, el)
	return err
}

// definitions returns the definitions an element opens: of all threads
// (thread="*") or of one.
func (p *snapParser) definitions(t xml.StartElement) *snapDefs {
	id, _ := attr(t, "thread")
	if id == "*" {
		if p.unified == nil {
			p.unified = newSnapDefs()
		}
		return p.unified
	}
	if p.defs[id] == nil {
		p.defs[id] = newSnapDefs()
	}
	return p.defs[id]
}

// intervalMetrics reads the metrics an <interval_data> element lists.
func (p *snapParser) intervalMetrics(t xml.StartElement) error {
	if p.thread == nil || p.parent() != "profile" {
		return p.fail("<interval_data> outside <profile>")
	}
	ids, _ := attr(t, "metrics")
	p.metricsOfInterval = p.metricsOfInterval[:0]
	for _, f := range strings.Fields(ids) {
		id, err := strconv.Atoi(f)
		if err != nil {
			return p.fail("<interval_data metrics=%s>: not a list of metric ids", importer.Quote(ids))
		}
		m, ok := p.lookupMetric(p.thread.id, id)
		if !ok {
			return p.fail("<interval_data> of thread %s: metric id %d is not defined", label(p.thread.id), id)
		}
		p.metricsOfInterval = append(p.metricsOfInterval, m)
	}
	return nil
}

// end handles the end of an element.
func (p *snapParser) end(t xml.EndElement) error {
	el := t.Name.Local
	if len(p.stack) > 0 {
		p.stack = p.stack[:len(p.stack)-1]
	}
	defer p.text.Reset()
	switch el {
	case "name":
		switch p.parent() {
		case "metric", "event", "userevent", "attribute":
			p.elName = bytes.Clone(bytes.TrimSpace(p.text.Bytes()))
		}
	case "group":
		p.group, p.hasGroup = bytes.Clone(bytes.TrimSpace(p.text.Bytes())), true
	case "value":
		p.val = bytes.Clone(p.text.Bytes())
	case "attribute":
		if p.inMetadata && p.thread != nil {
			p.thread.setMeta(p.elName, p.val)
		}
	case "metadata":
		p.inMetadata = false
	case "metric", "event", "userevent":
		return p.define(el)
	case "interval_data":
		return p.intervals(p.thread, p.metricsOfInterval, p.text.Bytes())
	case "atomic_data":
		return p.atomics(p.thread, p.text.Bytes())
	case "definitions":
		p.curDefs = nil
	}
	return nil
}

// define adds the metric, event or user event just read.
func (p *snapParser) define(el string) error {
	if len(p.elName) == 0 {
		return p.fail("%s %d has an empty name", map[string]string{"metric": "metric", "event": "event", "userevent": "user event"}[el], p.curID)
	}
	switch el {
	case "metric":
		p.curDefs.metrics[p.curID] = p.run.metric(string(p.elName))
	case "event":
		// TAU gives every event a group; Score-P none.
		p.curDefs.events[p.curID] = &snapEventDef{name: p.elName, group: p.group, helper: !p.hasGroup && selfPair(p.elName)}
	case "userevent":
		p.curDefs.user[p.curID] = p.elName
	}
	return nil
}

// threadElement handles a <thread> element: a new thread, or metadata
// added to one defined before.
func (p *snapParser) threadElement(se xml.StartElement) (*snapThread, error) {
	id, ok := attr(se, "id")
	if !ok {
		return nil, p.fail("<thread> without the id attribute")
	}
	var t thread
	var err error
	for _, f := range []struct {
		name string
		v    *int
	}{{"node", &t.node}, {"context", &t.context}, {"thread", &t.thread}} {
		if *f.v, err = p.intAttr(se, f.name); err != nil {
			return nil, err
		}
	}
	if th := p.threads[id]; th != nil {
		if th.t != t {
			return nil, p.fail("thread %s is %s here but %s before", importer.Quote(id), t, th.t)
		}
		return th, nil
	}
	th := &snapThread{id: id, t: t, byEvent: map[*snapEventDef]*snapInterval{}}
	p.threads[id] = th
	p.run.threads = append(p.run.threads, th)
	p.run.files = append(p.run.files, p.name)
	return th, nil
}

// setMeta sets a metadata attribute, replacing an earlier value.
func (th *snapThread) setMeta(name, value []byte) {
	k, v := escapeAmp(name), escapeAmp(value)
	for i := range th.meta {
		if bytes.Equal(th.meta[i].key, k) {
			th.meta[i].value = v
			return
		}
	}
	th.meta = append(th.meta, rawAttr{k, v})
}

func (p *snapParser) lookupMetric(thread string, id int) (int, bool) {
	if d := p.defs[thread]; d != nil {
		if m, ok := d.metrics[id]; ok {
			return m, true
		}
	}
	if p.unified != nil {
		m, ok := p.unified.metrics[id]
		return m, ok
	}
	return 0, false
}

func (p *snapParser) lookupEvent(thread string, id int) *snapEventDef {
	if d := p.defs[thread]; d != nil {
		if ev := d.events[id]; ev != nil {
			return ev
		}
	}
	if p.unified != nil {
		return p.unified.events[id]
	}
	return nil
}

func (p *snapParser) lookupUser(thread string, id int) []byte {
	if d := p.defs[thread]; d != nil {
		if u := d.user[id]; u != nil {
			return u
		}
	}
	if p.unified != nil {
		return p.unified.user[id]
	}
	return nil
}

// selfPair reports whether an event name is a call path of two equal
// events, "X => X".
func selfPair(name []byte) bool {
	a, b, ok := bytes.Cut(name, []byte(pathSeparator))
	return ok && !bytes.Contains(b, []byte(pathSeparator)) && bytes.Equal(bytes.TrimSpace(a), bytes.TrimSpace(b))
}

// label returns a name from a file for a message as it is when it is
// short and printable, quoted within the bounds of importer.Quote
// otherwise.
func label(s string) string {
	if len(s) <= importer.MaxQuote {
		ok := true
		for _, r := range s {
			if r < ' ' || r == 0x7f || r == utf8.RuneError || r == '"' {
				ok = false
				break
			}
		}
		if ok {
			return s
		}
	}
	return importer.Quote(s)
}

// numberAt parses field i of a data line.
func numberAt(fields [][]byte, i int, what string) (float64, error) {
	v, ok := parseFloat(fields[i])
	if !ok {
		return 0, fmt.Errorf("%s: %s is not a number", what, importer.QuoteBytes(fields[i]))
	}
	return v, nil
}

// intervals reads an <interval_data> block: per line an event id, calls,
// subroutine calls, then exclusive and inclusive per listed metric.
func (p *snapParser) intervals(th *snapThread, metrics []int, data []byte) error {
	want := 3 + 2*len(metrics)
	line, _ := p.d.InputPos()
	line -= bytes.Count(data, []byte{'\n'})
	for _, l := range bytes.Split(data, []byte{'\n'}) {
		fields := bytes.Fields(l)
		if len(fields) == 0 {
			line++
			continue
		}
		fail := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: interval data of thread %s: %s", p.name, line, label(th.id), fmt.Sprintf(format, args...))
		}
		if len(fields) != want {
			return fail("%d fields, want %d (event id, calls, subroutine calls, exclusive and inclusive of %d metric%s)", len(fields), want, len(metrics), plural(len(metrics)))
		}
		id, err := strconv.Atoi(string(fields[0]))
		if err != nil {
			return fail("event id %s is not a number", importer.QuoteBytes(fields[0]))
		}
		ev := p.lookupEvent(th.id, id)
		if ev == nil {
			return fail("event id %d is not defined", id)
		}
		if ev.helper {
			line++
			continue
		}
		calls, err := numberAt(fields, 1, "calls")
		if err != nil {
			return fail("%v", err)
		}
		iv := th.byEvent[ev]
		if iv == nil {
			iv = &snapInterval{ev: ev}
			th.byEvent[ev] = iv
			th.intervals = append(th.intervals, iv)
		}
		iv.calls = calls
		for i, m := range metrics {
			for len(iv.excl) <= m {
				iv.excl, iv.incl, iv.has = append(iv.excl, 0), append(iv.incl, 0), append(iv.has, false)
			}
			if iv.excl[m], err = numberAt(fields, 3+2*i, "exclusive value"); err != nil {
				return fail("%v", err)
			}
			if iv.incl[m], err = numberAt(fields, 4+2*i, "inclusive value"); err != nil {
				return fail("%v", err)
			}
			iv.has[m] = true
		}
		line++
	}
	return nil
}

// atomics reads an <atomic_data> block: per line a user event id, the
// count, max, min, mean and sum of squares.
func (p *snapParser) atomics(th *snapThread, data []byte) error {
	line, _ := p.d.InputPos()
	line -= bytes.Count(data, []byte{'\n'})
	names := [...]string{"count", "maximum", "minimum", "mean", "sum of squares"}
	for _, l := range bytes.Split(data, []byte{'\n'}) {
		fields := bytes.Fields(l)
		if len(fields) == 0 {
			line++
			continue
		}
		fail := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: atomic data of thread %s: %s", p.name, line, label(th.id), fmt.Sprintf(format, args...))
		}
		if len(fields) != 6 {
			return fail("%d fields, want 6 (user event id, count, maximum, minimum, mean, sum of squares)", len(fields))
		}
		id, err := strconv.Atoi(string(fields[0]))
		if err != nil {
			return fail("user event id %s is not a number", importer.QuoteBytes(fields[0]))
		}
		name := p.lookupUser(th.id, id)
		if name == nil {
			return fail("user event id %d is not defined", id)
		}
		var v [5]float64
		for i := range v {
			if v[i], err = numberAt(fields, i+1, names[i]); err != nil {
				return fail("%v", err)
			}
		}
		th.atomics = append(th.atomics, snapAtomic{name: name, count: v[0], max: v[1], min: v[2], mean: v[3], sumsqr: v[4]})
		line++
	}
	return nil
}

// parseSnapshot adds the documents of one file's content to run.
func parseSnapshot(data []byte, name string, run *snapRun) error {
	data = bytes.TrimPrefix(data, utf8BOM)
	d := xml.NewDecoder(cleanXML{bytes.NewReader(data)})
	d.Strict = true
	p := &snapParser{name: name, d: d, run: run, defs: map[string]*snapDefs{}, threads: map[string]*snapThread{}}
	return p.parse()
}

// newSnapSource orders the threads of run and checks them.
func newSnapSource(run *snapRun, name string) (*snapSource, error) {
	if len(run.threads) == 0 {
		return nil, fmt.Errorf("%s: no <thread> in the TAU XML profile", name)
	}
	if len(run.metrics) == 0 {
		return nil, fmt.Errorf("%s: no metric is defined in the TAU XML profile", name)
	}
	order := make([]int, len(run.threads))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		x, y := run.threads[a].t, run.threads[b].t
		return cmp.Or(x.node-y.node, x.context-y.context, x.thread-y.thread)
	})
	s := &snapSource{}
	for _, m := range run.metrics {
		s.metrics = append(s.metrics, metricDef{name: m, isTime: isTimeMetric(m)})
	}
	for i, o := range order {
		th := run.threads[o]
		if i > 0 && th.t == s.threads[i-1] {
			return nil, fmt.Errorf("%s: thread %s appears twice (%s and %s)", name, th.t, s.nameOf[i-1], run.files[o])
		}
		s.threads = append(s.threads, th.t)
		s.data = append(s.data, th)
		s.nameOf = append(s.nameOf, run.files[o])
	}
	return s, nil
}

// readSnapshot reads the experiment of one TAU XML file's content.
func readSnapshot(data []byte, name string, opts importer.Options) (*model.Experiment, error) {
	run := &snapRun{metricIdx: map[string]int{}}
	if err := parseSnapshot(data, name, run); err != nil {
		return nil, err
	}
	s, err := newSnapSource(run, name)
	if err != nil {
		return nil, err
	}
	return readRun(s, opts, fmt.Sprintf("TAU XML profile (%d threads, %d metric%s)", len(s.threads), len(s.metrics), plural(len(s.metrics))))
}

// readSnapshotDir reads the snapshot.N.C.T files of the directory at the
// root of fsys; name names it. A file that cannot be read is left out
// with a warning, unless strict.
func readSnapshotDir(fsys fs.FS, name string, opts importer.Options) (*model.Experiment, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	run := &snapRun{metricIdx: map[string]int{}}
	var warnings []string
	var firstErr error
	files := 0
	for _, e := range entries {
		if e.IsDir() || !IsSnapshotName(e.Name()) {
			continue
		}
		files++
		file := path.Join(name, e.Name())
		data, err := readFSContent(fsys, e.Name(), file)
		if err == nil {
			// A damaged file must not leave some of its threads behind.
			part := &snapRun{metricIdx: run.metricIdx, metrics: run.metrics}
			if err = parseSnapshot(data, file, part); err == nil {
				run.metrics = part.metrics
				run.threads = append(run.threads, part.threads...)
				run.files = append(run.files, part.files...)
				continue
			}
			run.metricIdx = map[string]int{}
			for i, m := range run.metrics {
				run.metricIdx[m] = i
			}
		}
		if opts.Strict {
			return nil, err
		}
		if firstErr == nil {
			firstErr = err
		}
		warnings = append(warnings, fmt.Sprintf("%v; that file's threads are left out", err))
	}
	if files == 0 {
		return nil, fmt.Errorf("%s: no TAU snapshot files (snapshot.N.C.T)", name)
	}
	if len(run.threads) == 0 && firstErr != nil {
		return nil, firstErr
	}
	s, err := newSnapSource(run, name)
	if err != nil {
		return nil, err
	}
	e, err := readRun(s, opts, fmt.Sprintf("TAU XML snapshot profiles (%d files, %d threads, %d metric%s)", files, len(s.threads), len(s.metrics), plural(len(s.metrics))))
	if err != nil {
		return nil, err
	}
	e.Warnings = append(warnings, e.Warnings...)
	return e, nil
}

// ReadXML reads a TAU XML profile: the file at path (tauprofile.xml,
// plain or gzip-compressed) or, for a directory or a snapshot.N.C.T file,
// the directory's snapshot files. Each thread's last snapshot holds its
// values; derived statistics (total, mean, …) are left out. Without
// opts.Strict, a snapshot file that cannot be read is left out with a
// warning naming it, its line and the problem.
func ReadXML(path string, opts importer.Options) (*model.Experiment, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return readSnapshotDir(os.DirFS(path), path, opts)
	}
	if IsSnapshotName(filepath.Base(path)) {
		dir := filepath.Dir(path)
		return readSnapshotDir(os.DirFS(dir), dir, opts)
	}
	data, err := readContent(path)
	if err != nil {
		return nil, err
	}
	return readSnapshot(data, path, opts)
}
