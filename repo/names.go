package repo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"

	"cubeview/internal/suggest"
)

// UnknownNameError reports a name (a metric, a region kind) that no trial
// of the repository has: almost always a typo, so searches refuse it
// instead of finding nothing.
type UnknownNameError struct {
	What        string // "metric", "region kind"
	Name        string
	Suggestions []string
	// Known lists what there is, when it is short enough to show.
	Known []string
}

func (e *UnknownNameError) Error() string {
	msg := fmt.Sprintf("no trial has a %s %q", e.What, e.Name)
	if s := suggest.DidYouMean(e.Suggestions); s != "" {
		return msg + s
	}
	if len(e.Known) > 0 {
		return msg + " (there are " + suggest.BriefList(e.Known) + ")"
	}
	return msg
}

// attrRef is an attribute a filter names, with where.
type attrRef struct {
	name string
	pos  int
}

// checkAttributes refuses attributes that no trial has, as a FilterError
// pointing at the name.
func (r *Repo) checkAttributes(ctx context.Context, text string, refs []attrRef) error {
	for _, a := range refs {
		var one int
		err := r.db.QueryRowContext(ctx, r.d.q(`SELECT 1 FROM trial_attr WHERE key_hash = ? AND key = ? LIMIT 1`),
			textHash(a.name), r.d.text(a.name)).Scan(&one)
		if err == nil {
			continue
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("repository %s: %w", r.Name(), err)
		}
		keys, err := r.distinct(ctx, `SELECT DISTINCT key FROM trial_attr`)
		if err != nil {
			return err
		}
		for f := range fields {
			keys = append(keys, f)
		}
		sort.Strings(keys)
		msg := fmt.Sprintf("no trial has an attribute %q", a.name)
		if s := suggest.DidYouMean(suggest.Names(a.name, keys)); s != "" {
			msg += s
		} else {
			msg += " (trials have " + suggest.BriefList(keys) + ")"
		}
		return &FilterError{Text: text, Pos: a.pos, Msg: msg}
	}
	return nil
}

// distinct returns the text of a one-column query.
func (r *Repo) distinct(ctx context.Context, query string, args ...any) ([]string, error) {
	var out []string
	err := r.rows(ctx, query, args, func(s scanner) error {
		var v string
		err := s.Scan(r.d.str(&v))
		out = append(out, v)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	return out, nil
}

// checkMetrics refuses metric names that no trial has (nor, as an
// identity, any of its metrics), other than the query's derived ones,
// whose operands it checks instead.
func (r *Repo) checkMetrics(ctx context.Context, q *Query, names []string) error {
	for _, name := range q.storedNames(names) {
		ok, err := r.metricExists(ctx, name)
		if err != nil || ok {
			if err != nil {
				return err
			}
			continue
		}
		var known []string
		if r.legacySchema() {
			known, err = r.distinct(ctx, `SELECT DISTINCT uniq FROM metric`)
		} else {
			known, err = r.distinct(ctx, `SELECT name FROM metric_name`)
		}
		if err != nil {
			return err
		}
		for i := range q.Derived {
			known = append(known, q.Derived[i].UniqName)
		}
		sort.Strings(known)
		return &UnknownNameError{What: "metric", Name: name, Suggestions: suggest.Names(name, known), Known: known}
	}
	return nil
}

// metricExists reports whether some trial has a metric name names.
func (r *Repo) metricExists(ctx context.Context, name string) (bool, error) {
	var one int
	var err error
	if r.legacySchema() {
		err = r.db.QueryRowContext(ctx, r.d.q(`SELECT 1 FROM metric WHERE uniq_hash = ? AND uniq = ? LIMIT 1`),
			textHash(name), r.d.text(name)).Scan(&one)
	} else {
		err = r.db.QueryRowContext(ctx, r.d.q(`SELECT 1 FROM bound WHERE name_hash = ? LIMIT 1`), textHash(name)).Scan(&one)
	}
	if err == nil {
		return true, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	if id := canonicalIdentity(name); id != "" {
		q := `SELECT 1 FROM metric_name WHERE canonical = ? LIMIT 1`
		if r.legacySchema() {
			if r.schema < schemaCanonical {
				return false, nil
			}
			q = `SELECT 1 FROM metric WHERE canonical = ? LIMIT 1`
		}
		err = r.db.QueryRowContext(ctx, r.d.q(q), r.d.text(id)).Scan(&one)
		if err == nil {
			return true, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return false, fmt.Errorf("repository %s: %w", r.Name(), err)
		}
	}
	return false, nil
}

// StandardKinds are the region kinds RegionKind gives for the common
// paradigms; others come from the files (their paradigm names).
var StandardKinds = []string{"mpi", "omp", "user", "pthread", "cuda", "opencl", "openacc", "shmem", "io", "memory"}

// checkKind refuses a region kind that no call path of the metrics has.
func (r *Repo) checkKind(ctx context.Context, kind string, metrics []string) error {
	if len(metrics) == 0 {
		return nil
	}
	var one int
	var err error
	if r.legacySchema() {
		err = r.db.QueryRowContext(ctx, r.d.q(`SELECT 1 FROM region WHERE kind = ? LIMIT 1`), r.d.text(kind)).Scan(&one)
	} else {
		ph := strings.TrimSuffix(strings.Repeat("?, ", len(metrics)), ", ")
		args := []any{r.d.text(kind)}
		for _, m := range metrics {
			args = append(args, textHash(m))
		}
		err = r.db.QueryRowContext(ctx, r.d.q(`SELECT 1 FROM bound WHERE kind = ? AND name_hash IN (`+ph+`) LIMIT 1`), args...).Scan(&one)
	}
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	var known []string
	if r.legacySchema() {
		known, err = r.distinct(ctx, `SELECT DISTINCT kind FROM region`)
	} else {
		known, err = r.distinct(ctx, `SELECT DISTINCT kind FROM bound WHERE name_hash = ? AND kind <> ''`, textHash(metrics[0]))
	}
	if err != nil {
		return err
	}
	sort.Strings(known)
	var candidates []string
	for _, k := range append(append([]string(nil), known...), StandardKinds...) {
		if k != kind {
			candidates = append(candidates, k)
		}
	}
	return &UnknownNameError{What: "region kind", Name: kind, Suggestions: suggest.Names(kind, candidates), Known: known}
}
