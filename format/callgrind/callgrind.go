package callgrind

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"cubeview/format/importer"
	"cubeview/format/internal/build"
	"cubeview/model"
)

// Format is callgrind's and cachegrind's output in the registry of
// formats.
var Format = importer.Format{
	Name:   "callgrind profile",
	Tool:   "callgrind",
	Files:  "callgrind and cachegrind outputs (`callgrind.out.PID`, `cachegrind.out.PID`)",
	Detect: Detect,
	Read:   Read,
}

// Read reads the callgrind or cachegrind file at path.
func Read(path string, opts importer.Options) (*model.Experiment, error) {
	f, err := importer.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path, opts)
}

// Parse reads a callgrind or cachegrind profile from r; name is used in
// error messages. Each part's costs are checked against its own totals:
// or summary: line (see checkTotals).
func Parse(r io.Reader, name string, opts importer.Options) (*model.Experiment, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if bom, _ := br.Peek(3); string(bom) == "\xef\xbb\xbf" { // a UTF-8 byte-order mark
		br.Discard(3)
	}
	p, err := newParser(name).parse(br)
	if err != nil {
		return nil, err
	}
	warnings, err := checkTotals(p, name, opts)
	if err != nil {
		return nil, err
	}
	e := convert(p)
	e.Warnings = append(e.Warnings, warnings...)
	build.Identify(e, "callgrind", identities)
	return e, nil
}

// headerKeys start the header lines of a callgrind or cachegrind file.
var headerKeys = []string{"version:", "creator:", "pid:", "cmd:", "part:", "thread:", "desc:", "positions:", "events:", "event:", "summary:", "totals:"}

// bodyPrefixes start the lines after the header: position and name
// specifications, calls and cost lines.
var bodyPrefixes = []string{"fl=", "fi=", "fe=", "fn=", "ob=", "cob=", "cfi=", "cfl=", "cfn=", "calls=", "jump=", "jcnd="}

// Detect recognises callgrind or cachegrind output: it starts with "#
// callgrind format", or its lines that are not empty or comments start
// with header lines such as "version: 1", "events: Ir" or "desc: I1
// cache: …" and no other "key:" line comes before the body (a YAML
// document such as HPCToolkit's metrics/default.yaml also starts with
// "version:").
func Detect(head []byte, path string) importer.Confidence {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	if bytes.HasPrefix(head, []byte("# callgrind format")) {
		return importer.Certain
	}
	headers := 0
	for len(head) > 0 {
		line, rest, complete := bytes.Cut(head, []byte("\n"))
		head = rest
		line = bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(line)) == 0 || line[0] == '#' {
			continue
		}
		if hasAnyPrefix(line, headerKeys) {
			headers++
			continue
		}
		if headers > 0 && (hasAnyPrefix(line, bodyPrefixes) || line[0] >= '0' && line[0] <= '9' || line[0] == '+' || line[0] == '-' || line[0] == '*') {
			break
		}
		if !complete && headers > 0 {
			break // the head ends inside the line
		}
		return importer.No
	}
	if headers == 0 {
		return importer.No
	}
	return importer.Likely
}

func hasAnyPrefix(line []byte, prefixes []string) bool {
	for _, p := range prefixes {
		if bytes.HasPrefix(line, []byte(p)) {
			return true
		}
	}
	return false
}

// convert builds the experiment: a flat call forest of the functions with
// their exclusive costs per part, and the call graph with the arcs'
// inclusive costs and each function's inclusive cost as callgrind_annotate
// computes it.
func convert(p *profile) *model.Experiment {
	b := build.New("callgrind")
	b.Attr("Creator", p.creator)
	b.Attr("callgrind format version", p.version)
	for i, pt := range p.parts {
		prefix := "callgrind "
		if len(p.parts) > 1 {
			prefix = fmt.Sprintf("callgrind part %d ", i+1)
		}
		for _, a := range pt.attrs {
			b.Attr(prefix+a[0], a[1])
		}
	}

	nev := len(p.events)
	costType, cost := model.Uint64, func(v uint64) float64 { return float64(v) }
	if p.signed { // a difference of profiles (cg_diff)
		costType, cost = model.Int64, func(v uint64) float64 { return float64(int64(v)) }
	}
	for _, ev := range p.events {
		disp := ev
		if l := p.longNames[ev]; l != "" {
			disp = l
		}
		b.Metric(ev, disp, "occ", costType, "callgrind event "+ev)
	}
	// Inherited events are linear combinations of recorded ones.
	type derived struct {
		metric  int
		factors []float64 // per recorded event
	}
	var inh []derived
	for _, d := range p.inherited {
		if b.E.MetricByName(d.name) >= 0 {
			continue
		}
		factors := make([]float64, nev)
		dtype, ok := costType, true
		for _, t := range d.terms {
			e := indexOf(p.events, t.event)
			if e < 0 {
				ok = false
				break
			}
			factors[e] += t.factor
			if t.factor != float64(int64(t.factor)) || t.factor < 0 {
				dtype = model.Double
			}
		}
		if !ok {
			continue
		}
		disp := d.name
		if l := p.longNames[d.name]; l != "" {
			disp = l
		}
		m := b.Metric(d.name, disp, "occ", dtype, "callgrind inherited event "+d.name)
		inh = append(inh, derived{m, factors})
	}
	visits := b.Metric("visits", "Visits", "occ", model.Uint64, "calls of the function, from the calls= lines")
	nm := len(b.E.Metrics)

	// values of all metrics from per-event values
	expand := func(ev []uint64, out []float64) {
		for e, v := range ev {
			out[e] = cost(v)
		}
		for _, d := range inh {
			var s float64
			for e, f := range d.factors {
				s += f * cost(ev[e])
			}
			out[d.metric] = s
		}
	}

	for i := range p.regions {
		r := &p.regions[i]
		reg, _ := b.Region(p.strs[r.fn], p.strs[r.file])
		rg := &b.E.Regions[reg]
		rg.Paradigm, rg.Role = "compiler", "function"
		if r.minLine > 0 && r.minLine <= 1<<31 {
			rg.Begin = int(r.minLine)
		}
		if r.obj >= 0 {
			rg.Attrs = append(rg.Attrs, model.Attr{Key: "object", Value: p.strs[r.obj]})
		}
		b.Cnode(-1, reg)
	}
	if len(p.regions) == 0 {
		r, _ := b.Region("<no functions>", "")
		b.Cnode(-1, r)
	}

	locs := partLocations(b, p)
	nl := len(b.E.Locations)
	vals := build.NewValues(nm, nl)
	tmp := make([]float64, nm)
	zero := make([]uint64, nev)
	for pi, pt := range p.parts {
		l := locs[pi]
		calls := map[int32]uint64{}
		for _, c := range pt.calls {
			calls[c.callee] += c.n
		}
		for s, r := range pt.regs {
			self := pt.vals[s*nev : (s+1)*nev]
			if allZero(self) && calls[r] == 0 {
				continue
			}
			expand(self, tmp)
			tmp[visits] = float64(calls[r])
			row := vals.Row(int(r))
			for m, v := range tmp {
				row[m*nl+l] = v
			}
		}
		for r, n := range calls { // functions that are only called
			if _, ok := pt.slot[r]; ok || n == 0 {
				continue
			}
			expand(zero, tmp)
			tmp[visits] = float64(n)
			row := vals.Row(int(r))
			for m, v := range tmp {
				row[m*nl+l] = v
			}
		}
	}

	g := &model.CallGraph{Inclusive: map[int][]float64{}}
	for i, a := range p.arcs {
		v := map[int]float64{}
		expand(p.arcCost[i*nev:(i+1)*nev], tmp)
		for m := 0; m < nm; m++ {
			if m != visits {
				v[m] = tmp[m]
			}
		}
		g.Arcs = append(g.Arcs, model.CallArc{Caller: int(a.caller), Callee: int(a.callee), Calls: clampCalls(a.calls), Values: v})
	}
	for m := 0; m < nm; m++ {
		if m != visits {
			g.Inclusive[m] = make([]float64, len(b.E.Regions))
		}
	}
	total := make([]uint64, nev)
	for r := range p.regions {
		clear(total)
		if p.called[r] {
			copy(total, p.inCalls[r*nev:(r+1)*nev])
		} else {
			for _, pt := range p.parts {
				if s, ok := pt.slot[int32(r)]; ok {
					for e, v := range pt.vals[int(s)*nev : (int(s)+1)*nev] {
						total[e] += v
					}
				}
			}
			for e, v := range p.outCalls[r*nev : (r+1)*nev] {
				total[e] += v
			}
		}
		expand(total, tmp)
		for m, incl := range g.Inclusive {
			incl[r] = tmp[m]
		}
	}
	b.E.CallGraph = g
	return b.Finish(vals)
}

// partLocations builds the system tree — a process per pid, a location per
// part — and returns each part's data column.
func partLocations(b *build.Builder, p *profile) []int {
	attr := func(pt *part, key string) string {
		for _, a := range pt.attrs {
			if a[0] == key {
				return a[1]
			}
		}
		return ""
	}
	m := b.TreeNode(-1, "machine", "machine")
	n := b.TreeNode(m, "node", "node")
	procs := map[string]int{}
	threads := map[int]int{}
	sys := make([]int, len(p.parts))
	for i, pt := range p.parts {
		pid := attr(pt, "pid")
		g, ok := procs[pid]
		if !ok {
			name := "process"
			if cmd := strings.Fields(attr(pt, "cmd")); len(cmd) > 0 {
				name = cmd[0]
			}
			if pid != "" {
				name += " (pid " + pid + ")"
			}
			g = b.Process(n, len(procs), name)
			procs[pid] = g
		}
		var parts []string
		if t := attr(pt, "thread"); t != "" {
			parts = append(parts, "thread "+t)
		}
		if len(p.parts) > 1 {
			if pn := attr(pt, "part"); pn != "" {
				parts = append(parts, "part "+pn)
			} else {
				parts = append(parts, "part "+strconv.Itoa(i+1))
			}
		}
		name := strings.Join(parts, ", ")
		if name == "" {
			name = "all threads"
		}
		sys[i] = b.Location(g, threads[g], "thread", name)
		threads[g]++
	}
	cols := b.Columns()
	out := make([]int, len(sys))
	for i, s := range sys {
		out[i] = cols[s]
	}
	return out
}

func clampCalls(n uint64) int64 {
	if n > 1<<62 {
		return 1 << 62
	}
	return int64(n)
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func allZero(s []uint64) bool {
	for _, v := range s {
		if v != 0 {
			return false
		}
	}
	return true
}
