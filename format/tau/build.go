package tau

import (
	"fmt"
	"math"
	"slices"

	"cubeview/model"
)

// metricOut is an experiment metric and the output that holds its values.
type metricOut struct {
	out int
	m   model.Metric
	div float64 // values are divided by div: microseconds to seconds
}

// experiment assembles what read collected: metrics, the system tree of
// the threads read, the data, the call graph where the call paths are not
// the call tree, and the attributes.
func (r *reader) experiment() *model.Experiment {
	r.placeContextUser()
	r.attachPlainUser()
	defs := r.metricOuts()
	metricOf := make([]int, len(r.outs))
	for i := range metricOf {
		metricOf[i] = -1
	}
	b := r.b
	for i, d := range defs {
		m := b.Metric(d.m.UniqName, d.m.DispName, d.m.Unit, d.m.DataType, d.m.Descr)
		metricOf[d.out] = m
		if m != i {
			panic("tau: metric order")
		}
	}
	cols := r.buildSystem()
	e := b.Finish(nil)
	for i, d := range defs {
		e.SetBlock(i, r.vals.Block(d.out, len(e.Cnodes), d.div, cols))
	}
	if r.flat || !r.pathsSeen {
		e.CallGraph = r.callGraph(defs, metricOf)
	}
	e.Attrs = r.attributes()
	e.Warnings = append(e.Warnings, r.warnings...)
	return e
}

// metricOuts defines the metrics in order: each TAU metric and its
// sampled part, visits, samples, then the atomic events' statistics in
// order of appearance. Unique names stay unique.
func (r *reader) metricOuts() []metricOut {
	var defs []metricOut
	used := map[string]bool{}
	add := func(o int, m model.Metric, div float64) {
		for used[m.UniqName] {
			m.UniqName += "'"
		}
		used[m.UniqName] = true
		defs = append(defs, metricOut{o, m, div})
	}
	for k := range r.metrics {
		for _, kind := range []int{outValue, outSampled} {
			o, ok := r.outIdx[outKey{kind: kind, k: k}]
			if !ok && kind == outSampled {
				continue
			}
			if !ok {
				o = r.out(outKey{kind: kind, k: k})
			}
			m, div := r.tauMetric(k, o, kind == outSampled)
			add(o, m, div)
		}
	}
	if o, ok := r.outIdx[outKey{kind: outVisits}]; ok {
		add(o, model.Metric{UniqName: "visits", DispName: "Visits", Unit: "occ", DataType: r.countType(o),
			Descr: "Number of calls (TAU's Calls column)"}, 1)
	}
	if o, ok := r.outIdx[outKey{kind: outSamples}]; ok {
		add(o, model.Metric{UniqName: "samples", DispName: "Samples", Unit: "occ", DataType: r.countType(o),
			Descr: "Number of samples of TAU's event-based sampling"}, 1)
	}
	for o, key := range r.outs {
		if key.kind == outUser {
			add(o, r.userMetric(o, key), 1)
		}
	}
	return defs
}

// tauMetric defines the metric of TAU metric k held by output o: its
// instrumented values or, sampled, the samples' estimate beside them.
func (r *reader) tauMetric(k, o int, sampled bool) (model.Metric, float64) {
	name := r.metricName(k)
	m := model.Metric{UniqName: name, DispName: name}
	if sampled {
		m.UniqName, m.DispName = name+" (sampled)", name+" (sampled)"
	}
	div := 1.0
	if r.metrics[k].isTime && !r.hwCounters[k] {
		m.Unit, m.DataType, div = "sec", model.Double, 1e6
		m.Descr = fmt.Sprintf("TAU metric %s: the own time of each call path (the profile holds microseconds)", name)
	} else {
		m.Unit, m.DataType = "occ", r.countType(o)
		m.Descr = fmt.Sprintf("TAU metric %s: the own count of each call path", name)
	}
	if sampled {
		m.Descr = fmt.Sprintf("TAU event-based sampling: the part of %s that samples ([SAMPLE] events) attribute to code locations within instrumented contexts; an estimate beside %s, not a part of it", name, name)
	}
	return m, div
}

// userMetric defines one statistic of an atomic event, held by output o.
func (r *reader) userMetric(o int, key outKey) model.Metric {
	name := key.name + " (" + statNames[key.k] + ")"
	m := model.Metric{UniqName: name, DispName: name}
	switch key.k {
	case statCount:
		m.DataType, m.Unit = r.countType(o), "occ"
		m.Descr = "TAU atomic event " + key.name + ": number of events"
	case statSum:
		m.DataType = model.Double
		m.Descr = "TAU atomic event " + key.name + ": sum of the values (the profile's mean × number of events); the mean is this sum over the count"
	case statMin:
		m.DataType = model.MinDouble
		m.Descr = "TAU atomic event " + key.name + ": smallest value"
	case statMax:
		m.DataType = model.MaxDouble
		m.Descr = "TAU atomic event " + key.name + ": largest value"
	case statSumSqr:
		m.DataType = model.Double
		m.Descr = "TAU atomic event " + key.name + ": sum of the squared values"
	}
	return m
}

// callGraph holds TAU's own inclusive values of the instrumented metrics
// per region (summed over the threads read) and the caller → callee arcs
// of call paths cut at TAU_CALLPATH_DEPTH.
func (r *reader) callGraph(defs []metricOut, metricOf []int) *model.CallGraph {
	g := &model.CallGraph{Inclusive: map[int][]float64{}}
	nr := len(r.b.E.Regions)
	for o, vals := range r.inclusive {
		m := metricOf[o]
		if m < 0 {
			continue
		}
		full := make([]float64, nr)
		copy(full, vals)
		for reg := range full {
			full[reg] /= defs[m].div
		}
		g.Inclusive[m] = full
	}
	type keyed struct {
		k arcKey
		a *arcAcc
	}
	var arcs []keyed
	for k, a := range r.arcs {
		arcs = append(arcs, keyed{k, a})
	}
	slices.SortFunc(arcs, func(x, y keyed) int { return x.a.order - y.a.order })
	for _, x := range arcs {
		arc := model.CallArc{Caller: x.k.caller, Callee: x.k.callee, Calls: -1, Values: map[int]float64{}}
		if x.a.hasCalls && x.a.calls >= 0 && x.a.calls == math.Trunc(x.a.calls) && x.a.calls < 1<<62 {
			arc.Calls = int64(x.a.calls)
		}
		for o, v := range x.a.incl {
			if m := metricOf[o]; m >= 0 && v != 0 {
				arc.Values[m] = v / defs[m].div
			}
		}
		g.Arcs = append(g.Arcs, arc)
	}
	return g
}

// metricName returns TAU metric k's name: the source's, else the one its
// profiles state, else TIME.
func (r *reader) metricName(k int) string {
	if n := r.metrics[k].name; n != "" {
		return n
	}
	if n := r.fileMetric[k]; n != "" {
		return n
	}
	if r.hwCounters[k] {
		return "COUNTER"
	}
	return "TIME"
}

// countType is UINT64 when every value of output o is a whole
// non-negative number, DOUBLE otherwise.
func (r *reader) countType(o int) model.DataType {
	whole := r.vals.All(o, func(v float64) bool { return v >= 0 && v == math.Trunc(v) && v < 1<<63 })
	if whole {
		return model.Uint64
	}
	return model.Double
}

// attachPlainUser puts atomic events without a call-path context on the
// main root: TAU's ".TAU application" where present, else the root whose
// region has the largest inclusive value of the first metric.
func (r *reader) attachPlainUser() {
	if len(r.plainOrder) == 0 {
		return
	}
	main := -1
	if reg, ok := r.tree.regionIdx[".TAU application"]; ok && r.tree.rootOf[reg] >= 0 {
		main = r.tree.rootOf[reg]
	} else {
		incl := r.inclusive[r.outIdx[outKey{kind: outValue}]]
		best := 0.0
		for c, cn := range r.b.E.Cnodes {
			if cn.Parent >= 0 {
				continue
			}
			v := 0.0
			if cn.Region < len(incl) {
				v = incl[cn.Region]
			}
			if main < 0 || v > best {
				best, main = v, c
			}
		}
	}
	if main < 0 {
		main = r.tree.root(r.tree.region([]byte(".TAU application")))
	}
	for _, name := range r.plainOrder {
		outs := r.userMetrics(name)
		for col, st := range r.plainUser[name] {
			if st[statCount] == 0 {
				continue
			}
			for s, o := range outs {
				r.vals.Row(o, main)[col] = st[s]
			}
		}
	}
}

// buildSystem adds machine → node (host name) → process (TAU node) →
// thread (context, thread) for the threads read, and returns the thread
// column of each location (nil when that is the identity).
func (r *reader) buildSystem() []int {
	b := r.b
	machine := b.TreeNode(-1, "machine", "machine")
	hostIdx := map[string]int{}
	contexts := map[int]bool{}
	for _, t := range r.threads {
		if t.context > 0 {
			contexts[t.node] = true
		}
	}
	procOf := map[int]int{}
	threadsOf := map[int]int{}
	sysOf := make([]int, r.nloc)
	for col, t := range r.threads {
		sysOf[col] = -1
		if r.dropped[col] {
			continue
		}
		p, ok := procOf[t.node]
		if !ok {
			host := r.hostName(col)
			h, ok := hostIdx[host]
			if !ok {
				name := host
				if name == "" {
					name = "node"
				}
				h = b.TreeNode(machine, "node", name)
				hostIdx[host] = h
			}
			p = b.Process(h, t.node, fmt.Sprintf("rank %d", t.node))
			procOf[t.node] = p
		}
		name := fmt.Sprintf("thread %d", t.thread)
		if contexts[t.node] {
			name = fmt.Sprintf("context %d thread %d", t.context, t.thread)
		}
		l := b.Location(p, threadsOf[p], "thread", name)
		threadsOf[p]++
		b.E.System[l].Attrs = r.threadAttrs(col)
		sysOf[col] = l
	}
	locOf := b.Columns()
	cols := make([]int, len(b.E.Locations))
	identity := len(cols) == r.nloc
	for col, l := range sysOf {
		if l >= 0 {
			cols[locOf[l]] = col
			identity = identity && locOf[l] == col
		}
	}
	if identity {
		return nil
	}
	return cols
}

// threadAttrs returns the metadata of thread col that differ from the
// experiment's (the first thread's).
func (r *reader) threadAttrs(col int) []model.Attr {
	for c := range col {
		if !r.dropped[c] {
			return r.meta[col]
		}
	}
	return nil
}

// hostName returns thread col's host as its metadata name it.
func (r *reader) hostName(col int) string {
	first := r.firstRead()
	for _, key := range []string{"Hostname", "Node Name"} {
		v, ok := attrValue(r.meta[col], key)
		if !ok && col != first {
			v, ok = attrValue(r.meta[first], key)
		}
		if ok && v != "" {
			return v
		}
	}
	return ""
}

// firstRead returns the column of the first thread read.
func (r *reader) firstRead() int {
	for c, d := range r.dropped {
		if !d {
			return c
		}
	}
	return 0
}

// attributes returns the experiment's attributes: the first thread's
// metadata, after a Creator naming TAU and its version.
func (r *reader) attributes() []model.Attr {
	meta := r.meta[r.firstRead()]
	creator := "TAU"
	if v, ok := attrValue(meta, "TAU Version"); ok && v != "" {
		creator += " " + v
	}
	return append([]model.Attr{{Key: "Creator", Value: creator}}, meta...)
}
