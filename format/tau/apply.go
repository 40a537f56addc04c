package tau

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"cubeview/format/importer"
	"cubeview/model"
)

// apply adds the profile of thread col, TAU metric k, to the experiment.
func (r *reader) apply(col, k int, p *profile) {
	if p.hwCounters {
		r.hwCounters[k] = true
	}
	if r.fileMetric[k] == "" {
		r.fileMetric[k] = p.metric
	}
	if k == 0 {
		r.applyMeta(col, p)
	}
	if r.applied == 0 && k == 0 {
		paths := 0
		for i := range p.events {
			if isPathName(p.events[i].name) {
				paths++
			}
		}
		r.tree.reserve(len(p.events)-paths, max(paths, len(p.events)-paths))
		r.predictions = slices.Grow(r.predictions, len(p.events))
	}
	s := &r.fileScratch
	s.gen++
	s.touched = s.touched[:0]
	for i := range p.events {
		ev := &p.events[i]
		isPath, sample, idx := r.predict(i, ev)
		if isPath {
			r.applyPath(col, k, i, ev, sample, idx)
		} else {
			r.applyFlat(col, k, i, ev, sample, idx)
		}
	}
	r.settleRoots(col, k, p)
	if k == 0 {
		r.applyUser(col, p)
	}
}

// applyFlat adds an event that is not a call path: in flat mode an
// instrumented event is a root of its own; otherwise its values wait for
// settleRoots, which gives a root what no call path holds.
func (r *reader) applyFlat(col, k, i int, ev *event, sample bool, reg int) {
	valOut := r.valueOut(k, sample)
	if reg < 0 {
		reg = r.tree.region(ev.name)
		r.remember(i, false, sample, reg)
	}
	r.tree.setGroup(reg, ev.group)
	if !sample {
		r.addInclusive(valOut, reg, ev.incl)
	}
	if r.flat && !sample {
		c := r.tree.root(reg)
		r.add(valOut, c, col, ev.excl)
		if k == 0 {
			r.add(r.callsOut(false), c, col, ev.calls)
		}
		return
	}
	s := &r.fileScratch
	if s.flatStamp[reg] != s.gen {
		s.flatStamp[reg] = s.gen
		s.flat[reg] = [3]float64{}
		s.touched = append(s.touched, reg)
	}
	s.flat[reg][0] += ev.calls
	s.flat[reg][1] += ev.excl
	s.flat[reg][2] += ev.incl
	s.flatSample[reg] = sample
}

// applyPath adds a call-path event: its cnode gets the event's own values,
// or, for an instrumented path in flat mode, it becomes a caller → callee
// arc of the call graph.
func (r *reader) applyPath(col, k, i int, ev *event, sample bool, c int) {
	valOut := r.valueOut(k, sample)
	if !sample {
		r.pathsSeen = true
		if c < 0 {
			r.maxPathLen = max(r.maxPathLen, bytes.Count(ev.name, []byte(pathSeparator))+1)
		}
		if r.flat {
			r.addArc(k, ev, valOut)
			return
		}
	}
	if c < 0 {
		c = r.tree.pathCnode(ev.name)
		r.remember(i, true, sample, c)
	}
	r.add(valOut, c, col, ev.excl)
	if k == 0 {
		r.add(r.callsOut(sample), c, col, ev.calls)
	}
	s := &r.fileScratch
	cn := r.b.E.Cnodes
	last := cn[c].Region
	if s.endStamp[last] != s.gen {
		s.endStamp[last] = s.gen
		s.end[last] = [2]float64{}
	}
	s.end[last][0] += ev.calls
	s.end[last][1] += ev.excl
	s.firstStamp[r.tree.cinfo[c].rootRegion] = s.gen
	for x := c; x >= 0; x = cn[x].Parent {
		s.inStamp[cn[x].Region] = s.gen
	}
}

// addArc adds an instrumented call path's last step as a caller → callee
// arc with the path's calls and inclusive value.
func (r *reader) addArc(k int, ev *event, valOut int) {
	parts := splitPath(string(ev.name))
	caller, callee := r.tree.region([]byte(parts[len(parts)-2])), r.tree.region([]byte(parts[len(parts)-1]))
	a := r.arcs[arcKey{caller, callee}]
	if a == nil {
		a = &arcAcc{incl: map[int]float64{}, order: len(r.arcs)}
		r.arcs[arcKey{caller, callee}] = a
	}
	if k == 0 {
		a.calls += ev.calls
		a.hasCalls = true
	}
	a.incl[valOut] += ev.incl
}

// applyMeta keeps a thread's metadata: the first thread's are the
// experiment's, other threads keep what differs.
func (r *reader) applyMeta(col int, p *profile) {
	if r.meta0 != nil {
		r.meta[col] = r.differing(p.meta)
		return
	}
	r.meta[col] = attrs(p.meta)
	r.meta0 = make(map[string]string, len(r.meta[col]))
	for _, a := range r.meta[col] {
		r.meta0[a.Key] = a.Value
	}
	if v, ok := r.meta0["TAU_CALLPATH_DEPTH"]; ok {
		r.depthLimit, _ = strconv.Atoi(strings.TrimSpace(v))
	}
}

func isPathName(name []byte) bool {
	return bytes.Contains(name, []byte(pathSeparator))
}

// isSampleGroup reports whether a GROUP value marks an event of
// event-based sampling (TAU_SAMPLE, TAU_SAMPLE_CONTEXT, TAU_UNWIND).
func isSampleGroup(group []byte) bool {
	return bytes.Contains(group, []byte("TAU_SAMPLE")) || bytes.Contains(group, []byte("TAU_UNWIND"))
}

// valueOut returns the output of TAU metric k for instrumented or
// sampled events.
func (r *reader) valueOut(k int, sample bool) int {
	for len(r.valueOuts) <= k {
		r.valueOuts = append(r.valueOuts, [2]int{-1, -1})
	}
	s := 0
	if sample {
		s = 1
	}
	if o := r.valueOuts[k][s]; o >= 0 {
		return o
	}
	kind := outValue
	if sample {
		kind = outSampled
	}
	o := r.out(outKey{kind: kind, k: k})
	r.valueOuts[k][s] = o
	return o
}

// prediction remembers what the event at a position of the previous
// profile resolved to: profiles of one run list their events in much the
// same order, and comparing a name with the previous one is cheaper than
// hashing it.
type prediction struct {
	name           string
	isPath, sample bool
	idx            int // region, or cnode of a call path (not in flat mode)
}

// predict returns whether event i is a call path and a sample and, when
// the previous profile had the same name at position i, its region or
// cnode (else -1).
func (r *reader) predict(i int, ev *event) (isPath, sample bool, idx int) {
	if i < len(r.predictions) {
		p := &r.predictions[i]
		if p.name == string(ev.name) {
			if p.isPath && r.flat && !p.sample {
				return true, false, -1
			}
			return p.isPath, p.sample, p.idx
		}
	}
	return isPathName(ev.name), isSampleGroup(ev.group), -1
}

func (r *reader) remember(i int, isPath, sample bool, idx int) {
	for len(r.predictions) <= i {
		r.predictions = append(r.predictions, prediction{idx: -1})
	}
	var key string
	if isPath {
		key = r.tree.cinfo[idx].path
	} else {
		key = r.b.E.Regions[idx].Name
	}
	r.predictions[i] = prediction{name: key, isPath: isPath, sample: sample, idx: idx}
}

// callsOut returns the output of calls (instrumented events) or sample
// counts.
func (r *reader) callsOut(sample bool) int {
	i := 0
	if sample {
		i = 1
	}
	if o := r.countOuts[i]; o > 0 {
		return o - 1
	}
	kind := outVisits
	if sample {
		kind = outSamples
	}
	o := r.out(outKey{kind: kind})
	r.countOuts[i] = o + 1
	return o
}

func (r *reader) addInclusive(o, reg int, v float64) {
	vals := r.inclusive[o]
	for len(vals) <= reg {
		vals = append(vals, 0)
	}
	vals[reg] += v
	r.inclusive[o] = vals
}

// settleRoots gives each region of a profile the part of its flat values
// that no call path of two or more events holds: the values of its
// top-level calls, a root of the call tree.
func (r *reader) settleRoots(col, k int, p *profile) {
	s := &r.fileScratch
	for _, reg := range s.touched {
		calls, excl := s.flat[reg][0], s.flat[reg][1]
		var pathCalls, pathExcl float64
		if s.endStamp[reg] == s.gen {
			pathCalls, pathExcl = s.end[reg][0], s.end[reg][1]
		}
		remCalls, remExcl := calls-pathCalls, excl-pathExcl
		tol := 1e-9 * max(math.Abs(excl), math.Abs(pathExcl))
		if math.Abs(remExcl) <= tol {
			remExcl = 0
		}
		isRoot := s.firstStamp[reg] == s.gen || s.inStamp[reg] != s.gen
		if !isRoot && remCalls == 0 && remExcl == 0 {
			continue
		}
		if (remCalls < 0 || remExcl < 0) && r.problem == "" {
			r.problem = fmt.Sprintf("%s: the call paths ending in %s hold more than its own event", p.name, importer.Quote(r.b.E.Regions[reg].Name))
		}
		c := r.tree.root(reg)
		kind := outValue
		if s.flatSample[reg] {
			kind = outSampled
		}
		r.add(r.out(outKey{kind: kind, k: k}), c, col, remExcl)
		if k == 0 {
			r.add(r.callsOut(s.flatSample[reg]), c, col, remCalls)
		}
	}
}

// finishPaths decides whether the instrumented call paths form the call
// tree: they do not when they were cut at TAU's depth limit, when paths
// hold more than an event's own values, or when a region that calls
// others was never called at the top level.
func (r *reader) finishPaths() error {
	if r.flat || !r.pathsSeen {
		return nil
	}
	if r.depthLimit > 0 && r.maxPathLen >= r.depthLimit {
		return errTruncated
	}
	if r.problem != "" {
		return errTruncated
	}
	hasChildren := make([]bool, len(r.b.E.Cnodes))
	for _, c := range r.b.E.Cnodes {
		if c.Parent >= 0 {
			hasChildren[c.Parent] = true
		}
	}
	visits, hasVisits := r.outIdx[outKey{kind: outVisits}]
	if !hasVisits {
		return nil
	}
	for reg, c := range r.tree.rootOf {
		if c < 0 || !hasChildren[c] || r.b.E.Regions[reg].Paradigm == "sampling" {
			continue
		}
		if !r.vals.Has(visits, c) {
			return errTruncated
		}
	}
	return nil
}

// applyUser adds the atomic events of a profile of the first metric. An
// event with a call-path context ("name : a => b") waits for
// placeContextUser: where it goes depends on whether the run has call
// paths, known once every profile is read.
func (r *reader) applyUser(col int, p *profile) {
	s := &r.fileScratch
	if s.contextUser == nil {
		s.contextUser = map[string]bool{}
	}
	clear(s.contextUser)
	for i := range p.user {
		u := &p.user[i]
		if u.count == 0 {
			continue
		}
		if name, where, ok := r.splitContext(string(u.name)); ok {
			s.contextUser[name] = true
			r.userMetrics(name)
			r.ctxUser = append(r.ctxUser, ctxUser{col: col, name: name, where: where, st: stats(u)})
		}
	}
	for i := range p.user {
		u := &p.user[i]
		if u.count == 0 {
			continue
		}
		name := string(u.name)
		if _, _, ok := r.splitContext(name); ok || s.contextUser[name] {
			continue
		}
		vals, ok := r.plainUser[name]
		if !ok {
			vals = make([][numStats]float64, r.nloc)
			r.plainUser[name] = vals
			r.plainOrder = append(r.plainOrder, name)
		}
		st := stats(u)
		acc := &vals[col]
		if acc[statCount] == 0 {
			*acc = st
		} else {
			combineStats(acc, st)
		}
		r.userMetrics(name)
	}
}

// ctxUser is an atomic event of a thread with its call-path context.
type ctxUser struct {
	col         int
	name, where string
	st          [numStats]float64
}

// placeContextUser puts the atomic events with a context on their call
// path or, in an experiment without call paths (a flat forest), on the
// root of the event that fired them: the context's last event. No call
// path is invented from a context.
func (r *reader) placeContextUser() {
	for _, u := range r.ctxUser {
		var c int
		if r.flat || !r.pathsSeen {
			parts := splitPath(u.where)
			c = r.tree.root(r.tree.region([]byte(parts[len(parts)-1])))
		} else {
			c = r.tree.pathCnode([]byte(u.where))
		}
		r.addStats(u.name, c, u.col, u.st)
	}
}

// splitContext splits a context event "name : a => b" into its name and
// call path; the path must be a call path or a known event.
func (r *reader) splitContext(full string) (name, where string, ok bool) {
	i := strings.Index(full, " : ")
	if i < 0 {
		return "", "", false
	}
	name, where = strings.TrimSpace(full[:i]), strings.TrimSpace(full[i+3:])
	if where == "" || name == "" {
		return "", "", false
	}
	if strings.Contains(where, pathSeparator) {
		return name, where, true
	}
	if _, known := r.tree.regionIdx[where]; known {
		return name, where, true
	}
	return "", "", false
}

func stats(u *userEvent) [numStats]float64 {
	return [numStats]float64{u.count, u.mean * u.count, u.min, u.max, u.sumsqr}
}

func combineStats(acc *[numStats]float64, st [numStats]float64) {
	acc[statCount] += st[statCount]
	acc[statSum] += st[statSum]
	acc[statMin] = math.Min(acc[statMin], st[statMin])
	acc[statMax] = math.Max(acc[statMax], st[statMax])
	acc[statSumSqr] += st[statSumSqr]
}

// userMetrics makes sure the outputs of user event name exist, in order.
func (r *reader) userMetrics(name string) [numStats]int {
	var outs [numStats]int
	for st := range outs {
		outs[st] = r.out(outKey{kind: outUser, k: st, name: name})
	}
	return outs
}

func (r *reader) addStats(name string, c, col int, st [numStats]float64) {
	outs := r.userMetrics(name)
	row := func(st int) []float64 { return r.vals.Row(outs[st], c) }
	first := row(statCount)[col] == 0
	row(statCount)[col] += st[statCount]
	row(statSum)[col] += st[statSum]
	row(statSumSqr)[col] += st[statSumSqr]
	if first {
		row(statMin)[col], row(statMax)[col] = st[statMin], st[statMax]
	} else {
		row(statMin)[col] = math.Min(row(statMin)[col], st[statMin])
		row(statMax)[col] = math.Max(row(statMax)[col], st[statMax])
	}
}

// differing returns the metadata that differ from the first thread's.
func (r *reader) differing(raw []rawAttr) []model.Attr {
	var out []model.Attr
	for _, a := range raw {
		v, ok := r.meta0[string(a.key)]
		if ok && bytes.IndexByte(a.key, '&') < 0 && bytes.IndexByte(a.value, '&') < 0 && v == string(a.value) {
			continue
		}
		key, val := text(a.key), text(a.value)
		if v, ok := r.meta0[key]; ok && v == val {
			continue
		}
		out = append(out, model.Attr{Key: key, Value: val})
	}
	return out
}

func attrValue(as []model.Attr, key string) (string, bool) {
	for _, a := range as {
		if a.Key == key {
			return a.Value, true
		}
	}
	return "", false
}
