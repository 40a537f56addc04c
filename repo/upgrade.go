package repo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// UpgradeOptions say how Upgrade proceeds.
type UpgradeOptions struct {
	// Progress, if set, is called after each trial is converted.
	Progress func(done, total int)
}

// UpgradeResult says what an upgrade did.
type UpgradeResult struct {
	From, To int
	Trials   int
	// Backup says where the repository as it was is kept: a copy of the
	// SQLite file, the PostgreSQL schema that holds the old tables.
	Backup string
}

// Upgrade converts the repository at loc from an earlier schema to the
// one this program writes. A repository of schema 4 or 5 gains what
// later schemas add (the attribute indexes of schema 5, the hot call
// paths of schema 6) in place, in one transaction (UpgradeResult.Backup
// is empty); programs of schema 4 and 5 still read it. From schemas 2 and 3 the trials are copied into a new repository
// (a new file beside an SQLite one, a new schema of the PostgreSQL
// database) while other programs may still read the old one, and the new
// one then takes its place at once; the old one is kept (UpgradeResult.
// Backup). Programs of the older schema cannot read the repository
// afterwards.
func Upgrade(ctx context.Context, loc string, opt UpgradeOptions) (UpgradeResult, error) {
	old, err := Open(ctx, loc)
	if err != nil {
		return UpgradeResult{}, err
	}
	defer old.Close()
	res := UpgradeResult{From: old.schema, To: SchemaVersion}
	switch {
	case old.schema == SchemaVersion:
		return res, fmt.Errorf("repository %s already has schema %d: nothing to upgrade", old.Name(), SchemaVersion)
	case old.schema > SchemaVersion:
		return res, fmt.Errorf("repository %s has schema %d, newer than this cubeview's %d: use a newer cubeview", old.Name(), old.schema, SchemaVersion)
	case old.schema >= schemaChunks:
		if old.immutable || !fileWritableRepo(old) {
			return res, fmt.Errorf("repository %s: %w: an upgrade must write it", old.Name(), ErrReadOnly)
		}
		res.Trials, err = upgradeInPlace(ctx, old)
		return res, err
	case !old.legacySchema():
		return res, fmt.Errorf("repository %s: no upgrade from schema %d", old.Name(), old.schema)
	}
	if old.immutable || !fileWritableRepo(old) {
		return res, fmt.Errorf("repository %s: %w: an upgrade must write it", old.Name(), ErrReadOnly)
	}
	c := &conversion{from: old, opt: opt}
	if old.d.name == "postgres" {
		return c.postgres(ctx, res)
	}
	return c.sqlite(ctx, res)
}

// conversion copies the trials of a repository of schema 2 or 3 into a
// new repository of this program's schema, which then takes the old
// one's place; the old one is kept aside.
type conversion struct {
	from *Repo
	opt  UpgradeOptions
}

func fileWritableRepo(r *Repo) bool {
	return r.d.name == "postgres" || fileWritable(r.location)
}

// holdWriters keeps other programs from changing an old SQLite repository
// while it is copied (they wait, or fail saying it is busy); readers go on.
func (c *conversion) holdWriters(ctx context.Context) (release func(), err error) {
	r := c.from
	conn, err := r.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	// The connection was opened with _txlock=immediate: BEGIN takes the
	// write lock.
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		conn.Close()
		if isBusy(err) {
			return nil, &BusyError{Repo: r.Name(), Op: "upgrade", Holder: r.lock.holder(ctx)}
		}
		return nil, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	return func() { tx.Rollback(); conn.Close() }, nil
}

// copyTrials converts every trial into dst, keeping ids, places,
// attributes and import times.
func (c *conversion) copyTrials(ctx context.Context, dst *Repo) (int, error) {
	r, opt := c.from, c.opt
	trials, err := r.Trials(ctx, "", ListOptions{FileAttrs: true})
	if err != nil {
		return 0, err
	}
	for i, t := range trials {
		if err := ctx.Err(); err != nil {
			return i, err
		}
		e, err := r.Open(ctx, t.ID)
		if err != nil {
			return i, err
		}
		var imported string
		if err := r.db.QueryRowContext(ctx, r.d.q(`SELECT imported FROM trial WHERE id = ?`), t.ID).Scan(r.d.str(&imported)); err != nil {
			return i, fmt.Errorf("repository %s: trial %d: %w", r.Name(), t.ID, err)
		}
		_, err = importTrial(ctx, dst, e, Source{Path: t.Source, Size: t.Size, SHA256: t.SHA256},
			ImportOptions{App: t.App, Experiment: t.Experiment, Name: t.Name, Force: true},
			&restored{id: t.ID, imported: imported, attrs: t.Attrs})
		if err != nil {
			return i, fmt.Errorf("converting trial %d: %w", t.ID, err)
		}
		if opt.Progress != nil {
			opt.Progress(i+1, len(trials))
		}
	}
	return len(trials), nil
}

// sqlite copies into a new file beside the old one, keeps the old
// file as the backup and renames the new one into its place.
func (c *conversion) sqlite(ctx context.Context, res UpgradeResult) (UpgradeResult, error) {
	r := c.from
	release, err := c.holdWriters(ctx)
	if err != nil {
		return res, err
	}
	defer release()
	backup := freeName(fmt.Sprintf("%s.schema%d", r.location, r.schema))
	tmp := freeName(r.location + ".upgrading")
	dst, err := OpenWith(ctx, tmp, Options{Create: true})
	if err != nil {
		return res, err
	}
	fail := func(err error) (UpgradeResult, error) {
		dst.Close()
		os.Remove(tmp)
		os.Remove(tmp + "-wal")
		os.Remove(tmp + "-shm")
		return res, err
	}
	if res.Trials, err = c.copyTrials(ctx, dst); err != nil {
		return fail(err)
	}
	if err := dst.Close(); err != nil {
		return fail(err)
	}
	release()
	// The old file goes aside whole: its log is folded into it first.
	if _, err := r.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return fail(fmt.Errorf("repository %s: %w", r.Name(), err))
	}
	if st, err := os.Stat(r.location + "-wal"); err == nil && st.Size() > 0 {
		return fail(fmt.Errorf("repository %s is in use by another program (its write-ahead log cannot be folded in): close it and upgrade again", r.Name()))
	}
	if mode, err := os.Stat(r.location); err == nil {
		os.Chmod(tmp, mode.Mode().Perm())
	}
	// A hard link keeps the old file under both names until the new one
	// takes its place, so that the location always holds a repository.
	if err := os.Link(r.location, backup); err != nil {
		if err := os.Rename(r.location, backup); err != nil {
			return fail(fmt.Errorf("keeping the old repository as %s: %w", backup, err))
		}
	}
	if err := os.Rename(tmp, r.location); err != nil {
		if _, serr := os.Stat(r.location); serr != nil {
			os.Rename(backup, r.location)
		} else {
			os.Remove(backup)
		}
		return fail(err)
	}
	os.Remove(r.location + "-wal")
	os.Remove(r.location + "-shm")
	res.Backup = backup
	return res, nil
}

// freeName returns name, or name.1, name.2, … when it exists.
func freeName(name string) string {
	for i := 0; ; i++ {
		n := name
		if i > 0 {
			n += "." + strconv.Itoa(i)
		}
		if _, err := os.Lstat(n); errors.Is(err, os.ErrNotExist) {
			return n
		}
	}
}

// postgres copies into a new schema of the database, then moves
// the old tables into a schema of their own (the backup) and the new ones
// into their place in one transaction, granting the new tables what the
// old ones granted.
func (c *conversion) postgres(ctx context.Context, res UpgradeResult) (UpgradeResult, error) {
	r := c.from
	var home string
	if err := r.db.QueryRowContext(ctx, `SELECT current_schema()`).Scan(&home); err != nil {
		return res, err
	}
	backup := fmt.Sprintf("cubeview_schema%d", r.schema)
	staging := "cubeview_upgrading"
	for _, s := range []string{backup, staging} {
		var n int
		if err := r.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = $1`, s).Scan(&n); err != nil {
			return res, err
		}
		if n > 0 {
			return res, fmt.Errorf("repository %s: the schema %s exists (a backup or an unfinished upgrade): drop or rename it first", r.Name(), s)
		}
	}
	conn, err := r.db.Conn(ctx)
	if err != nil {
		return res, err
	}
	defer conn.Close()
	lock, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return res, r.writeError("upgrade", err)
	}
	defer lock.Rollback()
	// Other programs may read on, not write, while the trials are copied.
	if _, err := lock.ExecContext(ctx, fmt.Sprintf(`SET LOCAL lock_timeout = %d`, r.opt.Wait.Milliseconds())); err != nil {
		return res, err
	}
	if _, err := lock.ExecContext(ctx, `LOCK TABLE trial, trial_attr, application, experiment IN SHARE MODE`); err != nil {
		if isBusy(err) {
			return res, &BusyError{Repo: r.Name(), Op: "upgrade", Waited: r.opt.Wait, Holder: r.lock.holder(ctx)}
		}
		return res, r.writeError("upgrade", err)
	}
	if _, err := r.db.ExecContext(ctx, `CREATE SCHEMA `+staging); err != nil {
		return res, r.writeError("upgrade", err)
	}
	dropStaging := func() { r.db.ExecContext(context.Background(), `DROP SCHEMA IF EXISTS `+staging+` CASCADE`) }
	dst, err := openPostgresIn(ctx, r.location, staging)
	if err != nil {
		dropStaging()
		return res, err
	}
	if res.Trials, err = c.copyTrials(ctx, dst); err != nil {
		dst.Close()
		dropStaging()
		return res, err
	}
	dst.Close()
	if err := swapSchemas(ctx, lock, home, staging, backup); err != nil {
		dropStaging()
		return res, err
	}
	res.Backup = "schema " + backup + " of the database (DROP SCHEMA " + backup + " CASCADE removes it)"
	return res, nil
}

// openPostgresIn creates and opens a repository in schema of the
// database at loc.
func openPostgresIn(ctx context.Context, loc, schema string) (*Repo, error) {
	r := &Repo{location: loc, opt: Options{Create: true, Wait: DefaultWait}, d: postgresDialect}
	cfg, err := pgx.ParseConfig(loc)
	if err != nil {
		return nil, err
	}
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	cfg.RuntimeParams["search_path"] = schema
	cfg.RuntimeParams["application_name"] = "cubeview: upgrade"
	r.db = stdlib.OpenDB(*cfg)
	r.lock = newWriteLock(r.db, r.d.name, loc, r.opt)
	if _, err := attach(ctx, r); err != nil {
		r.db.Close()
		return nil, err
	}
	return r, nil
}

// swapSchemas moves the old tables from home into backup and the new ones
// from staging into home, in tx, and commits it.
func swapSchemas(ctx context.Context, tx *sql.Tx, home, staging, backup string) error {
	exec := func(q string, args ...any) error {
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("upgrade: %s: %w", q, err)
		}
		return nil
	}
	list := func(q string, args ...any) ([]string, error) {
		rs, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return nil, err
		}
		defer rs.Close()
		var out []string
		for rs.Next() {
			var s string
			if err := rs.Scan(&s); err != nil {
				return nil, err
			}
			out = append(out, s)
		}
		return out, rs.Err()
	}
	grants, err := list(`SELECT DISTINCT quote_ident(grantee) || ' ' || privilege_type FROM information_schema.role_table_grants
		WHERE table_schema = $1 AND table_name = 'trial' AND grantee <> current_user`, home)
	if err != nil {
		return err
	}
	id := func(s string) string { return pgx.Identifier{s}.Sanitize() }
	if err := exec(`CREATE SCHEMA ` + id(backup)); err != nil {
		return err
	}
	for _, t := range legacyTables {
		if err := exec(`ALTER TABLE ` + id(home) + `.` + id(t) + ` SET SCHEMA ` + id(backup)); err != nil {
			return err
		}
	}
	tables, err := list(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'`, staging)
	if err != nil {
		return err
	}
	views, err := list(`SELECT table_name FROM information_schema.views WHERE table_schema = $1`, staging)
	if err != nil {
		return err
	}
	funcs, err := list(`SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1`, staging)
	if err != nil {
		return err
	}
	for _, t := range tables {
		if err := exec(`ALTER TABLE ` + id(staging) + `.` + id(t) + ` SET SCHEMA ` + id(home)); err != nil {
			return err
		}
	}
	for _, v := range views {
		if err := exec(`ALTER VIEW ` + id(staging) + `.` + id(v) + ` SET SCHEMA ` + id(home)); err != nil {
			return err
		}
	}
	for _, f := range funcs {
		// regprocedure text is already qualified or quoted as needed.
		if !strings.Contains(f, ".") {
			f = id(staging) + "." + f
		}
		if err := exec(`ALTER FUNCTION ` + f + ` SET SCHEMA ` + id(home)); err != nil {
			return err
		}
	}
	if err := exec(`DROP SCHEMA ` + id(staging)); err != nil {
		return err
	}
	for _, g := range grants {
		who, priv, _ := strings.Cut(g, " ")
		if err := exec(`GRANT ` + priv + ` ON ALL TABLES IN SCHEMA ` + id(home) + ` TO ` + who); err != nil {
			return err
		}
		if priv == "INSERT" {
			if err := exec(`GRANT USAGE ON ALL SEQUENCES IN SCHEMA ` + id(home) + ` TO ` + who); err != nil {
				return err
			}
		}
	}
	// Ids continue after the largest one kept.
	for _, t := range []string{"application", "experiment", "trial"} {
		if err := exec(`SELECT setval(pg_get_serial_sequence($1, 'id'), GREATEST((SELECT MAX(id) FROM `+id(home)+`.`+id(t)+`), 1))`,
			id(home)+"."+id(t)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// upgradeInPlace adds to r, a repository of schema 4 or 5, what the later
// schemas add, all in one transaction, which other programs' changes wait
// for. It returns the number of trials.
func upgradeInPlace(ctx context.Context, r *Repo) (int, error) {
	why := r.readOnly
	r.readOnly = ""
	tx, err := r.beginWrite(ctx, r.db, "upgrade")
	r.readOnly = why
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	fail := func(err error) (int, error) { return 0, r.writeError("upgrade", err) }
	if r.schema < schemaAttrIndex {
		if err := indexAttributes(ctx, r, tx); err != nil {
			return fail(err)
		}
	}
	if err := listHotPaths(ctx, r, tx); err != nil {
		return fail(err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`UPDATE schema_version SET version = %d`, SchemaVersion)); err != nil {
		return fail(err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM trial WHERE state = 0`).Scan(&n); err != nil {
		return fail(err)
	}
	if testHookUpgrade != nil {
		if err := testHookUpgrade(tx); err != nil {
			return fail(err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fail(err)
	}
	from := r.schema
	r.schema = SchemaVersion
	// The planners learn the new tables' and indexes' statistics.
	tables := []string{"hot", "trial", "bound"}
	if from < schemaAttrIndex {
		tables = append(tables, "trial_attr", "attr_key", "attr_value")
	}
	if r.d.name == "postgres" {
		// VACUUM lets the indexes answer alone (the visibility map the
		// rewrite of trial_attr cleared).
		r.db.ExecContext(ctx, `VACUUM ANALYZE `+strings.Join(tables, ", "))
	} else {
		for _, t := range tables {
			r.db.ExecContext(ctx, `ANALYZE `+t)
		}
	}
	return n, nil
}

// testHookUpgrade, when set by a test, runs in an in-place upgrade's
// transaction before it commits; an error fails the upgrade.
var testHookUpgrade func(tx *sql.Tx) error

// listHotPaths adds what schema 6 adds in tx: the index of trial states,
// in PostgreSQL the trial and metric to the bound indexes, and the table
// of hot call paths, filled from the summaries, a page of them at a time.
func listHotPaths(ctx context.Context, r *Repo, tx *sql.Tx) error {
	stmts := []string{trialStateIndex, hotTable}
	if r.d.name == "postgres" {
		// The bound indexes include the trial and metric.
		for _, stmt := range boundIndexes {
			name := strings.Fields(stmt)[2]
			stmts = append(stmts, `DROP INDEX `+name, stmt)
		}
	}
	for _, stmt := range stmts {
		if _, err := tx.ExecContext(ctx, engineTypes[r.d.name].Replace(stmt)); err != nil {
			return fmt.Errorf("%s: %w", firstLine(stmt), err)
		}
	}
	type summaryRow struct {
		trial  int64
		metric int
		nc     int
		total  float64
		excl   []byte
	}
	// The trials in ranges of ids, each range read by the primary key.
	var ids []int64
	rs, err := tx.QueryContext(ctx, `SELECT id FROM trial ORDER BY id`)
	if err != nil {
		return err
	}
	for rs.Next() {
		var id int64
		if err := rs.Scan(&id); err != nil {
			rs.Close()
			return err
		}
		ids = append(ids, id)
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return err
	}
	const perPage = 200
	for lo := 0; lo < len(ids); lo += perPage {
		hi := min(lo+perPage, len(ids)) - 1
		var page []summaryRow
		rs, err := tx.QueryContext(ctx, r.d.q(`SELECT s.trial, s.metric, t.cnodes, COALESCE(m.total, 0), s.excl FROM summary s
			JOIN trial t ON t.id = s.trial LEFT JOIN metric m ON m.trial = s.trial AND m.idx = s.metric
			WHERE s.trial >= ? AND s.trial <= ?`), ids[lo], ids[hi])
		if err != nil {
			return err
		}
		for rs.Next() {
			var row summaryRow
			if err := rs.Scan(&row.trial, &row.metric, &row.nc, &row.total, &row.excl); err != nil {
				rs.Close()
				return err
			}
			page = append(page, row)
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return err
		}
		ins := &inserter{ctx: ctx, tx: tx, d: r.d}
		for _, row := range page {
			excl, err := decodeVector(row.excl, row.nc)
			if err != nil {
				return fmt.Errorf("trial %d: metric %d: summary of own values: %w", row.trial, row.metric, err)
			}
			ins.add("hot", []string{"trial", "metric", "paths"}, row.trial, row.metric, encodeHot(hotOf(excl, row.total)))
		}
		if err := ins.flushAll(); err != nil {
			return err
		}
	}
	return nil
}

// indexAttributes adds to r, a repository of schema 4, what schema 5 adds
// in tx: the value hash of every attribute, the dictionaries of keys and
// values and the indexes filters use.
func indexAttributes(ctx context.Context, r *Repo, tx *sql.Tx) error {
	types := engineTypes[r.d.name]
	if _, err := tx.ExecContext(ctx, `ALTER TABLE trial_attr ADD COLUMN value_hash `+types.Replace("{int}")+` NOT NULL DEFAULT 0`); err != nil {
		return err
	}
	if r.d.name == "postgres" {
		// The server hashes the text it holds; text stored escaped (see
		// escapeText) is hashed here, as it was given.
		if _, err := tx.ExecContext(ctx, `UPDATE trial_attr SET value_hash =
			('x' || encode(substring(sha256(convert_to(value, 'UTF8')) from 1 for 8), 'hex'))::bit(64)::bigint
			WHERE value NOT LIKE E'\x01%'`); err != nil {
			return err
		}
		var escaped []string
		rs, err := tx.QueryContext(ctx, `SELECT DISTINCT value FROM trial_attr WHERE value LIKE E'\x01%'`)
		if err != nil {
			return err
		}
		for rs.Next() {
			var v string
			if err := rs.Scan(r.d.str(&v)); err != nil {
				rs.Close()
				return err
			}
			escaped = append(escaped, v)
		}
		rs.Close()
		if err := rs.Err(); err != nil {
			return err
		}
		for _, v := range escaped {
			if _, err := tx.ExecContext(ctx, `UPDATE trial_attr SET value_hash = $1 WHERE value = $2`, textHash(v), r.d.text(v)); err != nil {
				return err
			}
		}
	} else if _, err := tx.ExecContext(ctx, `UPDATE trial_attr SET value_hash = `+sqliteTextHash+`(value)`); err != nil {
		return err
	}
	stmts := append([]string{`DROP INDEX trial_attr_key`, `DROP INDEX trial_experiment`, trialPlaceIndex}, attrIndexes...)
	stmts = append(stmts, attrDictionaries...)
	stmts = append(stmts,
		`INSERT INTO attr_key (key_hash, key) SELECT DISTINCT key_hash, key FROM trial_attr`,
		`INSERT INTO attr_value (key_hash, value_hash, value) SELECT DISTINCT key_hash, value_hash, value FROM trial_attr`)
	for _, stmt := range stmts {
		if _, err := tx.ExecContext(ctx, types.Replace(stmt)); err != nil {
			return fmt.Errorf("%s: %w", firstLine(stmt), err)
		}
	}
	return nil
}
