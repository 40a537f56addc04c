package repo

import (
	"context"
	"database/sql"
	"fmt"
	"math"
)

// A search for call paths that hold a share of their run ("time >= 10%"
// on the own values) needs, per trial, only the few call paths whose own
// value is a noticeable part of the run's total. The table hot keeps
// them per (trial, metric): the call paths whose own value is at least
// hotShare of the run's total (a positive one), with their values and
// the total, a few hundred bytes where the summary's own values are
// several kilobytes. A constraint that demands at least hotShare of a
// metric's total of every hit, and asks nothing else, is answered from
// these rows, the candidate trials and the call trees (for the names of
// the hits); exactly, since every call path it can find is listed with
// its stored value.

// hotShare is the smallest share of a run's total a call path's own
// value must hold to be listed as hot.
const hotShare = 0.01

// hotTable is the table of hot call paths (schema 6).
const hotTable = `CREATE TABLE hot (
		trial {int} NOT NULL REFERENCES trial(id) ON DELETE CASCADE,
		metric {int} NOT NULL,
		paths {blob} NOT NULL,
		PRIMARY KEY (trial, metric)) {without_rowid}`

// hotPaths are a metric's hot call paths in one trial: the run's total
// as the metric row stores it, and the call paths (ascending) with their
// own values.
type hotPaths struct {
	total  float64
	cnodes []int
	values []float64
}

// hotOf returns the hot call paths of own values excl in a run of total
// total (the metric row's total).
func hotOf(excl []float64, total float64) hotPaths {
	h := hotPaths{total: total}
	if !(total > 0) {
		return h
	}
	floor := hotShare * total
	for c, v := range excl {
		if v >= floor {
			h.cnodes = append(h.cnodes, c)
			h.values = append(h.values, v)
		}
	}
	return h
}

// encodeHot returns the stored form of h, sealed: a format version, the
// total, the number of call paths, then per call path the distance to
// the previous one's index and its value.
func encodeHot(h hotPaths) []byte {
	var en encoder
	en.uint(1)
	en.float(h.total)
	en.uint(uint64(len(h.cnodes)))
	prev := -1
	for i, c := range h.cnodes {
		en.uint(uint64(c - prev))
		en.float(h.values[i])
		prev = c
	}
	return seal(en.b)
}

// decodeHot reads what encodeHot wrote for a trial of nc call paths.
func decodeHot(b []byte, nc int) (hotPaths, error) {
	var h hotPaths
	b, err := unseal(b)
	if err != nil {
		return h, err
	}
	d := &decoder{b: b}
	if d.uint() != 1 {
		return h, errCorrupt
	}
	h.total = d.float()
	n := d.count(9)
	if d.err != nil {
		return h, d.err
	}
	h.cnodes, h.values = make([]int, n), make([]float64, n)
	c := -1
	for i := 0; i < n && d.err == nil; i++ {
		step := d.uint()
		if step == 0 || step > uint64(nc) {
			return h, errCorrupt
		}
		c += int(step)
		h.cnodes[i], h.values[i] = c, d.float()
	}
	if d.err != nil {
		return h, d.err
	}
	if len(d.b) != 0 || c >= nc {
		return h, errCorrupt
	}
	return h, nil
}

// sameHot reports whether two lists of hot call paths are equal, bit for
// bit.
func sameHot(a, b hotPaths) bool {
	if math.Float64bits(a.total) != math.Float64bits(b.total) || len(a.cnodes) != len(b.cnodes) {
		return false
	}
	for i := range a.cnodes {
		if a.cnodes[i] != b.cnodes[i] || math.Float64bits(a.values[i]) != math.Float64bits(b.values[i]) {
			return false
		}
	}
	return true
}

// insertHot writes the hot call paths of metric m of a trial.
func insertHot(ctx context.Context, tx *sql.Tx, d *dialect, trial int64, m int, h hotPaths) error {
	_, err := tx.ExecContext(ctx, d.q(`INSERT INTO hot (trial, metric, paths) VALUES (?, ?, ?)`), trial, m, encodeHot(h))
	return err
}

// hotSearch reports whether the plan can be answered from the hot call
// paths: every test and the ranking take the own values of one stored
// metric over call paths, and a test joined by "and" to the rest asks
// for at least hotShare of the run's total.
func (p *plan) hotSearch() bool {
	if p.q.Flat || p.perLocation() || p.rank.incl || p.q.derived(p.rank.metric) != nil {
		return false
	}
	ok := true
	p.x.tests(func(t *test) { ok = ok && !t.incl && t.metric == p.rank.metric })
	if !ok {
		return false
	}
	for _, c := range p.x.conjuncts() {
		if c.op == 't' && c.t.share && c.t.lowerBound() && c.t.value >= hotShare {
			return true
		}
	}
	return false
}

// uniqueMetricName reports whether no other metric name ever stored
// shares name's hash, so that the bounds of a trial found by the hash
// are those of the metric of that name.
func uniqueMetricName(ctx context.Context, r *Repo, name string) (bool, error) {
	var n int
	err := r.db.QueryRowContext(ctx, r.d.q(`SELECT COUNT(*) FROM metric_name WHERE name_hash = ? AND name <> ?`),
		textHash(name), r.d.text(name)).Scan(&n)
	return n == 0, err
}

// loadHot reads what a search answered from the hot call paths needs of
// the candidate trials: names, call tree, and the hot call paths of the
// ranking metric. A candidate found by the metric's own name (byName)
// names its metric; the others are resolved as loadTrials does.
func loadHot(ctx context.Context, r *Repo, p *plan, cs []cand, byName bool) ([]*trialData, error) {
	fail := func(err error) ([]*trialData, error) {
		return nil, fmt.Errorf("repository %s: find: %w", r.Name(), err)
	}
	ids := make([]int64, len(cs))
	for i, c := range cs {
		ids[i] = c.trial
	}
	trees := readTrees(ctx, r, ids)
	want := map[int64]int{} // trial → metric index
	var resolve []int64
	for _, c := range cs {
		if byName && c.direct {
			want[c.trial] = c.metric
		} else {
			resolve = append(resolve, c.trial)
		}
	}
	if len(resolve) > 0 {
		metrics, err := readMetrics(ctx, r, resolve)
		if err != nil {
			<-trees
			return fail(err)
		}
		for _, id := range resolve {
			if m := resolveMetric(metrics[id], p.rank.metric, false); m != nil {
				want[id] = m.idx
			}
		}
	}
	hot := map[int64]hotPaths{}
	raw := map[int64][]byte{}
	if len(want) > 0 {
		var args []any
		metrics := map[int]bool{}
		for id, m := range want {
			args = append(args, id)
			metrics[m] = true
		}
		nTrials := len(args)
		for m := range metrics {
			args = append(args, m)
		}
		err := r.rows(ctx, `SELECT trial, metric, paths FROM hot WHERE trial IN (`+placeholders(nTrials)+`) AND metric IN (`+
			placeholders(len(metrics))+`)`, args, func(s scanner) error {
			var trial int64
			var m int
			var b []byte
			if err := s.Scan(&trial, &m, &b); err != nil {
				return err
			}
			if w, ok := want[trial]; ok && w == m {
				raw[trial] = b
			}
			return nil
		})
		if err != nil {
			<-trees
			return fail(err)
		}
	}
	res := <-trees
	if res.err != nil {
		return fail(res.err)
	}
	for _, td := range res.out {
		b, ok := raw[td.id]
		if !ok {
			if _, named := want[td.id]; named {
				return fail(fmt.Errorf("trial %d: no hot call paths of metric %q: %w", td.id, p.rank.metric, errDamaged))
			}
			continue // the trial lacks the metric
		}
		nc := len(td.tree.parent)
		h, err := decodeHot(b, nc)
		if err != nil {
			return fail(fmt.Errorf("trial %d: metric %q: hot call paths: %w", td.id, p.rank.metric, err))
		}
		hot[td.id] = h
		excl := make([]float64, nc)
		for i := range excl {
			excl[i] = math.NaN()
		}
		for i, c := range h.cnodes {
			excl[c] = h.values[i]
		}
		td.vec[p.rank.metric] = &vectors{excl: excl, total: h.total}
		td.only = h.cnodes
	}
	return res.out, nil
}

// treesRead is the result of readTrees.
type treesRead struct {
	out []*trialData
	err error
}

// readTrees reads the names and call trees of trials while the caller
// reads their values, and delivers them on the channel returned.
func readTrees(ctx context.Context, r *Repo, ids []int64) <-chan treesRead {
	done := make(chan treesRead, 1)
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	go func() {
		var res treesRead
		res.err = r.rows(ctx, `SELECT t.id, a.name, x.name, t.name, t.cnodes, t.regions, t.tree`+trialFrom+` WHERE t.id IN (`+
			placeholders(len(ids))+`)`, args, func(s scanner) error {
			td := &trialData{vec: map[string]*vectors{}}
			var nc, nr int
			var blob []byte
			if err := s.Scan(&td.id, r.d.str(&td.app), r.d.str(&td.experiment), r.d.str(&td.name), &nc, &nr, &blob); err != nil {
				return err
			}
			t, err := decodeTree(blob)
			if err != nil {
				return fmt.Errorf("trial %d: call tree: %w", td.id, err)
			}
			if len(t.parent) != nc || len(t.name) != nr {
				return fmt.Errorf("trial %d: call tree: %w", td.id, errDamaged)
			}
			td.tree = t
			res.out = append(res.out, td)
			return nil
		})
		done <- res
	}()
	return done
}

// metricRow is what a search needs of a stored metric.
type metricRow struct {
	idx              int
	uniq, identity   string
	total            float64
	excl, incl       []float64
	regExcl, regIncl []float64
}

// readMetrics reads the metrics of trials, by trial.
func readMetrics(ctx context.Context, r *Repo, ids []int64) (map[int64][]*metricRow, error) {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	metrics := map[int64][]*metricRow{}
	err := r.rows(ctx, `SELECT trial, idx, uniq, canonical, total FROM metric WHERE trial IN (`+placeholders(len(ids))+`)`, args,
		func(s scanner) error {
			var trial int64
			m := &metricRow{}
			if err := s.Scan(&trial, &m.idx, r.d.str(&m.uniq), r.d.str(&m.identity), &m.total); err != nil {
				return err
			}
			metrics[trial] = append(metrics[trial], m)
			return nil
		})
	return metrics, err
}

// resolveMetric returns the metric name refers to among a trial's
// metrics: the one of that unique name, else the one metric of its
// canonical identity (not for an operand of a derived metric, which
// names a unique name).
func resolveMetric(ms []*metricRow, name string, operand bool) *metricRow {
	var byIdentity *metricRow
	id := canonicalIdentity(name)
	if operand {
		id = ""
	}
	n := 0
	for _, m := range ms {
		if m.uniq == name {
			return m
		}
		if id != "" && m.identity == id {
			byIdentity = m
			n++
		}
	}
	if n == 1 {
		return byIdentity
	}
	return nil
}
