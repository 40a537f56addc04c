package repo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// SchemaVersion is the schema version this program writes. Versions 2
// and 3 are the layouts of earlier programs (one metric block per row,
// per-location totals, binary text in PostgreSQL); they are read, read
// only, until "repo upgrade" converts them.
const SchemaVersion = 6

// readerVersion is the oldest program schema that can read what this
// program writes. A later schema that only adds to this one keeps it, so
// that colleagues with this program still read (not change) a
// repository a newer program upgraded.
const readerVersion = 4

// oldestReadable is the oldest schema this program reads.
const oldestReadable = 2

// schemaCanonical is the schema version that added metric.canonical.
const schemaCanonical = 3

// schemaChunks is the schema version that stores metric data in chunks
// with summaries and bounds; earlier ones are the layouts of schema 2
// and 3.
const schemaChunks = 4

// schemaAttrIndex is the schema version that indexes attribute values by
// their hash (trial_attr.value_hash) with the dictionaries attr_key and
// attr_value; Upgrade adds them to a repository of schema 4 in place.
const schemaAttrIndex = 5

// schemaHot is the schema version that lists each metric's hot call
// paths (table hot, see hot.go); Upgrade adds them in place.
const schemaHot = 6

// sqliteApplicationID marks an SQLite file as a cubeview repository
// (PRAGMA application_id, "cubv" in ASCII), as file(1) and other tools
// recognise it.
const sqliteApplicationID = 0x63756276

// markerTable is the table that marks a database as a cubeview
// repository in both engines and holds its identity.
const markerTable = "cubeview_repository"

// Names that are looked up (application and experiment names, attribute
// keys, metric names) are indexed by a 64-bit hash of their text, not by
// the text itself: PostgreSQL cannot index values longer than a few
// kilobytes, and a name may be that long. Lookups compare hash and text.
//
// Column types are written as {id}, {text}, {blob}, {float}, {int} and
// replaced per engine; {id} never reuses the id of a removed row.
var schema = []string{
	`CREATE TABLE schema_version (version {int} NOT NULL)`,
	`CREATE TABLE ` + markerTable + ` (
		uuid {text} NOT NULL,
		created {text} NOT NULL,
		reader_version {int} NOT NULL)`,
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
	// state: 0 stored, 1 being imported (invisible; importer says by whom).
	// header and tree (the call tree as searches need it, see encodeTree)
	// end in their CRC-32C, as every stored blob but chunks does.
	`CREATE TABLE trial (
		id {id},
		experiment {int} NOT NULL REFERENCES experiment(id),
		name {text} NOT NULL,
		source {text} NOT NULL,
		size {int} NOT NULL,
		sha256 {text} NOT NULL,
		format {text} NOT NULL,
		imported {text} NOT NULL,
		state {int} NOT NULL,
		importer {text} NOT NULL,
		cnodes {int} NOT NULL,
		regions {int} NOT NULL,
		locations {int} NOT NULL,
		header {blob} NOT NULL,
		tree {blob} NOT NULL)`,
	`CREATE INDEX trial_sha256 ON trial (sha256)`,
	trialPlaceIndex,
	trialStateIndex,
	// value_hash is textHash(value). Filters find trials from the
	// indexes alone (they hold the trial): by key and number, by key and
	// value hash. The hashes stand for the texts where attr_key and
	// attr_value show that no other text has the same hash.
	`CREATE TABLE trial_attr (
		trial {int} NOT NULL REFERENCES trial(id) ON DELETE CASCADE,
		key {text} NOT NULL,
		key_hash {int} NOT NULL,
		value {text} NOT NULL,
		num {float},
		origin {int} NOT NULL,
		value_hash {int} NOT NULL DEFAULT 0)`,
	`CREATE INDEX trial_attr_trial ON trial_attr (trial, key_hash)`,
	attrIndexes[0],
	attrIndexes[1],
	// Every attribute key, and every (key, value), ever stored (entries
	// are never removed, and may repeat).
	attrDictionaries[0],
	attrDictionaries[1],
	attrDictionaries[2],
	attrDictionaries[3],
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
		canonical {text} NOT NULL,
		PRIMARY KEY (trial, idx)) {without_rowid}`,
	`CREATE INDEX metric_uniq ON metric (uniq_hash, trial)`,
	// Every metric name and canonical identity ever stored, for
	// suggestions and to find the names an identity goes by.
	`CREATE TABLE metric_name (
		name {text} NOT NULL,
		name_hash {int} NOT NULL,
		canonical {text} NOT NULL,
		PRIMARY KEY (name_hash, name))`,
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
	// Per (trial, metric): the metric's value at every call path, own
	// (excl) and with callees (incl), and at every region (flat profile),
	// aggregated over all locations; big-endian IEEE doubles, so that SQL
	// can read them (see the views), each followed by its CRC-32C.
	`CREATE TABLE summary (
		trial {int} NOT NULL REFERENCES trial(id) ON DELETE CASCADE,
		metric {int} NOT NULL,
		excl {blob} NOT NULL,
		incl {blob} NOT NULL,
		flat_excl {blob} NOT NULL,
		flat_incl {blob} NOT NULL,
		PRIMARY KEY (trial, metric)) {without_rowid}`,
	// Per (trial, metric, region kind, "" for all): the largest value and
	// share of the run's total among the call paths and regions of that
	// kind. Searches take their candidate trials from here, in order of
	// these bounds, and read summaries only of those that can hold a hit.
	`CREATE TABLE bound (
		trial {int} NOT NULL REFERENCES trial(id) ON DELETE CASCADE,
		metric {int} NOT NULL,
		kind {text} NOT NULL,
		name_hash {int} NOT NULL,
		excl_max {float} NOT NULL,
		excl_share {float},
		incl_max {float} NOT NULL,
		incl_share {float},
		flat_excl_max {float} NOT NULL,
		flat_excl_share {float},
		flat_incl_max {float} NOT NULL,
		flat_incl_share {float},
		PRIMARY KEY (trial, metric, kind)) {without_rowid}`,
	boundIndexes[0], boundIndexes[1], boundIndexes[2], boundIndexes[3],
	boundIndexes[4], boundIndexes[5], boundIndexes[6], boundIndexes[7],
	hotTable,
	// A metric's values per location in chunks of at most chunkValues
	// values (whole rows): rows lists the call paths, data the values (see
	// chunk.go); checksum is CRC-32C of rows and data.
	`CREATE TABLE chunk (
		trial {int} NOT NULL REFERENCES trial(id) ON DELETE CASCADE,
		metric {int} NOT NULL,
		seq {int} NOT NULL,
		codec {int} NOT NULL,
		nrows {int} NOT NULL,
		checksum {int} NOT NULL,
		rows {blob} NOT NULL,
		data {blob} NOT NULL,
		PRIMARY KEY (trial, metric, seq))`,
}

// trialPlaceIndex finds the trials of an experiment; it holds their ids
// so that filters on the application or experiment read the index only.
const trialPlaceIndex = `CREATE INDEX trial_experiment ON trial (experiment, id)`

// boundIndexes give the candidate trials of a search in order of a
// bound. They hold the trial and metric (SQLite's indexes of a table
// without rowid hold its key; PostgreSQL's include them), so that the
// candidates are read from the index alone.
var boundIndexes = []string{
	`CREATE INDEX bound_excl ON bound (name_hash, kind, excl_max){include}`,
	`CREATE INDEX bound_excl_share ON bound (name_hash, kind, excl_share){include}`,
	`CREATE INDEX bound_incl ON bound (name_hash, kind, incl_max){include}`,
	`CREATE INDEX bound_incl_share ON bound (name_hash, kind, incl_share){include}`,
	`CREATE INDEX bound_flat_excl ON bound (name_hash, kind, flat_excl_max){include}`,
	`CREATE INDEX bound_flat_excl_share ON bound (name_hash, kind, flat_excl_share){include}`,
	`CREATE INDEX bound_flat_incl ON bound (name_hash, kind, flat_incl_max){include}`,
	`CREATE INDEX bound_flat_incl_share ON bound (name_hash, kind, flat_incl_share){include}`,
}

// trialStateIndex finds the trials being imported (state other than 0),
// which searches leave out without reading the trials they find.
const trialStateIndex = `CREATE INDEX trial_state ON trial (state)`

// attrIndexes are the indexes of trial_attr that filters use.
var attrIndexes = []string{
	`CREATE INDEX trial_attr_num ON trial_attr (key_hash, num, trial)`,
	`CREATE INDEX trial_attr_text ON trial_attr (key_hash, value_hash, trial)`,
}

// attrDictionaries are the tables of attribute keys and values stored.
var attrDictionaries = []string{
	`CREATE TABLE attr_key (
		key_hash {int} NOT NULL,
		key {text} NOT NULL)`,
	`CREATE INDEX attr_key_hash ON attr_key (key_hash)`,
	`CREATE TABLE attr_value (
		key_hash {int} NOT NULL,
		value_hash {int} NOT NULL,
		value {text} NOT NULL)`,
	`CREATE INDEX attr_value_hash ON attr_value (key_hash, value_hash)`,
}

// engineTypes replaces the column type placeholders of the schema.
var engineTypes = map[string]*strings.Replacer{
	"sqlite": strings.NewReplacer("{id}", "INTEGER PRIMARY KEY AUTOINCREMENT", "{text}", "TEXT", "{blob}", "BLOB",
		"{float}", "REAL", "{int}", "INTEGER", "{without_rowid}", "WITHOUT ROWID", "{include}", ""),
	"postgres": strings.NewReplacer("{id}", "BIGSERIAL PRIMARY KEY", "{text}", "TEXT", "{blob}", "BYTEA",
		"{float}", "DOUBLE PRECISION", "{int}", "BIGINT", "{without_rowid}", "", "{include}", " INCLUDE (trial, metric)"),
}

// legacyTables are the tables of schemas 2 and 3 (an unmarked database
// holding all of them is a repository of an earlier program).
var legacyTables = []string{"schema_version", "application", "experiment", "trial", "trial_attr", "metric", "region",
	"cnode", "sysnode", "cnode_stat", "region_stat", "location_total", "metric_data"}

// dbInfo is what a database holds, read before anything is written.
type dbInfo struct {
	tables  map[string]bool
	appID   int64 // SQLite application_id
	marked  bool  // has the marker table (and, in SQLite, the application id)
	version int   // schema version, 0 without schema_version
	reader  int   // reader_version of the marker
	uuid    string
}

// empty reports whether the database holds no tables at all.
func (i *dbInfo) empty() bool { return len(i.tables) == 0 && i.appID == 0 }

// legacy reports whether the database is an unmarked repository of an
// earlier program (schema 2 or 3).
func (i *dbInfo) legacy() bool {
	if i.marked {
		return false
	}
	for _, t := range legacyTables {
		if !i.tables[t] {
			return false
		}
	}
	return true
}

// inspect reads which tables the database has, its marks and version;
// engine is "sqlite" or "postgres".
func inspect(ctx context.Context, db *sql.DB, engine string) (*dbInfo, error) {
	info := &dbInfo{tables: map[string]bool{}}
	var q string
	if engine == "postgres" {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`
	} else {
		q = `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
		if err := db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&info.appID); err != nil {
			return nil, err
		}
	}
	rs, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	for rs.Next() {
		var name string
		if err := rs.Scan(&name); err != nil {
			rs.Close()
			return nil, err
		}
		info.tables[name] = true
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return nil, err
	}
	info.marked = info.tables[markerTable] && (engine == "postgres" || info.appID == sqliteApplicationID)
	if info.tables["schema_version"] {
		var v sql.NullInt64
		if err := db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_version`).Scan(&v); err != nil {
			return nil, err
		}
		info.version = int(v.Int64)
	}
	if info.marked {
		err := db.QueryRowContext(ctx, `SELECT uuid, reader_version FROM `+markerTable).Scan(&info.uuid, &info.reader)
		if errors.Is(err, sql.ErrNoRows) {
			info.marked = false
		} else if err != nil {
			return nil, err
		}
	}
	return info, nil
}

// foreignError describes the database named repo, of engine, which is not
// a cubeview repository.
func (i *dbInfo) foreignError(repo, engine string) error {
	var what string
	switch {
	case engine == "sqlite" && i.appID != 0 && i.appID != sqliteApplicationID:
		what = fmt.Sprintf("an SQLite file of another program (application id %#x)", i.appID)
	case i.tables["trial"] && i.tables["timer"] || i.tables["interval_event"]:
		what = "a TAU (TAUdb/PerfDMF) database"
	default:
		names := make([]string, 0, len(i.tables))
		for t := range i.tables {
			names = append(names, t)
		}
		sortStrings(names)
		if len(names) > 6 {
			names = append(names[:6], "…")
		}
		what = "a database of another program (tables " + strings.Join(names, ", ") + ")"
	}
	return fmt.Errorf("%s is not a cubeview repository: it is %s; it was left unchanged", repo, what)
}

// create makes the schema in the empty database named repo, in one
// transaction.
func create(ctx context.Context, db *sql.DB, d *dialect, repo string) error {
	const op = "creating the repository"
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return writeFailure(repo, op, err)
	}
	defer tx.Rollback()
	if d.name == "postgres" {
		// Serialise concurrent first openings of an empty database.
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7212090517)`); err != nil {
			return writeFailure(repo, op, err)
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1`,
			markerTable).Scan(&n); err != nil || n > 0 {
			return err // created meanwhile by another program
		}
	}
	if err := createIn(ctx, tx, d); err != nil {
		return writeFailure(repo, op, err)
	}
	return writeFailure(repo, op, tx.Commit())
}

// createIn creates the schema, the marker and the views in tx.
func createIn(ctx context.Context, tx *sql.Tx, d *dialect) error {
	types := engineTypes[d.name]
	for _, stmt := range schema {
		if _, err := tx.ExecContext(ctx, types.Replace(stmt)); err != nil {
			return fmt.Errorf("%s: %w", firstLine(stmt), err)
		}
	}
	if err := createViews(ctx, tx, d.name); err != nil {
		return err
	}
	if d.name == "postgres" {
		// LZ4 compresses faster and at least as well as the default where
		// the server has it.
		var lz4 bool
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) > 0 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)`).Scan(&lz4); err != nil {
			return err
		}
		if lz4 {
			if _, err := tx.ExecContext(ctx, `ALTER TABLE chunk ALTER COLUMN data SET COMPRESSION lz4`); err != nil {
				return err
			}
		}
	}
	if _, err := tx.ExecContext(ctx, d.q(`INSERT INTO schema_version (version) VALUES (?)`), SchemaVersion); err != nil {
		return err
	}
	uuid := newUUID()
	if _, err := tx.ExecContext(ctx, d.q(`INSERT INTO `+markerTable+` (uuid, created, reader_version) VALUES (?, ?, ?)`),
		uuid, nowText(), readerVersion); err != nil {
		return err
	}
	if d.name == "sqlite" {
		if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA application_id = %d`, sqliteApplicationID)); err != nil {
			return err
		}
	}
	return nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}
