package tau

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"cubeview/format/importer"
	"cubeview/model"
)

// event is one interval event line of a profile file. Name and group
// point into the file's bytes.
type event struct {
	name  []byte // trimmed of surrounding blanks
	group []byte // the GROUP="…" value, empty when absent
	// calls, excl, incl are the columns Calls, Excl and Incl; Subrs, the
	// calls an event makes, is what its call paths' children hold.
	calls, excl, incl float64
	line              int32
}

// userEvent is one atomic (user-defined) event line.
type userEvent struct {
	name                          []byte
	count, max, min, mean, sumsqr float64
	line                          int
}

// profile is what one profile.N.C.T file holds: one thread's values of
// one metric.
type profile struct {
	name string // the file, "dir/profile.N.C.T", or what else names it in messages
	// stray, when not empty, says where text that follows the complete
	// profile begins ("file:line: …"): kept with a warning, or refused by
	// a strict read.
	stray string
	// metric names the metric from the header (templated_functions_MULTI_X)
	// or the metadata's "Metric Name"; empty when neither says.
	metric     string
	hwCounters bool // templated_functions_hw_counters: counter values
	meta       []rawAttr
	events     []event
	user       []userEvent
}

// rawAttr is a metadata attribute as the file writes it, XML-escaped.
type rawAttr struct{ key, value []byte }

// text returns the unescaped text of raw metadata (checked when parsed).
func text(b []byte) string {
	s, _ := unescapeXML(b)
	return s
}

// attrs returns the metadata as attributes.
func attrs(raw []rawAttr) []model.Attr {
	out := make([]model.Attr, len(raw))
	for i, a := range raw {
		out[i] = model.Attr{Key: text(a.key), Value: text(a.value)}
	}
	return out
}

// maxDeclared bounds a declared number of lines before reading them, so a
// corrupt count cannot make the parser allocate without limit.
func maxDeclared(data []byte) int { return bytes.Count(data, []byte{'\n'}) + 1 }

// lineReader splits data into lines and counts them.
type lineReader struct {
	data []byte
	pos  int
	line int
}

func (r *lineReader) next() ([]byte, bool) {
	if r.pos >= len(r.data) {
		return nil, false
	}
	r.line++
	rest := r.data[r.pos:]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		r.pos = len(r.data)
		return bytes.TrimSuffix(rest, []byte{'\r'}), true
	}
	r.pos += i + 1
	return bytes.TrimSuffix(rest[:i], []byte{'\r'}), true
}

// parseProfile reads one profile file into p, reusing p's slices; name is
// the file's path for error messages ("name:line: problem").
func parseProfile(data []byte, name string, p *profile) error {
	*p = profile{name: name, events: p.events[:0], user: p.user[:0], meta: p.meta[:0]}
	data = bytes.TrimPrefix(data, utf8BOM)
	pp := &profileParser{name: name, p: p, r: &lineReader{data: data}, lines: maxDeclared(data)}
	n, columns, first, err := pp.header()
	if err != nil {
		return err
	}
	if err := pp.events(n, columns, first); err != nil {
		return err
	}
	return pp.tail(n)
}

// profileParser holds the state of parseProfile.
type profileParser struct {
	name  string
	p     *profile
	r     *lineReader
	lines int // how many lines the file has at most
	vals  [6]float64
}

func (pp *profileParser) fail(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", pp.name, pp.r.line, fmt.Sprintf(format, args...))
}

// header reads line 1, "N templated_functions[_MULTI_metric|_hw_counters]",
// and line 2, "# Name Calls Subrs Excl Incl [SumExclSqr] ProfileCalls"
// with the metadata. Line 2 is absent in the oldest format, where the
// events start there: first is then that line.
func (pp *profileParser) header() (n, columns int, first []byte, err error) {
	p, r := pp.p, pp.r
	head, ok := r.next()
	if !ok {
		return 0, 0, nil, fmt.Errorf("%s: empty file", pp.name)
	}
	countText, kind, _ := bytes.Cut(bytes.TrimSpace(head), []byte{' '})
	n, err = strconv.Atoi(string(countText))
	if err != nil || n < 0 {
		return 0, 0, nil, pp.fail("not a TAU profile: the first line must be \"<number of events> templated_functions…\", found %s", importer.QuoteBytes(head))
	}
	switch {
	case bytes.HasPrefix(kind, []byte("templated_functions_MULTI_")):
		p.metric = strings.TrimSpace(string(kind[len("templated_functions_MULTI_"):]))
	case bytes.Equal(kind, []byte("templated_functions_hw_counters")):
		p.hwCounters = true
	case bytes.Equal(kind, []byte("templated_functions")):
	default:
		return 0, 0, nil, pp.fail("not a TAU profile: unknown profile kind %s (want templated_functions…)", importer.QuoteBytes(kind))
	}
	if n > pp.lines {
		return 0, 0, nil, pp.fail("declares %d events but the file has only %d lines (truncated?)", n, pp.lines)
	}
	format, ok := r.next()
	if !ok {
		return 0, 0, nil, pp.fail("file ends after the first line (truncated?)")
	}
	if !bytes.HasPrefix(format, []byte("#")) {
		return n, 5, format, nil
	}
	columns = 5
	cols, meta, _ := bytes.Cut(format, []byte("<metadata>"))
	fields := strings.Fields(strings.TrimSuffix(strings.TrimSpace(string(cols)), "#"))
	if len(fields) < 6 || fields[1] != "Name" || fields[2] != "Calls" || fields[3] != "Subrs" || fields[4] != "Excl" || fields[5] != "Incl" {
		return 0, 0, nil, pp.fail("unknown column header %s (want \"# Name Calls Subrs Excl Incl …\")", importer.QuoteBytes(cols))
	}
	switch strings.Join(fields[6:], " ") {
	case "ProfileCalls":
	case "SumExclSqr ProfileCalls":
		columns = 6
	default:
		return 0, 0, nil, pp.fail("unknown column header %s (want … Incl [SumExclSqr] ProfileCalls)", importer.QuoteBytes(cols))
	}
	if len(meta) > 0 || bytes.Contains(format, []byte("<metadata")) {
		if err := parseMetadata(meta, &p.meta); err != nil {
			return 0, 0, nil, pp.fail("metadata: %v", err)
		}
	}
	for _, a := range p.meta {
		if string(a.key) == "Metric Name" && p.metric == "" {
			p.metric = text(a.value)
		}
	}
	return n, columns, nil, nil
}

// events reads the n event lines (the first one is first when not nil),
// skipping the per-invocation lines that follow an event.
func (pp *profileParser) events(n, columns int, first []byte) error {
	p, r := pp.p, pp.r
	if cap(p.events) < n {
		p.events = make([]event, 0, n)
	}
	for i := 0; i < n; i++ {
		line, ok := first, true
		if first != nil {
			first = nil
		} else if line, ok = r.next(); !ok {
			return pp.fail("file ends after %d of %d events (truncated?)", i, n)
		}
		ev, profileCalls, err := parseEvent(line, columns, pp.vals[:])
		if err != nil {
			return pp.fail("event %d of %d: %v", i+1, n, err)
		}
		if len(ev.name) == 0 {
			return pp.fail("event %d of %d has an empty name", i+1, n)
		}
		ev.line = int32(min(r.line, 1<<31-1))
		p.events = append(p.events, ev)
		for k := 0; k < profileCalls; k++ {
			if _, ok := r.next(); !ok {
				return pp.fail("file ends in the %d profiled calls of event %s (truncated?)", profileCalls, importer.QuoteBytes(ev.name))
			}
		}
	}
	return nil
}

// tail reads what follows the n events: "M aggregates" must, "K
// userevents", their header and the user events may. Text after them is
// stray.
func (pp *profileParser) tail(n int) error {
	p, r := pp.p, pp.r
	line, ok := nextNonBlank(r)
	if !ok {
		return pp.fail("file ends after the events: the \"aggregates\" line is missing (truncated?)")
	}
	m, word, err := countLine(line)
	if err != nil || word != "aggregates" {
		return pp.fail("want \"<number> aggregates\" after the %d events, found %s", n, importer.QuoteBytes(line))
	}
	if m != 0 {
		return pp.fail("%d aggregates: aggregate profiles are not supported", m)
	}
	line, ok = nextNonBlank(r)
	if !ok {
		return nil
	}
	k, word, err := countLine(line)
	if err != nil || word != "userevents" {
		// Older TAU versions end here when there are no user events.
		p.stray = strayText(pp.name, r, line, "the aggregates")
		return nil
	}
	if k > pp.lines {
		return pp.fail("declares %d user events but the file has only %d lines (truncated?)", k, pp.lines)
	}
	// The header "# eventname numevents max min mean sumsqr" follows,
	// also when there are no user events.
	if line, ok = r.next(); ok && !bytes.HasPrefix(line, []byte("#")) {
		if k > 0 || len(bytes.TrimSpace(line)) > 0 {
			return pp.fail("want the user-event header \"# eventname numevents max min mean sumsqr\", found %s", importer.QuoteBytes(line))
		}
	} else if !ok && k > 0 {
		return pp.fail("file ends before the %d user events (truncated?)", k)
	}
	if err := pp.userEvents(k); err != nil {
		return err
	}
	if line, ok = nextNonBlank(r); ok {
		p.stray = strayText(pp.name, r, line, "the user events")
	}
	return nil
}

// userEvents reads k user event lines.
func (pp *profileParser) userEvents(k int) error {
	vals := pp.vals[:5]
	for i := 0; i < k; i++ {
		line, ok := pp.r.next()
		if !ok {
			return pp.fail("file ends after %d of %d user events (truncated?)", i, k)
		}
		name, rest, err := quotedName(line)
		if err != nil {
			return pp.fail("user event %d of %d: %v", i+1, k, err)
		}
		if err := parseNumbers(rest, vals, userColumns[:]); err != nil {
			return pp.fail("user event %s: %v", importer.QuoteBytes(name), err)
		}
		if len(name) == 0 {
			return pp.fail("user event %d of %d has an empty name", i+1, k)
		}
		pp.p.user = append(pp.p.user, userEvent{name: name, count: vals[0], max: vals[1], min: vals[2], mean: vals[3], sumsqr: vals[4], line: pp.r.line})
	}
	return nil
}

var utf8BOM = []byte("\xef\xbb\xbf")

// strayText describes text after a complete profile: where it starts,
// how many lines it has, and its first line.
func strayText(name string, r *lineReader, first []byte, after string) string {
	at, lines := r.line, 1
	for {
		line, ok := r.next()
		if !ok {
			break
		}
		if len(bytes.TrimSpace(line)) > 0 {
			lines = r.line - at + 1
		}
	}
	what := "a line"
	if lines > 1 {
		what = fmt.Sprintf("%d lines", lines)
	}
	return fmt.Sprintf("%s:%d: %s of unexpected text after %s, starting %s", name, at, what, after, importer.QuoteBytes(first))
}

var (
	eventColumns     = [...]string{"Calls", "Subrs", "Excl", "Incl", "ProfileCalls"}
	eventColumnsStat = [...]string{"Calls", "Subrs", "Excl", "Incl", "SumExclSqr", "ProfileCalls"}
	userColumns      = [...]string{"numevents", "max", "min", "mean", "sumsqr"}
)

// parseEvent reads `"name" calls subrs excl incl [sumexclsqr] profilecalls
// GROUP="g"`; vals is scratch space of at least 6 values.
func parseEvent(line []byte, columns int, vals []float64) (event, int, error) {
	name, rest, err := quotedName(line)
	if err != nil {
		return event{}, 0, err
	}
	names := eventColumns[:]
	if columns == 6 {
		names = eventColumnsStat[:]
	}
	rest, err = parseNumbersPrefix(rest, vals[:columns], names)
	if err != nil {
		return event{}, 0, fmt.Errorf("event %s: %w", importer.QuoteBytes(name), err)
	}
	ev := event{name: name, calls: vals[0], excl: vals[2], incl: vals[3]}
	pc := vals[columns-1]
	if pc < 0 || pc != float64(int(pc)) || pc > 1<<30 {
		return event{}, 0, fmt.Errorf("event %s: ProfileCalls %v is not a count", importer.QuoteBytes(name), pc)
	}
	rest = bytes.TrimSpace(rest)
	if g, ok := bytes.CutPrefix(rest, []byte(`GROUP="`)); ok {
		end := bytes.LastIndexByte(g, '"')
		if end < 0 {
			return event{}, 0, fmt.Errorf("event %s: GROUP value without closing quote", importer.QuoteBytes(name))
		}
		ev.group = g[:end]
	} else if len(rest) > 0 {
		return event{}, 0, fmt.Errorf("event %s: unexpected %s after the numbers", importer.QuoteBytes(name), importer.QuoteBytes(rest))
	}
	return ev, int(pc), nil
}

// quotedName splits `"name" rest`: the name runs to the first quote that
// is followed by a blank or the end of the line.
func quotedName(line []byte) (name, rest []byte, err error) {
	if len(line) == 0 || line[0] != '"' {
		return nil, nil, fmt.Errorf("want a quoted name, found %s", importer.QuoteBytes(line))
	}
	for i := 1; i < len(line); i++ {
		if line[i] == '"' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t') {
			return bytes.TrimSpace(line[1:i]), line[i+1:], nil
		}
	}
	return nil, nil, fmt.Errorf("name without closing quote: %s", importer.QuoteBytes(line))
}

// parseNumbers reads exactly len(vals) blank-separated numbers from b.
func parseNumbers(b []byte, vals []float64, names []string) error {
	rest, err := parseNumbersPrefix(b, vals, names)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		return fmt.Errorf("unexpected %s after the numbers", importer.QuoteBytes(rest))
	}
	return nil
}

// parseNumbersPrefix reads len(vals) blank-separated numbers from the
// start of b and returns what follows them.
func parseNumbersPrefix(b []byte, vals []float64, names []string) ([]byte, error) {
	for k := range vals {
		for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
			b = b[1:]
		}
		end := 0
		for end < len(b) && b[end] != ' ' && b[end] != '\t' {
			end++
		}
		if end == 0 {
			return nil, fmt.Errorf("column %s is missing", names[k])
		}
		v, ok := parseFloat(b[:end]) // NaN and ±Inf are not values either
		if !ok {
			return nil, fmt.Errorf("column %s: %s is not a number", names[k], importer.QuoteBytes(b[:end]))
		}
		vals[k] = v
		b = b[end:]
	}
	return b, nil
}

// countLine parses "<n> word".
func countLine(line []byte) (int, string, error) {
	f := strings.Fields(string(line))
	if len(f) != 2 {
		return 0, "", fmt.Errorf("want two fields")
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || n < 0 {
		return 0, "", fmt.Errorf("bad count %s", importer.Quote(f[0]))
	}
	return n, f[1], nil
}

func nextNonBlank(r *lineReader) ([]byte, bool) {
	for {
		line, ok := r.next()
		if !ok {
			return nil, false
		}
		if len(bytes.TrimSpace(line)) > 0 {
			return line, true
		}
	}
}

// parseMetadata reads the <attribute><name>N</name><value>V</value>
// </attribute> elements of a metadata block (text after "<metadata>").
func parseMetadata(b []byte, out *[]rawAttr) error {
	for {
		i := bytes.Index(b, []byte("<attribute>"))
		if i < 0 {
			break
		}
		b = b[i+len("<attribute>"):]
		end := bytes.Index(b, []byte("</attribute>"))
		if end < 0 {
			return fmt.Errorf("<attribute> without </attribute>")
		}
		attr := b[:end]
		b = b[end+len("</attribute>"):]
		key, err := element(attr, "name")
		if err != nil {
			return err
		}
		val, err := element(attr, "value")
		if err != nil {
			return fmt.Errorf("attribute %s: %w", importer.Quote(text(key)), err)
		}
		*out = append(*out, rawAttr{key, val})
	}
	return nil
}

// element returns the text of <tag>…</tag> in b, after checking that its
// entities can be resolved.
func element(b []byte, tag string) ([]byte, error) {
	open, closing := "<"+tag+">", "</"+tag+">"
	i := bytes.Index(b, []byte(open))
	if i < 0 {
		if bytes.Contains(b, []byte("<"+tag+"/>")) {
			return nil, nil
		}
		return nil, fmt.Errorf("no <%s>", tag)
	}
	rest := b[i+len(open):]
	j := bytes.Index(rest, []byte(closing))
	if j < 0 {
		return nil, fmt.Errorf("<%s> without %s", tag, closing)
	}
	if bytes.IndexByte(rest[:j], '&') >= 0 {
		if _, err := unescapeXML(rest[:j]); err != nil {
			return nil, err
		}
	}
	return rest[:j], nil
}

// unescapeXML resolves the five predefined entities and character
// references.
func unescapeXML(b []byte) (string, error) {
	if bytes.IndexByte(b, '&') < 0 {
		return string(b), nil
	}
	var sb strings.Builder
	for len(b) > 0 {
		i := bytes.IndexByte(b, '&')
		if i < 0 {
			sb.Write(b)
			break
		}
		sb.Write(b[:i])
		b = b[i:]
		semi := bytes.IndexByte(b, ';')
		if semi < 0 || semi > 12 {
			sb.WriteByte('&') // a bare ampersand, as some writers leave it
			b = b[1:]
			continue
		}
		ent := string(b[1:semi])
		switch ent {
		case "lt":
			sb.WriteByte('<')
		case "gt":
			sb.WriteByte('>')
		case "amp":
			sb.WriteByte('&')
		case "quot":
			sb.WriteByte('"')
		case "apos":
			sb.WriteByte('\'')
		default:
			var r int64
			var err error
			switch {
			case strings.HasPrefix(ent, "#x"):
				r, err = strconv.ParseInt(ent[2:], 16, 32)
			case strings.HasPrefix(ent, "#"):
				r, err = strconv.ParseInt(ent[1:], 10, 32)
			default:
				err = fmt.Errorf("unknown")
			}
			if err != nil || r < 0 || r > 0x10FFFF {
				return "", fmt.Errorf("unknown entity &%s;", ent)
			}
			sb.WriteRune(rune(r))
		}
		b = b[semi+1:]
	}
	return sb.String(), nil
}
