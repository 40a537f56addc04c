package model

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Dump writes a deterministic, complete text rendering of the experiment —
// metadata (the call graph included) and every non-zero value in canonical
// storage — for golden tests and round-trip comparisons. It omits Source,
// Format and the CUBE 4 storage Type, which describe the file rather than
// the experiment.
func (e *Experiment) Dump(w io.Writer) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	for _, a := range e.Attrs {
		p("attr %q %q\n", a.Key, a.Value)
	}
	for _, m := range e.Mirrors {
		p("mirror %q\n", m)
	}
	for _, i := range e.MetricOrder() {
		m := &e.Metrics[i]
		p("metric id=%d parent=%s uniq=%q disp=%q dtype=%q unit=%q aggr=%s val=%q url=%q descr=%q",
			m.ID, metricID(e, m.Parent), m.UniqName, m.DispName, m.DataType, m.Unit, m.Aggregation, m.Val, m.URL, m.Descr)
		if m.Expression != "" || m.InitExpression != "" || len(m.AggrExpressions) > 0 {
			p(" expr=%q init=%q aggr_expr=%s", m.Expression, m.InitExpression, attrString(m.AggrExpressions))
		}
		if m.VizType != "" {
			p(" viztype=%q", m.VizType)
		}
		if m.Unavailable != "" {
			p(" unavailable=%q", m.Unavailable)
		}
		if m.Approximate {
			p(" approximate")
		}
		if m.Present != 0 {
			p(" present=%b", m.Present)
		}
		if len(m.Attrs) > 0 {
			p(" attrs=%s", attrString(m.Attrs))
		}
		p("\n")
	}
	for i := range e.Regions {
		r := &e.Regions[i]
		p("region id=%d name=%q mangled=%q mod=%q begin=%d end=%d paradigm=%q role=%q url=%q descr=%q",
			r.ID, r.Name, r.MangledName, r.Module, r.Begin, r.End, r.Paradigm, r.Role, r.URL, r.Descr)
		if len(r.Attrs) > 0 {
			p(" attrs=%s", attrString(r.Attrs))
		}
		p("\n")
	}
	for _, i := range e.CnodeOrder() {
		c := &e.Cnodes[i]
		parent := "-"
		if c.Parent >= 0 {
			parent = strconv.Itoa(e.Cnodes[c.Parent].ID)
		}
		p("cnode id=%d parent=%s region=%d file=%q line=%d", c.ID, parent, e.Regions[c.Region].ID, c.CallFile, c.CallLine)
		for _, pa := range c.Params {
			p(" param(%s %q=%q)", pa.Type, pa.Key, pa.Value)
		}
		if len(c.Attrs) > 0 {
			p(" attrs=%s", attrString(c.Attrs))
		}
		if c.Present != 0 {
			p(" present=%b", c.Present)
		}
		p("\n")
	}
	for _, i := range e.SystemOrder() {
		n := &e.System[i]
		parent := "-"
		if n.Parent >= 0 {
			parent = fmt.Sprintf("%s:%d", e.System[n.Parent].Kind, e.System[n.Parent].ID)
		}
		p("%s id=%d parent=%s class=%q name=%q rank=%d descr=%q", n.Kind, n.ID, parent, n.Class, n.Name, n.Rank, n.Descr)
		if n.Kind == Leaf {
			p(" column=%d", n.Location)
		}
		if len(n.Attrs) > 0 {
			p(" attrs=%s", attrString(n.Attrs))
		}
		if n.Present != 0 {
			p(" present=%b", n.Present)
		}
		p("\n")
	}
	for _, t := range e.Topologies {
		p("topology %q", t.Name)
		for _, d := range t.Dims {
			p(" dim(%q %d %v)", d.Name, d.Size, d.Periodic)
		}
		p("\n")
		for _, c := range t.Coords {
			n := &e.System[c.Node]
			p("  coord %s:%d %v\n", n.Kind, n.ID, c.Coord)
		}
	}
	if g := e.CallGraph; g != nil {
		p("callgraph arcs=%d inclusive=%d\n", len(g.Arcs), len(g.Inclusive))
		for _, a := range g.Arcs {
			caller := "-"
			if a.Caller >= 0 {
				caller = strconv.Itoa(e.Regions[a.Caller].ID)
			}
			p("  arc caller=%s callee=%d calls=%d values=%s\n", caller, e.Regions[a.Callee].ID, a.Calls, arcValuesString(e, a.Values))
		}
		for _, mi := range e.MetricOrder() {
			vals, ok := g.Inclusive[mi]
			if !ok {
				continue
			}
			p("  inclusive %q\n", e.Metrics[mi].UniqName)
			for r, v := range vals {
				if v != 0 {
					p("    %d %s\n", e.Regions[r].ID, formatDumpFloat(v))
				}
			}
		}
	}
	for _, mi := range e.MetricOrder() {
		if e.Metrics[mi].IsDerived() {
			p("data %q derived\n", e.Metrics[mi].UniqName)
			continue
		}
		b, err := e.Block(mi)
		if err != nil {
			bw.Flush()
			return err
		}
		p("data %q\n", e.Metrics[mi].UniqName)
		for _, c := range e.CnodeOrder() {
			for l, v := range b.Row(c) {
				if v != 0 {
					p("  %d %d %s\n", e.Cnodes[c].ID, e.Location(l).ID, formatDumpFloat(v))
				}
			}
		}
		if err := b.Err(); err != nil {
			bw.Flush()
			return err
		}
	}
	return bw.Flush()
}

func formatDumpFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func metricID(e *Experiment, m int) string {
	if m < 0 {
		return "-"
	}
	return strconv.Itoa(e.Metrics[m].ID)
}

func attrString(as []Attr) string {
	var sb strings.Builder
	sb.WriteByte('{')
	for i, a := range as {
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%q=%q", a.Key, a.Value)
	}
	sb.WriteByte('}')
	return sb.String()
}
