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

// Format is the gprof report in the registry of formats.
var Format = importer.Format{
	Name:   "gprof report",
	Tool:   "gprof",
	Files:  "gprof reports of GNU, BSD and AIX (the text `gprof` prints, not `gmon.out`)",
	Detect: Detect,
	Read:   Read,
}

// Detect recognises a gprof report by its first line that is neither
// empty nor a comment (AIX's gprof prints a comment block first): GNU's
// or BSD's flat profile or call graph.
func Detect(head []byte, path string) importer.Confidence {
	if head == nil {
		return importer.No
	}
	for _, line := range strings.Split(decode(head), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		lower := strings.ToLower(line)
		if lower == "flat profile:" || strings.HasPrefix(lower, "call graph") ||
			strings.HasPrefix(lower, "granularity: each sample hit covers") || isGraphHeader(line) {
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
// Windows may write UTF-16 with a byte-order mark, editors add a UTF-8 one.
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

// isGraphHeader recognises the column titles of a call graph: GNU's
// "index % time self children called name", BSD's and AIX's (and GNU's
// -T) "index %time self descendents called+self name index", and the
// embedded variant of cycle-counting targets without "time".
func isGraphHeader(line string) bool {
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "index" {
		return false
	}
	var self, children, called, name bool
	for _, w := range f[1:] {
		switch {
		case w == "self":
			self = true
		case w == "children" || w == "descendents" || w == "descendants":
			children = true
		case strings.HasPrefix(w, "called"):
			called = true
		case w == "name":
			name = true
		}
	}
	return self && children && called && name
}

// flatHeader reads the column titles of a flat profile, "time seconds
// seconds calls ms/call ms/call name" (or "% cycles cycles calls /call
// /call name" for a histogram of another dimension): the dimension and
// the unit of the per-call columns.
func flatHeader(line string) (dim, perCall string, ok bool) {
	f := strings.Fields(line)
	if len(f) != 7 || f[0] != "time" && f[0] != "%" || f[1] != f[2] || f[3] != "calls" || f[4] != f[5] || f[6] != "name" {
		return "", "", false
	}
	return f[1], f[4], true
}

// scaleLine reads a line of column scales below a header, such as
// "(K) (K) (K) (K)", returning the factor.
func scaleLine(line string) (float64, bool) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return 0, false
	}
	for _, w := range f {
		if w != f[0] {
			return 0, false
		}
	}
	switch f[0] {
	case "(K)":
		return 1e3, true
	case "(M)":
		return 1e6, true
	case "(G)":
		return 1e9, true
	}
	return 0, false
}

// flatRow is one function of the flat profile.
type flatRow struct {
	name     string
	self     float64 // in the histogram's unit (see report.unit)
	calls    int64   // -1: blank (the function was not compiled with -pg)
	line     int
	hasIndex bool
	index    int
	// totalPerCall is the "total ms/call" column in the histogram's unit
	// per call; hasTotal is false when the column is blank.
	totalPerCall float64
	hasTotal     bool
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
	// dim is the histogram's dimension, "seconds" for time; flatScale and
	// graphScale multiply the tables' values into units of it (1, or 1000
	// under a "(K)" line).
	dim                   string
	flatScale, graphScale float64
	entries               []entry
	attrs                 []model.Attr
	zeroTime              bool
	hasFlat, hasGraph     bool
}

func parse(text, name string) (*report, error) {
	lines := strings.Split(text, "\n")
	rep := &report{flatScale: 1, graphScale: 1}
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		switch {
		case strings.HasPrefix(line, "Each sample counts as"):
			rep.attrs = append(rep.attrs, model.Attr{Key: "gprof sample period", Value: strings.TrimSuffix(strings.TrimPrefix(line, "Each sample counts as "), ".")})
		case line == "no time accumulated", strings.HasSuffix(line, " no time accumulated"):
			rep.zeroTime = true
		case strings.HasPrefix(strings.ToLower(line), "granularity:") || strings.HasPrefix(line, "ngranularity:"):
			if !hasAttr(rep.attrs, "gprof granularity") {
				_, g, _ := strings.Cut(line, ":")
				rep.attrs = append(rep.attrs, model.Attr{Key: "gprof granularity", Value: strings.TrimSpace(g)})
			}
		case isGraphHeader(line):
			if rep.hasGraph {
				return nil, fmt.Errorf("%s:%d: a second call graph", name, i+1)
			}
			next, err := rep.parseGraph(lines, i+1, name)
			if err != nil {
				return nil, err
			}
			rep.hasGraph = true
			i = next - 1
		default:
			dim, perCall, ok := flatHeader(line)
			if !ok {
				continue
			}
			if rep.hasFlat {
				return nil, fmt.Errorf("%s:%d: a second flat profile", name, i+1)
			}
			if rep.dim != "" && rep.dim != dim {
				return nil, fmt.Errorf("%s:%d: flat profile in %s, but the call graph in %s", name, i+1, dim, rep.dim)
			}
			next, err := rep.parseFlat(lines, i+1, dim, perCall, name)
			if err != nil {
				return nil, err
			}
			rep.hasFlat = true
			i = next - 1
		}
	}
	if !rep.hasFlat && !rep.hasGraph {
		return nil, fmt.Errorf("%s: not a gprof report: neither a flat profile nor a call graph found", name)
	}
	if len(rep.flat) == 0 && len(rep.entries) == 0 {
		why := "the program was not compiled and linked with -pg, or it did not exit normally"
		if rep.zeroTime {
			why = "gprof says \"no time accumulated\": " + why
		}
		return nil, fmt.Errorf("%s: the gprof report lists no function (%s)", name, why)
	}
	if rep.dim == "" {
		rep.dim = "seconds"
	}
	return rep, nil
}

func hasAttr(as []model.Attr, key string) bool {
	for _, a := range as {
		if a.Key == key {
			return true
		}
	}
	return false
}

// perCallFactor turns the flat profile's per-call unit into the
// histogram's: "ms/call" of seconds is 1e-3, "/call" is 1 (times a
// "(K)" scale).
func perCallFactor(dim, unit string) (float64, bool) {
	if unit == "/call" {
		return 1, true
	}
	abbrev := "s"
	if dim != "seconds" && dim != "" {
		abbrev = dim[:1]
	}
	prefix, ok := strings.CutSuffix(unit, abbrev+"/call")
	if !ok {
		return 0, false
	}
	exp, ok := siPrefixExp[prefix]
	if !ok {
		return 0, false
	}
	f, _ := strconv.ParseFloat("1e"+strconv.Itoa(-exp), 64)
	return f, true
}

// siPrefixExp maps gprof's SI prefixes of the per-call unit ("ms/call")
// to the power of ten that turns the histogram's unit into that unit.
var siPrefixExp = map[string]int{
	"T": -12, "G": -9, "M": -6, "K": -3, "": 0,
	"m": 3, "u": 6, "n": 9, "p": 12, "f": 15, "a": 18,
}

// parseFlat reads the flat profile's rows from line i, just below its
// header, and returns the line after the table.
func (rep *report) parseFlat(lines []string, i int, dim, perCallUnit, name string) (int, error) {
	rep.dim = dim
	perCall, perCallKnown := perCallFactor(dim, perCallUnit)
	if i < len(lines) {
		if s, ok := scaleLine(lines[i]); ok {
			rep.flatScale = s
			i++
		}
	}
	for ; i < len(lines); i++ {
		raw := lines[i]
		if strings.TrimSpace(raw) == "" {
			return i + 1, nil // a blank line ends the table
		}
		row, ok, err := parseFlatRow(raw)
		if err == nil && !ok {
			err = fmt.Errorf("not a row of the table: %s", importer.Quote(strings.TrimSpace(raw)))
		}
		if err != nil {
			return 0, fmt.Errorf("%s:%d: flat profile: %v", name, i+1, err)
		}
		row.line = i + 1
		row.self *= rep.flatScale
		if row.hasTotal {
			if perCallKnown {
				row.totalPerCall *= perCall * rep.flatScale
			} else {
				row.hasTotal = false
			}
		}
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
		return flatRow{}, false, fmt.Errorf("row without a function name: %s", importer.Quote(raw))
	}
	row := flatRow{calls: -1}
	vals := make([]float64, len(fields))
	for k, f := range fields {
		if !isTime(f) && !(k == 3 && isCount(f)) {
			return flatRow{}, false, fmt.Errorf("column %d: %s is not a number", k+1, importer.Quote(f))
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return flatRow{}, false, fmt.Errorf("column %d: %s is not a number", k+1, importer.Quote(f))
		}
		vals[k] = v
	}
	switch len(fields) {
	case 3: // not profiled with -pg: no calls
	case 6:
		c, err := strconv.ParseInt(fields[3], 10, 64)
		if err != nil || c < 0 {
			return flatRow{}, false, fmt.Errorf("calls: %s is not a count", importer.Quote(fields[3]))
		}
		row.calls = c
		row.totalPerCall, row.hasTotal = vals[5], true
	default:
		return flatRow{}, false, fmt.Errorf("want 3 or 6 numbers before the name, found %d in %s", len(fields), importer.Quote(raw))
	}
	row.self = vals[2]
	if n, idx, ok := cutIndex(name); ok {
		name, row.index, row.hasIndex = n, idx, true
	} else if n, ok := cutUnprintedIndex(name); ok {
		name = n
	}
	row.name, _, _ = cutCycle(name)
	return row, true, nil
}

// isTime reports whether s is a number as gprof prints times: digits
// with a decimal point.
func isTime(s string) bool {
	dot := false
	digits := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return dot && digits > 0
}

// isCount reports whether s is a call count: "12", "3/40" or "300+6000".
func isCount(s string) bool {
	sep := false
	digits := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case (c == '/' || c == '+') && !sep && digits > 0 && i < len(s)-1:
			sep = true
		default:
			return false
		}
	}
	return digits > 0
}

// numericPrefix returns up to max leading fields of s that are numbers
// or call counts, and the text after them: a function name may begin with
// a dot (AIX, IBM XL) but not with a number.
func numericPrefix(s string, max int) ([]string, string) {
	var out []string
	rest := s
	for len(out) < max {
		t := strings.TrimLeft(rest, " \t")
		end := strings.IndexAny(t, " \t")
		if end < 0 {
			end = len(t)
		}
		tok := t[:end]
		if tok == "" || !isTime(tok) && !isCount(tok) {
			break
		}
		out = append(out, tok)
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

// cutUnprintedIndex splits "mcount (41)", a flat-profile name whose index
// is in parentheses because the call graph does not print the function.
func cutUnprintedIndex(s string) (string, bool) {
	if !strings.HasSuffix(s, ")") {
		return s, false
	}
	open := strings.LastIndexByte(s, '(')
	if open < 1 || s[open-1] != ' ' {
		return s, false
	}
	if n, err := strconv.Atoi(s[open+1 : len(s)-1]); err != nil || n < 0 {
		return s, false
	}
	return strings.TrimSpace(s[:open]), true
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

// parseGraph reads the call graph's entries from line i, just below its
// header, and returns the line after the graph.
func (rep *report) parseGraph(lines []string, i int, name string) (int, error) {
	if i < len(lines) {
		if s, ok := scaleLine(lines[i]); ok {
			rep.graphScale = s
			i++
		}
	}
	var cur entry
	seenSelf := false
	open := func() bool { return seenSelf || len(cur.parents) > 0 }
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
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "---") && strings.Trim(line, "-") == "":
			if err := flush(); err != nil {
				return 0, err
			}
			continue
		case strings.HasPrefix(line, "called/total") && !open() && len(rep.entries) == 0:
			continue // BSD's second and third title lines
		}
		gl, primary, ok, err := parseGraphLine(raw)
		if err != nil {
			return 0, fmt.Errorf("%s:%d: call graph: %v", name, i+1, err)
		}
		if !ok {
			if !open() {
				break // the explanation or the next section follows the last entry
			}
			return 0, fmt.Errorf("%s:%d: call graph: cannot read %s", name, i+1, importer.Quote(line))
		}
		gl.line = i + 1
		gl.self *= rep.graphScale
		gl.children *= rep.graphScale
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
			return gl, false, false, fmt.Errorf("bad index %s", importer.Quote(line[:end+1]))
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
	if c := name[0]; c >= '0' && c <= '9' {
		tok, _, _ := strings.Cut(name, " ")
		return gl, false, false, fmt.Errorf("%s is neither a time, a call count nor a name", importer.Quote(tok))
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
		if !isTime(f) {
			called = f
			break
		}
		nums = append(nums, f)
	}
	if len(fields) > len(nums)+boolInt(called != "") {
		return gl, false, false, fmt.Errorf("unexpected field %s", importer.Quote(fields[len(nums)+boolInt(called != "")]))
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
			if err != nil {
				return gl, false, false, fmt.Errorf("%s is not a number", importer.Quote(f))
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
			return gl, false, false, fmt.Errorf("bad call count %s", importer.Quote(called))
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
