package repo

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // PostgreSQL driver "pgx"
	_ "modernc.org/sqlite"             // SQLite driver "sqlite"
)

// EnvLocation is the environment variable that names the repository when
// no location is given explicitly.
const EnvLocation = "CUBEVIEW_REPO"

// DefaultLocation returns the repository location to use when none is
// given: $CUBEVIEW_REPO, else DefaultFile.
func DefaultLocation() (string, error) {
	if loc := os.Getenv(EnvLocation); loc != "" {
		return loc, nil
	}
	return DefaultFile()
}

// DefaultFile returns the personal repository's file,
// $XDG_DATA_HOME/cubeview/repository.db, else
// ~/.local/share/cubeview/repository.db. It is the only location where a
// repository is created without being asked for (see Options.Create).
func DefaultFile() (string, error) {
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

// Mode says what an open repository may be used for.
type Mode int

const (
	// ReadWrite opens for reading and, where rights and schema allow,
	// changing. A repository that cannot be changed opens read-only, and
	// changes fail saying why (see ReadOnly).
	ReadWrite Mode = iota
	// ReadOnly opens for reading only: nothing is written or locked for
	// writing, so it works on a file the user may only read, on a full
	// disk, for a PostgreSQL role with read rights and on a repository of
	// an older or (where it allows) newer schema.
	ReadOnly
)

// Options say how Open opens a repository.
type Options struct {
	Mode Mode
	// Create makes a new repository where there is none. Without it a new
	// repository is made only at DefaultFile, so that a mistyped location
	// is an error and not a new, empty repository.
	Create bool
	// Wait bounds how long a change waits while another program writes
	// (default DefaultWait); it then fails saying who holds the
	// repository, where the engine can tell.
	Wait time.Duration
	// Waiting, if set, is called about once a second while a change waits,
	// with what holds the repository.
	Waiting func(Busy)
}

// DefaultWait is how long a change waits for a busy repository by default.
const DefaultWait = 60 * time.Second

// Repo is an open repository. It is safe for concurrent use.
type Repo struct {
	db       *sql.DB
	d        *dialect
	lock     *writeLock
	location string
	opt      Options
	// schema is the schema version found; uuid the repository's identity
	// ("" for a repository of schema 2 or 3, which had none).
	schema int
	uuid   string
	// readOnly, when not "", says why changes are refused before the
	// database is asked (opened read-only, another schema).
	readOnly string
	// immutable is set when an SQLite file could only be read as an
	// unchanging file (read-only folder, full disk).
	immutable bool
}

// Open opens the repository at loc (a file path for SQLite, a postgres://
// URL for PostgreSQL) for reading and writing; an empty loc means
// DefaultLocation. Only at DefaultFile is a missing repository created.
func Open(ctx context.Context, loc string) (*Repo, error) {
	return OpenWith(ctx, loc, Options{})
}

// OpenReadOnly opens the repository at loc for reading only.
func OpenReadOnly(ctx context.Context, loc string) (*Repo, error) {
	return OpenWith(ctx, loc, Options{Mode: ReadOnly})
}

// Init creates a new repository at loc and opens it. A location that
// already holds a repository or any other data is refused.
func Init(ctx context.Context, loc string) (*Repo, error) {
	r, created, err := open(ctx, loc, Options{Create: true})
	if err != nil {
		return nil, err
	}
	if !created {
		r.Close()
		return nil, fmt.Errorf("%s already holds a cubeview repository (schema %d)", r.Name(), r.schema)
	}
	return r, nil
}

// OpenWith opens the repository at loc as opt says.
func OpenWith(ctx context.Context, loc string, opt Options) (*Repo, error) {
	r, _, err := open(ctx, loc, opt)
	return r, err
}

func open(ctx context.Context, loc string, opt Options) (r *Repo, created bool, err error) {
	if loc == "" {
		if loc, err = DefaultLocation(); err != nil {
			return nil, false, err
		}
	}
	if opt.Wait <= 0 {
		opt.Wait = DefaultWait
	}
	if !opt.Create && opt.Mode == ReadWrite && !IsPostgres(loc) {
		if def, err := DefaultFile(); err == nil && filepath.Clean(loc) == filepath.Clean(def) {
			opt.Create = true
		}
	}
	var c connection
	if IsPostgres(loc) {
		c, err = connectPostgres(ctx, loc, opt)
	} else {
		c, err = connectSQLite(ctx, loc, opt)
	}
	if err != nil {
		return nil, false, err
	}
	r = &Repo{db: c.db, d: c.d, location: loc, opt: opt, readOnly: c.readOnly, immutable: c.immutable,
		lock: newWriteLock(c.db, c.d.name, loc, opt)}
	created, err = attach(ctx, r)
	if err != nil {
		r.db.Close()
		return nil, false, fmt.Errorf("repository %s: %w", r.Name(), unwrapRepo(err))
	}
	return r, created, nil
}

// unwrapRepo avoids naming the repository twice in a message.
func unwrapRepo(err error) error { return err }

// attach, the last step of opening r, reads what its database is and
// decides how r uses it: creates the schema in an empty database where
// allowed, refuses a database of another program, and opens an older or
// newer schema read-only.
func attach(ctx context.Context, r *Repo) (created bool, err error) {
	info, err := inspect(ctx, r.db, r.d.name)
	if err != nil {
		return false, err
	}
	switch {
	case info.empty():
		if !r.opt.Create {
			return false, missingError(r.location)
		}
		if r.opt.Mode == ReadOnly {
			return false, fmt.Errorf("%s holds no repository yet (nothing to read)", r.Name())
		}
		if err := create(ctx, r.db, r.d, r.Name()); err != nil {
			return false, err
		}
		if info, err = inspect(ctx, r.db, r.d.name); err != nil {
			return false, err
		}
		created = true
	case info.legacy():
		r.schema = info.version
		if r.schema < oldestReadable || r.schema >= SchemaVersion {
			return false, fmt.Errorf("%s holds an unmarked repository of schema %d, which this cubeview (schema %d) cannot read",
				r.Name(), r.schema, SchemaVersion)
		}
		r.d = r.d.legacy()
		r.readOnly = fmt.Sprintf("the repository has schema %d and this cubeview writes schema %d: it reads it but changes it only after "+
			"\"cubeview repo upgrade\" (back up the repository first; cubeview versions older than this one cannot read it afterwards)",
			r.schema, SchemaVersion)
		return false, nil
	case !info.marked:
		return false, info.foreignError(r.Name(), r.d.name)
	}
	r.schema, r.uuid = info.version, info.uuid
	switch {
	case r.schema > SchemaVersion && info.reader > SchemaVersion:
		return false, fmt.Errorf("the repository has schema %d, which only cubeview versions reading schema %d or later read; this cubeview reads schema %d: use a newer cubeview",
			r.schema, info.reader, SchemaVersion)
	case r.schema > SchemaVersion:
		r.readOnly = fmt.Sprintf("the repository has schema %d, newer than this cubeview's %d: it is read, not changed (use a newer cubeview to change it)",
			r.schema, SchemaVersion)
	case r.schema < SchemaVersion:
		r.readOnly = fmt.Sprintf("the repository has schema %d and this cubeview writes schema %d: run \"cubeview repo upgrade\" to change it",
			r.schema, SchemaVersion)
	}
	if r.opt.Mode == ReadOnly && r.readOnly == "" {
		r.readOnly = "the repository was opened read-only"
	}
	return created, nil
}

// missingError says that there is no repository at location loc and how
// to make one.
func missingError(loc string) error {
	arg := loc
	if IsPostgres(loc) {
		arg = "'" + displayName(loc) + "'"
	}
	return fmt.Errorf("%s holds no cubeview repository; create one with \"cubeview repo init %s\" (or check the location)",
		displayName(loc), arg)
}

// Name returns the repository location for messages, without a password.
func (r *Repo) Name() string { return displayName(r.location) }

// displayName is location loc as messages show it, without a password.
func displayName(loc string) string {
	if !IsPostgres(loc) {
		return loc
	}
	if i := strings.Index(loc, "://"); i >= 0 {
		rest := loc[i+3:]
		if at := strings.LastIndex(rest, "@"); at >= 0 {
			if user, _, hasPw := strings.Cut(rest[:at], ":"); hasPw {
				return loc[:i+3] + user + ":***@" + rest[at+1:]
			}
		}
	}
	return loc
}

// Location returns the location the repository was opened at.
func (r *Repo) Location() string { return r.location }

// Engine returns "sqlite" or "postgres".
func (r *Repo) Engine() string { return r.d.name }

// Schema returns the repository's schema version.
func (r *Repo) Schema() int { return r.schema }

// Identity returns the repository's identity, a random UUID made when it
// was created ("" for a repository of an older schema, which has none
// until upgraded). Results computed from its trials record it.
func (r *Repo) Identity() string { return r.uuid }

// Close closes the repository.
func (r *Repo) Close() error { return r.db.Close() }

// legacySchema reports whether the repository has an earlier program's
// layout (read through the legacy paths).
func (r *Repo) legacySchema() bool { return r.schema < schemaChunks }

// dialect is what differs between the engines: how text is bound and
// read back, placeholders and pattern matching.
type dialect struct {
	name string
	// escape: PostgreSQL text cannot hold NUL bytes or invalid UTF-8, so
	// such text is stored escaped (see escapeText).
	escape bool
	// binary: text columns are bytea (schemas 2 and 3 in PostgreSQL).
	binary bool
}

var (
	sqliteDialect   = &dialect{name: "sqlite"}
	postgresDialect = &dialect{name: "postgres", escape: true}
)

// legacy returns the dialect of the same engine for schemas 2 and 3.
func (d *dialect) legacy() *dialect {
	if d.name == "postgres" {
		return &dialect{name: "postgres", binary: true}
	}
	return d
}

// text returns the bind value of a string for a text column.
func (d *dialect) text(s string) any {
	switch {
	case d.binary:
		return []byte(s)
	case d.escape:
		return escapeText(s)
	}
	return s
}

// str returns a Scan destination for a text column that fills *p with
// the text as it was stored.
func (d *dialect) str(p *string) any { return textDest{p: p, escaped: d.escape} }

type textDest struct {
	p       *string
	escaped bool
}

func (t textDest) Scan(v any) error {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case []byte:
		s = string(x)
	case nil:
	default:
		return fmt.Errorf("text column holds %T", v)
	}
	if t.escaped {
		var err error
		if s, err = unescapeText(s); err != nil {
			return err
		}
	}
	*t.p = s
	return nil
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

// ErrReadOnly is wrapped by errors of changes that cannot be made: the
// database refused them for lack of rights (a read-only PostgreSQL role,
// a read-only file), or the repository was opened read-only or has
// another schema.
var ErrReadOnly = errors.New("the repository is read-only for this user")

// writable returns nil when changes may be tried, else why not.
func (r *Repo) writable(op string) error {
	if r.readOnly == "" {
		return nil
	}
	return fmt.Errorf("%s: %w (%s): %s", op, ErrReadOnly, r.Name(), r.readOnly)
}

// beginWrite starts a write transaction of op on the database or on one
// of its connections, waiting while another program writes (see
// writeLock.begin).
func (r *Repo) beginWrite(ctx context.Context, on txBeginner, op string) (*sql.Tx, error) {
	if err := r.writable(op); err != nil {
		return nil, err
	}
	return r.lock.begin(ctx, on, op)
}

// writeError explains a failed change, recognising refused rights and a
// full disk.
func (r *Repo) writeError(op string, err error) error { return writeFailure(r.Name(), op, err) }

// writeFailure explains a failed change op of the repository named repo.
func writeFailure(repo, op string, err error) error {
	if err == nil {
		return nil
	}
	var be *BusyError
	if errors.As(err, &be) {
		return fmt.Errorf("%s: %w", op, err)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && (pe.Code == "42501" || pe.Code == "25006") {
		return fmt.Errorf("%s: %w (%s): %s", op, ErrReadOnly, repo, pe.Message)
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "readonly database") || strings.Contains(msg, "SQLITE_READONLY"):
		return fmt.Errorf("%s: %w (%s): %v", op, ErrReadOnly, repo, err)
	case strings.Contains(msg, "database or disk is full") || strings.Contains(msg, "SQLITE_FULL") ||
		errors.As(err, &pe) && pe.Code == "53100":
		return fmt.Errorf("%s: the disk holding %s is full; nothing was changed: %v", op, repo, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// newUUID returns a random version 4 UUID.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// nowText is the current time as stored.
func nowText() string { return time.Now().UTC().Format(time.RFC3339Nano) }

func sortStrings(s []string) { sort.Strings(s) }
