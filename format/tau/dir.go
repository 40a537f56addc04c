package tau

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
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
	fsys    fs.FS
	name    string
	dirs    []string
	metrics []metricDef
	threads []thread
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
// directory at the root of fsys; name names it in errors.
func scanDir(fsys fs.FS, name string) (*dirSource, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	l := &dirSource{fsys: fsys, name: name}
	var top []string
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
			return nil, fmt.Errorf("%s: no TAU profile files (profile.N.C.T, or MULTI__<metric>/profile.N.C.T)", name)
		}
		l.dirs = []string{""}
	}
	// Time first (the visits come from the first metric), then by name.
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

	var ref map[thread]bool
	for _, d := range l.dirs {
		files := top
		if d != "" {
			es, err := fs.ReadDir(fsys, d)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path.Join(name, d), err)
			}
			files = files[:0:0]
			for _, e := range es {
				if !e.IsDir() && IsProfileName(e.Name()) {
					files = append(files, e.Name())
				}
			}
			if len(files) == 0 {
				return nil, fmt.Errorf("%s: metric directory without profile files (profile.N.C.T)", path.Join(name, d))
			}
		}
		set := map[thread]bool{}
		for _, f := range files {
			t, err := parseThread(f)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path.Join(name, d, f), err)
			}
			set[t] = true
		}
		if ref == nil {
			ref = set
			for t := range set {
				l.threads = append(l.threads, t)
			}
			continue
		}
		for t := range ref {
			if !set[t] {
				return nil, fmt.Errorf("%s: missing: %s has %s but %s does not", path.Join(name, d, t.file()), l.dirs[0], t.file(), d)
			}
		}
		for t := range set {
			if !ref[t] {
				return nil, fmt.Errorf("%s: %s has %s but %s does not", path.Join(name, l.dirs[0], t.file()), d, t.file(), l.dirs[0])
			}
		}
	}
	slices.SortFunc(l.threads, func(a, b thread) int {
		if a.node != b.node {
			return a.node - b.node
		}
		if a.context != b.context {
			return a.context - b.context
		}
		return a.thread - b.thread
	})
	// Contexts and threads of a node are numbered from 0 without gaps.
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
			return nil, fmt.Errorf("%s: %s is missing: thread ids must not skip (found %s)",
				path.Join(name, l.dirs[0], want.file()), want.file(), t.file())
		}
	}
	for _, d := range l.dirs {
		m := strings.TrimPrefix(d, multiPrefix)
		l.metrics = append(l.metrics, metricDef{name: m, isTime: m == "" || isTimeMetric(m)})
	}
	return l, nil
}

func parseThread(file string) (thread, error) {
	m := profileName.FindStringSubmatch(file)
	var t thread
	for i, p := range []*int{&t.node, &t.context, &t.thread} {
		n, err := strconv.Atoi(m[i+1])
		if err != nil || n > 1<<24 {
			return thread{}, fmt.Errorf("node, context or thread number %q out of range", m[i+1])
		}
		*p = n
	}
	return t, nil
}
