package perf

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"cubeview/format/internal/build"
	"cubeview/model"
)

// maxLine bounds one line of input: a stack of thousands of C++ frames
// fits many times over.
const maxLine = 64 << 20

// frame is one stack frame as read: a function in a module.
type frame struct{ name, module string }

// thread names a location: a thread of a process. pid is "" when the
// input does not say which process the thread belongs to; both are "" for
// the single location of input without threads.
type thread struct{ pid, tid string }

// metricDef describes one metric of the experiment.
type metricDef struct {
	uniq, disp, unit, descr string
	dataType                model.DataType
	scale                   float64 // applied to the summed values
}

// collector turns stacks into the call tree and sums their values per
// (call path, metric, location).
type collector struct {
	b         *build.Builder
	metrics   []metricDef
	threads   []thread
	comm      []string // per thread, the command of its first sample
	threadIdx map[thread]int
	vals      map[[3]int]float64 // cnode, metric, thread
	noStack   int                // the region of stacks without frames, -1 before the first
}

func newCollector(format string) *collector {
	return &collector{b: build.New(format), threadIdx: map[thread]int{}, vals: map[[3]int]float64{}, noStack: -1}
}

// thread returns the index of a thread, adding it when new.
func (c *collector) thread(t thread, comm string) int {
	if i, ok := c.threadIdx[t]; ok {
		return i
	}
	i := len(c.threads)
	c.threads = append(c.threads, t)
	c.comm = append(c.comm, comm)
	c.threadIdx[t] = i
	return i
}

// add records value v of metric m for a stack given innermost frame
// first (perf's order) or outermost first (outermostFirst).
func (c *collector) add(frames []frame, outermostFirst bool, m, th int, v float64) {
	cn := -1
	if len(frames) == 0 {
		if c.noStack < 0 {
			c.noStack, _ = c.b.Region("[no stack]", "")
			c.b.E.Regions[c.noStack].Role = "artificial"
		}
		cn, _ = c.b.Cnode(-1, c.noStack)
	}
	for i := range frames {
		f := frames[len(frames)-1-i]
		if outermostFirst {
			f = frames[i]
		}
		r, _ := c.b.Region(f.name, f.module)
		cn, _ = c.b.Cnode(cn, r)
	}
	c.vals[[3]int{cn, m, th}] += v
}

// finish builds the system tree, the metrics and the values.
func (c *collector) finish() *model.Experiment {
	b := c.b
	for _, m := range c.metrics {
		b.Metric(m.uniq, m.disp, m.unit, m.dataType, m.descr)
	}
	// Processes in numeric order of their PID, threads by TID.
	order := make([]int, len(c.threads))
	for i := range order {
		order[i] = i
	}
	num := func(s string) int64 {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return -1
		}
		return n
	}
	slices.SortStableFunc(order, func(x, y int) int {
		a, b := c.threads[x], c.threads[y]
		if d := num(a.pid) - num(b.pid); d != 0 && a.pid != "" && b.pid != "" {
			return sign(d)
		}
		return sign(num(a.tid) - num(b.tid))
	})
	machine := b.TreeNode(-1, "machine", "machine")
	node := b.TreeNode(machine, "node", "node")
	sysOf := make([]int, len(c.threads))
	process := map[string]int{}
	for _, i := range order {
		t, comm := c.threads[i], c.comm[i]
		switch {
		case t.pid == "" && t.tid == "":
			p := b.Process(node, 0, firstNonEmpty(comm, "process"))
			sysOf[i] = b.Location(p, 0, "thread", "thread 0")
		case t.pid == "":
			// perf's default output names the thread, not its process.
			p := b.Process(node, int(max(num(t.tid), 0)), fmt.Sprintf("%s (thread %s, process not recorded)", comm, t.tid))
			sysOf[i] = b.Location(p, int(max(num(t.tid), 0)), "thread", "thread "+t.tid)
		default:
			p, ok := process[t.pid]
			if !ok {
				p = b.Process(node, int(max(num(t.pid), 0)), fmt.Sprintf("%s (process %s)", comm, t.pid))
				process[t.pid] = p
			}
			label := "thread " + t.tid
			if t.tid == "" {
				label = "threads" // folded stacks with the process only
			}
			sysOf[i] = b.Location(p, int(max(num(t.tid), 0)), "thread", label)
		}
	}
	cols := b.Columns()
	vals := build.NewValues(len(c.metrics), len(c.threads))
	for k, v := range c.vals {
		vals.Add(k[0], k[1], cols[sysOf[k[2]]], v)
	}
	for m, def := range c.metrics {
		vals.Scale(m, def.scale)
	}
	return b.Finish(vals)
}

func sign(d int64) int {
	switch {
	case d < 0:
		return -1
	case d > 0:
		return 1
	}
	return 0
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// lineReader yields the lines of an input as UTF-8 without line ends: a
// UTF-8 byte-order mark is dropped and UTF-16 (with its mark) decoded.
type lineReader struct {
	r    *bufio.Reader
	name string
	n    int // number of the line last read
	// skipped counts the lines the parser left out (skip), firstSkip is
	// the number of the first.
	skipped, firstSkip int
}

// skip notes that the line last read is left out.
func (lr *lineReader) skip() {
	if lr.skipped == 0 {
		lr.firstSkip = lr.n
	}
	lr.skipped++
}

func newLineReader(r io.Reader, name string) (*lineReader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	head, _ := br.Peek(3)
	switch {
	case bytes.HasPrefix(head, []byte("\xef\xbb\xbf")):
		br.Discard(3)
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}) || bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		data, err := build.ReadAll(br, name, maxSize)
		if err != nil {
			return nil, err
		}
		br = bufio.NewReader(strings.NewReader(decodeUTF16(data)))
	}
	return &lineReader{r: br, name: name}, nil
}

// decodeUTF16 decodes text that begins with a UTF-16 byte-order mark.
func decodeUTF16(b []byte) string {
	big := b[0] == 0xfe
	b = b[2:]
	u := make([]uint16, len(b)/2)
	for i := range u {
		if big {
			u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		} else {
			u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		}
	}
	return string(utf16.Decode(u))
}

// next returns the next line; ok is false at the end of the input.
func (lr *lineReader) next() (line string, ok bool, err error) {
	var buf []byte
	for {
		chunk, err := lr.r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > maxLine {
			return "", false, fmt.Errorf("%s:%d: line longer than %d bytes", lr.name, lr.n+1, maxLine)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && err != io.EOF {
			return "", false, fmt.Errorf("%s: %w", lr.name, err)
		}
		if len(buf) == 0 && err == io.EOF {
			return "", false, nil
		}
		break
	}
	lr.n++
	buf = bytes.TrimSuffix(buf, []byte("\n"))
	buf = bytes.TrimSuffix(buf, []byte("\r"))
	s := string(buf)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s, true, nil
}
