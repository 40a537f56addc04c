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

// dictionary is the names the stored trials use (attribute keys, metric
// names and identities, region kinds), against which searches check
// theirs: a name no trial has is almost always a typo, and is refused
// with suggestions instead of finding nothing.
type dictionary struct {
	db     *sql.DB
	d      *dialect
	repo   string // the repository's name in messages
	schema int
}

// dictionaryOf returns the dictionary of r's trials.
func dictionaryOf(r *Repo) *dictionary {
	return &dictionary{db: r.db, d: r.d, repo: r.Name(), schema: r.schema}
}

// legacy reports whether the repository has the layout of schema 2 or 3.
func (n *dictionary) legacy() bool { return n.schema < schemaChunks }

// checkAttributes refuses attributes that no trial has, as a FilterError
// pointing at the name.
func (n *dictionary) checkAttributes(ctx context.Context, text string, refs []attrRef) error {
	for _, a := range refs {
		var one int
		err := n.db.QueryRowContext(ctx, n.d.q(`SELECT 1 FROM trial_attr WHERE key_hash = ? AND key = ? LIMIT 1`),
			textHash(a.name), n.d.text(a.name)).Scan(&one)
		if err == nil {
			continue
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("repository %s: %w", n.repo, err)
		}
		keys, err := n.distinct(ctx, `SELECT DISTINCT key FROM trial_attr`)
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
func (n *dictionary) distinct(ctx context.Context, query string, args ...any) ([]string, error) {
	var out []string
	err := queryRows(ctx, n.db, n.d, query, args, func(s scanner) error {
		var v string
		err := s.Scan(n.d.str(&v))
		out = append(out, v)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("repository %s: %w", n.repo, err)
	}
	return out, nil
}

// checkMetrics refuses metric names that no trial has (nor, as an
// identity, any of its metrics), other than the query's derived ones,
// whose operands it checks instead.
func (n *dictionary) checkMetrics(ctx context.Context, q *Query, names []string) error {
	for _, name := range q.storedNames(names) {
		ok, err := n.metricExists(ctx, name)
		if err != nil || ok {
			if err != nil {
				return err
			}
			continue
		}
		var known []string
		if n.legacy() {
			known, err = n.distinct(ctx, `SELECT DISTINCT uniq FROM metric`)
		} else {
			known, err = n.distinct(ctx, `SELECT name FROM metric_name`)
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
func (n *dictionary) metricExists(ctx context.Context, name string) (bool, error) {
	var one int
	var err error
	if n.legacy() {
		err = n.db.QueryRowContext(ctx, n.d.q(`SELECT 1 FROM metric WHERE uniq_hash = ? AND uniq = ? LIMIT 1`),
			textHash(name), n.d.text(name)).Scan(&one)
	} else {
		err = n.db.QueryRowContext(ctx, n.d.q(`SELECT 1 FROM bound WHERE name_hash = ? LIMIT 1`), textHash(name)).Scan(&one)
	}
	if err == nil {
		return true, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("repository %s: %w", n.repo, err)
	}
	if id := canonicalIdentity(name); id != "" {
		q := `SELECT 1 FROM metric_name WHERE canonical = ? LIMIT 1`
		if n.legacy() {
			if n.schema < schemaCanonical {
				return false, nil
			}
			q = `SELECT 1 FROM metric WHERE canonical = ? LIMIT 1`
		}
		err = n.db.QueryRowContext(ctx, n.d.q(q), n.d.text(id)).Scan(&one)
		if err == nil {
			return true, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return false, fmt.Errorf("repository %s: %w", n.repo, err)
		}
	}
	return false, nil
}

// StandardKinds are the region kinds RegionKind gives for the common
// paradigms; others come from the files (their paradigm names).
var StandardKinds = []string{"mpi", "omp", "user", "pthread", "cuda", "opencl", "openacc", "shmem", "io", "memory"}

// checkKind refuses a region kind that no call path of the metrics has.
func (n *dictionary) checkKind(ctx context.Context, kind string, metrics []string) error {
	if len(metrics) == 0 {
		return nil
	}
	var one int
	var err error
	if n.legacy() {
		err = n.db.QueryRowContext(ctx, n.d.q(`SELECT 1 FROM region WHERE kind = ? LIMIT 1`), n.d.text(kind)).Scan(&one)
	} else {
		ph := strings.TrimSuffix(strings.Repeat("?, ", len(metrics)), ", ")
		args := []any{n.d.text(kind)}
		for _, m := range metrics {
			args = append(args, textHash(m))
		}
		err = n.db.QueryRowContext(ctx, n.d.q(`SELECT 1 FROM bound WHERE kind = ? AND name_hash IN (`+ph+`) LIMIT 1`), args...).Scan(&one)
	}
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("repository %s: %w", n.repo, err)
	}
	var known []string
	if n.legacy() {
		known, err = n.distinct(ctx, `SELECT DISTINCT kind FROM region`)
	} else {
		known, err = n.distinct(ctx, `SELECT DISTINCT kind FROM bound WHERE name_hash = ? AND kind <> ''`, textHash(metrics[0]))
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
