package repo

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

// changedTables are the tables an import, SetAttrs or Remove writes.
var changedTables = []string{"application", "experiment", "trial", "trial_attr", "attr_key", "attr_value", "metric", "metric_name", "region",
	"cnode", "sysnode", "summary", "bound", "hot", "chunk"}

// ReadOnly reports whether this user cannot change the repository, and
// then why, so that a program can offer only what will work: a
// PostgreSQL role without the rights to insert, update or delete in the
// repository's tables, a read-only transaction mode or a standby server,
// or an SQLite file that cannot be opened for writing. Changes are still
// checked by the database; this only looks.
func (r *Repo) ReadOnly(ctx context.Context) (bool, string, error) {
	if r.readOnly != "" {
		return true, fmt.Sprintf("%s: %s", ErrReadOnly, r.readOnly), nil
	}
	if r.d.name != "postgres" {
		f, err := os.OpenFile(r.location, os.O_WRONLY, 0)
		if err != nil {
			return true, fmt.Sprintf("%s: %v", ErrReadOnly, err), nil
		}
		return false, "", f.Close()
	}
	var missing []string
	for _, t := range changedTables {
		var ok bool
		err := r.db.QueryRowContext(ctx, `SELECT has_table_privilege($1, 'INSERT') AND has_table_privilege($1, 'UPDATE') AND has_table_privilege($1, 'DELETE')`, t).Scan(&ok)
		if err != nil {
			return false, "", fmt.Errorf("repository %s: %w", r.Name(), err)
		}
		if !ok {
			missing = append(missing, t)
		}
	}
	var user, readOnlyTx string
	var standby bool
	err := r.db.QueryRowContext(ctx, `SELECT current_user, current_setting('transaction_read_only'), pg_is_in_recovery()`).Scan(&user, &readOnlyTx, &standby)
	if err != nil {
		return false, "", fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	switch {
	case standby:
		return true, fmt.Sprintf("%s: the server is a standby (read-only)", ErrReadOnly), nil
	case readOnlyTx == "on":
		return true, fmt.Sprintf("%s: transactions are read-only for %s", ErrReadOnly, strconv.Quote(user)), nil
	case len(missing) > 0:
		return true, fmt.Sprintf("%s: role %s may not insert, update and delete in %s", ErrReadOnly, strconv.Quote(user), strings.Join(missing, ", ")), nil
	}
	return false, "", nil
}

// MetricNames returns the distinct unique names of the metrics stored in
// the trials that match filter ("" for all), sorted byte by byte.
func (r *Repo) MetricNames(ctx context.Context, filter string) ([]string, error) {
	cond, err := r.filter(ctx, filter)
	if err != nil {
		return nil, err
	}
	var out []string
	err = r.rows(ctx, `SELECT DISTINCT m.uniq FROM metric m WHERE m.trial IN (SELECT t.id`+trialFrom+` WHERE `+r.visible("t")+` AND `+cond.sql+`)`,
		cond.args, func(s scanner) error {
			var name string
			err := s.Scan(r.d.str(&name))
			out = append(out, name)
			return err
		})
	if err != nil {
		return nil, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	sort.Strings(out)
	return out, nil
}

// ParseShare reads a share of a run's total as find takes it: a fraction
// (0.25) or a percentage (25%).
func ParseShare(s string) (float64, error) {
	t := strings.TrimSpace(s)
	pct := strings.HasSuffix(t, "%")
	f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(t, "%")), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a fraction (0.25) or a percentage (25%%)", s)
	}
	if pct {
		f /= 100
	}
	return f, nil
}
