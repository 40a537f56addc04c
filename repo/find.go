package repo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"cubeview/model"
)

// Query is a search for call paths (or regions) whose metric meets a
// constraint, SCALEA's search over a repository.
type Query struct {
	// Metric is the uniq_name of the metric, as stored: inclusive along
	// the metric tree (time includes MPI time). In a trial without a
	// metric of that name, a canonical identity (time, visits, …) names
	// the metric of that identity, so one search covers trials of
	// different tools.
	Metric string
	// Inclusive takes call-path values with their callees; otherwise each
	// call path's own (exclusive) value.
	Inclusive bool
	// Share, when true, asks for a value of at least MinShare times the
	// run's total of the metric (runs whose total is positive); otherwise
	// for a value of at least MinValue.
	Share    bool
	MinShare float64
	MinValue float64
	// Kind restricts the result to regions of a kind (see RegionKind):
	// "mpi", "omp", "user", …; empty: all.
	Kind string
	// Ranks and Threads restrict the values to locations whose process
	// rank and thread rank lie in one of the ranges; the run's total is
	// then taken over the same locations. Nil: all locations.
	Ranks, Threads []Range
	// Where restricts the trials searched (the filter language of Trials).
	Where string
	// Flat searches regions (the flat profile) instead of call paths.
	Flat bool
	// Limit bounds the number of hits returned; 0: all.
	Limit int
	// Derived defines metrics evaluated for the search from each trial's
	// metrics (after aggregation, as everywhere): Metric may name one,
	// and one may use the ones before it. Trials lacking an operand are
	// skipped.
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

// metricNamed returns the SQL condition on a metric row m (and its bind
// values) that selects, in each trial, the metric name names as
// model.Experiment.MetricNamed does: the metric of that unique name, or
// where a trial has none, the metric of that canonical identity ("time"
// finds TAU's TIME and Caliper's sum#time.duration).
func (r *Repo) metricNamed(name string) (string, []any) {
	id := model.CanonicalIdentity(name)
	if id == "" {
		return "(m.uniq_hash = ? AND m.uniq = ?)", []any{textHash(name), r.d.text(name)}
	}
	return `((m.uniq_hash = ? AND m.uniq = ?) OR (m.canonical = ? AND NOT EXISTS
		(SELECT 1 FROM metric n WHERE n.trial = m.trial AND n.uniq_hash = ? AND n.uniq = ?)))`,
		[]any{textHash(name), r.d.text(name), r.d.text(id), textHash(name), r.d.text(name)}
}

// errMissing marks a metric a trial does not have: the trial is skipped.
var errMissing = errors.New("metric not in the trial")

// queryVectors returns the vectors of the searched metric, evaluating
// search-time derived metrics over what leaf returns for other names.
func (q *Query) queryVectors(nc, nr int, leaf func(name string) (vectors, error)) (vectors, error) {
	var get func(name string, depth int) (vectors, error)
	get = func(name string, depth int) (vectors, error) {
		f := q.derived(name)
		if f == nil {
			return leaf(name)
		}
		if depth > maxDerivedDepth {
			return vectors{}, fmt.Errorf("derived metric %q: definitions nest too deep or form a cycle", name)
		}
		return evalFormula(f, nc, nr, func(op string) (vectors, error) { return get(op, depth+1) })
	}
	return get(q.Metric, 0)
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
	Path  string
	Value float64
	// Total is the run's total of the metric and Share Value/Total (0 when
	// the total is 0).
	Total, Share float64
}

// meets reports whether v meets q's constraint for a run total.
func (q *Query) meets(v, total float64) bool {
	if q.Share {
		return total > 0 && v >= q.MinShare*total
	}
	return v >= q.MinValue
}

// Find runs a search. Without a rank restriction it runs in SQL on the
// stored summaries; with one it reads the metric's data of each trial.
func (r *Repo) Find(ctx context.Context, q Query) ([]Hit, error) {
	if q.Metric == "" {
		return nil, errors.New("find: no metric given")
	}
	if math.IsNaN(q.MinShare) || math.IsNaN(q.MinValue) {
		return nil, errors.New("find: the threshold is not a number")
	}
	cond, err := compileFilter(r.d, q.Where)
	if err != nil {
		return nil, err
	}
	var hits []Hit
	switch {
	case q.Ranks != nil || q.Threads != nil:
		hits, err = r.findPerLocation(ctx, q, cond)
	case q.derived(q.Metric) != nil:
		hits, err = r.findDerived(ctx, q, cond)
	default:
		hits, err = r.findSQL(ctx, q, cond)
	}
	if err != nil {
		return nil, err
	}
	for i := range hits {
		if h := &hits[i]; h.Total != 0 {
			h.Share = h.Value / h.Total
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := &hits[i], &hits[j]
		ka, kb := a.Value, b.Value
		if q.Share {
			ka, kb = a.Share, b.Share
		}
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
	})
	if q.Limit > 0 && len(hits) > q.Limit {
		hits = hits[:q.Limit]
	}
	return hits, nil
}

func (r *Repo) findSQL(ctx context.Context, q Query, cond condition) ([]Hit, error) {
	val := "s.excl"
	if q.Inclusive {
		val = "s.incl"
	}
	var sb strings.Builder
	var args []any
	if q.Flat {
		sb.WriteString(`SELECT m.trial, a.name, x.name, t.name, -1, -1, g.idx, g.name, ` + val + `, m.total
			FROM metric m
			JOIN region_stat s ON s.trial = m.trial AND s.metric = m.idx
			JOIN region g ON g.trial = s.trial AND g.idx = s.region`)
	} else {
		sb.WriteString(`SELECT m.trial, a.name, x.name, t.name, c.idx, c.id, c.region, c.path, ` + val + `, m.total
			FROM metric m
			JOIN cnode_stat s ON s.trial = m.trial AND s.metric = m.idx
			JOIN cnode c ON c.trial = s.trial AND c.idx = s.cnode`)
		if q.Kind != "" {
			sb.WriteString(` JOIN region g ON g.trial = c.trial AND g.idx = c.region`)
		}
	}
	sb.WriteString(`
		JOIN trial t ON t.id = m.trial
		JOIN experiment x ON x.id = t.experiment
		JOIN application a ON a.id = x.application
		WHERE `)
	where, wargs := r.metricNamed(q.Metric)
	sb.WriteString(where)
	args = append(args, wargs...)
	if q.Share {
		sb.WriteString(` AND m.total > 0 AND ` + val + ` >= ? * m.total`)
		args = append(args, q.MinShare)
	} else {
		sb.WriteString(` AND ` + val + ` >= ?`)
		args = append(args, q.MinValue)
	}
	if q.Kind != "" {
		sb.WriteString(` AND g.kind = ?`)
		args = append(args, r.d.text(q.Kind))
	}
	sb.WriteString(` AND ` + cond.sql)
	args = append(args, cond.args...)
	var hits []Hit
	err := r.rows(ctx, sb.String(), args, func(s scanner) error {
		var h Hit
		err := s.Scan(&h.Trial, &h.App, &h.Experiment, &h.Name, &h.Cnode, &h.CnodeID, &h.Region, &h.Path, &h.Value, &h.Total)
		hits = append(hits, h)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("repository %s: find: %w", r.Name(), err)
	}
	return hits, nil
}

// findPerLocation answers a search restricted to some locations from the
// stored data of each trial that has the metric.
func (r *Repo) findPerLocation(ctx context.Context, q Query, cond condition) ([]Hit, error) {
	type cand struct {
		trial                 int64
		app, experiment, name string
	}
	var cands []cand
	has, args := "1=1", cond.args
	if q.derived(q.Metric) == nil {
		where, wargs := r.metricNamed(q.Metric)
		has = "EXISTS (SELECT 1 FROM metric m WHERE m.trial = t.id AND " + where + ")"
		args = append(wargs, cond.args...)
	}
	err := r.rows(ctx, `SELECT t.id, a.name, x.name, t.name`+trialFrom+`
		WHERE `+has+` AND `+cond.sql+` ORDER BY t.id`, args,
		func(s scanner) error {
			var c cand
			err := s.Scan(&c.trial, &c.app, &c.experiment, &c.name)
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
		found, err := SearchExperiment(e, q)
		if err != nil {
			return nil, fmt.Errorf("repository %s: trial %d: %w", r.Name(), c.trial, err)
		}
		for _, h := range found {
			h.Trial, h.App, h.Experiment, h.Name = c.trial, c.app, c.experiment, c.name
			hits = append(hits, h)
		}
	}
	return hits, nil
}

// SearchExperiment runs q's metric constraint, kind and rank restriction
// over one experiment (q.Where and q.Limit do not apply). Hits carry no
// trial. It is what Find computes for each trial.
func SearchExperiment(e *model.Experiment, q Query) ([]Hit, error) {
	var cols []int
	if q.Ranks != nil || q.Threads != nil {
		if cols = selectLocations(e, q.Ranks, q.Threads); len(cols) == 0 {
			return nil, nil
		}
	}
	v, err := q.queryVectors(len(e.Cnodes), len(e.Regions), func(name string) (vectors, error) {
		m := e.MetricNamed(name)
		if m < 0 {
			return vectors{}, errMissing
		}
		return experimentVectors(e, m, cols, 0)
	})
	if errors.Is(err, errMissing) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var hits []Hit
	if q.Flat {
		vals := v.regExcl
		if q.Inclusive {
			vals = v.regIncl
		}
		for g := range e.Regions {
			if (q.Kind == "" || RegionKind(&e.Regions[g]) == q.Kind) && q.meets(vals[g], v.total) {
				hits = append(hits, Hit{Cnode: -1, CnodeID: -1, Region: g, Path: e.Regions[g].Name, Value: vals[g], Total: v.total})
			}
		}
		return hits, nil
	}
	vals := v.excl
	if q.Inclusive {
		vals = v.incl
	}
	paths := callPaths(e)
	for c := range e.Cnodes {
		g := e.Cnodes[c].Region
		if (q.Kind == "" || RegionKind(&e.Regions[g]) == q.Kind) && q.meets(vals[c], v.total) {
			hits = append(hits, Hit{Cnode: c, CnodeID: e.Cnodes[c].ID, Region: g, Path: paths[c], Value: vals[c], Total: v.total})
		}
	}
	return hits, nil
}

// findDerived answers a search for a search-time derived metric from the
// stored summaries of its operands, trial by trial.
func (r *Repo) findDerived(ctx context.Context, q Query, cond condition) ([]Hit, error) {
	type cand struct {
		trial                 int64
		app, experiment, name string
		nc, nr                int
	}
	var cands []cand
	err := r.rows(ctx, `SELECT t.id, a.name, x.name, t.name,
		(SELECT COUNT(*) FROM cnode c WHERE c.trial = t.id), (SELECT COUNT(*) FROM region g WHERE g.trial = t.id)`+trialFrom+`
		WHERE `+cond.sql+` ORDER BY t.id`, cond.args, func(s scanner) error {
		var c cand
		err := s.Scan(&c.trial, &c.app, &c.experiment, &c.name, &c.nc, &c.nr)
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
		v, err := q.queryVectors(c.nc, c.nr, func(name string) (vectors, error) { return r.storedVectors(ctx, c.trial, name, c.nc, c.nr) })
		if errors.Is(err, errMissing) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("repository %s: trial %d: %w", r.Name(), c.trial, err)
		}
		found, err := r.hitsOf(ctx, c.trial, q, v)
		if err != nil {
			return nil, err
		}
		for _, h := range found {
			h.Trial, h.App, h.Experiment, h.Name = c.trial, c.app, c.experiment, c.name
			hits = append(hits, h)
		}
	}
	return hits, nil
}

func nanSlice(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = math.NaN()
	}
	return s
}

// storedVectors reads a stored metric's vectors from the summaries.
func (r *Repo) storedVectors(ctx context.Context, trial int64, name string, nc, nr int) (vectors, error) {
	var idx int
	var v vectors
	err := r.db.QueryRowContext(ctx, r.d.q(`SELECT idx, total FROM metric WHERE trial = ? AND uniq_hash = ? AND uniq = ?`),
		trial, textHash(name), r.d.text(name)).Scan(&idx, &v.total)
	if errors.Is(err, sql.ErrNoRows) {
		return v, errMissing
	}
	if err != nil {
		return v, err
	}
	// A value without a row is an undefined derived value (see Import).
	v.excl, v.incl = nanSlice(nc), nanSlice(nc)
	v.regExcl, v.regIncl = nanSlice(nr), nanSlice(nr)
	err = r.rows(ctx, `SELECT cnode, excl, incl FROM cnode_stat WHERE trial = ? AND metric = ?`, []any{trial, idx}, func(s scanner) error {
		var c int
		var x, y float64
		if err := s.Scan(&c, &x, &y); err != nil {
			return err
		}
		if c < 0 || c >= nc {
			return errCorrupt
		}
		v.excl[c], v.incl[c] = x, y
		return nil
	})
	if err != nil {
		return v, err
	}
	err = r.rows(ctx, `SELECT region, excl, incl FROM region_stat WHERE trial = ? AND metric = ?`, []any{trial, idx}, func(s scanner) error {
		var g int
		var x, y float64
		if err := s.Scan(&g, &x, &y); err != nil {
			return err
		}
		if g < 0 || g >= nr {
			return errCorrupt
		}
		v.regExcl[g], v.regIncl[g] = x, y
		return nil
	})
	return v, err
}

// hitsOf applies q's constraint and kind to a trial's vectors.
func (r *Repo) hitsOf(ctx context.Context, trial int64, q Query, v vectors) ([]Hit, error) {
	type region struct{ name, kind string }
	var regions []region
	err := r.rows(ctx, `SELECT name, kind FROM region WHERE trial = ? ORDER BY idx`, []any{trial}, func(s scanner) error {
		var g region
		err := s.Scan(&g.name, &g.kind)
		regions = append(regions, g)
		return err
	})
	if err != nil {
		return nil, err
	}
	var hits []Hit
	if q.Flat {
		vals := v.regExcl
		if q.Inclusive {
			vals = v.regIncl
		}
		for g, reg := range regions {
			if g < len(vals) && (q.Kind == "" || reg.kind == q.Kind) && q.meets(vals[g], v.total) {
				hits = append(hits, Hit{Cnode: -1, CnodeID: -1, Region: g, Path: reg.name, Value: vals[g], Total: v.total})
			}
		}
		return hits, nil
	}
	vals := v.excl
	if q.Inclusive {
		vals = v.incl
	}
	err = r.rows(ctx, `SELECT idx, id, region, path FROM cnode WHERE trial = ? ORDER BY idx`, []any{trial}, func(s scanner) error {
		var h Hit
		if err := s.Scan(&h.Cnode, &h.CnodeID, &h.Region, &h.Path); err != nil {
			return err
		}
		if h.Cnode >= len(vals) || h.Region < 0 || h.Region >= len(regions) {
			return errCorrupt
		}
		h.Value, h.Total = vals[h.Cnode], v.total
		if (q.Kind == "" || regions[h.Region].kind == q.Kind) && q.meets(h.Value, h.Total) {
			hits = append(hits, h)
		}
		return nil
	})
	return hits, err
}

// selectLocations returns the data columns whose process rank and thread
// rank lie in the ranges. A location's process rank is the rank of its
// location group (its own rank when it has none).
func selectLocations(e *model.Experiment, ranks, threads []Range) []int {
	var cols []int
	for l := range e.Locations {
		n := e.Location(l)
		proc := n.Rank
		for p := n.Parent; p >= 0; p = e.System[p].Parent {
			if e.System[p].Kind == model.Group {
				proc = e.System[p].Rank
				break
			}
		}
		if inRanges(ranks, proc) && inRanges(threads, n.Rank) {
			cols = append(cols, l)
		}
	}
	return cols
}
