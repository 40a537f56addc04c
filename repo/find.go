package repo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"cubeview/model"
)

// Query is a search for call paths (or regions) whose metrics meet a
// constraint, SCALEA's search over a repository.
type Query struct {
	// Metric is the metric that ranks the hits; without Constraint it is
	// also the one the single constraint (Share, MinShare, MinValue) is
	// about. A name is a metric's unique name as stored, inclusive along
	// the metric tree (time includes MPI time); in a trial without a
	// metric of that name, a canonical identity (time, visits, …) names
	// the metric of that identity.
	Metric string
	// Inclusive takes call-path values with their callees; otherwise each
	// call path's own (exclusive) value. It is the default of the
	// constraint's tests.
	Inclusive bool
	// Share, when true, asks for a value of at least MinShare times the
	// run's total of the metric (runs whose total is positive); otherwise
	// for a value of at least MinValue. Used without Constraint.
	Share    bool
	MinShare float64
	MinValue float64
	// Constraint, when set, is the condition a call path must meet, in
	// the constraint language (see constraint.go): tests such as
	// "time >= 10%" or "incl(mpi) < 2" joined by and, or, not. Hits are
	// ranked by Metric, or by the metric of the first test.
	Constraint string
	// Kind restricts the result to regions of a kind (see RegionKind):
	// "mpi", "omp", "user", …; empty: all.
	Kind string
	// Region restricts the result to regions whose name matches the
	// pattern (* any run of characters, ? one character); a pattern with
	// "/" matches the whole call path, region names joined by "/".
	Region string
	// Ranks and Threads restrict the values to locations whose process
	// rank and thread rank lie in one of the ranges, and Host to locations
	// below a system node (a machine, a node) whose name matches the
	// pattern; the run's total is then taken over the same locations.
	// Nil and "": all locations.
	Ranks, Threads []Range
	Host           string
	// Where restricts the trials searched (the filter language of Trials).
	Where string
	// Flat searches regions (the flat profile) instead of call paths.
	Flat bool
	// Limit bounds the number of hits returned; 0: all.
	Limit int
	// Derived defines metrics evaluated for the search from each trial's
	// metrics (after aggregation, as everywhere): Metric and the
	// constraint may name them, and one may use the ones before it.
	// Trials lacking an operand have no hits.
	Derived []model.DerivedMetric
}

// derived returns the search-time derived metric called name, if any.
func (q *Query) derived(name string) *model.Formula {
	for i := range q.Derived {
		if q.Derived[i].UniqName == name {
			return q.Derived[i].Formula
		}
	}
	return nil
}

// errMissing marks a metric a trial does not have.
var errMissing = errors.New("metric not in the trial")

// queryVectors returns the vectors of metric name, evaluating search-time
// derived metrics over what leaf returns for other names. Operands of
// derived metrics name stored metrics by their unique names, as in
// "cubeview derive"; a metric the query names itself may also be named
// by its canonical identity.
func (q *Query) queryVectors(name string, nc, nr int, leaf func(name string, operand bool) (vectors, error)) (vectors, error) {
	var get func(name string, depth int) (vectors, error)
	get = func(name string, depth int) (vectors, error) {
		f := q.derived(name)
		if f == nil {
			return leaf(name, depth > 0)
		}
		if depth > maxDerivedDepth {
			return vectors{}, fmt.Errorf("derived metric %q: definitions nest too deep or form a cycle", name)
		}
		return evalFormula(f, nc, nr, func(op string) (vectors, error) { return get(op, depth+1) })
	}
	return get(name, 0)
}

// storedNames returns the stored metrics names refer to, directly or as
// operands of search-time derived metrics.
func (q *Query) storedNames(names []string) []string {
	var out []string
	for _, r := range q.storedRefs(names) {
		out = append(out, r.name)
	}
	return out
}

// storedRef is a stored metric a query refers to, directly or as an
// operand of a derived metric.
type storedRef struct {
	name    string
	operand bool
}

// storedRefs returns the stored metrics names refer to, each once as
// named directly and once as an operand where it is both.
func (q *Query) storedRefs(names []string) []storedRef {
	seen := map[storedRef]bool{}
	var out []storedRef
	var walk func(name string, depth int)
	walk = func(name string, depth int) {
		if depth > maxDerivedDepth {
			return
		}
		if f := q.derived(name); f != nil {
			if seen[storedRef{name, true}] {
				return
			}
			seen[storedRef{name, true}] = true
			for _, op := range f.Metrics() {
				walk(op, depth+1)
			}
			return
		}
		ref := storedRef{name, depth > 0}
		if !seen[ref] {
			seen[ref] = true
			out = append(out, ref)
		}
	}
	for _, n := range names {
		walk(n, 0)
	}
	return out
}

// Range is an inclusive range of ranks.
type Range struct{ Lo, Hi int }

// ParseRanges reads "0-3,8,10-11".
func ParseRanges(s string) ([]Range, error) {
	var out []Range
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(strings.TrimSpace(hi))
		}
		if err1 != nil || err2 != nil || a < 0 || b < a {
			return nil, fmt.Errorf("bad rank range %q: want A-B with 0 ≤ A ≤ B, or a single rank, separated by commas", part)
		}
		out = append(out, Range{a, b})
	}
	return out, nil
}

func inRanges(rs []Range, v int) bool {
	if rs == nil {
		return true
	}
	for _, r := range rs {
		if v >= r.Lo && v <= r.Hi {
			return true
		}
	}
	return false
}

// Hit is one call path (or region) found.
type Hit struct {
	Trial                 int64
	App, Experiment, Name string
	// Cnode is the call path's index in the trial's experiment and CnodeID
	// its id in the file; both -1 for a region hit.
	Cnode, CnodeID int
	// Region is the region's index in the trial's experiment.
	Region int
	// Path is the call path (region names joined by "/") or, for a flat
	// search, the region's name.
	Path string
	// Value is the ranking metric's value, Total the run's total of it and
	// Share Value/Total (0 when the total is 0).
	Value        float64
	Total, Share float64
}

// plan is a checked query, ready to run.
type plan struct {
	q    Query
	x    *expr
	rank *test // the metric that ranks hits; not part of x when synthetic
	cond condition
}

// byShare reports whether hits rank by their share of the run's total.
func (p *plan) byShare() bool { return p.rank.share }

// perLocation reports whether values are taken over some locations only.
func (p *plan) perLocation() bool {
	return p.q.Ranks != nil || p.q.Threads != nil || p.q.Host != ""
}

// metricNames returns every metric name the plan uses, the ranking one first.
func (p *plan) metricNames() []string {
	names := []string{p.rank.metric}
	seen := map[string]bool{p.rank.metric: true}
	p.x.tests(func(t *test) {
		if !seen[t.metric] {
			seen[t.metric] = true
			names = append(names, t.metric)
		}
	})
	return names
}

// prepare checks q against the repository: a metric, kind or attribute
// that no trial has is an error naming it, with suggestions.
func (r *Repo) prepare(ctx context.Context, q Query) (*plan, error) {
	if math.IsNaN(q.MinShare) || math.IsNaN(q.MinValue) {
		return nil, errors.New("find: the threshold is not a number")
	}
	p := &plan{q: q}
	switch {
	case strings.TrimSpace(q.Constraint) != "":
		x, err := parseConstraint(q.Constraint, q.Inclusive)
		if err != nil {
			return nil, err
		}
		p.x = x
		if q.Metric == "" {
			p.x.tests(func(t *test) {
				if p.rank == nil {
					p.rank = t
				}
			})
		} else {
			p.x.tests(func(t *test) {
				if p.rank == nil && t.metric == q.Metric {
					p.rank = t
				}
			})
			if p.rank == nil {
				p.rank = &test{metric: q.Metric, incl: q.Inclusive, op: ">=", value: math.Inf(-1)}
			}
		}
	case q.Metric == "":
		return nil, errors.New("find: no metric given")
	default:
		t := &test{metric: q.Metric, incl: q.Inclusive, op: ">=", value: q.MinValue}
		if q.Share {
			t.share, t.value = true, q.MinShare
		}
		p.x, p.rank = &expr{op: 't', t: t}, t
	}
	p.q.Kind = strings.ToLower(strings.TrimSpace(q.Kind))
	cond, err := r.filter(ctx, q.Where)
	if err != nil {
		return nil, err
	}
	p.cond = cond
	names := dictionaryOf(r)
	if err := names.checkMetrics(ctx, &p.q, p.metricNames()); err != nil {
		return nil, err
	}
	if p.q.Kind != "" {
		if err := names.checkKind(ctx, p.q.Kind, p.q.storedNames(p.metricNames())); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Find runs a search: from the stored summaries and bounds, reading only
// the trials that can hold a hit (and, for the best Limit hits, only until
// no further trial can hold a better one); restricted to some locations,
// from each trial's data.
func (r *Repo) Find(ctx context.Context, q Query) ([]Hit, error) {
	p, err := r.prepare(ctx, q)
	if err != nil {
		return nil, err
	}
	var hits []Hit
	switch {
	case p.perLocation():
		hits, err = r.findEach(ctx, p)
	case r.legacySchema():
		if t := p.x.t; p.x.op == 't' && t == p.rank && len(q.Derived) == 0 && q.Region == "" && t.lowerBound() {
			hits, err = legacyFind(ctx, r, p.q, t, p.cond)
		} else {
			hits, err = r.findEach(ctx, p)
		}
	default:
		hits, err = r.findSummaries(ctx, p)
	}
	if err != nil {
		return nil, err
	}
	for i := range hits {
		if h := &hits[i]; h.Total != 0 {
			h.Share = h.Value / h.Total
		}
	}
	sortHits(hits, p.byShare())
	if q.Limit > 0 && len(hits) > q.Limit {
		hits = hits[:q.Limit]
	}
	return hits, nil
}

// rankKey is what hits are ranked by; NaN ranks last.
func rankKey(h *Hit, byShare bool) float64 {
	k := h.Value
	if byShare {
		k = h.Share
	}
	if math.IsNaN(k) {
		return math.Inf(-1)
	}
	return k
}

// better reports whether a ranks before b: larger key, then lower trial,
// call path and region.
func better(a, b *Hit, byShare bool) bool {
	ka, kb := rankKey(a, byShare), rankKey(b, byShare)
	if ka != kb {
		return ka > kb
	}
	if a.Trial != b.Trial {
		return a.Trial < b.Trial
	}
	if a.Cnode != b.Cnode {
		return a.Cnode < b.Cnode
	}
	return a.Region < b.Region
}

func sortHits(hits []Hit, byShare bool) {
	sort.SliceStable(hits, func(i, j int) bool { return better(&hits[i], &hits[j], byShare) })
}

// trialData is what a search evaluates in one trial.
type trialData struct {
	id                    int64
	app, experiment, name string
	tree                  *tree
	vec                   map[string]*vectors // by the name the query uses; nil: the trial lacks it
	// only, when not nil, lists the only call paths that can be hits
	// (ascending); the vectors hold values for these only.
	only []int
}

// evaluate appends the trial's hits.
func (p *plan) evaluate(td *trialData, hits []Hit) []Hit {
	return p.evaluateAbove(td, hits, math.Inf(-1), true)
}

// evaluateAbove appends the trial's hits that rank at floor or above,
// with their call paths only when paths is set (a search for the best few
// names only those it keeps, see fillPaths).
func (p *plan) evaluateAbove(td *trialData, hits []Hit, floor float64, paths bool) []Hit {
	q := &p.q
	byShare := p.byShare()
	below := func(val, total float64) bool {
		if floor == math.Inf(-1) {
			return false
		}
		h := Hit{Value: val, Total: total}
		if total != 0 {
			h.Share = val / total
		}
		return rankKey(&h, byShare) < floor
	}
	t := td.tree
	rv := td.vec[p.rank.metric]
	if rv == nil {
		return hits
	}
	byPath := strings.Contains(q.Region, "/")
	if q.Flat {
		for g := range t.name {
			if q.Kind != "" && t.kind[g] != q.Kind || q.Region != "" && !globMatch(q.Region, t.name[g]) {
				continue
			}
			if !p.x.eval(func(ts *test) (float64, float64, bool) {
				v := td.vec[ts.metric]
				if v == nil || g >= len(v.regExcl) {
					return 0, 0, false
				}
				if ts.incl {
					return v.regIncl[g], v.total, true
				}
				return v.regExcl[g], v.total, true
			}) {
				continue
			}
			val := rv.regExcl[g]
			if p.rank.incl {
				val = rv.regIncl[g]
			}
			if below(val, rv.total) {
				continue
			}
			h := Hit{Trial: td.id, App: td.app, Experiment: td.experiment, Name: td.name,
				Cnode: -1, CnodeID: -1, Region: g, Path: t.name[g], Value: val, Total: rv.total}
			if rv.total != 0 {
				h.Share = val / rv.total
			}
			hits = append(hits, h)
		}
		return hits
	}
	n := len(t.parent)
	if td.only != nil {
		n = len(td.only)
	}
	for i := 0; i < n; i++ {
		c := i
		if td.only != nil {
			c = td.only[i]
		}
		g := t.region[c]
		if q.Kind != "" && t.kind[g] != q.Kind {
			continue
		}
		if q.Region != "" {
			subject := t.name[g]
			if byPath {
				subject = t.path(c)
			}
			if !globMatch(q.Region, subject) {
				continue
			}
		}
		if !p.x.eval(func(ts *test) (float64, float64, bool) {
			v := td.vec[ts.metric]
			if v == nil || c >= len(v.excl) {
				return 0, 0, false
			}
			if ts.incl {
				return v.incl[c], v.total, true
			}
			return v.excl[c], v.total, true
		}) {
			continue
		}
		val := rv.excl[c]
		if p.rank.incl {
			val = rv.incl[c]
		}
		if below(val, rv.total) {
			continue
		}
		h := Hit{Trial: td.id, App: td.app, Experiment: td.experiment, Name: td.name,
			Cnode: c, CnodeID: t.id[c], Region: g, Value: val, Total: rv.total}
		if rv.total != 0 {
			h.Share = val / rv.total
		}
		if paths {
			h.Path = t.path(c)
		}
		hits = append(hits, h)
	}
	return hits
}

// fillPaths names the call paths of hits that evaluateAbove left unnamed.
func fillPaths(hits []Hit, trees map[int64]*tree) {
	for i := range hits {
		if h := &hits[i]; h.Path == "" && h.Cnode >= 0 {
			h.Path = trees[h.Trial].path(h.Cnode)
		}
	}
}

// findEach answers a search by opening every trial the filter selects
// and computing its values: for searches restricted to some locations
// (whose values the summaries do not hold) and for repositories of an
// older schema.
func (r *Repo) findEach(ctx context.Context, p *plan) ([]Hit, error) {
	type cand struct {
		trial                 int64
		app, experiment, name string
	}
	var cands []cand
	err := r.rows(ctx, `SELECT t.id, a.name, x.name, t.name`+trialFrom+` WHERE `+r.visible("t")+` AND `+p.cond.sql+` ORDER BY t.id`,
		p.cond.args, func(s scanner) error {
			var c cand
			err := s.Scan(&c.trial, r.d.str(&c.app), r.d.str(&c.experiment), r.d.str(&c.name))
			cands = append(cands, c)
			return err
		})
	if err != nil {
		return nil, fmt.Errorf("repository %s: find: %w", r.Name(), err)
	}
	var hits []Hit
	for _, c := range cands {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e, err := r.Open(ctx, c.trial)
		if err != nil {
			return nil, err
		}
		td, err := p.experimentData(e)
		if err != nil {
			return nil, fmt.Errorf("repository %s: trial %d: %w", r.Name(), c.trial, err)
		}
		if td == nil {
			continue
		}
		td.id, td.app, td.experiment, td.name = c.trial, c.app, c.experiment, c.name
		hits = p.evaluate(td, hits)
	}
	return hits, nil
}

// SearchExperiment runs q's constraint, kind, region and location
// restrictions over one experiment (q.Where and q.Limit do not apply).
// Hits carry no trial. It is what Find computes for each trial.
func SearchExperiment(e *model.Experiment, q Query) ([]Hit, error) {
	p := &plan{q: q}
	if strings.TrimSpace(q.Constraint) != "" {
		x, err := parseConstraint(q.Constraint, q.Inclusive)
		if err != nil {
			return nil, err
		}
		p.x = x
		x.tests(func(t *test) {
			if p.rank == nil && (q.Metric == "" || t.metric == q.Metric) {
				p.rank = t
			}
		})
		if p.rank == nil {
			p.rank = &test{metric: q.Metric, incl: q.Inclusive}
		}
	} else {
		t := &test{metric: q.Metric, incl: q.Inclusive, op: ">=", value: q.MinValue, share: q.Share}
		if q.Share {
			t.value = q.MinShare
		}
		p.x, p.rank = &expr{op: 't', t: t}, t
	}
	p.q.Kind = strings.ToLower(strings.TrimSpace(q.Kind))
	td, err := p.experimentData(e)
	if err != nil || td == nil {
		return nil, err
	}
	hits := p.evaluate(td, nil)
	for i := range hits {
		hits[i].Trial, hits[i].App, hits[i].Experiment, hits[i].Name = 0, "", "", ""
	}
	return hits, nil
}

// experimentData computes the values a search needs from an experiment,
// over the locations the query selects; nil when it selects none.
func (p *plan) experimentData(e *model.Experiment) (*trialData, error) {
	var cols []int
	if p.perLocation() {
		if cols = selectLocations(e, p.q.Ranks, p.q.Threads, p.q.Host); len(cols) == 0 {
			return nil, nil
		}
	}
	t, err := decodeTree(encodeTree(e))
	if err != nil {
		return nil, err
	}
	td := &trialData{tree: t, vec: map[string]*vectors{}}
	for _, name := range p.metricNames() {
		v, err := p.q.queryVectors(name, len(e.Cnodes), len(e.Regions), func(name string, operand bool) (vectors, error) {
			m := experimentMetric(e, name)
			if operand {
				m = e.MetricByName(name)
			}
			if m < 0 {
				return vectors{}, errMissing
			}
			return experimentVectors(e, m, cols, 0)
		})
		if errors.Is(err, errMissing) {
			continue
		}
		if err != nil {
			return nil, err
		}
		td.vec[name] = &v
	}
	return td, nil
}

// experimentMetric returns the metric name names in e: the metric of
// that unique name, else the one metric of that canonical identity.
func experimentMetric(e *model.Experiment, name string) int { return e.MetricNamed(name) }

// canonicalIdentity returns the canonical metric identity s names ("" for none).
func canonicalIdentity(s string) string { return model.CanonicalIdentity(s) }

// selectLocations returns the data columns whose process rank and thread
// rank lie in the ranges and that lie below a system node whose name
// matches host. A location's process rank is the rank of its location
// group (its own rank when it has none).
func selectLocations(e *model.Experiment, ranks, threads []Range, host string) []int {
	var cols []int
	for l := range e.Locations {
		n := e.Location(l)
		proc, grouped := n.Rank, false
		onHost := host == ""
		for p := n.Parent; p >= 0; p = e.System[p].Parent {
			if e.System[p].Kind == model.Group && !grouped {
				proc, grouped = e.System[p].Rank, true
			}
			if !onHost && globMatch(host, e.System[p].Name) {
				onHost = true
			}
		}
		if !onHost && globMatch(host, n.Name) {
			onHost = true
		}
		if inRanges(ranks, proc) && inRanges(threads, n.Rank) && onHost {
			cols = append(cols, l)
		}
	}
	return cols
}
