package repo

import (
	"context"
	"fmt"

	"cubeview/model"
)

// CheckReport is what Check found.
type CheckReport struct {
	Trials, Summaries, Chunks int
	// Pending counts trials being imported (or left by an import that
	// died; the next import removes those).
	Pending int
	// Problems describes each damage found, one sentence each.
	Problems []string
}

// Check reads everything the repository stores and verifies it: the
// database's own structure (SQLite), every checksum, and that stored
// pieces fit the trial they belong to. It changes nothing.
func (r *Repo) Check(ctx context.Context, progress func(done, total int)) (CheckReport, error) {
	var rep CheckReport
	problem := func(format string, args ...any) { rep.Problems = append(rep.Problems, fmt.Sprintf(format, args...)) }
	if r.d.name == "sqlite" {
		err := r.rows(ctx, `PRAGMA integrity_check`, nil, func(s scanner) error {
			var line string
			if err := s.Scan(&line); err != nil {
				return err
			}
			if line != "ok" {
				problem("SQLite: %s", line)
			}
			return nil
		})
		if err != nil {
			return rep, fmt.Errorf("repository %s: %w", r.Name(), err)
		}
	}
	type dims struct{ nc, nr, nl int }
	trials := map[int64]dims{}
	var order []int64
	if r.legacySchema() {
		err := r.rows(ctx, `SELECT t.id, t.header, (SELECT COUNT(*) FROM cnode c WHERE c.trial = t.id),
			(SELECT COUNT(*) FROM sysnode n WHERE n.trial = t.id AND n.location >= 0) FROM trial t ORDER BY t.id`, nil, func(s scanner) error {
			var id int64
			var header []byte
			var d dims
			if err := s.Scan(&id, &header, &d.nc, &d.nl); err != nil {
				return err
			}
			trials[id] = d
			order = append(order, id)
			return nil
		})
		if err != nil {
			return rep, fmt.Errorf("repository %s: %w", r.Name(), err)
		}
		rep.Trials = len(order)
		for i, id := range order {
			e, err := r.Open(ctx, id)
			if err != nil {
				problem("trial %d: %v", id, err)
				continue
			}
			for m := range e.Metrics {
				if _, err := e.Block(m); err != nil {
					problem("trial %d: metric %q: %v", id, e.Metrics[m].UniqName, err)
				}
			}
			if progress != nil {
				progress(i+1, len(order))
			}
		}
		return rep, nil
	}
	err := r.rows(ctx, `SELECT id, state, cnodes, regions, locations, header, tree FROM trial ORDER BY id`, nil, func(s scanner) error {
		var id int64
		var state int
		var d dims
		var header, tree []byte
		if err := s.Scan(&id, &state, &d.nc, &d.nr, &d.nl, &header, &tree); err != nil {
			return err
		}
		if state != 0 {
			rep.Pending++
			return nil
		}
		rep.Trials++
		trials[id] = d
		order = append(order, id)
		if b, err := unseal(header); err != nil {
			problem("trial %d: header: %v", id, err)
		} else if err := decodeHeader(b, new(model.Experiment)); err != nil {
			problem("trial %d: header: %v", id, err)
		}
		if t, err := decodeTree(tree); err != nil {
			problem("trial %d: call tree: %v", id, err)
		} else if len(t.parent) != d.nc || len(t.name) != d.nr {
			problem("trial %d: call tree: %d call paths and %d regions, the trial has %d and %d", id, len(t.parent), len(t.name), d.nc, d.nr)
		}
		return nil
	})
	if err != nil {
		return rep, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	names := map[[2]int64]string{}
	totals := map[[2]int64]float64{}
	err = r.rows(ctx, `SELECT trial, idx, uniq, total FROM metric`, nil, func(s scanner) error {
		var t, m int64
		var name string
		var total float64
		if err := s.Scan(&t, &m, r.d.str(&name), &total); err != nil {
			return err
		}
		names[[2]int64{t, m}] = name
		totals[[2]int64{t, m}] = total
		return nil
	})
	if err != nil {
		return rep, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	metric := func(t, m int64) string {
		if n, ok := names[[2]int64{t, m}]; ok {
			return fmt.Sprintf("metric %q", n)
		}
		return fmt.Sprintf("metric %d", m)
	}
	// The hot call paths (schema 6) must be those of the own values.
	var hot map[[2]int64][]byte
	if r.schema >= schemaHot {
		hot = map[[2]int64][]byte{}
		err = r.rows(ctx, `SELECT trial, metric, paths FROM hot`, nil, func(s scanner) error {
			var t, m int64
			var b []byte
			if err := s.Scan(&t, &m, &b); err != nil {
				return err
			}
			if _, ok := trials[t]; ok {
				hot[[2]int64{t, m}] = b
			}
			return nil
		})
		if err != nil {
			return rep, fmt.Errorf("repository %s: %w", r.Name(), err)
		}
	}
	err = r.rows(ctx, `SELECT trial, metric, excl, incl, flat_excl, flat_incl FROM summary ORDER BY trial, metric`, nil, func(s scanner) error {
		var t, m int64
		var v [4][]byte
		if err := s.Scan(&t, &m, &v[0], &v[1], &v[2], &v[3]); err != nil {
			return err
		}
		d, ok := trials[t]
		if !ok {
			return nil
		}
		rep.Summaries++
		var excl []float64
		for i, part := range []string{"own values", "values with callees", "flat own values", "flat values with callees"} {
			n := d.nc
			if i >= 2 {
				n = d.nr
			}
			x, err := decodeVector(v[i], n)
			if err != nil {
				problem("trial %d: %s: summary of %s: %v", t, metric(t, m), part, err)
			}
			if i == 0 {
				excl = x
			}
		}
		if hot == nil {
			return nil
		}
		key := [2]int64{t, m}
		b, ok := hot[key]
		delete(hot, key)
		switch h, err := decodeHot(b, d.nc); {
		case !ok:
			problem("trial %d: %s: its hot call paths are missing (searches for shares miss it)", t, metric(t, m))
		case err != nil:
			problem("trial %d: %s: hot call paths: %v", t, metric(t, m), err)
		case excl != nil && !sameHot(h, hotOf(excl, totals[key])):
			problem("trial %d: %s: the hot call paths are not those of its own values (searches for shares answer wrongly)", t, metric(t, m))
		}
		return nil
	})
	if err != nil {
		return rep, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	for key := range hot {
		problem("trial %d: %s: hot call paths without a summary", key[0], metric(key[0], key[1]))
	}
	total := len(order)
	done := map[int64]bool{}
	err = r.rows(ctx, `SELECT trial, metric, seq, codec, nrows, checksum, rows, data FROM chunk ORDER BY trial, metric, seq`, nil, func(s scanner) error {
		var t, m int64
		var seq, codec, nrows int
		var sum int64
		var rows, data []byte
		if err := s.Scan(&t, &m, &seq, &codec, &nrows, &sum, &rows, &data); err != nil {
			return err
		}
		d, ok := trials[t]
		if !ok {
			return nil
		}
		rep.Chunks++
		if _, _, err := decodeChunk(codec, nrows, rows, data, uint32(sum), d.nc, d.nl); err != nil {
			problem("trial %d: %s: chunk %d: %v", t, metric(t, m), seq, err)
		}
		if !done[t] {
			done[t] = true
			if progress != nil {
				progress(len(done), total)
			}
		}
		return ctx.Err()
	})
	if err != nil {
		return rep, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	if r.schema >= schemaAttrIndex {
		if err := checkAttrIndex(ctx, r, problem); err != nil {
			return rep, fmt.Errorf("repository %s: %w", r.Name(), err)
		}
	}
	return rep, nil
}

// checkAttrIndex verifies that every attribute's hashes are those of its
// text and that the dictionaries hold its key and value, as filters
// assume.
func checkAttrIndex(ctx context.Context, r *Repo, problem func(format string, args ...any)) error {
	keys := map[string]bool{}
	err := r.rows(ctx, `SELECT key_hash, key FROM attr_key`, nil, func(s scanner) error {
		var h int64
		var k string
		if err := s.Scan(&h, r.d.str(&k)); err != nil {
			return err
		}
		keys[k] = h == textHash(k)
		return nil
	})
	if err != nil {
		return err
	}
	values := map[[2]int64]map[string]bool{}
	err = r.rows(ctx, `SELECT key_hash, value_hash, value FROM attr_value`, nil, func(s scanner) error {
		var kh, vh int64
		var v string
		if err := s.Scan(&kh, &vh, r.d.str(&v)); err != nil {
			return err
		}
		h := [2]int64{kh, vh}
		if values[h] == nil {
			values[h] = map[string]bool{}
		}
		values[h][v] = vh == textHash(v)
		return nil
	})
	if err != nil {
		return err
	}
	return r.rows(ctx, `SELECT trial, key, key_hash, value, value_hash FROM trial_attr ORDER BY trial`, nil, func(s scanner) error {
		var t, kh, vh int64
		var k, v string
		if err := s.Scan(&t, r.d.str(&k), &kh, r.d.str(&v), &vh); err != nil {
			return err
		}
		switch {
		case kh != textHash(k) || vh != textHash(v):
			problem("trial %d: attribute %q: the stored hashes are not those of its key and value (filters miss it)", t, k)
		case !keys[k]:
			problem("trial %d: attribute %q: the key is missing from attr_key (filters may select wrongly)", t, k)
		case !values[[2]int64{kh, vh}][v]:
			problem("trial %d: attribute %q: the value is missing from attr_value (filters may select wrongly)", t, k)
		}
		return nil
	})
}
