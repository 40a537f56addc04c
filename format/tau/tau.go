package tau

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"cubeview/format/importer"
	"cubeview/format/internal/build"
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
//
// Without opts.Strict, a thread whose profile file is missing or damaged
// is left out with a warning naming the file (and line) and the problem,
// and text after a complete profile is ignored with a warning.
func Read(path string, opts importer.Options) (*model.Experiment, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	dir := path
	if !st.IsDir() {
		dir = filepath.Dir(path)
	}
	return ReadFS(os.DirFS(dir), dir, opts)
}

// ReadFS reads the TAU profile directory at the root of fsys as Read
// does; name names it in error messages and is joined with the files'
// names there.
func ReadFS(fsys fs.FS, name string, opts importer.Options) (*model.Experiment, error) {
	d, err := scanDir(fsys, name, opts.Strict)
	if err != nil {
		return nil, err
	}
	e, err := readRun(d, opts, fmt.Sprintf("TAU profile (%d threads, %d metric%s)", len(d.threads), len(d.metrics), plural(len(d.metrics))))
	if err != nil {
		return nil, err
	}
	e.Warnings = append(d.warnings, e.Warnings...)
	return e, nil
}

// source supplies the profiles of one run — a profile directory, a packed
// profile, a snapshot document — one per thread and TAU metric.
type source interface {
	// threads lists the threads in (node, context, thread) order: the
	// data columns.
	threadList() []thread
	// metricList lists the TAU metrics; the first holds the calls.
	metricList() []metricDef
	// load fills p with the profile of thread col and metric k, reusing
	// buf as scratch memory (the returned slice; p may point into it).
	// Calls for different threads may run concurrently.
	load(col, k int, buf []byte, p *profile) ([]byte, error)
}

// metricDef describes one TAU metric of a run.
type metricDef struct {
	// name is the metric's name, empty when the source does not say (a
	// single-metric profile directory: its files may).
	name   string
	isTime bool // values are microseconds
}

// errDamaged marks the error of a thread's profile that the reader may
// leave out, keeping the other threads.
var errDamaged = errors.New("damaged thread profile")

// damaged wraps err as a thread's damage.
func damaged(err error) error { return fmt.Errorf("%w%.0w", err, errDamaged) }

// readRun reads the experiment from src. Call paths cut at
// TAU_CALLPATH_DEPTH are suffixes of the real paths: when the paths do not
// form the call tree, the run is read again, keeping them as caller →
// callee arcs instead.
func readRun(src source, opts importer.Options, format string) (*model.Experiment, error) {
	r := newReader(src, opts, false)
	if err := r.read(); err != nil {
		if !errors.Is(err, errTruncated) {
			return nil, err
		}
		r = newReader(src, opts, true)
		if err := r.read(); err != nil {
			return nil, err
		}
	}
	e := r.experiment()
	e.Format = format
	if r.flat {
		e.Format += ", call paths cut at TAU_CALLPATH_DEPTH kept as caller → callee arcs"
	}
	build.Identify(e, "TAU", identities)
	return e, nil
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

// cinfo is what the reader keeps beside a cnode of the builder.
type cinfo struct {
	depth, rootRegion int
	path              string // the call-path event's name, "" for roots made otherwise
}

type arcKey struct{ caller, callee int }

type arcAcc struct {
	calls    float64
	incl     map[int]float64 // out index → value
	order    int
	hasCalls bool
}

// reader builds one experiment from the profiles of a source. Threads are
// loaded concurrently and applied one at a time in column order, so the
// result does not depend on scheduling.
type reader struct {
	src     source
	opts    importer.Options
	flat    bool // instrumented call paths become arcs of a call graph, not call paths
	threads []thread
	nloc    int

	metrics    []metricDef
	fileMetric []string // metric name found in the first profile of each metric
	hwCounters []bool

	// b holds the experiment being built; tree finds and makes its
	// regions and cnodes.
	b    *build.Builder
	tree *callTree

	// vals holds the values of each output (a metric to be) per cnode
	// and thread column.
	vals   *build.Rows
	outs   []outKey
	outIdx map[outKey]int
	// inclusive holds the tool's inclusive value per output of an
	// instrumented TAU metric and region, summed over locations.
	inclusive map[int][]float64
	arcs      map[arcKey]*arcAcc

	pathsSeen  bool // instrumented call paths ("a => b"), not samples
	maxPathLen int  // of instrumented call paths
	depthLimit int
	problem    string // why the call paths do not form a tree

	applied     int    // threads applied so far
	dropped     []bool // threads left out: their profile is damaged
	firstDamage error
	warnings    []string
	meta        [][]model.Attr
	meta0       map[string]string // the first thread's metadata

	plainUser   map[string][][numStats]float64
	plainOrder  []string
	ctxUser     []ctxUser
	fileScratch scratch
	valueOuts   [][2]int
	predictions []prediction
	countOuts   [2]int // outputs of visits and samples, plus 1
}

// scratch is per-profile state indexed by region, valid where stamp == gen.
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

func newReader(src source, opts importer.Options, flat bool) *reader {
	threads, metrics := src.threadList(), src.metricList()
	b := build.New("")
	r := &reader{
		src: src, opts: opts, flat: flat, threads: threads, nloc: len(threads), metrics: metrics,
		b: b, vals: build.NewRows(len(threads)),
		outIdx: map[outKey]int{}, inclusive: map[int][]float64{}, arcs: map[arcKey]*arcAcc{},
		meta: make([][]model.Attr, len(threads)), dropped: make([]bool, len(threads)),
		fileMetric: make([]string, len(metrics)), hwCounters: make([]bool, len(metrics)),
		plainUser: map[string][][numStats]float64{},
	}
	r.tree = newCallTree(b, flat, &r.fileScratch)
	return r
}

// read loads and applies every thread's profiles. A thread whose profile
// is damaged is left out with a warning (unless strict); the run fails
// when no thread remains.
func (r *reader) read() error {
	nk := len(r.metrics)
	turns := make([]chan struct{}, r.nloc+1)
	for i := range turns {
		turns[i] = make(chan struct{})
	}
	close(turns[0])
	var (
		failed   atomic.Bool
		firstErr error
		wg       sync.WaitGroup
	)
	queue := make(chan int)
	workers := min(runtime.GOMAXPROCS(0), 4, r.nloc)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bufs := make([][]byte, nk)
			ps := make([]profile, nk)
			for col := range queue {
				var err error
				for k := 0; k < nk && err == nil && !failed.Load(); k++ {
					bufs[k], err = r.src.load(col, k, bufs[k], &ps[k])
				}
				<-turns[col]
				if !failed.Load() {
					if err == nil {
						err = r.applyThread(col, ps)
					}
					if err != nil {
						err = r.damagedThread(col, err)
					}
					if err != nil {
						firstErr = err
						failed.Store(true)
					}
				}
				close(turns[col+1])
			}
		}()
	}
	for col := 0; col < r.nloc; col++ {
		queue <- col
	}
	close(queue)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	if r.applied == 0 && r.firstDamage != nil {
		return r.firstDamage
	}
	return r.finishPaths()
}

// damagedThread leaves thread col out with a warning when err is a
// thread's damage and the read is not strict; it returns the error that
// ends the read otherwise.
func (r *reader) damagedThread(col int, err error) error {
	if r.opts.Strict || !errors.Is(err, errDamaged) {
		return err
	}
	r.dropped[col] = true
	if r.firstDamage == nil {
		r.firstDamage = err
	}
	r.warnings = append(r.warnings, fmt.Sprintf("%v; that thread (%s) is left out", err, r.threads[col]))
	return nil
}

// applyThread adds the profiles of thread col, one per metric.
func (r *reader) applyThread(col int, ps []profile) error {
	for k := range ps {
		if ps[k].stray != "" && r.opts.Strict {
			return errors.New(ps[k].stray)
		}
	}
	for k := range ps {
		if ps[k].stray != "" {
			r.warnings = append(r.warnings, ps[k].stray+" (ignored)")
		}
		r.apply(col, k, &ps[k])
	}
	r.applied++
	return nil
}

func (r *reader) out(key outKey) int {
	if i, ok := r.outIdx[key]; ok {
		return i
	}
	i := r.vals.AddMetric()
	r.outs = append(r.outs, key)
	r.outIdx[key] = i
	return i
}

func (r *reader) add(o, c, col int, v float64) { r.vals.Add(o, c, col, v) }

// contextStart returns the index of the instrumented event that holds
// the samples of a sample path: the one before the first "[CONTEXT]" or
// sample event, or 0.
func contextStart(parts []string) int {
	for i, p := range parts {
		if isSampleName(p) {
			return max(i-1, 0)
		}
	}
	return 0
}

// isSampleName reports whether an event name is one of event-based
// sampling's: "[CONTEXT] …", "[SAMPLE] …", "[UNWIND] …", "[SUMMARY] …".
func isSampleName(name string) bool {
	for _, p := range []string{"[CONTEXT]", "[SAMPLE]", "[UNWIND]", "[SUMMARY]"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
