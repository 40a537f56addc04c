package repo

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Names that are looked up (application and experiment names, attribute
// keys, metric names) are indexed by a 64-bit hash of their bytes, not by
// their text: PostgreSQL cannot index values of more than a few kilobytes,
// and a name may be that long. Lookups compare hash and text.
//
// migrations[i] brings the schema from version i to version i+1. Column
// types are written as {id}, {text}, {blob}, {float}, {int} and replaced
// per engine. Never change a migration that has been released: add one.
var migrations = [][]string{
	// 1: organisation, definitions, summaries and data.
	{
		`CREATE TABLE application (
			id {id},
			name {text} NOT NULL,
			name_hash {int} NOT NULL)`,
		`CREATE INDEX application_name ON application (name_hash)`,
		`CREATE TABLE experiment (
			id {id},
			application {int} NOT NULL REFERENCES application(id),
			name {text} NOT NULL,
			name_hash {int} NOT NULL)`,
		`CREATE INDEX experiment_name ON experiment (application, name_hash)`,
		`CREATE TABLE trial (
			id {id},
			experiment {int} NOT NULL REFERENCES experiment(id),
			name {text} NOT NULL,
			source {text} NOT NULL,
			size {int} NOT NULL,
			sha256 {text} NOT NULL,
			format {text} NOT NULL,
			imported {text} NOT NULL,
			header {blob} NOT NULL)`,
		`CREATE INDEX trial_sha256 ON trial (sha256)`,
		`CREATE INDEX trial_experiment ON trial (experiment)`,
		`CREATE TABLE trial_attr (
			trial {int} NOT NULL REFERENCES trial(id) ON DELETE CASCADE,
			key {text} NOT NULL,
			key_hash {int} NOT NULL,
			value {text} NOT NULL,
			num {float},
			origin {int} NOT NULL)`,
		`CREATE INDEX trial_attr_trial ON trial_attr (trial, key_hash)`,
		`CREATE TABLE metric (
			trial {int} NOT NULL REFERENCES trial(id) ON DELETE CASCADE,
			idx {int} NOT NULL,
			id {int} NOT NULL,
			parent {int} NOT NULL,
			ord {int} NOT NULL,
			uniq {text} NOT NULL,
			uniq_hash {int} NOT NULL,
			disp {text} NOT NULL,
			dtype {text} NOT NULL,
			unit {text} NOT NULL,
			descr {text} NOT NULL,
			url {text} NOT NULL,
			val {text} NOT NULL,
			type {text} NOT NULL,
			expression {text} NOT NULL,
			init_expression {text} NOT NULL,
			formula {text} NOT NULL,
			viztype {text} NOT NULL,
			aggregation {int} NOT NULL,
			unavailable {text} NOT NULL,
			approximate {int} NOT NULL,
			present {int} NOT NULL,
			extra {blob},
			total {float} NOT NULL,
			PRIMARY KEY (trial, idx)) {without_rowid}`,
		`CREATE TABLE region (
			trial {int} NOT NULL REFERENCES trial(id) ON DELETE CASCADE,
			idx {int} NOT NULL,
			id {int} NOT NULL,
			name {text} NOT NULL,
			mangled {text} NOT NULL,
			module {text} NOT NULL,
			begin_line {int} NOT NULL,
			end_line {int} NOT NULL,
			paradigm {text} NOT NULL,
			role {text} NOT NULL,
			url {text} NOT NULL,
			descr {text} NOT NULL,
			kind {text} NOT NULL,
			extra {blob},
			PRIMARY KEY (trial, idx)) {without_rowid}`,
		`CREATE TABLE cnode (
			trial {int} NOT NULL REFERENCES trial(id) ON DELETE CASCADE,
			idx {int} NOT NULL,
			id {int} NOT NULL,
			parent {int} NOT NULL,
			ord {int} NOT NULL,
			region {int} NOT NULL,
			call_file {text} NOT NULL,
			call_line {int} NOT NULL,
			present {int} NOT NULL,
			path {text} NOT NULL,
			extra {blob},
			PRIMARY KEY (trial, idx)) {without_rowid}`,
		`CREATE TABLE sysnode (
			trial {int} NOT NULL REFERENCES trial(id) ON DELETE CASCADE,
			idx {int} NOT NULL,
			id {int} NOT NULL,
			kind {int} NOT NULL,
			class {text} NOT NULL,
			name {text} NOT NULL,
			descr {text} NOT NULL,
			rank {int} NOT NULL,
			location {int} NOT NULL,
			present {int} NOT NULL,
			parent {int} NOT NULL,
			ord {int} NOT NULL,
			extra {blob},
			PRIMARY KEY (trial, idx)) {without_rowid}`,
		`CREATE TABLE cnode_stat (
			trial {int} NOT NULL REFERENCES trial(id) ON DELETE CASCADE,
			metric {int} NOT NULL,
			cnode {int} NOT NULL,
			excl {float} NOT NULL,
			incl {float} NOT NULL,
			excl_min {float} NOT NULL,
			excl_max {float} NOT NULL,
			excl_mean {float} NOT NULL,
			excl_sd {float} NOT NULL,
			incl_min {float} NOT NULL,
			incl_max {float} NOT NULL,
			incl_mean {float} NOT NULL,
			incl_sd {float} NOT NULL,
			PRIMARY KEY (trial, metric, cnode)) {without_rowid}`,
		`CREATE TABLE region_stat (
			trial {int} NOT NULL REFERENCES trial(id) ON DELETE CASCADE,
			metric {int} NOT NULL,
			region {int} NOT NULL,
			excl {float} NOT NULL,
			incl {float} NOT NULL,
			PRIMARY KEY (trial, metric, region)) {without_rowid}`,
		`CREATE TABLE location_total (
			trial {int} NOT NULL REFERENCES trial(id) ON DELETE CASCADE,
			metric {int} NOT NULL,
			location {int} NOT NULL,
			value {float} NOT NULL,
			PRIMARY KEY (trial, metric, location)) {without_rowid}`,
		`CREATE TABLE metric_data (
			trial {int} NOT NULL REFERENCES trial(id) ON DELETE CASCADE,
			metric {int} NOT NULL,
			codec {int} NOT NULL,
			data {blob} NOT NULL,
			PRIMARY KEY (trial, metric))`,
	},
	// 2: indexes for filtering and searching.
	{
		`CREATE INDEX trial_attr_key ON trial_attr (key_hash, num)`,
		`CREATE INDEX metric_uniq ON metric (uniq_hash, trial)`,
		`CREATE INDEX cnode_stat_excl ON cnode_stat (trial, metric, excl)`,
		`CREATE INDEX cnode_stat_incl ON cnode_stat (trial, metric, incl)`,
		`CREATE INDEX region_stat_excl ON region_stat (trial, metric, excl)`,
		`CREATE INDEX region_stat_incl ON region_stat (trial, metric, incl)`,
	},
	// 3: the canonical identity of each metric (model.Metric.Identity), so
	// that a search for time finds TAU's TIME and Caliper's
	// sum#time.duration too.
	{
		`ALTER TABLE metric ADD COLUMN canonical {text} NOT NULL DEFAULT ''`,
		`CREATE INDEX metric_canonical ON metric (canonical, trial)`,
	},
}

// schemaCanonical is the version that added metric.canonical.
const schemaCanonical = 3

// SchemaVersion is the schema version this program writes.
var SchemaVersion = len(migrations)

// version returns the schema version of the database, 0 when it has none.
func (r *Repo) version(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (int, error) {
	var v sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_version`).Scan(&v)
	if err != nil {
		if r.missingTable(err) {
			return 0, nil
		}
		return 0, err
	}
	return int(v.Int64), nil
}

func (r *Repo) missingTable(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "no such table") || strings.Contains(msg, "does not exist")
}

// migrate brings the schema to version upTo, creating it in an empty
// database. A repository that is already current is not written to, so a
// read-only user can open it.
func (r *Repo) migrate(ctx context.Context, upTo int) error {
	v, err := r.version(ctx, r.db)
	if err != nil {
		return fmt.Errorf("reading the schema version: %w", err)
	}
	if v > len(migrations) {
		return fmt.Errorf("the repository has schema version %d, newer than this program's %d: use a newer cubeview", v, len(migrations))
	}
	if v >= upTo {
		return nil
	}
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return r.writeError("creating the schema", err)
	}
	defer tx.Rollback()
	if r.d.name == "postgres" {
		// Serialise concurrent first openings of an empty database.
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7212090517)`); err != nil {
			return r.writeError("creating the schema", err)
		}
	}
	if _, err := tx.ExecContext(ctx, r.d.types.Replace(`CREATE TABLE IF NOT EXISTS schema_version (version {int} NOT NULL)`)); err != nil {
		return r.writeError("creating the schema", err)
	}
	if v, err = r.version(ctx, tx); err != nil {
		return err
	}
	for ; v < upTo; v++ {
		for _, stmt := range migrations[v] {
			if _, err := tx.ExecContext(ctx, r.d.types.Replace(stmt)); err != nil {
				return r.writeError(fmt.Sprintf("migrating the schema to version %d", v+1), err)
			}
		}
		if _, err := tx.ExecContext(ctx, r.d.q(`INSERT INTO schema_version (version) VALUES (?)`), v+1); err != nil {
			return r.writeError("recording the schema version", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return r.writeError("creating the schema", err)
	}
	return nil
}
