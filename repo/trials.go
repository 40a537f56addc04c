package repo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"cubeview/model"
)

// Trial describes a stored trial: where it sits, where it came from and
// its attributes (sorted by key).
type Trial struct {
	ID                    int64
	App, Experiment, Name string
	Source                string
	Size                  int64
	SHA256                string
	Format                string
	Imported              time.Time
	Attrs                 []Attribute
}

// Attr returns the attribute key.
func (t *Trial) Attr(key string) (Attribute, bool) {
	for _, a := range t.Attrs {
		if a.Key == key {
			return a, true
		}
	}
	return Attribute{}, false
}

const trialColumns = `t.id, a.name, x.name, t.name, t.source, t.size, t.sha256, t.format, t.imported`
const trialFrom = ` FROM trial t JOIN experiment x ON x.id = t.experiment JOIN application a ON a.id = x.application`

// scanTrial reads a row of trialColumns.
func scanTrial(s scanner, d *dialect) (Trial, error) {
	var t Trial
	var imported string
	if err := s.Scan(&t.ID, d.str(&t.App), d.str(&t.Experiment), d.str(&t.Name), d.str(&t.Source), &t.Size, d.str(&t.SHA256),
		d.str(&t.Format), d.str(&imported)); err != nil {
		return t, err
	}
	t.Imported, _ = time.Parse(time.RFC3339Nano, imported)
	return t, nil
}

// ListOptions choose what Trials returns.
type ListOptions struct {
	// FileAttrs includes the experiments' own attributes, which can be
	// many; user and automatic attributes are always included.
	FileAttrs bool
}

// Trials returns the trials that match filter (see the filter language
// above; "" matches all), in import order.
func (r *Repo) Trials(ctx context.Context, filter string, opt ListOptions) ([]Trial, error) {
	cond, err := r.filter(ctx, filter)
	if err != nil {
		return nil, err
	}
	var out []Trial
	index := map[int64]int{}
	scan := func(s scanner) error {
		t, err := scanTrial(s, r.d)
		index[t.ID] = len(out)
		out = append(out, t)
		return err
	}
	const page = 500
	if cond.ids != "" {
		// The ids first, then their trials by id: planners misjudge how
		// many trials the set holds and would read them all.
		var ids []any
		err = r.rows(ctx, `SELECT id FROM (`+cond.ids+`) AS s ORDER BY id`, cond.args, func(s scanner) error {
			var id int64
			err := s.Scan(&id)
			ids = append(ids, id)
			return err
		})
		for lo := 0; lo < len(ids) && err == nil; lo += page {
			part := ids[lo:min(lo+page, len(ids))]
			err = r.rows(ctx, `SELECT `+trialColumns+trialFrom+` WHERE `+r.visible("t")+` AND t.id IN (`+placeholders(len(part))+`) ORDER BY t.id`, part, scan)
		}
	} else {
		err = r.rows(ctx, `SELECT `+trialColumns+trialFrom+` WHERE `+r.visible("t")+` AND `+cond.sql+` ORDER BY t.id`, cond.args, scan)
	}
	if err != nil {
		return nil, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	if len(out) == 0 {
		return out, nil
	}
	origin := ""
	if !opt.FileAttrs {
		origin = " AND v.origin > 0"
	}
	// The attributes of the trials found, by id, a page at a time.
	for lo := 0; lo < len(out); lo += page {
		ids := make([]any, 0, page)
		for _, t := range out[lo:min(lo+page, len(out))] {
			ids = append(ids, t.ID)
		}
		err = r.rows(ctx, `SELECT v.trial, v.key, v.value, v.num, v.origin FROM trial_attr v WHERE v.trial IN (`+placeholders(len(ids))+`)`+
			origin+` ORDER BY v.trial, v.key`, ids, func(s scanner) error {
			var id int64
			a, err := scanAttr(s, r.d, &id)
			if i, ok := index[id]; ok {
				out[i].Attrs = append(out[i].Attrs, a)
			}
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("repository %s: %w", r.Name(), err)
		}
	}
	return out, nil
}

// placeholders returns n comma-separated bind placeholders.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// scanAttr reads a row of trial_attr's trial, key, value, num and origin.
func scanAttr(s scanner, d *dialect, trial *int64) (Attribute, error) {
	var a Attribute
	var num sql.NullFloat64
	var origin int
	err := s.Scan(trial, d.str(&a.Key), d.str(&a.Value), &num, &origin)
	a.IsNumber, a.Number, a.Origin = num.Valid, num.Float64, Origin(origin)
	return a, err
}

// Trial returns trial id with all its attributes.
func (r *Repo) Trial(ctx context.Context, id int64) (Trial, error) {
	t, err := scanTrial(r.db.QueryRowContext(ctx, r.d.q(`SELECT `+trialColumns+trialFrom+` WHERE t.id = ? AND `+r.visible("t")), id), r.d)
	if errors.Is(err, sql.ErrNoRows) {
		return t, fmt.Errorf("repository %s has no trial %d", r.Name(), id)
	}
	if err != nil {
		return t, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	err = r.rows(ctx, `SELECT v.trial, v.key, v.value, v.num, v.origin FROM trial_attr v WHERE v.trial = ? ORDER BY v.key`,
		[]any{id}, func(s scanner) error {
			var tid int64
			a, err := scanAttr(s, r.d, &tid)
			t.Attrs = append(t.Attrs, a)
			return err
		})
	if err != nil {
		return t, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	return t, nil
}

// Counts are the sizes of a trial's dimensions.
type Counts struct {
	Metrics, Regions, Cnodes, Locations int
	DataBytes                           int64 // stored (compressed) metric data
}

// Counts returns the sizes of trial id's dimensions.
func (r *Repo) Counts(ctx context.Context, id int64) (Counts, error) {
	var c Counts
	data := "chunk"
	if r.legacySchema() {
		data = "metric_data"
	}
	err := r.db.QueryRowContext(ctx, r.d.q(`SELECT
		(SELECT COUNT(*) FROM metric WHERE trial = ?),
		(SELECT COUNT(*) FROM region WHERE trial = ?),
		(SELECT COUNT(*) FROM cnode WHERE trial = ?),
		(SELECT COUNT(*) FROM sysnode WHERE trial = ? AND location >= 0),
		(SELECT COALESCE(SUM(LENGTH(data)), 0) FROM `+data+` WHERE trial = ?)`), id, id, id, id, id).
		Scan(&c.Metrics, &c.Regions, &c.Cnodes, &c.Locations, &c.DataBytes)
	if err != nil {
		return c, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	return c, nil
}

// SetAttrs sets user attributes of trial id and removes those named in
// unset. The keys app, experiment and name move or rename the trial; the
// other trial fields are facts of the import and cannot be set.
func (r *Repo) SetAttrs(ctx context.Context, id int64, set []model.Attr, unset []string) error {
	tx, err := r.beginWrite(ctx, r.db, fmt.Sprintf("set trial %d", id))
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var app, exp, name string
	err = tx.QueryRowContext(ctx, r.d.q(`SELECT a.name, x.name, t.name`+trialFrom+` WHERE t.id = ? AND `+r.visible("t")), id).
		Scan(r.d.str(&app), r.d.str(&exp), r.d.str(&name))
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("repository %s has no trial %d", r.Name(), id)
	}
	if err != nil {
		return r.writeError(fmt.Sprintf("set trial %d", id), err)
	}
	moved := false
	for _, a := range set {
		switch a.Key {
		case "app":
			app, moved = a.Value, true
		case "experiment":
			exp, moved = a.Value, true
		case "name":
			if _, err := tx.ExecContext(ctx, r.d.q(`UPDATE trial SET name = ? WHERE id = ?`), r.d.text(a.Value), id); err != nil {
				return r.writeError(fmt.Sprintf("set trial %d", id), err)
			}
		default:
			if reservedField(a.Key) {
				return fmt.Errorf("%s is recorded at import and cannot be set", a.Key)
			}
			if a.Key == "" {
				return errors.New("an attribute needs a key: give key=value")
			}
			at := NewAttribute(a.Key, a.Value, FromUser)
			if _, err := tx.ExecContext(ctx, r.d.q(`DELETE FROM trial_attr WHERE trial = ? AND key_hash = ? AND key = ?`),
				id, textHash(a.Key), r.d.text(a.Key)); err != nil {
				return r.writeError(fmt.Sprintf("set trial %d", id), err)
			}
			if _, err := tx.ExecContext(ctx, r.d.q(`INSERT INTO trial_attr (trial, key, key_hash, value, value_hash, num, origin) VALUES (?, ?, ?, ?, ?, ?, ?)`),
				id, r.d.text(at.Key), textHash(at.Key), r.d.text(at.Value), textHash(at.Value), nullNumber(at), int(FromUser)); err != nil {
				return r.writeError(fmt.Sprintf("set trial %d", id), err)
			}
			if err := recordAttrs(ctx, tx, r.d, []Attribute{at}); err != nil {
				return r.writeError(fmt.Sprintf("set trial %d", id), err)
			}
		}
	}
	for _, k := range unset {
		if reservedField(k) {
			return fmt.Errorf("%s is a trial field and cannot be removed", k)
		}
		res, err := tx.ExecContext(ctx, r.d.q(`DELETE FROM trial_attr WHERE trial = ? AND key_hash = ? AND key = ?`), id, textHash(k), r.d.text(k))
		if err != nil {
			return r.writeError(fmt.Sprintf("set trial %d", id), err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("trial %d has no attribute %q", id, k)
		}
	}
	if moved {
		if app == "" || exp == "" {
			return errors.New("app and experiment must not be empty")
		}
		expID, err := ensureExperiment(ctx, r, tx, app, exp)
		if err != nil {
			return r.writeError(fmt.Sprintf("set trial %d", id), err)
		}
		if _, err := tx.ExecContext(ctx, r.d.q(`UPDATE trial SET experiment = ? WHERE id = ?`), expID, id); err != nil {
			return r.writeError(fmt.Sprintf("set trial %d", id), err)
		}
		if err := pruneEmpty(ctx, tx); err != nil {
			return r.writeError(fmt.Sprintf("set trial %d", id), err)
		}
	}
	return r.writeError(fmt.Sprintf("set trial %d", id), tx.Commit())
}

// Remove deletes trials, all or none, and experiments and applications
// left empty.
func (r *Repo) Remove(ctx context.Context, ids ...int64) error {
	tx, err := r.beginWrite(ctx, r.db, "rm")
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, id := range ids {
		res, err := tx.ExecContext(ctx, r.d.q(`DELETE FROM trial WHERE id = ? AND state = 0`), id)
		if err != nil {
			return r.writeError(fmt.Sprintf("rm trial %d", id), err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("repository %s has no trial %d (nothing removed)", r.Name(), id)
		}
	}
	if err := pruneEmpty(ctx, tx); err != nil {
		return r.writeError("rm", err)
	}
	return r.writeError("rm", tx.Commit())
}

// pruneEmpty removes in tx the experiments and applications left without
// trials.
func pruneEmpty(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM experiment WHERE NOT EXISTS (SELECT 1 FROM trial t WHERE t.experiment = experiment.id)`); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM application WHERE NOT EXISTS (SELECT 1 FROM experiment x WHERE x.application = application.id)`)
	return err
}

// RefPrefix starts a trial reference: "repo:17" or "repo:app=lulesh,procs=64".
const RefPrefix = "repo:"

// Resolve returns the trial a reference names: an id ("17", "repo:17")
// or a comma-separated list of key=value conditions that exactly one
// trial meets ("app=lulesh,procs=64"). Values are typed as in attributes.
func (r *Repo) Resolve(ctx context.Context, ref string) (int64, error) {
	spec := strings.TrimPrefix(ref, RefPrefix)
	if id, err := strconv.ParseInt(spec, 10, 64); err == nil && id > 0 {
		var n int
		if err := r.db.QueryRowContext(ctx, r.d.q(`SELECT COUNT(*) FROM trial t WHERE t.id = ? AND `+r.visible("t")), id).Scan(&n); err != nil {
			return 0, fmt.Errorf("repository %s: %w", r.Name(), err)
		}
		if n == 0 {
			return 0, fmt.Errorf("%s: repository %s has no trial %d", ref, r.Name(), id)
		}
		return id, nil
	}
	if spec == "" {
		return 0, fmt.Errorf("%s: no trial named; write repo:ID or repo:key=value,…", ref)
	}
	var parts []string
	var args []any
	for _, kv := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return 0, fmt.Errorf("%s: %q is not key=value", ref, kv)
		}
		if f, ok := fields[k]; ok {
			if f.numeric {
				n, isNum := parseNumber(v)
				if !isNum {
					return 0, fmt.Errorf("%s: %s is a number; %q is not", ref, k, v)
				}
				parts, args = append(parts, f.column+" = ?"), append(args, n)
			} else {
				parts, args = append(parts, f.column+" = ?"), append(args, r.d.text(v))
			}
			continue
		}
		if n, isNum := parseNumber(v); isNum {
			parts = append(parts, "t.id IN (SELECT v.trial FROM trial_attr v WHERE v.key_hash = ? AND v.key = ? AND v.num = ?)")
			args = append(args, textHash(k), r.d.text(k), n)
		} else {
			parts = append(parts, "t.id IN (SELECT v.trial FROM trial_attr v WHERE v.key_hash = ? AND v.key = ? AND v.value = ?)")
			args = append(args, textHash(k), r.d.text(k), r.d.text(v))
		}
	}
	var ids []int64
	parts = append(parts, r.visible("t"))
	err := r.rows(ctx, `SELECT t.id`+trialFrom+` WHERE `+strings.Join(parts, " AND ")+` ORDER BY t.id LIMIT 11`, args, func(s scanner) error {
		var id int64
		err := s.Scan(&id)
		ids = append(ids, id)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	switch len(ids) {
	case 0:
		return 0, fmt.Errorf("%s: no trial in repository %s matches", ref, r.Name())
	case 1:
		return ids[0], nil
	}
	list := make([]string, 0, len(ids))
	for i, id := range ids {
		if i == 10 {
			list = append(list, "…")
			break
		}
		list = append(list, strconv.FormatInt(id, 10))
	}
	return 0, fmt.Errorf("%s: %d trials match (%s); add conditions or name the trial by id", ref, len(ids), strings.Join(list, ", "))
}
