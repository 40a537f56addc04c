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

// Query is a search for call paths (or regions) whose metric meets a
// constraint, SCALEA's search over a repository.
type Query struct {
	// Metric is the uniq_name of the metric, as stored: inclusive along
	// the metric tree (time includes MPI time).
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
	if q.Ranks != nil || q.Threads != nil {
		hits, err = r.findPerLocation(ctx, q, cond)
	} else {
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
		WHERE m.uniq_hash = ? AND m.uniq = ?`)
	args = append(args, textHash(q.Metric), r.d.text(q.Metric))
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
	args := append([]any{textHash(q.Metric), r.d.text(q.Metric)}, cond.args...)
	err := r.rows(ctx, `SELECT t.id, a.name, x.name, t.name`+trialFrom+`
		WHERE EXISTS (SELECT 1 FROM metric m WHERE m.trial = t.id AND m.uniq_hash = ? AND m.uniq = ?) AND `+cond.sql+` ORDER BY t.id`, args,
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
	m := e.MetricByName(q.Metric)
	if m < 0 {
		return nil, nil
	}
	agg := e.Metrics[m].Aggregation
	var excl []float64
	if q.Ranks == nil && q.Threads == nil {
		var err error
		if excl, err = e.CnodeValues(model.MetricSel{Metric: m, Inclusive: true}); err != nil {
			return nil, err
		}
	} else {
		cols := selectLocations(e, q.Ranks, q.Threads)
		if len(cols) == 0 {
			return nil, nil
		}
		b, err := e.Block(m)
		if err != nil {
			return nil, err
		}
		excl = make([]float64, len(e.Cnodes))
		for c := range excl {
			row := b.Row(c)
			acc := agg.Identity()
			for _, l := range cols {
				v := 0.0
				if row != nil {
					v = row[l]
				}
				acc = agg.Combine(acc, v)
			}
			excl[c] = acc
		}
	}
	total := model.ForestTotal(excl, agg)
	var hits []Hit
	add := func(cnode, cnodeID, region int, path string, v float64) {
		if q.meets(v, total) {
			hits = append(hits, Hit{Cnode: cnode, CnodeID: cnodeID, Region: region, Path: path, Value: v, Total: total})
		}
	}
	if q.Flat {
		regExcl, regIncl := e.FlatProfile(excl, agg)
		vals := regExcl
		if q.Inclusive {
			vals = regIncl
		}
		for g := range e.Regions {
			if q.Kind == "" || RegionKind(&e.Regions[g]) == q.Kind {
				add(-1, -1, g, e.Regions[g].Name, vals[g])
			}
		}
		return hits, nil
	}
	vals := excl
	if q.Inclusive {
		vals = e.CallInclusive(excl, agg)
	}
	paths := callPaths(e)
	for c := range e.Cnodes {
		g := e.Cnodes[c].Region
		if q.Kind == "" || RegionKind(&e.Regions[g]) == q.Kind {
			add(c, e.Cnodes[c].ID, g, paths[c], vals[c])
		}
	}
	return hits, nil
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
