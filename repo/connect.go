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

// connectSQLite opens the SQLite file: read-write where it may, else (or
// when asked) read-only; a file that cannot even be read that way (its
// folder is read-only and holds no shared-memory file, the disk is full)
// is read as an unchanging file.
func (r *Repo) connectSQLite(ctx context.Context) error {
	r.d = sqliteDialect
	path := r.location
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if !r.opt.Create || r.opt.Mode == ReadOnly {
			return r.missingError()
		}
		if err := createFile(path); err != nil {
			return fmt.Errorf("creating repository %s: %w", r.Name(), err)
		}
		if err := r.openSQLite(ctx, "rwc"); err != nil {
			return err
		}
		// The write-ahead log lets readers work during an import; the
		// setting stays with the file.
		if _, err := r.db.ExecContext(ctx, `PRAGMA journal_mode=WAL`); err != nil {
			r.db.Close()
			return fmt.Errorf("repository %s: %w", r.Name(), err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("repository %s: %w", r.Name(), unwrapPath(err))
	case st.IsDir():
		return fmt.Errorf("repository %s is a folder; give the repository's file (e.g. %s)", r.Name(), filepath.Join(path, "repository.db"))
	}
	if r.opt.Mode == ReadWrite {
		if !fileWritable(path) {
			r.readOnly = "the file " + path + " is read-only for this user"
		} else if err := r.openSQLite(ctx, "rw"); err == nil {
			if err = r.probe(ctx); err == nil {
				return nil
			}
			r.db.Close()
			r.readOnly = fmt.Sprintf("the file %s can only be read: %v", path, err)
		} else {
			return err
		}
	}
	if err := r.openSQLite(ctx, "ro"); err != nil {
		return err
	}
	err = r.probe(ctx)
	if err == nil {
		return nil
	}
	r.db.Close()
	// A write-ahead log that holds data means a writer is (or was) at
	// work: the file alone is not the repository's current state.
	if st, werr := os.Stat(path + "-wal"); werr == nil && st.Size() > 0 {
		return fmt.Errorf("repository %s: cannot read it (%v), and it cannot be read as an unchanging file while its write-ahead log %s holds data", r.Name(), err, path+"-wal")
	}
	if err := r.openSQLite(ctx, "immutable"); err != nil {
		return err
	}
	if err := r.probe(ctx); err != nil {
		r.db.Close()
		return fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	r.immutable = true
	if r.readOnly == "" {
		r.readOnly = "the repository was opened read-only"
	}
	return nil
}

// openSQLite connects in a mode: "rwc" creates, "rw" reads and writes,
// "ro" only reads, "immutable" reads a file nobody changes.
func (r *Repo) openSQLite(ctx context.Context, mode string) error {
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
	db, err := sql.Open("sqlite", "file:"+uriPath(r.location)+"?"+strings.Join(params, "&"))
	if err != nil {
		return fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	r.db = db
	return nil
}

// probe reads the schema, which is what fails when a file cannot be read
// in the mode it was opened in.
func (r *Repo) probe(ctx context.Context) error {
	var n int
	return r.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master`).Scan(&n)
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

// connectPostgres connects to the database; a read-only connection makes
// every transaction read-only, so that nothing can be changed by mistake.
func (r *Repo) connectPostgres(ctx context.Context) error {
	r.d = postgresDialect
	cfg, err := pgx.ParseConfig(r.location)
	if err != nil {
		return fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	if _, ok := cfg.RuntimeParams["application_name"]; !ok {
		cfg.RuntimeParams["application_name"] = "cubeview"
	}
	if r.opt.Mode == ReadOnly {
		cfg.RuntimeParams["default_transaction_read_only"] = "on"
	}
	r.db = stdlib.OpenDB(*cfg)
	if err := r.db.PingContext(ctx); err != nil {
		r.db.Close()
		return fmt.Errorf("repository %s: %w", r.Name(), err)
	}
	return nil
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
