package repo

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"modernc.org/sqlite"
)

// sqliteBusyMillis is how long one SQLite statement waits for a lock
// before the program's own wait loop (waitBusy) reports and tries again.
const sqliteBusyMillis = 1000

// connection is an opened database and what opening it found out.
type connection struct {
	db *sql.DB
	d  *dialect
	// readOnly, when not "", says why changes will be refused.
	readOnly string
	// immutable: an SQLite file read as an unchanging file.
	immutable bool
}

// connectSQLite opens the SQLite file at path: read-write where it may,
// else (or when asked) read-only; a file that cannot even be read that
// way (its folder is read-only and holds no shared-memory file, the disk
// is full) is read as an unchanging file.
func connectSQLite(ctx context.Context, path string, opt Options) (connection, error) {
	c := connection{d: sqliteDialect}
	name := displayName(path)
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if !opt.Create || opt.Mode == ReadOnly {
			return c, missingError(path)
		}
		if err := createFile(path); err != nil {
			return c, fmt.Errorf("creating repository %s: %w", name, err)
		}
		if c.db, err = openSQLite(path, "rwc"); err != nil {
			return c, err
		}
		// The write-ahead log lets readers work during an import; the
		// setting stays with the file.
		if _, err := c.db.ExecContext(ctx, `PRAGMA journal_mode=WAL`); err != nil {
			c.db.Close()
			return c, fmt.Errorf("repository %s: %w", name, err)
		}
		return c, nil
	case err != nil:
		return c, fmt.Errorf("repository %s: %w", name, unwrapPath(err))
	case st.IsDir():
		return c, fmt.Errorf("repository %s is a folder; give the repository's file (e.g. %s)", name, filepath.Join(path, "repository.db"))
	}
	if opt.Mode == ReadWrite {
		if !fileWritable(path) {
			c.readOnly = "the file " + path + " is read-only for this user"
		} else if c.db, err = openSQLite(path, "rw"); err == nil {
			if err = probe(ctx, c.db); err == nil {
				return c, nil
			}
			c.db.Close()
			c.readOnly = fmt.Sprintf("the file %s can only be read: %v", path, err)
		} else {
			return c, err
		}
	}
	if c.db, err = openSQLite(path, "ro"); err != nil {
		return c, err
	}
	err = probe(ctx, c.db)
	if err == nil {
		return c, nil
	}
	c.db.Close()
	// A write-ahead log that holds data means a writer is (or was) at
	// work: the file alone is not the repository's current state.
	if st, werr := os.Stat(path + "-wal"); werr == nil && st.Size() > 0 {
		return c, fmt.Errorf("repository %s: cannot read it (%v), and it cannot be read as an unchanging file while its write-ahead log %s holds data", name, err, path+"-wal")
	}
	if c.db, err = openSQLite(path, "immutable"); err != nil {
		return c, err
	}
	if err := probe(ctx, c.db); err != nil {
		c.db.Close()
		return c, fmt.Errorf("repository %s: %w", name, err)
	}
	c.immutable = true
	if c.readOnly == "" {
		c.readOnly = "the repository was opened read-only"
	}
	return c, nil
}

// openSQLite connects to the file at path in a mode: "rwc" creates, "rw"
// reads and writes, "ro" only reads, "immutable" reads a file nobody
// changes.
func openSQLite(path, mode string) (*sql.DB, error) {
	// Only writers take the write lock, at the start of their transaction
	// (BEGIN IMMEDIATE), so that concurrent writers queue instead of
	// failing on a lock upgrade.
	params := []string{"_pragma=busy_timeout(" + strconv.Itoa(sqliteBusyMillis) + ")"}
	// Readers map the file into memory: SQLite reads the overflow pages
	// of large rows (summaries, call trees) with one system call each
	// otherwise, which was 40% of a search's time. (A mapped file turns
	// a failing disk's read error into a crash instead of an error; that
	// is the price, paid by readers only.)
	const mmap = "_pragma=mmap_size(1099511627776)"
	switch mode {
	case "ro":
		params = append(params, "mode=ro", "_pragma=query_only(1)", mmap)
	case "immutable":
		params = append(params, "mode=ro", "immutable=1", "_pragma=query_only(1)", mmap)
	default:
		params = append(params, "mode="+mode, "_pragma=foreign_keys(1)", "_pragma=synchronous(NORMAL)", "_txlock=immediate")
	}
	params = append(params, "_pragma=cache_size(-65536)")
	db, err := sql.Open("sqlite", "file:"+uriPath(path)+"?"+strings.Join(params, "&"))
	if err != nil {
		return nil, fmt.Errorf("repository %s: %w", displayName(path), err)
	}
	return db, nil
}

// probe reads the schema, which is what fails when a file cannot be read
// in the mode it was opened in.
func probe(ctx context.Context, db *sql.DB) error {
	var n int
	return db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master`).Scan(&n)
}

// uriPath escapes the characters a URI file name cannot hold literally.
func uriPath(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(p)
}

// createFile creates an empty repository file that only its owner may
// read (it holds command lines, paths and host names), making missing
// folders that only the owner may enter.
func createFile(path string) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return unwrapPath(err)
	}
	return f.Close()
}

// fileWritable reports whether this user may write the file.
func fileWritable(path string) bool {
	return syscall.Access(path, 2 /* W_OK */) == nil
}

// connectPostgres connects to the database at url; a read-only
// connection makes every transaction read-only, so that nothing can be
// changed by mistake.
func connectPostgres(ctx context.Context, url string, opt Options) (connection, error) {
	c := connection{d: postgresDialect}
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return c, fmt.Errorf("repository %s: %w", displayName(url), err)
	}
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	if _, ok := cfg.RuntimeParams["application_name"]; !ok {
		cfg.RuntimeParams["application_name"] = "cubeview"
	}
	if opt.Mode == ReadOnly {
		cfg.RuntimeParams["default_transaction_read_only"] = "on"
	}
	c.db = stdlib.OpenDB(*cfg)
	if err := c.db.PingContext(ctx); err != nil {
		c.db.Close()
		return c, fmt.Errorf("repository %s: %w", displayName(url), err)
	}
	return c, nil
}

// sqliteTextHash names the SQL function that computes textHash in
// SQLite, for upgrades that add hashes of stored text.
const sqliteTextHash = "cubeview_text_hash"

func init() {
	sqlite.MustRegisterDeterministicScalarFunction(sqliteTextHash, 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		switch v := args[0].(type) {
		case string:
			return textHash(v), nil
		case []byte:
			return textHash(string(v)), nil
		}
		return nil, fmt.Errorf("%s: want text, not %T", sqliteTextHash, args[0])
	})
}
