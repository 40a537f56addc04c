package tau

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"cubeview/format/importer"
)

// multiPrefix starts the sub-directory of each metric of a multi-metric run.
const multiPrefix = "MULTI__"

var profileName = regexp.MustCompile(`^profile\.(\d+)\.(\d+)\.(\d+)$`)

// thread identifies one profile file: TAU node, context and thread.
type thread struct{ node, context, thread int }

func (t thread) file() string {
	return fmt.Sprintf("profile.%d.%d.%d", t.node, t.context, t.thread)
}

func (t thread) String() string {
	return fmt.Sprintf("node %d, context %d, thread %d", t.node, t.context, t.thread)
}

// dirSource is a profile directory: the metric sub-directories ("" for a
// single-metric run) and the threads, in (node, context, thread) order.
type dirSource struct {
	fsys     fs.FS
	name     string
	dirs     []string
	metrics  []metricDef
	threads  []thread
	warnings []string // threads left out
}

func (d *dirSource) threadList() []thread    { return d.threads }
func (d *dirSource) metricList() []metricDef { return d.metrics }

// load reads and parses the file of thread col in metric directory k.
func (d *dirSource) load(col, k int, buf []byte, p *profile) ([]byte, error) {
	file := path.Join(d.dirs[k], d.threads[col].file())
	buf, err := readFile(d.fsys, file, buf)
	if err != nil {
		return buf, damaged(fmt.Errorf("%s: %w", path.Join(d.name, file), err))
	}
	if err := parseProfile(buf, path.Join(d.name, file), p); err != nil {
		return buf, damaged(err)
	}
	return buf, nil
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
		return buf, fmt.Errorf("%d bytes is larger than a profile file can be", size)
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

// IsProfileName reports whether name (a base name) is a TAU profile file
// name, profile.N.C.T.
func IsProfileName(name string) bool { return profileName.MatchString(name) }

// IsProfileHead reports whether head, the first bytes of a file, starts
// like a TAU profile: "<count> templated_functions".
func IsProfileHead(head []byte) bool {
	head = bytes.TrimPrefix(head, utf8BOM)
	count, rest, ok := bytes.Cut(head, []byte{' '})
	if !ok || len(count) == 0 || len(count) > 12 {
		return false
	}
	for _, c := range count {
		if c < '0' || c > '9' {
			return false
		}
	}
	return bytes.HasPrefix(rest, []byte("templated_functions"))
}

// scanDir finds the metric directories and threads of the profile
// directory at the root of fsys; name names it in errors. Threads whose
// file is missing from a metric directory, and missing threads (thread
// ids skip), are left out with a warning, or refused when strict.
func scanDir(fsys fs.FS, name string, strict bool) (*dirSource, error) {
	l := &dirSource{fsys: fsys, name: name}
	top, err := l.listMetrics()
	if err != nil {
		return nil, err
	}
	sets := make([]map[thread]bool, len(l.dirs))
	for k, d := range l.dirs {
		if sets[k], err = l.threadsIn(d, top); err != nil {
			return nil, err
		}
	}
	// The threads of the run are those with a file of every metric.
	for t := range sets[0] {
		l.threads = append(l.threads, t)
	}
	for k := range sets {
		for t := range sets[k] {
			if k > 0 && !sets[0][t] {
				l.threads = append(l.threads, t)
			}
		}
	}
	slices.SortFunc(l.threads, func(a, b thread) int {
		return cmp.Or(a.node-b.node, a.context-b.context, a.thread-b.thread)
	})
	var problems []string
	kept := l.threads[:0]
	for _, t := range l.threads {
		var missing []string
		for k, d := range l.dirs {
			if !sets[k][t] {
				missing = append(missing, path.Join(name, d, t.file()))
			}
		}
		if len(missing) == 0 {
			kept = append(kept, t)
			continue
		}
		problems = append(problems, fmt.Sprintf("%s: missing: the other metrics have %s; that thread (%s) is left out", strings.Join(missing, ", "), t.file(), t))
	}
	l.threads = kept
	problems = append(problems, l.gaps()...)
	if len(problems) > 0 && strict {
		msg, _, _ := strings.Cut(problems[0], "; ")
		return nil, errors.New(msg)
	}
	if len(l.threads) == 0 {
		return nil, fmt.Errorf("%s: no thread has a profile file of every metric", name)
	}
	l.warnings = problems
	for _, d := range l.dirs {
		m := strings.TrimPrefix(d, multiPrefix)
		l.metrics = append(l.metrics, metricDef{name: m, isTime: m == "" || isTimeMetric(m)})
	}
	return l, nil
}

// listMetrics finds the metric directories (MULTI__<metric>, or "" for
// the profile files at the top), time first (the visits come from the
// first metric), then by name; it returns the profile files at the top.
func (l *dirSource) listMetrics() (top []string, err error) {
	entries, err := fs.ReadDir(l.fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", l.name, err)
	}
	for _, e := range entries {
		switch {
		case e.IsDir() && strings.HasPrefix(e.Name(), multiPrefix):
			l.dirs = append(l.dirs, e.Name())
		case !e.IsDir() && IsProfileName(e.Name()):
			top = append(top, e.Name())
		}
	}
	if len(l.dirs) == 0 {
		if len(top) == 0 {
			return nil, fmt.Errorf("%s: no TAU profile files (profile.N.C.T, or MULTI__<metric>/profile.N.C.T)", l.name)
		}
		l.dirs = []string{""}
	}
	slices.SortFunc(l.dirs, func(a, b string) int {
		ta, tb := isTimeMetric(strings.TrimPrefix(a, multiPrefix)), isTimeMetric(strings.TrimPrefix(b, multiPrefix))
		if ta != tb {
			if ta {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	return top, nil
}

// threadsIn returns the threads of the profile files of metric directory
// d (top for "").
func (l *dirSource) threadsIn(d string, top []string) (map[thread]bool, error) {
	files := top
	if d != "" {
		es, err := fs.ReadDir(l.fsys, d)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path.Join(l.name, d), err)
		}
		files = nil
		for _, e := range es {
			if !e.IsDir() && IsProfileName(e.Name()) {
				files = append(files, e.Name())
			}
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("%s: metric directory without profile files (profile.N.C.T)", path.Join(l.name, d))
		}
	}
	set := map[thread]bool{}
	for _, f := range files {
		t, err := parseThread(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path.Join(l.name, d, f), err)
		}
		set[t] = true
	}
	return set, nil
}

// gaps names the threads missing before the ones read: contexts and
// threads of a node are numbered from 0 without gaps, and a profile file
// missing there is a thread lost.
func (l *dirSource) gaps() []string {
	var out []string
	for i, t := range l.threads {
		var want thread
		switch {
		case i == 0 || l.threads[i-1].node != t.node:
			want = thread{t.node, 0, 0}
		case l.threads[i-1].context != t.context:
			want = thread{t.node, l.threads[i-1].context + 1, 0}
		default:
			want = thread{t.node, t.context, l.threads[i-1].thread + 1}
		}
		if t != want {
			out = append(out, fmt.Sprintf("%s: %s is missing: thread ids must not skip (found %s); the run lacks that thread", path.Join(l.name, l.dirs[0], want.file()), want.file(), t.file()))
		}
	}
	return out
}

func parseThread(file string) (thread, error) {
	m := profileName.FindStringSubmatch(file)
	var t thread
	for i, p := range []*int{&t.node, &t.context, &t.thread} {
		n, err := strconv.Atoi(m[i+1])
		if err != nil || n > 1<<24 {
			return thread{}, fmt.Errorf("node, context or thread number %s out of range", importer.Quote(m[i+1]))
		}
		*p = n
	}
	return t, nil
}
