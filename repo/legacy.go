package repo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"cubeview/model"
)

// Schemas 2 and 3 (earlier programs) are read, not changed: definitions
// have the same tables, metric data are one block per metric
// (metric_data), and searches run on the per-call-path statistics
// (cnode_stat, region_stat) with the call path stored per row.

// legacyLoader reads the whole-metric blocks of schemas 2 and 3.
type legacyLoader struct {
	r                   *Repo
	trial               int64
	ncnodes, nlocations int
	origin              model.Origin
}

// Origin implements model.Originator.
func (l *legacyLoader) Origin() model.Origin { return l.origin }

// LoadBlock implements model.Loader.
func (l *legacyLoader) LoadBlock(m int) (*model.Block, error) {
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
		return nil, fmt.Errorf("repository %s: trial %d: metric data in unknown codec %d", l.r.Name(), l.trial, codec)
	}
	b, err := decodeBlock(data, l.ncnodes, l.nlocations)
	if err != nil {
		return nil, fmt.Errorf("repository %s: trial %d: metric %d: %w", l.r.Name(), l.trial, m, err)
	}
	return b, nil
}

// legacyMetricNamed is the condition on a metric row m of a repository
// of schema 2 or 3 that selects the metric name names (by identity from
// schema 3 on).
func legacyMetricNamed(d *dialect, schema int, name string) (string, []any) {
	id := canonicalIdentity(name)
	if id == "" || schema < schemaCanonical {
		return "(m.uniq_hash = ? AND m.uniq = ?)", []any{textHash(name), d.text(name)}
	}
	return `((m.uniq_hash = ? AND m.uniq = ?) OR (m.canonical = ? AND NOT EXISTS
		(SELECT 1 FROM metric n WHERE n.trial = m.trial AND n.uniq_hash = ? AND n.uniq = ?)))`,
		[]any{textHash(name), d.text(name), d.text(id), textHash(name), d.text(name)}
}

// legacyFind answers a search of one stored metric constraint in SQL on
// the statistics of r, a repository of schema 2 or 3.
func legacyFind(ctx context.Context, r *Repo, q Query, c *test, cond condition) ([]Hit, error) {
	val := "s.excl"
	if c.incl {
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
	where, wargs := legacyMetricNamed(r.d, r.schema, c.metric)
	sb.WriteString(where)
	args = append(args, wargs...)
	op := sqlOps[c.op]
	if c.share {
		sb.WriteString(` AND m.total > 0 AND ` + val + ` ` + op + ` ? * m.total`)
	} else {
		sb.WriteString(` AND ` + val + ` ` + op + ` ?`)
	}
	args = append(args, c.value)
	if q.Kind != "" {
		sb.WriteString(` AND g.kind = ?`)
		args = append(args, r.d.text(q.Kind))
	}
	sb.WriteString(` AND ` + cond.sql)
	args = append(args, cond.args...)
	var hits []Hit
	err := r.rows(ctx, sb.String(), args, func(s scanner) error {
		var h Hit
		d := r.d
		err := s.Scan(&h.Trial, d.str(&h.App), d.str(&h.Experiment), d.str(&h.Name), &h.Cnode, &h.CnodeID, &h.Region, d.str(&h.Path), &h.Value, &h.Total)
		hits = append(hits, h)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("repository %s: find: %w", r.Name(), err)
	}
	return hits, nil
}
