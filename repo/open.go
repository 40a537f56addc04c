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
	var tr Trial
	err := r.db.QueryRowContext(ctx, r.d.q(`SELECT t.format, t.header, t.sha256, t.size FROM trial t WHERE t.id = ? AND `+r.visible("t")), id).
		Scan(r.d.str(&e.Format), &header, r.d.str(&tr.SHA256), &tr.Size)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("repository %s has no trial %d", r.Name(), id)
	}
	if err != nil {
		return nil, fmt.Errorf("repository %s: trial %d: %w", r.Name(), id, err)
	}
	fail := func(what string, err error) (*model.Experiment, error) {
		return nil, fmt.Errorf("repository %s: trial %d: %s: %w", r.Name(), id, what, err)
	}
	if !r.legacySchema() {
		if header, err = unseal(header); err != nil {
			return fail("header", err)
		}
	}
	if err := decodeHeader(header, e); err != nil {
		return fail("header", err)
	}
	var mOrd, cOrd, sOrd []int
	canonical := ", canonical"
	if r.schema < schemaCanonical {
		canonical = ", ''"
	}
	err = r.rows(ctx, `SELECT idx, id, parent, ord, uniq, disp, dtype, unit, descr, url, val, type, expression, init_expression,
		formula, viztype, aggregation, unavailable, approximate, present, extra`+canonical+` FROM metric WHERE trial = ? ORDER BY idx`,
		[]any{id}, func(s scanner) error {
			var m model.Metric
			var idx, ord, aggr, approx int
			var present int64
			var ex []byte
			var formula, dtype, mtype, identity string
			d := r.d
			if err := s.Scan(&idx, &m.ID, &m.Parent, &ord, d.str(&m.UniqName), d.str(&m.DispName), d.str(&dtype), d.str(&m.Unit), d.str(&m.Descr),
				d.str(&m.URL), d.str(&m.Val), d.str(&mtype), d.str(&m.Expression), d.str(&m.InitExpression), d.str(&formula), d.str(&m.VizType),
				&aggr, d.str(&m.Unavailable), &approx, &present, &ex, d.str(&identity)); err != nil {
				return err
			}
			if idx != len(e.Metrics) {
				return errCorrupt
			}
			m.DataType, m.Type = model.DataType(dtype), model.MetricType(mtype)
			setIdentity(&m, identity)
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
		d := r.d
		if err := s.Scan(&idx, &g.ID, d.str(&g.Name), d.str(&g.MangledName), d.str(&g.Module), &g.Begin, &g.End, d.str(&g.Paradigm),
			d.str(&g.Role), d.str(&g.URL), d.str(&g.Descr), &ex); err != nil {
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
		if err := s.Scan(&idx, &c.ID, &c.Parent, &ord, &c.Region, r.d.str(&c.CallFile), &c.CallLine, &present, &ex); err != nil {
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
		if err := s.Scan(&idx, &n.ID, &kind, r.d.str(&n.Class), r.d.str(&n.Name), r.d.str(&n.Descr), &n.Rank, &n.Location, &present,
			&n.Parent, &ord, &ex); err != nil {
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
	// Results computed from the trial record where it came from: the
	// repository's identity ("" for schemas 2 and 3, which had none) and
	// the imported file's size and checksum.
	origin := model.Origin{Store: r.uuid, SHA256: tr.SHA256, Size: tr.Size}
	if r.legacySchema() {
		e.SetLoader(&legacyLoader{r: r, trial: id, ncnodes: len(e.Cnodes), nlocations: len(e.Locations), origin: origin})
	} else {
		l := &loader{r: r, trial: id, ncnodes: len(e.Cnodes), nlocations: len(e.Locations), origin: origin}
		for i := range e.Metrics {
			l.summed = append(l.summed, e.Metrics[i].Aggregation == model.Sum && !e.Metrics[i].IsDerived())
		}
		e.SetLoader(l)
	}
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

type scanner interface{ Scan(...any) error }

// rows runs a query and calls each for every row.
func (r *Repo) rows(ctx context.Context, query string, args []any, each func(scanner) error) error {
	return queryRows(ctx, r.db, r.d, query, args, each)
}

// queryRows runs a query written with ? placeholders on db and calls each
// for every row.
func queryRows(ctx context.Context, db *sql.DB, d *dialect, query string, args []any, each func(scanner) error) error {
	rs, err := db.QueryContext(ctx, d.q(query), args...)
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
