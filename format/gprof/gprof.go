package gprof

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"cubeview/format/importer"
	"cubeview/format/internal/build"
	"cubeview/model"
)

// maxSize bounds the report size read into memory.
const maxSize = 1 << 30

// Format is the GNU gprof report in the registry of formats.
var Format = importer.Format{
	Name:   "gprof report",
	Tool:   "gprof",
	Files:  "GNU gprof reports (the text `gprof` prints, not `gmon.out`)",
	Detect: Detect,
	Read:   Read,
}

// Detect recognises a GNU gprof report by its first line that is not
// empty: a flat profile or a call graph.
func Detect(head []byte, path string) importer.Confidence {
	if head == nil {
		return importer.No
	}
	text := decode(head)
	for _, line := range strings.SplitN(text, "\n", 12) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if line == "Flat profile:" || strings.HasPrefix(line, "Call graph") || isGraphHeader(line) {
			return importer.Certain
		}
		return importer.No
	}
	return importer.No
}

// Read reads the gprof report in the file at path.
func Read(path string, _ importer.Options) (*model.Experiment, error) {
	f, err := importer.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads a gprof report from r; name names it in error messages.
func Parse(r io.Reader, name string) (*model.Experiment, error) {
	data, err := build.ReadAll(r, name, maxSize)
	if err != nil {
		return nil, err
	}
	rep, err := parse(decode(data), name)
	if err != nil {
		return nil, err
	}
	e, err := rep.experiment(name)
	if err == nil {
		build.Identify(e, "gprof", identities)
	}
	return e, err
}

// decode returns a report's text as UTF-8 with \n line ends: gprof on
// Windows may write UTF-16 with a byte-order mark.
func decode(b []byte) string {
	var s string
	switch {
	case len(b) >= 2 && (b[0] == 0xff && b[1] == 0xfe || b[0] == 0xfe && b[1] == 0xff):
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
		s = string(utf16.Decode(u))
	default:
		s = string(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")))
		if !utf8.ValidString(s) {
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}

func isGraphHeader(line string) bool {
	f := strings.Fields(line)
	return len(f) == 7 && f[0] == "index" && f[1] == "%" && f[2] == "time" && f[3] == "self" &&
		f[4] == "children" && f[5] == "called" && f[6] == "name"
}

// flatRow is one function of the flat profile.
type flatRow struct {
	name     string
	self     float64
	calls    int64 // -1: blank (the function was not compiled with -pg)
	line     int
	hasIndex bool
	index    int
	// totalPerCall is the "total ms/call" column as printed (in the
	// table's unit, see report.perCallExp), "" when blank.
	totalPerCall string
}

// graphLine is a caller or callee line of a call-graph entry, or the
// entry's own line.
type graphLine struct {
	name           string
	index          int // -1 for <spontaneous>
	cycle          int // the cycle the function belongs to, 0 for none
	wholeCycle     bool
	self, children float64
	hasTimes       bool
	calls, total   int64 // calls "a/b": a and b; "a+b" on the entry's line: a, b recursive
	hasCalls       bool
	recursive      int64
	percent        float64
	line           int
}

// entry is one call-graph entry: callers, the function, callees.
type entry struct {
	self            graphLine
	parents, childs []graphLine
}

type report struct {
	flat []flatRow
	// perCallExp is the power of ten that turns seconds into the flat
	// profile's per-call unit (3 for "ms/call", 0 for "s/call"); hasPerCallUnit
	// is false when the header names no unit cubeview knows.
	perCallExp     int
	hasPerCallUnit bool
	entries        []entry
	attrs          []model.Attr
	zeroTime       bool
	hasFlat        bool
	hasGraph       bool
}

func parse(text, name string) (*report, error) {
	lines := strings.Split(text, "\n")
	rep := &report{}
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		switch {
		case line == "Flat profile:":
			next, err := rep.parseFlat(lines, i+1, name)
			if err != nil {
				return nil, err
			}
			rep.hasFlat = true
			i = next - 1
		case strings.HasPrefix(line, "Call graph"), isGraphHeader(line):
			start := i + 1
			if isGraphHeader(line) {
				start = i
			}
			next, err := rep.parseGraph(lines, start, name)
			if err != nil {
				return nil, err
			}
			rep.hasGraph = true
			i = next - 1
		}
	}
	if !rep.hasFlat && !rep.hasGraph {
		return nil, fmt.Errorf("%s: not a gprof report: neither a flat profile nor a call graph found", name)
	}
	return rep, nil
}

// parseFlat reads the flat profile table from line i and returns the line
// after it.
func (rep *report) parseFlat(lines []string, i int, name string) (int, error) {
	inTable := false
	for ; i < len(lines); i++ {
		raw := lines[i]
		line := strings.TrimSpace(raw)
		switch {
		case strings.HasPrefix(line, "Each sample counts as"):
			rep.attrs = append(rep.attrs, model.Attr{Key: "gprof sample period", Value: strings.TrimSuffix(strings.TrimPrefix(line, "Each sample counts as "), ".")})
			continue
		case line == "no time accumulated":
			rep.zeroTime = true
			continue
		case strings.HasPrefix(line, "time") && strings.HasSuffix(line, "name") && strings.Contains(line, "seconds"):
			inTable = true
			rep.perCallExp, rep.hasPerCallUnit = perCallUnit(line)
			continue
		case line == "" && inTable && len(rep.flat) > 0:
			return i + 1, nil
		case line == "" || !inTable:
			if strings.HasPrefix(line, "Call graph") || isGraphHeader(line) {
				return i, nil
			}
			continue
		}
		row, ok, err := parseFlatRow(raw)
		if err != nil {
			return 0, fmt.Errorf("%s:%d: flat profile: %v", name, i+1, err)
		}
		if !ok {
			// The explanation that follows an empty table.
			return i, nil
		}
		row.line = i + 1
		rep.flat = append(rep.flat, row)
	}
	return i, nil
}

// parseFlatRow reads "%time cumulative self [calls self/call total/call]
// name"; ok is false for a line that is not a table row.
func parseFlatRow(raw string) (flatRow, bool, error) {
	fields, rest := numericPrefix(raw, 6)
	if len(fields) < 3 {
		return flatRow{}, false, nil
	}
	name := strings.TrimSpace(rest)
	if name == "" {
		return flatRow{}, false, fmt.Errorf("row without a function name: %q", clip(raw))
	}
	row := flatRow{calls: -1}
	vals := make([]float64, len(fields))
	for k, f := range fields {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || v < 0 || v != v || v-v != 0 {
			return flatRow{}, false, fmt.Errorf("column %d: %q is not a number", k+1, f)
		}
		vals[k] = v
	}
	switch len(fields) {
	case 3: // not profiled with -pg: no calls
	case 6:
		c, err := strconv.ParseInt(fields[3], 10, 64)
		if err != nil || c < 0 {
			return flatRow{}, false, fmt.Errorf("calls: %q is not a count", fields[3])
		}
		row.calls = c
		row.totalPerCall = fields[5]
	default:
		return flatRow{}, false, fmt.Errorf("want 3 or 6 numbers before the name, found %d in %q", len(fields), clip(raw))
	}
	row.self = vals[2]
	if n, idx, ok := cutIndex(name); ok {
		name, row.index, row.hasIndex = n, idx, true
	}
	row.name = name
	return row, true, nil
}

// siPrefixExp maps gprof's SI prefixes of the per-call unit ("ms/call")
// to the power of ten that turns seconds into that unit.
var siPrefixExp = map[string]int{
	"T": -12, "G": -9, "M": -6, "K": -3, "": 0,
	"m": 3, "u": 6, "n": 9, "p": 12, "f": 15, "a": 18,
}

// perCallUnit reads the unit of the per-call columns from the flat
// profile's header line "time seconds seconds calls ms/call ms/call name":
// gprof scales them so that the largest value has at least three digits.
func perCallUnit(header string) (exp int, ok bool) {
	f := strings.Fields(header)
	if len(f) != 7 || f[4] != f[5] {
		return 0, false
	}
	prefix, found := strings.CutSuffix(f[4], "s/call")
	if !found {
		return 0, false
	}
	exp, ok = siPrefixExp[prefix]
	return exp, ok
}

// numericPrefix returns up to max leading fields of s that start like
// numbers, and the text after them.
func numericPrefix(s string, max int) ([]string, string) {
	var out []string
	rest := s
	for len(out) < max {
		t := strings.TrimLeft(rest, " \t")
		if t == "" || !(t[0] >= '0' && t[0] <= '9' || t[0] == '.') {
			break
		}
		end := strings.IndexAny(t, " \t")
		if end < 0 {
			end = len(t)
		}
		out = append(out, t[:end])
		rest = t[end:]
	}
	return out, rest
}

// cutIndex splits "name [12]" into name and 12.
func cutIndex(s string) (string, int, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasSuffix(s, "]") {
		return s, 0, false
	}
	open := strings.LastIndexByte(s, '[')
	if open < 0 {
		return s, 0, false
	}
	n, err := strconv.Atoi(s[open+1 : len(s)-1])
	if err != nil || n < 0 {
		return s, 0, false
	}
	return strings.TrimSpace(s[:open]), n, true
}

// cutCycle splits "name <cycle 3>" into name and 3, and recognises
// "<cycle 3 as a whole>".
func cutCycle(s string) (name string, cycle int, whole bool) {
	if !strings.HasSuffix(s, ">") {
		return s, 0, false
	}
	open := strings.LastIndex(s, "<cycle ")
	if open < 0 {
		return s, 0, false
	}
	inner := s[open+len("<cycle ") : len(s)-1]
	if n, ok := strings.CutSuffix(inner, " as a whole"); ok {
		c, err := strconv.Atoi(n)
		if err == nil && c > 0 && open == 0 {
			return s, c, true
		}
		return s, 0, false
	}
	c, err := strconv.Atoi(inner)
	if err != nil || c <= 0 {
		return s, 0, false
	}
	return strings.TrimSpace(s[:open]), c, false
}

// parseGraph reads the call graph from line i (at or before its header)
// and returns the line after it.
func (rep *report) parseGraph(lines []string, i int, name string) (int, error) {
	for ; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if strings.HasPrefix(line, "granularity:") {
			rep.attrs = append(rep.attrs, model.Attr{Key: "gprof granularity", Value: strings.TrimSpace(strings.TrimPrefix(line, "granularity:"))})
		}
		if isGraphHeader(line) {
			i++
			break
		}
	}
	var cur entry
	seenSelf, started := false, false
	flush := func() error {
		if !seenSelf {
			if len(cur.parents) > 0 {
				return fmt.Errorf("%s:%d: call-graph entry without its [index] line (truncated?)", name, cur.parents[0].line)
			}
			return nil
		}
		rep.entries = append(rep.entries, cur)
		cur, seenSelf = entry{}, false
		return nil
	}
	for ; i < len(lines); i++ {
		raw := lines[i]
		line := strings.TrimSpace(raw)
		if line == "" {
			if started && !seenSelf && len(cur.parents) == 0 {
				break // the explanation follows
			}
			continue
		}
		if strings.HasPrefix(line, "---") && strings.Trim(line, "-") == "" {
			if err := flush(); err != nil {
				return 0, err
			}
			started = true
			continue
		}
		if line == "Index by function name" {
			break
		}
		gl, primary, ok, err := parseGraphLine(raw)
		if err != nil {
			return 0, fmt.Errorf("%s:%d: call graph: %v", name, i+1, err)
		}
		if !ok {
			if !seenSelf && len(cur.parents) == 0 {
				break // explanation text after the last entry
			}
			return 0, fmt.Errorf("%s:%d: call graph: cannot read %q", name, i+1, clip(line))
		}
		gl.line = i + 1
		started = true
		switch {
		case primary && seenSelf:
			return 0, fmt.Errorf("%s:%d: call graph: a second [index] line in one entry (missing separator line)", name, i+1)
		case primary:
			cur.self, seenSelf = gl, true
		case seenSelf:
			cur.childs = append(cur.childs, gl)
		default:
			cur.parents = append(cur.parents, gl)
		}
	}
	if err := flush(); err != nil {
		return 0, err
	}
	return i, nil
}

// parseGraphLine reads one call-graph line: an entry's own line
// "[N] %time self children called name [N]", a caller or callee line
// "[self children] [called[/total]] name [N]", or "<spontaneous>".
func parseGraphLine(raw string) (gl graphLine, primary, ok bool, err error) {
	line := strings.TrimSpace(raw)
	gl.index = -1
	if line == "<spontaneous>" {
		gl.name = line
		return gl, false, true, nil
	}
	if strings.HasPrefix(line, "[") {
		end := strings.IndexByte(line, ']')
		if end < 0 {
			return gl, false, false, nil
		}
		idx, err := strconv.Atoi(line[1:end])
		if err != nil || idx < 0 {
			return gl, false, false, fmt.Errorf("bad index %q", line[:end+1])
		}
		primary = true
		gl.index = idx
		line = line[end+1:]
	}
	fields, rest := numericPrefix(line, 4)
	name := strings.TrimSpace(rest)
	if name == "" {
		return gl, false, false, nil
	}
	n, idx, hasIndex := cutIndex(name)
	if !hasIndex {
		return gl, false, false, nil
	}
	if primary && idx != gl.index {
		return gl, false, false, fmt.Errorf("entry [%d] names index [%d]", gl.index, idx)
	}
	gl.index = idx
	gl.name, gl.cycle, gl.wholeCycle = cutCycle(n)
	var nums []string
	var called string
	for _, f := range fields {
		if strings.ContainsAny(f, "/+") || !strings.Contains(f, ".") {
			called = f
			break
		}
		nums = append(nums, f)
	}
	if len(fields) > len(nums)+boolInt(called != "") {
		return gl, false, false, fmt.Errorf("unexpected field %q", fields[len(nums)+boolInt(called != "")])
	}
	want := 2
	if primary {
		want = 3 // %time self children
	}
	switch len(nums) {
	case 0:
		if primary {
			return gl, false, false, fmt.Errorf("entry [%d] without times", gl.index)
		}
	case want:
		vals := make([]float64, want)
		for k, f := range nums {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil || v < 0 || v != v || v-v != 0 {
				return gl, false, false, fmt.Errorf("%q is not a number", f)
			}
			vals[k] = v
		}
		if primary {
			gl.percent, vals = vals[0], vals[1:]
		}
		gl.self, gl.children, gl.hasTimes = vals[0], vals[1], true
	default:
		return gl, false, false, fmt.Errorf("want %d times before the name, found %d", want, len(nums))
	}
	if called != "" {
		a, b, sep := called, "", ""
		if k := strings.IndexAny(called, "/+"); k >= 0 {
			a, b, sep = called[:k], called[k+1:], called[k:k+1]
		}
		ca, err1 := strconv.ParseInt(a, 10, 64)
		var cb int64
		var err2 error
		if sep != "" {
			cb, err2 = strconv.ParseInt(b, 10, 64)
		}
		if err1 != nil || err2 != nil || ca < 0 || cb < 0 || sep == "+" && !primary {
			return gl, false, false, fmt.Errorf("bad call count %q", called)
		}
		gl.calls, gl.hasCalls = ca, true
		switch sep {
		case "/":
			gl.total = cb
		case "+":
			gl.recursive = cb
		}
	}
	return gl, primary, true, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
