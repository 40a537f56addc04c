package repo

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // PostgreSQL driver "pgx"
	_ "modernc.org/sqlite"             // SQLite driver "sqlite"
)

// EnvLocation is the environment variable that names the repository when
// no location is given explicitly.
const EnvLocation = "CUBEVIEW_REPO"

// DefaultLocation returns the repository location to use when none is
// given: $CUBEVIEW_REPO, else $XDG_DATA_HOME/cubeview/repository.db, else
// ~/.local/share/cubeview/repository.db.
func DefaultLocation() (string, error) {
	if loc := os.Getenv(EnvLocation); loc != "" {
		return loc, nil
	}
	base := os.Getenv("XDG_DATA_HOME")
	if base == "" || !filepath.IsAbs(base) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no repository location: set %s or HOME: %w", EnvLocation, err)
		}
		base = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(base, "cubeview", "repository.db"), nil
}

// IsPostgres reports whether loc names a PostgreSQL database.
func IsPostgres(loc string) bool {
	return strings.HasPrefix(loc, "postgres://") || strings.HasPrefix(loc, "postgresql://")
}

// Repo is an open repository. It is safe for concurrent use.
type Repo struct {
	db       *sql.DB
	d        *dialect
	location string
	schema   int // the schema version migrated to (older only in tests)
}

// Open opens the repository at loc (a file path for SQLite, a postgres://
// URL for PostgreSQL), creating it when it does not exist and bringing its
// schema up to date. An empty loc means DefaultLocation.
func Open(ctx context.Context, loc string) (*Repo, error) {
	return openAt(ctx, loc, len(migrations))
}

// openAt opens the repository and migrates it to schema version upTo
// (tests use older versions to check migrations).
func openAt(ctx context.Context, loc string, upTo int) (*Repo, error) {
	if loc == "" {
		var err error
		if loc, err = DefaultLocation(); err != nil {
			return nil, err
		}
	}
	r := &Repo{location: loc, schema: upTo}
	var err error
	if IsPostgres(loc) {
		r.d = postgresDialect
		r.db, err = sql.Open("pgx", loc)
	} else {
		r.d = sqliteDialect
		var dsn string
		if dsn, err = sqliteDSN(loc); err == nil {
			r.db, err = sql.Open("sqlite", dsn)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	if err := r.db.PingContext(ctx); err != nil {
		r.db.Close()
		return nil, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	if err := r.migrate(ctx, upTo); err != nil {
		r.db.Close()
		return nil, fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	return r, nil
}

func sqliteDSN(path string) (string, error) {
	if strings.ContainsAny(path, "?#") {
		return "", errors.New("an SQLite repository path must not contain '?' or '#'")
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
	}
	// WAL lets readers work during an import; BEGIN IMMEDIATE takes the
	// write lock at the start of a transaction so that concurrent importers
	// queue (up to the busy timeout) instead of failing on lock upgrade.
	return "file:" + path + "?_pragma=busy_timeout(600000)&_pragma=journal_mode(WAL)" +
		"&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_pragma=cache_size(-65536)&_txlock=immediate", nil
}

// Name returns the repository location for messages, without a password.
func (r *Repo) Name() string {
	if !IsPostgres(r.location) {
		return r.location
	}
	if i := strings.Index(r.location, "://"); i >= 0 {
		rest := r.location[i+3:]
		if at := strings.LastIndex(rest, "@"); at >= 0 {
			if user, _, hasPw := strings.Cut(rest[:at], ":"); hasPw {
				return r.location[:i+3] + user + ":***@" + rest[at+1:]
			}
		}
	}
	return r.location
}

// Location returns the location the repository was opened at.
func (r *Repo) Location() string { return r.location }

// Engine returns "sqlite" or "postgres".
func (r *Repo) Engine() string { return r.d.name }

// Close closes the repository.
func (r *Repo) Close() error { return r.db.Close() }

// dialect is what differs between the engines: column types, how text is
// bound, placeholders and pattern matching.
type dialect struct {
	name  string
	types *strings.Replacer
	// binary reports whether text columns are bytea: PostgreSQL text cannot
	// hold NUL bytes or invalid UTF-8, and user text must come back literally.
	binary bool
}

var sqliteDialect = &dialect{
	name: "sqlite",
	types: strings.NewReplacer("{id}", "INTEGER PRIMARY KEY", "{text}", "TEXT", "{blob}", "BLOB",
		"{float}", "REAL", "{int}", "INTEGER", "{without_rowid}", "WITHOUT ROWID"),
}

var postgresDialect = &dialect{
	name: "postgres",
	types: strings.NewReplacer("{id}", "BIGSERIAL PRIMARY KEY", "{text}", "BYTEA", "{blob}", "BYTEA",
		"{float}", "DOUBLE PRECISION", "{int}", "BIGINT", "{without_rowid}", ""),
	binary: true,
}

// text returns the bind value of a string for a text column.
func (d *dialect) text(s string) any {
	if d.binary {
		return []byte(s)
	}
	return s
}

// q turns a query written with ? placeholders into the engine's syntax.
// Queries are program text; ? never occurs in them other than as a
// placeholder.
func (d *dialect) q(query string) string {
	if d.name != "postgres" {
		return query
	}
	var sb strings.Builder
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			sb.WriteByte('$')
			sb.WriteString(strconv.Itoa(n))
			continue
		}
		sb.WriteByte(query[i])
	}
	return sb.String()
}

// textHash returns the 64-bit hash that indexes a looked-up name.
func textHash(s string) int64 {
	h := sha256.Sum256([]byte(s))
	return int64(binary.BigEndian.Uint64(h[:8]))
}

// ErrReadOnly is wrapped by errors of changes the database refused for
// lack of rights (a read-only PostgreSQL role, a read-only file).
var ErrReadOnly = errors.New("the repository is read-only for this user")

// writeError explains a failed change, recognising refused rights.
func (r *Repo) writeError(op string, err error) error {
	if err == nil {
		return nil
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && (pe.Code == "42501" || pe.Code == "25006") {
		return fmt.Errorf("%s: %w (%s): %s", op, ErrReadOnly, r.Name(), pe.Message)
	}
	if msg := err.Error(); strings.Contains(msg, "readonly database") || strings.Contains(msg, "SQLITE_READONLY") {
		return fmt.Errorf("%s: %w (%s): %v", op, ErrReadOnly, r.Name(), err)
	}
	return fmt.Errorf("%s: %w", op, err)
}
