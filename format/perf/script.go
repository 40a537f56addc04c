package perf

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"cubeview/format/importer"
	"cubeview/format/internal/build"
	"cubeview/model"
)

// maxSize bounds what is read into memory at once (UTF-16 input).
const maxSize = 1 << 30

// header is a sample's first line: "comm pid[/tid] [cpu] time: [period]
// event:" with optional fields, perhaps followed by the sample's one frame
// ("ip sym (dso)") when perf recorded no call chains.
type header struct {
	comm, pid, tid string // pid is "" when only the thread is printed
	period         float64
	hasPeriod      bool
	event          string // "" when the line names none
	rest           string // text after the event
}

// isPID reports whether s is "123" or "123/456".
func isPID(s string) bool {
	slash := false
	digits := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '/' && !slash && digits > 0 && i < len(s)-1:
			slash = true
		default:
			return false
		}
	}
	return digits > 0
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// fieldsAt splits s at blanks, keeping each field's offset.
func fieldsAt(s string) (fields []string, at []int) {
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		if j > i {
			fields, at = append(fields, s[i:j]), append(at, i)
		}
		i = j
	}
	return fields, at
}

// parseHeader reads a sample's first line; ok is false when the line is
// not one.
func parseHeader(line string) (h header, ok bool) {
	if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
		return h, false
	}
	f, at := fieldsAt(line)
	k := 1
	for k < len(f) && !isPID(f[k]) {
		k++
	}
	if k >= len(f) {
		return h, false
	}
	h.comm = strings.TrimSpace(line[:at[k]])
	if p, t, slash := strings.Cut(f[k], "/"); slash {
		h.pid, h.tid = p, t
	} else {
		h.tid = f[k]
	}
	k++
	if k < len(f) && strings.HasPrefix(f[k], "[") && strings.HasSuffix(f[k], "]") && isDigits(f[k][1:len(f[k])-1]) {
		k++ // the CPU
	}
	timed := false
	if k < len(f) && strings.HasSuffix(f[k], ":") {
		if _, err := strconv.ParseFloat(strings.TrimSuffix(f[k], ":"), 64); err == nil {
			k++ // the time stamp
			timed = true
		}
	}
	if k+1 < len(f) && isDigits(f[k]) && strings.HasSuffix(f[k+1], ":") {
		v, err := strconv.ParseFloat(f[k], 64)
		if err == nil {
			h.period, h.hasPeriod = v, true
			k++
		}
	}
	if k < len(f) && strings.HasSuffix(f[k], ":") && len(f[k]) > 1 {
		h.event = strings.TrimSuffix(f[k], ":")
		h.rest = strings.TrimSpace(line[at[k]+len(f[k]):])
	} else if k < len(f) {
		h.rest = strings.TrimSpace(line[at[k]:])
	}
	if h.event == "" && (h.rest != "" || !timed) {
		return h, false // a time stamp or an event is what makes a sample line
	}
	return h, true
}

// parseFrame reads a call-chain line "ip sym[+off] (dso)"; ok is false
// for a line that is not one (a source line perf prints with srcline).
func parseFrame(line string) (frame, bool) {
	s := strings.TrimLeft(line, " \t")
	sp := strings.IndexAny(s, " \t")
	if sp <= 0 || !isHex(s[:sp]) {
		return frame{}, false
	}
	rest := strings.TrimSpace(s[sp:])
	sym, dso := rest, ""
	if strings.HasSuffix(rest, ")") {
		depth := 0
		for i := len(rest) - 1; i >= 0; i-- {
			switch rest[i] {
			case ')':
				depth++
			case '(':
				depth--
			}
			if depth == 0 {
				if i == 0 || rest[i-1] == ' ' {
					sym, dso = strings.TrimSpace(rest[:i]), rest[i+1:len(rest)-1]
				}
				break
			}
		}
	}
	if sym == "" && dso == "" {
		return frame{}, false
	}
	return frame{name: symbolName(sym, dso), module: dso}, true
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return s != ""
}

// symbolName is a frame's function: perf's symbol without the offset, or
// for an unknown (or empty) symbol its module's base name in brackets.
func symbolName(sym, dso string) string {
	if i := strings.LastIndex(sym, "+0x"); i > 0 && isHex(sym[i+3:]) {
		sym = sym[:i]
	}
	if sym == "[unknown]" || sym == "" {
		if dso != "" && dso != "[unknown]" {
			return "[" + path.Base(dso) + "]"
		}
		return "[unknown]"
	}
	return sym
}

// Script is the output of perf script in the registry of formats.
var Script = importer.Format{
	Name:   "perf script output",
	Tool:   "perf",
	Files:  "Linux `perf script` output (samples with call chains, `perf record -g`)",
	Detect: DetectScript,
	Read:   ReadScript,
}

// DetectScript recognises the output of perf script: perf's header
// comments ("# ========", "# captured on"), or a sample's first line
// followed by a call chain or another sample.
func DetectScript(head []byte, path string) importer.Confidence {
	if head == nil {
		return importer.No
	}
	lines := headLines(head)
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			continue
		case strings.HasPrefix(t, "# ========") || strings.HasPrefix(t, "# captured on"):
			return importer.Certain
		case strings.HasPrefix(t, "#"):
			continue
		}
		if _, ok := parseHeader(l); !ok {
			return importer.No
		}
		for _, next := range lines[i+1:] {
			if strings.TrimSpace(next) == "" {
				continue
			}
			if _, ok := parseFrame(next); ok {
				return importer.Likely
			}
			if _, ok := parseHeader(next); ok {
				return importer.Likely
			}
			return importer.No
		}
		return importer.No
	}
	return importer.No
}

// headLines returns the complete lines of head (a file's first bytes),
// decoded as the readers decode them.
func headLines(head []byte) []string {
	switch {
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}) || bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		head = []byte(decodeUTF16(head))
	default:
		head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	}
	text := strings.ReplaceAll(string(head), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	if len(lines) > 1 {
		lines = lines[:len(lines)-1] // the last may be cut
	}
	return lines
}

// identities tags the metrics that mean the same across tools: CPU time
// of the cpu-clock and task-clock events, and the counts of cycles and
// instructions (perf's names of PAPI_TOT_CYC and PAPI_TOT_INS, with at
// most a precision modifier such as ":ppp") where perf printed periods.
func identities(metrics []metricDef) map[string]string {
	ids := map[string]string{}
	for _, m := range metrics {
		base, mods, _ := strings.Cut(m.uniq, ":")
		switch {
		case m.unit == "sec":
			ids[m.uniq] = model.IdentityCPUTime
		case m.dataType != model.Uint64 || strings.Trim(mods, "p") != "" || !strings.HasPrefix(m.descr, "Sum of the sample periods"):
		case base == "cycles":
			ids[m.uniq] = "PAPI_TOT_CYC"
		case base == "instructions":
			ids[m.uniq] = "PAPI_TOT_INS"
		}
	}
	return ids
}

// ReadScript reads the perf script output in the file at path (also
// gzip-compressed). Lines inside call chains that name no frame are left
// out with a warning, or refused with opts.Strict.
func ReadScript(path string, opts importer.Options) (*model.Experiment, error) {
	f, err := importer.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseScript(f, path, opts)
}

// ParseScript reads the output of perf script from r; name names it in
// errors.
func ParseScript(r io.Reader, name string) (*model.Experiment, error) {
	return parseScript(r, name, importer.Options{})
}

// eventMetric describes how a perf event becomes a metric.
func eventMetric(event string, periods bool) metricDef {
	base, _, _ := strings.Cut(event, ":")
	switch {
	case event == "":
		return metricDef{uniq: "samples", disp: "Samples", unit: "occ", dataType: model.Uint64, scale: 1,
			descr: "Samples perf recorded (the input names no event)"}
	case !periods:
		return metricDef{uniq: event, disp: event, unit: "occ", dataType: model.Uint64, scale: 1,
			descr: "Samples of perf's event " + event + " (perf script printed no periods)"}
	case base == "cpu-clock" || base == "task-clock":
		return metricDef{uniq: event, disp: event, unit: "sec", dataType: model.Double, scale: 1e-9,
			descr: "Sum of the sample periods of perf's event " + event + ": CPU time in seconds"}
	}
	return metricDef{uniq: event, disp: event, unit: "occ", dataType: model.Uint64, scale: 1,
		descr: "Sum of the sample periods of perf's event " + event + ": events counted"}
}

func parseScript(r io.Reader, name string, opts importer.Options) (*model.Experiment, error) {
	lr, err := newLineReader(r, name)
	if err != nil {
		return nil, err
	}
	c := newCollector("perf script output")
	type eventInfo struct {
		metric    int
		periods   bool
		firstLine int
	}
	events := map[string]*eventInfo{}
	var (
		cur        *header
		curLine    int
		frames     []frame
		samples    int
		started    bool
		perfHeader = true
	)
	flush := func() error {
		if cur == nil {
			return nil
		}
		h := cur
		cur = nil
		ev := events[h.event]
		if ev == nil {
			ev = &eventInfo{metric: len(c.metrics), periods: h.hasPeriod, firstLine: curLine}
			events[h.event] = ev
			c.metrics = append(c.metrics, eventMetric(h.event, h.hasPeriod))
		}
		if ev.periods != h.hasPeriod {
			return fmt.Errorf("%s:%d: a sample of %s without a period, though the one on line %d has one (or the other way round)", name, curLine, importer.Quote(h.event), ev.firstLine)
		}
		if len(frames) == 0 && h.rest != "" {
			if f, ok := parseFrame(" " + h.rest); ok {
				frames = append(frames, f) // perf record without -g
			}
		}
		v := 1.0
		if h.hasPeriod {
			v = h.period
		}
		c.add(frames, false, ev.metric, c.thread(thread{h.pid, h.tid}, h.comm), v)
		frames = frames[:0]
		samples++
		return nil
	}
	for {
		line, ok, err := lr.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		trim := strings.TrimSpace(line)
		switch {
		case trim == "":
			if err := flush(); err != nil {
				return nil, err
			}
			continue
		case strings.HasPrefix(line, "#"):
			if perfHeader && !started {
				if k, v, ok := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "#")), " : "); ok {
					c.b.Attr("perf "+strings.TrimSpace(k), strings.TrimSpace(v))
				}
			}
			continue
		}
		if line[0] != ' ' && line[0] != '\t' {
			h, ok := parseHeader(line)
			if !ok && cur != nil {
				// Old perf versions print call chains without indenting them.
				if f, isFrame := parseFrame(line); isFrame {
					frames = append(frames, f)
					continue
				}
			}
			if !ok {
				return nil, fmt.Errorf("%s:%d: neither a sample's first line (command, thread id, event) nor a frame of its call chain: %s", name, lr.n, importer.Quote(trim))
			}
			if err := flush(); err != nil {
				return nil, err
			}
			cur, curLine, started, perfHeader = &h, lr.n, true, false
			continue
		}
		if cur == nil {
			return nil, fmt.Errorf("%s:%d: a call-chain line outside a sample: %s", name, lr.n, importer.Quote(trim))
		}
		f, ok := parseFrame(line)
		if !ok && opts.Strict {
			return nil, fmt.Errorf("%s:%d: not a frame of the call chain: %s", name, lr.n, importer.Quote(trim))
		}
		if !ok {
			// Source lines (perf script -F+srcline) and other
			// annotations carry no frame.
			lr.skip()
			continue
		}
		frames = append(frames, f)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if samples == 0 {
		return nil, fmt.Errorf("%s: no samples (perf script printed only its header; was perf record run with the program?)", name)
	}
	e := c.finish()
	build.Identify(e, "perf", identities(c.metrics))
	e.Attrs = append([]model.Attr{{Key: "Creator", Value: "perf"}}, e.Attrs...)
	e.Attrs = append(e.Attrs, model.Attr{Key: "perf samples", Value: strconv.Itoa(samples)})
	if lr.skipped > 0 {
		e.Warnings = append(e.Warnings, fmt.Sprintf("%s: %d lines inside call chains name no frame (the first on line %d, such as source lines); they are left out", name, lr.skipped, lr.firstSkip))
	}
	return e, nil
}
