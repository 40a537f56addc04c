package repo

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
)

// A search reads the summaries only of the trials that can hold a hit.
// The bound table says, per trial, metric and region kind, the largest
// value and share among its call paths and regions: a test "m >= x"
// (or "> x") joined by "and" to the rest of the constraint rules out
// every trial whose bound is below x. Candidates come from the bound
// index in order of the ranking test's bound, so the best Limit hits are
// known as soon as the next candidate's bound is below the worst of them;
// the work grows with the hits asked for, not with the trials stored.

// cand is a candidate trial and the bound of its ranking value (+Inf
// when candidates are not ordered by it). Candidates found by a bound
// also say of which metric (its index in the trial), and whether of the
// metric of the name the query gives (direct) rather than of another
// name of its canonical identity.
type cand struct {
	trial  int64
	bound  float64
	metric int
	direct bool
}

// candStream yields candidates in order: bound descending, then trial.
type candStream interface {
	next(ctx context.Context) (cand, bool, error)
}

// boundColumn returns the bound column of a test: excl_max, incl_share, …
func boundColumn(t *test, flat bool) string {
	col := "excl"
	if t.incl {
		col = "incl"
	}
	if flat {
		col = "flat_" + col
	}
	if t.share {
		return col + "_share"
	}
	return col + "_max"
}

// boundCondition returns the SQL condition (on alias a) that a trial's
// bound must meet to hold a value that passes the lower-bound test t,
// and its argument. Shares compare with a little slack: the stored share
// is the largest value divided by the total, and the exact test is made
// on the summaries.
func boundCondition(a string, t *test, flat bool) (string, any) {
	col := a + "." + boundColumn(t, flat)
	if t.share {
		return col + " >= ?", t.value - 1e-12*math.Abs(t.value)
	}
	return col + " " + t.op + " ?", t.value
}

// variant is one name under which a metric a query names is stored: its
// own unique name, or the unique name of a metric of the same canonical
// identity in trials that have no metric of the name itself.
type variant struct {
	name        string
	excludeUniq bool
}

// variants returns the stored names a metric name stands for.
func (r *Repo) variants(ctx context.Context, name string) ([]variant, error) {
	out := []variant{{name: name}}
	id := canonicalIdentity(name)
	if id == "" {
		return out, nil
	}
	names, err := dictionaryOf(r).distinct(ctx, `SELECT name FROM metric_name WHERE canonical = ?`, r.d.text(id))
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		if n != name {
			out = append(out, variant{name: n, excludeUniq: true})
		}
	}
	return out, nil
}

// existsBound returns an SQL condition on the trial id column trial that
// holds when one of the trial's metrics named by the variants has a
// bound that passes the test.
func (r *Repo) existsBound(trial string, t *test, vs []variant, kind string, flat bool) (string, []any) {
	cond, arg := boundCondition("f", t, flat)
	args := []any{r.d.text(kind)}
	ph := make([]string, len(vs))
	for i, v := range vs {
		ph[i] = "?"
		args = append(args, textHash(v.name))
	}
	return `EXISTS (SELECT 1 FROM bound f WHERE f.trial = ` + trial + ` AND f.kind = ? AND f.name_hash IN (` + strings.Join(ph, ", ") + `) AND ` + cond + `)`,
		append(args, arg)
}

// pagedStream reads a query page by page, continuing after the last row
// (keyset pagination), so that a search that stops early reads little.
type pagedStream struct {
	r    *Repo
	base string // SELECT … WHERE … without ORDER BY
	args []any
	col  string // the ordering column ("" orders by trial only); then the metric follows
	id   string // the trial id column; "" for t.id
	// direct marks the candidates as found by the query's own metric name.
	direct bool
	buf    []cand
	done   bool
	last   cand
	begun  bool
	page   int
	// whole reads all rows at once: a search for all hits reads every
	// candidate.
	whole bool
}

func (s *pagedStream) next(ctx context.Context) (cand, bool, error) {
	for len(s.buf) == 0 {
		if s.done {
			return cand{}, false, nil
		}
		if err := s.fetch(ctx); err != nil {
			return cand{}, false, err
		}
	}
	c := s.buf[0]
	s.buf = s.buf[1:]
	return c, true, nil
}

func (s *pagedStream) fetch(ctx context.Context) error {
	if s.page == 0 {
		s.page = 64
	}
	q, args := s.base, append([]any(nil), s.args...)
	id := s.id
	if id == "" {
		id = "t.id"
	}
	order := " ORDER BY " + id
	if s.col != "" {
		order = " ORDER BY " + s.col + " DESC, " + id
		if s.begun {
			// "col <= last" bounds the index range the page reads.
			q += " AND " + s.col + " <= ? AND (" + s.col + " < ? OR " + id + " > ?)"
			args = append(args, s.last.bound, s.last.bound, s.last.trial)
		}
	} else if s.begun {
		q += " AND " + id + " > ?"
		args = append(args, s.last.trial)
	}
	q += order
	if !s.whole {
		q += fmt.Sprintf(" LIMIT %d", s.page)
	}
	n := 0
	err := s.r.rows(ctx, q, args, func(sc scanner) error {
		var c cand
		if s.col == "" {
			c.bound = math.Inf(1)
			if err := sc.Scan(&c.trial); err != nil {
				return err
			}
		} else if err := sc.Scan(&c.trial, &c.bound, &c.metric); err != nil {
			return err
		}
		c.direct = s.direct
		s.buf = append(s.buf, c)
		s.last, s.begun = c, true
		n++
		return nil
	})
	if err != nil {
		return fmt.Errorf("repository %s: find: %w", s.r.Name(), err)
	}
	if n < s.page || s.whole {
		s.done = true
	}
	s.page = min(4*s.page, 4096)
	return nil
}

// mergedStreams merges ordered streams, each trial once.
type mergedStreams struct {
	heads  candHeap
	inited bool
	all    []candStream
	seen   map[int64]bool
}

type headItem struct {
	c   cand
	src candStream
}

type candHeap []headItem

func (h candHeap) Len() int { return len(h) }
func (h candHeap) Less(i, j int) bool {
	if h[i].c.bound != h[j].c.bound {
		return h[i].c.bound > h[j].c.bound
	}
	return h[i].c.trial < h[j].c.trial
}
func (h candHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *candHeap) Push(x any)   { *h = append(*h, x.(headItem)) }
func (h *candHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (m *mergedStreams) next(ctx context.Context) (cand, bool, error) {
	if !m.inited {
		m.inited, m.seen = true, map[int64]bool{}
		for _, s := range m.all {
			c, ok, err := s.next(ctx)
			if err != nil {
				return cand{}, false, err
			}
			if ok {
				m.heads = append(m.heads, headItem{c, s})
			}
		}
		heap.Init(&m.heads)
	}
	for m.heads.Len() > 0 {
		top := m.heads[0]
		c, ok, err := top.src.next(ctx)
		if err != nil {
			return cand{}, false, err
		}
		if ok {
			m.heads[0].c = c
			heap.Fix(&m.heads, 0)
		} else {
			heap.Pop(&m.heads)
		}
		if !m.seen[top.c.trial] {
			m.seen[top.c.trial] = true
			return top.c, true, nil
		}
	}
	return cand{}, false, nil
}

// candidates returns the trials that can hold a hit and whether they come
// in order of the ranking value's bound.
func (r *Repo) candidates(ctx context.Context, p *plan) (candStream, bool, error) {
	var bounded []*test
	for _, c := range p.x.conjuncts() {
		if c.op == 't' && c.t.lowerBound() && p.q.derived(c.t.metric) == nil {
			bounded = append(bounded, c.t)
		}
	}
	var anchor *test
	ordered := false
	for _, t := range bounded {
		if t == p.rank {
			anchor, ordered = t, true
		}
	}
	if anchor == nil && len(bounded) > 0 {
		anchor = bounded[0]
	}
	// Over schema 6, candidates come from the bounds alone (no join):
	// the filter is a set of trial ids and the trials being imported are
	// few, found by their state's index.
	bare := anchor != nil && r.schema >= schemaHot && (p.cond.ids != "" || p.cond.sql == "1=1")
	trialID := "t.id"
	where := []string{r.visible("t"), p.cond.sql}
	if bare {
		trialID = "b.trial"
		where = []string{"b.trial NOT IN (SELECT p.id FROM trial p WHERE p.state < 0 OR p.state > 0)"}
		if p.cond.ids != "" {
			where = append(where, "b.trial IN ("+p.cond.ids+")")
		}
	}
	args := append([]any(nil), p.cond.args...)
	for _, t := range bounded {
		if t == anchor {
			continue
		}
		vs, err := r.variants(ctx, t.metric)
		if err != nil {
			return nil, false, err
		}
		c, a := r.existsBound(trialID, t, vs, p.q.Kind, p.q.Flat)
		where, args = append(where, c), append(args, a...)
	}
	if anchor == nil {
		return &pagedStream{r: r, base: `SELECT t.id` + trialFrom + ` WHERE ` + strings.Join(where, " AND "), args: args,
			whole: p.q.Limit == 0}, false, nil
	}
	vs, err := r.variants(ctx, anchor.metric)
	if err != nil {
		return nil, false, err
	}
	m := &mergedStreams{}
	col := "b." + boundColumn(anchor, p.q.Flat)
	from := ` FROM bound b JOIN trial t ON t.id = b.trial JOIN experiment x ON x.id = t.experiment
				JOIN application a ON a.id = x.application`
	if bare {
		from = ` FROM bound b`
	}
	for _, v := range vs {
		cond, arg := boundCondition("b", anchor, p.q.Flat)
		w := append([]string{"b.name_hash = ?", "b.kind = ?", cond}, where...)
		a := append([]any{textHash(v.name), r.d.text(p.q.Kind), arg}, args...)
		if v.excludeUniq {
			w = append(w, "NOT EXISTS (SELECT 1 FROM metric n WHERE n.trial = b.trial AND n.uniq_hash = ? AND n.uniq = ?)")
			a = append(a, textHash(anchor.metric), r.d.text(anchor.metric))
		}
		s := &pagedStream{r: r, col: col, args: a, direct: !v.excludeUniq, whole: p.q.Limit == 0,
			base: `SELECT b.trial, ` + col + `, b.metric` + from + ` WHERE ` + strings.Join(w, " AND ")}
		if bare {
			s.id = "b.trial"
		}
		m.all = append(m.all, s)
	}
	return m, ordered, nil
}

// findSummaries answers a search from the bounds and summaries.
func (r *Repo) findSummaries(ctx context.Context, p *plan) ([]Hit, error) {
	src, ordered, err := r.candidates(ctx, p)
	if err != nil {
		return nil, err
	}
	limit, byShare := p.q.Limit, p.byShare()
	// A search for a share of the run's own values reads the hot call
	// paths instead of the summaries; the candidates found by the
	// metric's name say which metric it is where no other name ever
	// stored shares its hash.
	hot := r.schema >= schemaHot && p.hotSearch()
	byName := false
	if hot {
		if byName, err = uniqueMetricName(ctx, r, p.rank.metric); err != nil {
			return nil, fmt.Errorf("repository %s: find: %w", r.Name(), err)
		}
	}
	var hits []Hit
	trees := map[int64]*tree{}
	size := 64
	if ordered && limit > 0 {
		size = min(max(2*limit, 8), 64)
	}
	for done := false; !done; {
		var batch []cand
		for len(batch) < size {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			c, ok, err := src.next(ctx)
			if err != nil {
				return nil, err
			}
			if !ok {
				done = true
				break
			}
			if ordered && limit > 0 && len(hits) >= limit {
				worst := &hits[limit-1]
				k := rankKey(worst, byShare)
				if c.bound < k || c.bound == k && c.trial > worst.Trial {
					done = true
					break
				}
			}
			batch = append(batch, c)
		}
		if len(batch) == 0 {
			break
		}
		var tds []*trialData
		if hot {
			tds, err = loadHot(ctx, r, p, batch, byName)
		} else {
			ids := make([]int64, len(batch))
			for i, c := range batch {
				ids[i] = c.trial
			}
			tds, err = r.loadTrials(ctx, p, ids)
		}
		if err != nil {
			return nil, err
		}
		if testHookLoaded != nil {
			testHookLoaded(len(batch))
		}
		if ordered && limit > 0 {
			// Only hits that can make the best limit are kept, and only
			// those are named.
			for _, td := range tds {
				floor := math.Inf(-1)
				if len(hits) >= limit {
					sortHits(hits, byShare)
					hits = hits[:limit]
					floor = rankKey(&hits[limit-1], byShare)
				}
				hits = p.evaluateAbove(td, hits, floor, false)
				trees[td.id] = td.tree
			}
		} else {
			for _, td := range tds {
				hits = p.evaluate(td, hits)
			}
		}
		if ordered && limit > 0 {
			for i := range hits {
				if h := &hits[i]; h.Total != 0 {
					h.Share = h.Value / h.Total
				}
			}
			sortHits(hits, byShare)
			if len(hits) > limit {
				hits = hits[:limit]
			}
		}
		size = min(2*size, 1024)
	}
	fillPaths(hits, trees)
	return hits, nil
}

// inclusive reports whether the ranking or a test takes values with
// callees.
func (p *plan) inclusive() bool {
	incl := p.rank.incl
	p.x.tests(func(t *test) { incl = incl || t.incl })
	return incl
}

// testHookLoaded, when set by a test, learns how many trials a search reads.
var testHookLoaded func(n int)

// testHookSummaries, when set by a test, learns how many summaries a
// search reads.
var testHookSummaries func(n int)

// loadTrials reads what the search needs of the trials: names, call tree
// and the summaries of the metrics it uses.
func (r *Repo) loadTrials(ctx context.Context, p *plan, ids []int64) ([]*trialData, error) {
	fail := func(err error) ([]*trialData, error) {
		return nil, fmt.Errorf("repository %s: find: %w", r.Name(), err)
	}
	ph := placeholders(len(ids))
	idArgs := make([]any, len(ids))
	for i, id := range ids {
		idArgs[i] = id
	}
	// The names and call trees are read while the summaries are: the
	// two take about the same time, and the summaries need only the
	// trials' ids.
	trees := readTrees(ctx, r, ids)
	treesDone := false
	var res treesRead
	defer func() {
		if !treesDone {
			<-trees
		}
	}()
	// Which stored metric each name refers to, per trial.
	metrics, err := readMetrics(ctx, r, ids)
	if err != nil {
		return fail(err)
	}
	stored := p.q.storedRefs(p.metricNames())
	resolve := func(trial int64, name string, operand bool) *metricRow {
		return resolveMetric(metrics[trial], name, operand)
	}
	want := map[int64]map[int]*metricRow{}
	idxSet := map[int]bool{}
	for _, id := range ids {
		for _, ref := range stored {
			if m := resolve(id, ref.name, ref.operand); m != nil {
				if want[id] == nil {
					want[id] = map[int]*metricRow{}
				}
				want[id][m.idx] = m
				idxSet[m.idx] = true
			}
		}
	}
	// Summaries are decoded once the trees say how long they are.
	type rawSummary struct {
		trial int64
		row   *metricRow
		a, b  []byte
	}
	var raws []rawSummary
	incl := p.inclusive()
	if len(idxSet) > 0 {
		var idxArgs []any
		for i := range idxSet {
			idxArgs = append(idxArgs, i)
		}
		// Values with callees are read only when a test or the ranking
		// takes them (they follow the own values in the row).
		cols := "excl"
		if p.q.Flat {
			cols = "flat_excl"
		}
		if incl {
			cols += ", " + strings.Replace(cols, "excl", "incl", 1)
		}
		err = r.rows(ctx, `SELECT trial, metric, `+cols+` FROM summary WHERE trial IN (`+ph+`) AND metric IN (`+
			strings.TrimSuffix(strings.Repeat("?, ", len(idxArgs)), ", ")+`)`, append(idArgs, idxArgs...), func(s scanner) error {
			var trial int64
			var m int
			var a, b []byte
			dest := []any{&trial, &m, &a}
			if incl {
				dest = append(dest, &b)
			}
			if err := s.Scan(dest...); err != nil {
				return err
			}
			if row := want[trial][m]; row != nil {
				raws = append(raws, rawSummary{trial, row, a, b})
			}
			return nil
		})
		if err != nil {
			return fail(err)
		}
		if testHookSummaries != nil {
			testHookSummaries(len(raws))
		}
	}
	treesDone = true
	if res = <-trees; res.err != nil {
		return fail(res.err)
	}
	counts := map[int64][2]int{}
	for _, td := range res.out {
		counts[td.id] = [2]int{len(td.tree.parent), len(td.tree.name)}
	}
	for _, raw := range raws {
		n := counts[raw.trial][0]
		if p.q.Flat {
			n = counts[raw.trial][1]
		}
		x, err := decodeVector(raw.a, n)
		var y []float64
		if err == nil && incl {
			y, err = decodeVector(raw.b, n)
		}
		if err != nil {
			return fail(fmt.Errorf("trial %d: metric %q: summary: %w", raw.trial, raw.row.uniq, err))
		}
		if p.q.Flat {
			raw.row.regExcl, raw.row.regIncl = x, y
		} else {
			raw.row.excl, raw.row.incl = x, y
		}
	}
	for _, td := range res.out {
		nc, nr := counts[td.id][0], counts[td.id][1]
		for _, name := range p.metricNames() {
			v, err := p.q.queryVectors(name, nc, nr, func(name string, operand bool) (vectors, error) {
				m := resolve(td.id, name, operand)
				if m == nil || (m.excl == nil && m.regExcl == nil) {
					return vectors{}, errMissing
				}
				return vectors{excl: m.excl, incl: m.incl, regExcl: m.regExcl, regIncl: m.regIncl, total: m.total}, nil
			})
			if errors.Is(err, errMissing) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("repository %s: trial %d: %w", r.Name(), td.id, err)
			}
			td.vec[name] = &v
		}
	}
	return res.out, nil
}
