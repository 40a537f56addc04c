package repo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"

	"cubeview/model"
)

// Open reads trial id as an experiment equal to the one imported. Metric
// data are read from the repository on first use, so the repository must
// stay open while the experiment is used.
func (r *Repo) Open(ctx context.Context, id int64) (*model.Experiment, error) {
	e := &model.Experiment{Source: fmt.Sprintf("repo:%d", id)}
	var header []byte
	err := r.db.QueryRowContext(ctx, r.d.q(`SELECT format, header FROM trial WHERE id = ?`), id).Scan(&e.Format, &header)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("repository %s has no trial %d", r.Name(), id)
	}
	if err != nil {
		return nil, fmt.Errorf("repository %s: trial %d: %w", r.Name(), id, err)
	}
	fail := func(what string, err error) (*model.Experiment, error) {
		return nil, fmt.Errorf("repository %s: trial %d: %s: %w", r.Name(), id, what, err)
	}
	if err := decodeHeader(header, e); err != nil {
		return fail("header", err)
	}
	var mOrd, cOrd, sOrd []int
	err = r.rows(ctx, `SELECT idx, id, parent, ord, uniq, disp, dtype, unit, descr, url, val, type, expression, init_expression,
		formula, viztype, aggregation, unavailable, approximate, present, extra, canonical FROM metric WHERE trial = ? ORDER BY idx`,
		[]any{id}, func(s scanner) error {
			var m model.Metric
			var idx, ord, aggr, approx int
			var present int64
			var ex []byte
			var formula string
			if err := s.Scan(&idx, &m.ID, &m.Parent, &ord, &m.UniqName, &m.DispName, &m.DataType, &m.Unit, &m.Descr, &m.URL, &m.Val,
				&m.Type, &m.Expression, &m.InitExpression, &formula, &m.VizType, &aggr, &m.Unavailable, &approx, &present, &ex, &m.Identity); err != nil {
				return err
			}
			if idx != len(e.Metrics) {
				return errCorrupt
			}
			m.Aggregation, m.Approximate, m.Present = model.Aggregation(aggr), approx != 0, model.Mask(present)
			if formula != "" {
				f, err := model.ParseFormula(formula)
				if err != nil {
					return fmt.Errorf("metric %q: formula %q: %w", m.UniqName, formula, err)
				}
				m.Formula = f
			}
			if ex != nil {
				d := &decoder{b: ex}
				m.AggrExpressions, m.Attrs = d.attrs(), d.attrs()
				if d.err != nil {
					return d.err
				}
			}
			e.Metrics = append(e.Metrics, m)
			mOrd = append(mOrd, ord)
			return nil
		})
	if err != nil {
		return fail("metrics", err)
	}
	err = r.rows(ctx, `SELECT idx, id, name, mangled, module, begin_line, end_line, paradigm, role, url, descr, extra
		FROM region WHERE trial = ? ORDER BY idx`, []any{id}, func(s scanner) error {
		var g model.Region
		var idx int
		var ex []byte
		if err := s.Scan(&idx, &g.ID, &g.Name, &g.MangledName, &g.Module, &g.Begin, &g.End, &g.Paradigm, &g.Role, &g.URL, &g.Descr, &ex); err != nil {
			return err
		}
		if idx != len(e.Regions) {
			return errCorrupt
		}
		if ex != nil {
			d := &decoder{b: ex}
			g.Attrs = d.attrs()
			if d.err != nil {
				return d.err
			}
		}
		e.Regions = append(e.Regions, g)
		return nil
	})
	if err != nil {
		return fail("regions", err)
	}
	err = r.rows(ctx, `SELECT idx, id, parent, ord, region, call_file, call_line, present, extra
		FROM cnode WHERE trial = ? ORDER BY idx`, []any{id}, func(s scanner) error {
		var c model.Cnode
		var idx, ord int
		var present int64
		var ex []byte
		if err := s.Scan(&idx, &c.ID, &c.Parent, &ord, &c.Region, &c.CallFile, &c.CallLine, &present, &ex); err != nil {
			return err
		}
		if idx != len(e.Cnodes) {
			return errCorrupt
		}
		c.Present = model.Mask(present)
		if ex != nil {
			d := &decoder{b: ex}
			c.Params, c.Attrs = readParams(d), d.attrs()
			if d.err != nil {
				return d.err
			}
		}
		e.Cnodes = append(e.Cnodes, c)
		cOrd = append(cOrd, ord)
		return nil
	})
	if err != nil {
		return fail("call paths", err)
	}
	err = r.rows(ctx, `SELECT idx, id, kind, class, name, descr, rank, location, present, parent, ord, extra
		FROM sysnode WHERE trial = ? ORDER BY idx`, []any{id}, func(s scanner) error {
		var n model.SystemNode
		var idx, kind, ord int
		var present int64
		var ex []byte
		if err := s.Scan(&idx, &n.ID, &kind, &n.Class, &n.Name, &n.Descr, &n.Rank, &n.Location, &present, &n.Parent, &ord, &ex); err != nil {
			return err
		}
		if idx != len(e.System) {
			return errCorrupt
		}
		n.Kind, n.Present = model.SystemKind(kind), model.Mask(present)
		if ex != nil {
			d := &decoder{b: ex}
			n.Attrs = d.attrs()
			if d.err != nil {
				return d.err
			}
		}
		e.System = append(e.System, n)
		sOrd = append(sOrd, ord)
		return nil
	})
	if err != nil {
		return fail("system tree", err)
	}
	if err := link(e, mOrd, cOrd, sOrd); err != nil {
		return fail("definitions", err)
	}
	e.SetLoader(&loader{r: r, trial: id, ncnodes: len(e.Cnodes), nlocations: len(e.Locations)})
	if err := e.Validate(); err != nil {
		return fail("invalid experiment", err)
	}
	return e, nil
}

// link rebuilds children, roots and locations, restoring sibling order.
func link(e *model.Experiment, mOrd, cOrd, sOrd []int) error {
	forest := func(n int, parent func(int) int, ord []int, setChildren func(int, []int)) ([]int, error) {
		var roots []int
		kids := map[int][]int{}
		for i := 0; i < n; i++ {
			p := parent(i)
			switch {
			case p < 0:
				roots = append(roots, i)
			case p >= n:
				return nil, errCorrupt
			default:
				kids[p] = append(kids[p], i)
			}
		}
		byOrd := func(s []int) { sort.SliceStable(s, func(a, b int) bool { return ord[s[a]] < ord[s[b]] }) }
		byOrd(roots)
		for p, ch := range kids {
			byOrd(ch)
			setChildren(p, ch)
		}
		return roots, nil
	}
	var err error
	if e.MetricRoots, err = forest(len(e.Metrics), func(i int) int { return e.Metrics[i].Parent }, mOrd,
		func(p int, ch []int) { e.Metrics[p].Children = ch }); err != nil {
		return err
	}
	if e.CnodeRoots, err = forest(len(e.Cnodes), func(i int) int { return e.Cnodes[i].Parent }, cOrd,
		func(p int, ch []int) { e.Cnodes[p].Children = ch }); err != nil {
		return err
	}
	if e.SystemRoots, err = forest(len(e.System), func(i int) int { return e.System[i].Parent }, sOrd,
		func(p int, ch []int) { e.System[p].Children = ch }); err != nil {
		return err
	}
	n := 0
	for i := range e.System {
		if e.System[i].Location >= 0 {
			n++
		}
	}
	e.Locations = make([]int, n)
	for i := range e.Locations {
		e.Locations[i] = -1
	}
	for i := range e.System {
		if l := e.System[i].Location; l >= 0 {
			if l >= n || e.Locations[l] != -1 {
				return errCorrupt
			}
			e.Locations[l] = i
		}
	}
	return nil
}

// loader reads a trial's metric blocks on first use.
type loader struct {
	r                   *Repo
	trial               int64
	ncnodes, nlocations int
}

// LoadBlock implements model.Loader.
func (l *loader) LoadBlock(m int) (*model.Block, error) {
	var codec int
	var data []byte
	err := l.r.db.QueryRow(l.r.d.q(`SELECT codec, data FROM metric_data WHERE trial = ? AND metric = ?`), l.trial, m).Scan(&codec, &data)
	if errors.Is(err, sql.ErrNoRows) {
		var n int
		if err := l.r.db.QueryRow(l.r.d.q(`SELECT COUNT(*) FROM trial WHERE id = ?`), l.trial).Scan(&n); err == nil && n == 0 {
			return nil, fmt.Errorf("repository %s: trial %d was removed", l.r.Name(), l.trial)
		}
		return nil, nil // no stored values: all zero
	}
	if err != nil {
		return nil, fmt.Errorf("repository %s: trial %d: %w", l.r.Name(), l.trial, err)
	}
	if codec != codecShuffleFlate {
		return nil, fmt.Errorf("repository %s: trial %d: metric data in unknown codec %d (a newer cubeview wrote it)", l.r.Name(), l.trial, codec)
	}
	b, err := decodeBlock(data, l.ncnodes, l.nlocations)
	if err != nil {
		return nil, fmt.Errorf("repository %s: trial %d: metric %d: %w", l.r.Name(), l.trial, m, err)
	}
	return b, nil
}

type scanner interface{ Scan(...any) error }

// rows runs a query and calls each for every row.
func (r *Repo) rows(ctx context.Context, query string, args []any, each func(scanner) error) error {
	rs, err := r.db.QueryContext(ctx, r.d.q(query), args...)
	if err != nil {
		return err
	}
	defer rs.Close()
	for rs.Next() {
		if err := each(rs); err != nil {
			return err
		}
	}
	return rs.Err()
}
