package perf

import (
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"cubeview/format/importer"
	"cubeview/model"
)

// processFrame matches the first frame stackcollapse-perf.pl writes with
// --tid ("comm-pid/tid") and --pid ("comm-pid"); its PID is "?" when perf
// printed only the thread.
var (
	tidFrame = regexp.MustCompile(`^(.*)-(\d+|\?)/(\d+)$`)
	pidFrame = regexp.MustCompile(`^(.*)-(\d+|\?)$`)
)

// foldedLine splits "a;b;c 12" into the stack and its count; ok is false
// for a line that is not a stack.
func foldedLine(line string) (stack string, count float64, ok bool) {
	sp := strings.LastIndexAny(line, " \t")
	if sp <= 0 {
		return "", 0, false
	}
	n, err := strconv.ParseFloat(line[sp+1:], 64)
	if err != nil || n < 0 || math.IsInf(n, 0) || math.IsNaN(n) {
		return "", 0, false
	}
	stack = strings.TrimRight(line[:sp], " \t")
	if stack == "" {
		return "", 0, false
	}
	return stack, n, true
}

// isComment reports the comment lines folded files may hold.
func isComment(line string) bool {
	return strings.HasPrefix(line, "#") || strings.HasPrefix(line, "//")
}

// Folded is folded stacks in the registry of formats.
var Folded = importer.Format{
	Name:   "folded stacks",
	Tool:   "flame graphs",
	Files:  "folded stacks, the collapsed input of flame graphs (`stackcollapse-perf.pl` and others: `a;b;c 12`)",
	Detect: DetectFolded,
	Read:   ReadFolded,
}

// DetectFolded recognises folded stacks: complete lines that are stacks
// of ";"-separated frames and a count (or comments), at least one stack
// deeper than one frame. A few other lines among them, which the reader
// leaves out with a warning, make it a weak guess.
func DetectFolded(head []byte, path string) importer.Confidence {
	if head == nil {
		return importer.No
	}
	n, other, deep := 0, 0, false
	for _, l := range headLines(head) {
		t := strings.TrimSpace(l)
		if t == "" || isComment(t) {
			continue
		}
		stack, _, ok := foldedLine(t)
		if !ok {
			other++
			continue
		}
		n++
		deep = deep || strings.Contains(stack, ";")
	}
	switch {
	case !deep:
		return importer.No
	case other == 0:
		return importer.Likely
	case n >= 2 && other < n:
		return importer.Weak
	}
	return importer.No
}

// ReadFolded reads the folded stacks in the file at path (also
// gzip-compressed). Lines that are not stacks are left out with a
// warning, or refused with opts.Strict.
func ReadFolded(path string, opts importer.Options) (*model.Experiment, error) {
	f, err := importer.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseFolded(f, path, opts)
}

// ParseFolded reads folded stacks from r; name names the input in errors.
func ParseFolded(r io.Reader, name string) (*model.Experiment, error) {
	return parseFolded(r, name, importer.Options{})
}

func parseFolded(r io.Reader, name string, opts importer.Options) (*model.Experiment, error) {
	lr, err := newLineReader(r, name)
	if err != nil {
		return nil, err
	}
	type entry struct {
		stack string
		count float64
	}
	var (
		entries    []entry
		tids, pids = true, true
		integral   = true
	)
	for {
		line, ok, err := lr.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		t := strings.TrimSpace(line)
		if t == "" || isComment(t) {
			continue
		}
		stack, count, ok := foldedLine(t)
		if !ok && opts.Strict {
			return nil, fmt.Errorf("%s:%d: not a folded stack (frames separated by \";\", a blank and a count): %s", name, lr.n, importer.Quote(t))
		}
		if !ok {
			lr.skip()
			continue
		}
		first, _, _ := strings.Cut(stack, ";")
		tids = tids && tidFrame.MatchString(first)
		pids = pids && pidFrame.MatchString(first)
		integral = integral && count == math.Trunc(count)
		entries = append(entries, entry{stack, count})
	}
	if len(entries) == 0 {
		if lr.skipped > 0 {
			return nil, fmt.Errorf("%s:%d: not a folded stack (frames separated by \";\", a blank and a count): no line of the file is one", name, lr.firstSkip)
		}
		return nil, fmt.Errorf("%s: no stacks", name)
	}
	c := newCollector("folded stacks")
	def := metricDef{uniq: "samples", disp: "Samples", unit: "occ", dataType: model.Uint64, scale: 1,
		descr: "The stacks' counts: samples, or whatever the tool that folded them counted"}
	if !integral {
		def.dataType = model.Double
	}
	c.metrics = append(c.metrics, def)
	var frames []frame
	for _, en := range entries {
		parts := strings.Split(en.stack, ";")
		th := thread{}
		comm := ""
		switch {
		case tids:
			m := tidFrame.FindStringSubmatch(parts[0])
			comm, th = m[1], thread{pid: m[2], tid: m[3]}
			if th.pid == "?" {
				th.pid = ""
			}
			parts = parts[1:]
		case pids:
			m := pidFrame.FindStringSubmatch(parts[0])
			comm, th = m[1], thread{pid: m[2]}
			if th.pid == "?" {
				th = thread{tid: "?"}
			}
			parts = parts[1:]
		}
		frames = frames[:0]
		for _, p := range parts {
			if p == "" {
				p = "[unnamed]"
			}
			frames = append(frames, frame{name: p})
		}
		c.add(frames, true, 0, c.thread(th, comm), en.count)
	}
	e := c.finish()
	if lr.skipped > 0 {
		e.Warnings = append(e.Warnings, fmt.Sprintf("%s: %d lines are not stacks and are left out (the first on line %d)", name, lr.skipped, lr.firstSkip))
	}
	return e, nil
}
