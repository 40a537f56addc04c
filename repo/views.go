package repo

import (
	"context"
	"database/sql"
	"fmt"
)

// The views give SQL users (psql, sqlite3, a notebook) the stored trials
// without knowing the tables: they show stored trials only (not imports
// in progress), with names as the files hold them. README's repository
// section documents them; views.go is their one definition.
//
//	trials            trial, application, experiment, name, source, file_size, sha256, format, imported
//	trial_attributes  trial, key, value, number (NULL for text), origin (file, auto, user)
//	metrics           trial, metric, name, display_name, unit, identity, parent (name), total
//	regions           trial, region, name, kind, paradigm, role, module, begin_line, end_line
//	call_paths        trial, cnode, id, parent (cnode), region, region_name, kind
//	locations         trial, location, name, rank, process (name), process_rank
//
// PostgreSQL only, values decoded from the stored blobs by SQL functions
// (cubeview_double, cubeview_vector_value, cubeview_chunk_value):
//
//	call_path_values  trial, metric (name), cnode, exclusive, inclusive — summed (aggregated) over locations
//	region_values     trial, metric (name), region, exclusive, inclusive — the flat profile
//	location_values   trial, metric (name), cnode, location, value — a call path's own value per location
//	                  (PerfDMF's per-thread values); call paths without a row are zero there
var views = []string{
	`CREATE VIEW trials AS SELECT t.id AS trial, a.name AS application, x.name AS experiment, t.name AS name,
		t.source AS source, t.size AS file_size, t.sha256 AS sha256, t.format AS format, t.imported AS imported
		FROM trial t JOIN experiment x ON x.id = t.experiment JOIN application a ON a.id = x.application WHERE t.state = 0`,
	`CREATE VIEW trial_attributes AS SELECT v.trial AS trial, v.key AS key, v.value AS value, v.num AS number,
		CASE v.origin WHEN 0 THEN 'file' WHEN 1 THEN 'auto' ELSE 'user' END AS origin
		FROM trial_attr v JOIN trial t ON t.id = v.trial WHERE t.state = 0`,
	`CREATE VIEW metrics AS SELECT m.trial AS trial, m.idx AS metric, m.uniq AS name, m.disp AS display_name, m.unit AS unit,
		m.canonical AS identity, p.uniq AS parent, m.total AS total
		FROM metric m JOIN trial t ON t.id = m.trial LEFT JOIN metric p ON p.trial = m.trial AND p.idx = m.parent WHERE t.state = 0`,
	`CREATE VIEW regions AS SELECT g.trial AS trial, g.idx AS region, g.name AS name, g.kind AS kind, g.paradigm AS paradigm,
		g.role AS role, g.module AS module, g.begin_line AS begin_line, g.end_line AS end_line
		FROM region g JOIN trial t ON t.id = g.trial WHERE t.state = 0`,
	`CREATE VIEW call_paths AS SELECT c.trial AS trial, c.idx AS cnode, c.id AS id, c.parent AS parent, c.region AS region,
		g.name AS region_name, g.kind AS kind
		FROM cnode c JOIN trial t ON t.id = c.trial JOIN region g ON g.trial = c.trial AND g.idx = c.region WHERE t.state = 0`,
	`CREATE VIEW locations AS SELECT n.trial AS trial, n.location AS location, n.name AS name, n.rank AS rank,
		p.name AS process, p.rank AS process_rank
		FROM sysnode n JOIN trial t ON t.id = n.trial LEFT JOIN sysnode p ON p.trial = n.trial AND p.idx = n.parent
		WHERE n.location >= 0 AND t.state = 0`,
}

var postgresViews = []string{
	// IEEE 754 binary64 from its bits, exactly.
	`CREATE FUNCTION cubeview_double(bits bigint) RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
		SELECT CASE
			WHEN e = 2047 AND m = 0 AND s = 1 THEN '-Infinity'::float8
			WHEN e = 2047 AND m = 0 THEN 'Infinity'::float8
			WHEN e = 2047 THEN 'NaN'::float8
			WHEN e = 0 THEN (1 - 2 * s) * (m::float8 * 2::float8 ^ (-1074))
			ELSE (1 - 2 * s) * ((1 + m::float8 * 2::float8 ^ (-52)) * 2::float8 ^ (e - 1023)) END
		FROM (SELECT (bits >> 63) & 1 AS s, (bits >> 52) & 2047 AS e, bits & 4503599627370495 AS m) AS f $$`,
	// Value i of a summary vector: big-endian doubles.
	`CREATE FUNCTION cubeview_vector_value(b bytea, i bigint) RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
		SELECT cubeview_double(('x' || encode(substring(b FROM (8 * i + 1)::int FOR 8), 'hex'))::bit(64)::bigint) $$`,
	// Value i of a chunk of n values in codec 3: eight byte planes, the
	// most significant first.
	`CREATE FUNCTION cubeview_chunk_value(b bytea, n bigint, i bigint) RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
		SELECT cubeview_double(
			(get_byte(b, i::int)::bigint << 56) | (get_byte(b, (n + i)::int)::bigint << 48) |
			(get_byte(b, (2 * n + i)::int)::bigint << 40) | (get_byte(b, (3 * n + i)::int)::bigint << 32) |
			(get_byte(b, (4 * n + i)::int)::bigint << 24) | (get_byte(b, (5 * n + i)::int)::bigint << 16) |
			(get_byte(b, (6 * n + i)::int)::bigint << 8) | get_byte(b, (7 * n + i)::int)::bigint) $$`,
	// Row j's call path of a chunk in codec 3: big-endian 32-bit integers.
	`CREATE FUNCTION cubeview_chunk_row(b bytea, j bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
		SELECT (get_byte(b, (4 * j)::int)::bigint << 24) | (get_byte(b, (4 * j + 1)::int)::bigint << 16) |
			(get_byte(b, (4 * j + 2)::int)::bigint << 8) | get_byte(b, (4 * j + 3)::int)::bigint $$`,
	`CREATE VIEW call_path_values AS SELECT s.trial AS trial, m.uniq AS metric, i AS cnode,
		cubeview_vector_value(s.excl, i) AS exclusive, cubeview_vector_value(s.incl, i) AS inclusive
		FROM summary s JOIN trial t ON t.id = s.trial JOIN metric m ON m.trial = s.trial AND m.idx = s.metric
		CROSS JOIN LATERAL generate_series(0, t.cnodes - 1) AS i WHERE t.state = 0`,
	`CREATE VIEW region_values AS SELECT s.trial AS trial, m.uniq AS metric, i AS region,
		cubeview_vector_value(s.flat_excl, i) AS exclusive, cubeview_vector_value(s.flat_incl, i) AS inclusive
		FROM summary s JOIN trial t ON t.id = s.trial JOIN metric m ON m.trial = s.trial AND m.idx = s.metric
		CROSS JOIN LATERAL generate_series(0, t.regions - 1) AS i WHERE t.state = 0`,
	fmt.Sprintf(`CREATE VIEW location_values AS SELECT k.trial AS trial, m.uniq AS metric, cubeview_chunk_row(k.rows, j) AS cnode,
		l AS location, cubeview_chunk_value(k.data, k.nrows * t.locations, j * t.locations + l) AS value
		FROM chunk k JOIN trial t ON t.id = k.trial JOIN metric m ON m.trial = k.trial AND m.idx = k.metric
		CROSS JOIN LATERAL generate_series(0, k.nrows - 1) AS j CROSS JOIN LATERAL generate_series(0, t.locations - 1) AS l
		WHERE t.state = 0 AND k.codec = %d`, codecRawPlanes),
}

// createViews creates the views (and in PostgreSQL the functions they
// use) in tx; engine is "sqlite" or "postgres".
func createViews(ctx context.Context, tx *sql.Tx, engine string) error {
	all := views
	if engine == "postgres" {
		all = append(append([]string(nil), views...), postgresViews...)
	}
	for _, v := range all {
		if _, err := tx.ExecContext(ctx, v); err != nil {
			return fmt.Errorf("%s: %w", firstLine(v), err)
		}
	}
	return nil
}
