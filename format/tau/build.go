package tau

import (
	"fmt"
	"math"
	"slices"

	"cubeview/model"
)

// experiment assembles what read collected.
func (r *reader) experiment() (*model.Experiment, error) {
	e := &model.Experiment{}
	r.attachPlainUser()

	// Metrics: each TAU metric, its sampled part, visits, samples, then
	// the atomic events' statistics in order of appearance.
	type def struct {
		out   int
		m     model.Metric
		scale float64
	}
	var defs []def
	used := map[string]bool{}
	add := func(o int, m model.Metric, scale float64) {
		for used[m.UniqName] {
			m.UniqName += "'"
		}
		used[m.UniqName] = true
		m.ID, m.Parent = len(defs), -1
		m.Aggregation = model.AggregationOf(m.DataType)
		defs = append(defs, def{o, m, scale})
	}
	for k := range r.metrics {
		name := r.metricName(k)
		for _, kind := range []int{outValue, outSampled} {
			o, ok := r.outIdx[outKey{kind: kind, k: k}]
			if !ok && kind == outSampled {
				continue
			}
			if !ok {
				o = r.out(outKey{kind: kind, k: k})
			}
			m := model.Metric{UniqName: name, DispName: name}
			if kind == outSampled {
				m.UniqName, m.DispName = name+" (sampled)", name+" (sampled)"
			}
			scale := 1.0
			if r.isTime[k] && !r.hwCounters[k] {
				m.Unit, m.DataType, scale = "sec", model.Double, 1e6
				m.Descr = fmt.Sprintf("TAU metric %s: the own time of each call path (the profile holds microseconds)", name)
			} else {
				m.Unit, m.DataType = "occ", r.countType(o)
				m.Descr = fmt.Sprintf("TAU metric %s: the own count of each call path", name)
			}
			if kind == outSampled {
				m.Descr = fmt.Sprintf("TAU event-based sampling: the part of %s that samples ([SAMPLE] events) attribute to code locations within instrumented contexts; an estimate beside %s, not a part of it", name, name)
			}
			add(o, m, scale)
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
		if key.kind != outUser {
			continue
		}
		m := model.Metric{UniqName: key.name + " (" + statNames[key.k] + ")", DispName: key.name + " (" + statNames[key.k] + ")"}
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
		add(o, m, 1)
	}
	metricOf := make([]int, len(r.outs))
	for i := range metricOf {
		metricOf[i] = -1
	}
	for i, d := range defs {
		e.Metrics = append(e.Metrics, d.m)
		metricOf[d.out] = i
	}

	e.Regions = r.regions
	e.Cnodes = make([]model.Cnode, 0, len(r.cnodes))
	for i, c := range r.cnodes {
		e.Cnodes = append(e.Cnodes, model.Cnode{ID: i, Region: c.region, Parent: c.parent, CallLine: -1})
	}
	r.buildSystem(e)
	e.Link()

	nc := len(e.Cnodes)
	for i, d := range defs {
		b := model.NewBlock(nc, r.nloc)
		for c, row := range r.rows[d.out] {
			if row == nil || c >= nc {
				continue
			}
			if d.scale != 1 {
				for l := range row {
					row[l] /= d.scale
				}
			}
			b.SetRow(c, row)
		}
		b.Compact()
		e.SetBlock(i, b)
	}

	if r.flat || !r.pathsSeen {
		g := &model.CallGraph{Inclusive: map[int][]float64{}}
		for o, vals := range r.inclusive {
			m := metricOf[o]
			if m < 0 {
				continue
			}
			full := make([]float64, len(r.regions))
			copy(full, vals)
			for reg := range full {
				full[reg] /= defs[m].scale
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
					arc.Values[m] = v / defs[m].scale
				}
			}
			g.Arcs = append(g.Arcs, arc)
		}
		e.CallGraph = g
	}

	e.Attrs = r.attributes()
	e.Format = fmt.Sprintf("TAU profile (%d threads, %d metric%s)", r.nloc, len(r.metrics), plural(len(r.metrics)))
	if r.flat {
		e.Format += ", call paths cut at TAU_CALLPATH_DEPTH kept as caller → callee arcs"
	}
	return e, nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// metricName returns TAU metric k's name: the MULTI__ directory's, else
// the file's own, else TIME.
func (r *reader) metricName(k int) string {
	if n := r.metrics[k]; n != "" {
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
	for _, row := range r.rows[o] {
		for _, v := range row {
			if v < 0 || v != math.Trunc(v) || v >= 1<<63 {
				return model.Double
			}
		}
	}
	return model.Uint64
}

// attachPlainUser puts atomic events without a call-path context on the
// main root: TAU's ".TAU application" where present, else the root whose
// region has the largest inclusive value of the first metric.
func (r *reader) attachPlainUser() {
	if len(r.plainOrder) == 0 {
		return
	}
	main := -1
	if reg, ok := r.regionIdx[".TAU application"]; ok && r.rootOf[reg] >= 0 {
		main = r.rootOf[reg]
	} else {
		incl := r.inclusive[r.outIdx[outKey{kind: outValue}]]
		best := 0.0
		for c := range r.cnodes {
			if r.cnodes[c].parent >= 0 {
				continue
			}
			v := 0.0
			if reg := r.cnodes[c].region; reg < len(incl) {
				v = incl[reg]
			}
			if main < 0 || v > best {
				best, main = v, c
			}
		}
	}
	if main < 0 {
		main = r.root(r.region([]byte(".TAU application")))
	}
	for _, name := range r.plainOrder {
		outs := r.userMetrics(name)
		for col, st := range r.plainUser[name] {
			if st[statCount] == 0 {
				continue
			}
			for s, o := range outs {
				r.row(o, main)[col] = st[s]
			}
		}
	}
}

// buildSystem makes machine → node (host name) → process (TAU node) →
// thread (context, thread), with data columns in (node, context, thread)
// order.
func (r *reader) buildSystem(e *model.Experiment) {
	e.System = append(e.System, model.SystemNode{ID: 0, Kind: model.TreeNode, Class: "machine", Name: "machine", Parent: -1, Location: -1})
	hostIdx := map[string]int{}
	contexts := map[int]bool{}
	for _, t := range r.l.threads {
		if t.context > 0 {
			contexts[t.node] = true
		}
	}
	procOf := map[int]int{}
	e.Locations = make([]int, r.nloc)
	for col, t := range r.l.threads {
		p, ok := procOf[t.node]
		if !ok {
			host := r.hostName(col)
			h, ok := hostIdx[host]
			if !ok {
				h = len(e.System)
				hostIdx[host] = h
				name := host
				if name == "" {
					name = "node"
				}
				e.System = append(e.System, model.SystemNode{ID: len(hostIdx), Kind: model.TreeNode, Class: "node", Name: name, Parent: 0, Location: -1})
			}
			p = len(e.System)
			procOf[t.node] = p
			e.System = append(e.System, model.SystemNode{ID: t.node, Kind: model.Group, Class: "process",
				Name: fmt.Sprintf("rank %d", t.node), Rank: t.node, Parent: h, Location: -1})
		}
		name := fmt.Sprintf("thread %d", t.thread)
		if contexts[t.node] {
			name = fmt.Sprintf("context %d thread %d", t.context, t.thread)
		}
		rank := 0
		for _, s := range e.System {
			if s.Kind == model.Leaf && s.Parent == p {
				rank++
			}
		}
		e.Locations[col] = len(e.System)
		e.System = append(e.System, model.SystemNode{ID: col, Kind: model.Leaf, Class: "thread", Name: name,
			Rank: rank, Parent: p, Location: col, Attrs: r.threadAttrs(col)})
	}
}

// threadAttrs returns the metadata of thread col that differ from the
// experiment's (thread 0's).
func (r *reader) threadAttrs(col int) []model.Attr {
	if col == 0 {
		return nil
	}
	return r.meta[col]
}

// hostName returns thread col's host as its metadata name it.
func (r *reader) hostName(col int) string {
	for _, key := range []string{"Hostname", "Node Name"} {
		v, ok := attrValue(r.meta[col], key)
		if !ok && col > 0 {
			v, ok = attrValue(r.meta[0], key)
		}
		if ok && v != "" {
			return v
		}
	}
	return ""
}

// attributes returns the experiment's attributes: the first thread's
// metadata, after a Creator naming TAU and its version.
func (r *reader) attributes() []model.Attr {
	var meta []model.Attr
	if len(r.meta) > 0 {
		meta = r.meta[0]
	}
	creator := "TAU"
	if v, ok := attrValue(meta, "TAU Version"); ok && v != "" {
		creator += " " + v
	}
	return append([]model.Attr{{Key: "Creator", Value: creator}}, meta...)
}
