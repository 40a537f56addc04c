package repo

import (
	"context"
	"database/sql"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"cubeview/model"
)

// The layouts of schemas 2 and 3 as earlier programs wrote them, to test
// reading and upgrading their repositories.

var legacyMigrations = [][]string{
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

var legacyTypes = map[string]*strings.Replacer{
	"sqlite": strings.NewReplacer("{id}", "INTEGER PRIMARY KEY", "{text}", "TEXT", "{blob}", "BLOB",
		"{float}", "REAL", "{int}", "INTEGER", "{without_rowid}", "WITHOUT ROWID"),
	"postgres": strings.NewReplacer("{id}", "BIGSERIAL PRIMARY KEY", "{text}", "BYTEA", "{blob}", "BYTEA",
		"{float}", "DOUBLE PRECISION", "{int}", "BIGINT", "{without_rowid}", ""),
}

// legacyRepo is a database in an earlier program's layout.
type legacyRepo struct {
	db      *sql.DB
	engine  string
	version int
}

func (l *legacyRepo) q(s string) string {
	if l.engine == "postgres" {
		return postgresDialect.q(s)
	}
	return s
}

func (l *legacyRepo) text(s string) any {
	if l.engine == "postgres" {
		return []byte(s)
	}
	return s
}

// createLegacy makes a repository of schema version at loc.
func createLegacy(t testing.TB, loc string, version int) *legacyRepo {
	t.Helper()
	l := &legacyRepo{engine: "sqlite", version: version}
	var err error
	if IsPostgres(loc) {
		l.engine = "postgres"
		l.db, err = sql.Open("pgx", loc)
	} else {
		os.MkdirAll(filepath.Dir(loc), 0o755)
		l.db, err = sql.Open("sqlite", "file:"+loc+"?_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.db.Close() })
	exec := func(s string) {
		t.Helper()
		if _, err := l.db.Exec(legacyTypes[l.engine].Replace(s)); err != nil {
			t.Fatalf("%s: %v", firstLine(s), err)
		}
	}
	exec(`CREATE TABLE schema_version (version {int} NOT NULL)`)
	for v := 0; v < version; v++ {
		for _, s := range legacyMigrations[v] {
			exec(s)
		}
		if _, err := l.db.Exec(l.q(`INSERT INTO schema_version (version) VALUES (?)`), v+1); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

// store writes e as a trial the way schemas 2 and 3 did and returns its id.
func (l *legacyRepo) store(t testing.TB, e *model.Experiment, src Source, app, exp, name string, user []model.Attr) int64 {
	t.Helper()
	ctx := context.Background()
	tx, err := l.db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	ensure := func(find, insert string, fa, ia []any) int64 {
		var id int64
		if err := tx.QueryRow(l.q(find), fa...).Scan(&id); err == sql.ErrNoRows {
			must(tx.QueryRow(l.q(insert), ia...).Scan(&id))
		} else {
			must(err)
		}
		return id
	}
	tt := l.text
	appID := ensure(`SELECT id FROM application WHERE name_hash = ? AND name = ?`, `INSERT INTO application (name, name_hash) VALUES (?, ?) RETURNING id`,
		[]any{textHash(app), tt(app)}, []any{tt(app), textHash(app)})
	expID := ensure(`SELECT id FROM experiment WHERE application = ? AND name_hash = ? AND name = ?`,
		`INSERT INTO experiment (application, name, name_hash) VALUES (?, ?, ?) RETURNING id`,
		[]any{appID, textHash(exp), tt(exp)}, []any{appID, tt(exp), textHash(exp)})
	var id int64
	must(tx.QueryRow(l.q(`INSERT INTO trial (experiment, name, source, size, sha256, format, imported, header) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		expID, tt(name), tt(src.Path), src.Size, tt(src.SHA256), tt(e.Format), tt(time.Now().UTC().Format(time.RFC3339Nano)), encodeHeader(e)).Scan(&id))
	ins := func(table string, cols []string, vals ...any) {
		t.Helper()
		q := "INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES (" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
		if _, err := tx.ExecContext(ctx, l.q(q), vals...); err != nil {
			t.Fatalf("%s: %v", table, err)
		}
	}
	for _, a := range mergeAttrs(e, user) {
		ins("trial_attr", []string{"trial", "key", "key_hash", "value", "num", "origin"}, id, tt(a.Key), textHash(a.Key), tt(a.Value), nullNumber(a), int(a.Origin))
	}
	ordOf := siblingOrder(len(e.Metrics), e.MetricRoots, func(i int) []int { return e.Metrics[i].Children })
	for i := range e.Metrics {
		m := &e.Metrics[i]
		v, err := experimentVectors(e, i, nil, 0)
		must(err)
		cols := []string{"trial", "idx", "id", "parent", "ord", "uniq", "uniq_hash", "disp", "dtype", "unit", "descr", "url", "val",
			"type", "expression", "init_expression", "formula", "viztype", "aggregation", "unavailable", "approximate", "present", "extra", "total"}
		vals := []any{id, i, m.ID, m.Parent, ordOf[i], tt(m.UniqName), textHash(m.UniqName), tt(m.DispName), tt(string(m.DataType)), tt(m.Unit), tt(m.Descr), tt(m.URL), tt(m.Val),
			tt(string(m.Type)), tt(m.Expression), tt(m.InitExpression), tt(formulaText(m)), tt(m.VizType), int(m.Aggregation), tt(m.Unavailable), boolInt(m.Approximate),
			int64(m.Present), extra(attrList(m.AggrExpressions), attrList(m.Attrs)), v.total}
		if l.version >= 3 {
			cols, vals = append(cols, "canonical"), append(vals, tt(metricIdentity(m)))
		}
		ins("metric", cols, vals...)
		for c := range v.excl {
			ins("cnode_stat", []string{"trial", "metric", "cnode", "excl", "incl", "excl_min", "excl_max", "excl_mean", "excl_sd",
				"incl_min", "incl_max", "incl_mean", "incl_sd"}, id, i, c, v.excl[c], v.incl[c], 0, 0, 0, 0, 0, 0, 0, 0)
		}
		for g := range v.regExcl {
			ins("region_stat", []string{"trial", "metric", "region", "excl", "incl"}, id, i, g, v.regExcl[g], v.regIncl[g])
		}
		for loc := 0; loc < e.NumLocations(); loc++ {
			ins("location_total", []string{"trial", "metric", "location", "value"}, id, i, loc, 0.0)
		}
		if m.HasStoredValues() {
			b, err := e.Block(i)
			must(err)
			if b.StoredRows() > 0 {
				ins("metric_data", []string{"trial", "metric", "codec", "data"}, id, i, codecShuffleFlate, encodeBlock(b))
			}
		}
	}
	for i := range e.Regions {
		g := &e.Regions[i]
		ins("region", []string{"trial", "idx", "id", "name", "mangled", "module", "begin_line", "end_line", "paradigm", "role", "url", "descr", "kind", "extra"},
			id, i, g.ID, tt(g.Name), tt(g.MangledName), tt(g.Module), g.Begin, g.End, tt(g.Paradigm), tt(g.Role), tt(g.URL), tt(g.Descr),
			tt(RegionKind(g)), extra(attrList(g.Attrs)))
	}
	ordOf = siblingOrder(len(e.Cnodes), e.CnodeRoots, func(i int) []int { return e.Cnodes[i].Children })
	for i := range e.Cnodes {
		c := &e.Cnodes[i]
		ins("cnode", []string{"trial", "idx", "id", "parent", "ord", "region", "call_file", "call_line", "present", "path", "extra"},
			id, i, c.ID, c.Parent, ordOf[i], c.Region, tt(c.CallFile), c.CallLine, int64(c.Present), tt(e.CallPath(i)),
			extra(paramList(c.Params), attrList(c.Attrs)))
	}
	ordOf = siblingOrder(len(e.System), e.SystemRoots, func(i int) []int { return e.System[i].Children })
	for i := range e.System {
		n := &e.System[i]
		ins("sysnode", []string{"trial", "idx", "id", "kind", "class", "name", "descr", "rank", "location", "present", "parent", "ord", "extra"},
			id, i, n.ID, int(n.Kind), tt(n.Class), tt(n.Name), tt(n.Descr), n.Rank, n.Location, int64(n.Present), n.Parent, ordOf[i],
			extra(attrList(n.Attrs)))
	}
	must(tx.Commit())
	return id
}

// encodeBlock returns the stored form of b; the eight planes are
// compressed concurrently.
func encodeBlock(b *model.Block) []byte {
	nc, nl := b.NumCnodes(), b.NumLocations()
	var rows []int
	for c := 0; c < nc; c++ {
		if r := b.Row(c); r != nil && !zeroBits(r) {
			rows = append(rows, c)
		}
	}
	var en encoder
	en.uint(uint64(nc))
	en.uint(uint64(nl))
	en.uint(uint64(len(rows)))
	prev := -1
	for _, c := range rows {
		en.uint(uint64(c - prev - 1))
		prev = c
	}
	n := len(rows) * nl
	backing := make([]byte, 8*n)
	planes := make([][]byte, 8)
	for p := range planes {
		planes[p] = backing[p*n : (p+1)*n : (p+1)*n]
	}
	i := 0
	for _, c := range rows {
		for _, v := range b.Row(c) {
			u := math.Float64bits(v)
			planes[0][i] = byte(u)
			planes[1][i] = byte(u >> 8)
			planes[2][i] = byte(u >> 16)
			planes[3][i] = byte(u >> 24)
			planes[4][i] = byte(u >> 32)
			planes[5][i] = byte(u >> 40)
			planes[6][i] = byte(u >> 48)
			planes[7][i] = byte(u >> 56)
			i++
		}
	}
	out := make([][]byte, 8)
	var wg sync.WaitGroup
	for p := range planes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[p] = encodePlane(planes[p])
		}()
	}
	wg.Wait()
	size := len(en.b)
	for _, o := range out {
		size += len(o)
	}
	data := make([]byte, 0, size)
	data = append(data, en.b...)
	for _, o := range out {
		data = append(data, o...)
	}
	return data
}
