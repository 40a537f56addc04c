package repo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Busy says what a change is waiting for.
type Busy struct {
	Waited time.Duration
	// Holder describes who holds the repository, as far as the engine can
	// tell ("" when it cannot).
	Holder string
}

// BusyError reports a change that gave up waiting for a busy repository.
type BusyError struct {
	Repo   string
	Op     string
	Waited time.Duration
	Holder string
}

func (e *BusyError) Error() string {
	who := "another program is changing it"
	if e.Holder != "" {
		who = e.Holder
	}
	return fmt.Sprintf("repository %s is busy (%s); gave up after %s", e.Repo, who, e.Waited.Round(time.Second))
}

// activity describes this program's change for other programs that wait
// for it: PostgreSQL shows it as the connection's application_name, SQLite
// in a note beside the file.
type activity struct {
	what  string // "import of run.cubex", "upgrade", …
	pid   int
	host  string
	user  string
	since time.Time
}

func newActivity(what string) activity {
	host, _ := os.Hostname()
	a := activity{what: what, pid: os.Getpid(), host: host, since: time.Now()}
	if u, err := user.Current(); err == nil {
		a.user = u.Username
	}
	return a
}

// String is how a waiting program shows the activity.
func (a activity) String() string {
	by := ""
	if a.user != "" {
		by = " by " + a.user
	}
	return fmt.Sprintf("%s%s (process %d on %s) since %s", a.what, by, a.pid, a.host, a.since.Local().Format("15:04:05"))
}

// encode is the stored form: fields separated by tabs, the description
// last (it may hold any character).
func (a activity) encode() string {
	return strings.Join([]string{strconv.Itoa(a.pid), a.host, a.user, strconv.FormatInt(a.since.Unix(), 10), a.what}, "\t")
}

func decodeActivity(s string) (activity, bool) {
	f := strings.SplitN(s, "\t", 5)
	if len(f) != 5 {
		return activity{}, false
	}
	pid, err1 := strconv.Atoi(f[0])
	sec, err2 := strconv.ParseInt(f[3], 10, 64)
	if err1 != nil || err2 != nil {
		return activity{}, false
	}
	return activity{pid: pid, host: f[1], user: f[2], since: time.Unix(sec, 0), what: f[4]}, true
}

// alive reports whether the process that recorded a is still running, as
// far as this machine can tell: a process of another host is assumed to be.
func (a activity) alive() bool {
	host, _ := os.Hostname()
	if a.host != host {
		return true
	}
	if _, err := os.Stat("/proc"); err != nil {
		return true
	}
	_, err := os.Stat(filepath.Join("/proc", strconv.Itoa(a.pid)))
	return err == nil
}

// writeLock is how this program's changes take turns with other
// programs': write transactions wait, up to a bound, while another
// program writes and say meanwhile who that is; this program's long
// changes say who they are to the programs that wait for them (a note
// beside an SQLite file, the connection's name in PostgreSQL).
type writeLock struct {
	db     *sql.DB
	engine string // "sqlite", "postgres"
	repo   string // the repository's name in messages
	// note is the file beside an SQLite repository that names its writer.
	note    string
	wait    time.Duration
	waiting func(Busy)
}

// newWriteLock returns the write lock of the repository at loc, which
// db reaches through engine.
func newWriteLock(db *sql.DB, engine, loc string, opt Options) *writeLock {
	return &writeLock{db: db, engine: engine, repo: displayName(loc), note: loc + "-writer", wait: opt.Wait, waiting: opt.Waiting}
}

type activityKey struct{}

// withActivity makes the changes made with ctx say they belong to a.
func withActivity(ctx context.Context, a activity) context.Context {
	return context.WithValue(ctx, activityKey{}, a)
}

// announce tells programs that wait for the repository what holds it:
// in PostgreSQL the connection's application_name says it until the
// returned function is called; in SQLite every write transaction begun
// with the returned context writes a note beside the file (see begin),
// which the returned function removes.
func (l *writeLock) announce(ctx context.Context, conn *sql.Conn, a activity) (context.Context, func()) {
	ctx = withActivity(ctx, a)
	if l.engine == "postgres" {
		name := "cubeview: " + a.what
		if len(name) > 63 {
			name = name[:60] + "…"
		}
		if conn != nil {
			conn.ExecContext(ctx, `SELECT set_config('application_name', $1, false)`, name)
			return ctx, func() {
				conn.ExecContext(context.Background(), `SELECT set_config('application_name', 'cubeview', false)`)
			}
		}
		return ctx, func() {}
	}
	return ctx, func() {
		if b, err := os.ReadFile(l.note); err == nil && string(b) == a.encode() {
			os.Remove(l.note)
		}
	}
}

// noteHolder writes, in SQLite, who holds the write lock just taken, for
// the long changes that announce themselves (imports, upgrades); the
// note is removed when they end.
func (l *writeLock) noteHolder(ctx context.Context) {
	if l.engine != "sqlite" {
		return
	}
	if a, ok := ctx.Value(activityKey{}).(activity); ok {
		os.WriteFile(l.note, []byte(a.encode()), 0o600)
	}
}

// holder describes who holds the repository while a change waits.
func (l *writeLock) holder(ctx context.Context) string {
	if l.engine == "postgres" {
		var app, usr, client, start sql.NullString
		err := l.db.QueryRowContext(ctx, `SELECT a.application_name, a.usename, COALESCE(a.client_hostname, host(a.client_addr)),
			to_char(a.xact_start, 'HH24:MI:SS')
			FROM pg_stat_activity a WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()
			AND a.xact_start IS NOT NULL AND a.backend_type = 'client backend'
			ORDER BY (a.application_name LIKE 'cubeview:%') DESC, a.xact_start LIMIT 1`).Scan(&app, &usr, &client, &start)
		if err != nil {
			return ""
		}
		what := strings.TrimPrefix(app.String, "cubeview: ")
		if what == "" || what == "cubeview" {
			what = "a transaction"
		}
		where := ""
		if client.String != "" {
			where = " from " + client.String
		}
		return fmt.Sprintf("%s by %s%s since %s", what, usr.String, where, start.String)
	}
	b, err := os.ReadFile(l.note)
	if err != nil {
		return ""
	}
	a, ok := decodeActivity(string(b))
	if !ok || !a.alive() {
		return ""
	}
	return a.String()
}

// isBusy reports whether err says that another program holds a lock.
func isBusy(err error) bool {
	if err == nil {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "55P03" // lock_not_available (lock_timeout)
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code()&0xff == sqlite3.SQLITE_BUSY
	}
	return strings.Contains(err.Error(), "database is locked")
}

// txBeginner is a database or one of its connections.
type txBeginner interface {
	BeginTx(context.Context, *sql.TxOptions) (*sql.Tx, error)
}

// begin starts a write transaction on a database or connection, waiting
// up to the repository's Wait while another program writes and
// reporting the wait. In PostgreSQL every lock the transaction waits for
// is bounded by the same wait.
func (l *writeLock) begin(ctx context.Context, on txBeginner, op string) (*sql.Tx, error) {
	start := time.Now()
	for {
		tx, err := on.BeginTx(ctx, nil)
		if err == nil && l.engine == "postgres" {
			if _, err = tx.ExecContext(ctx, fmt.Sprintf(`SET LOCAL lock_timeout = %d`, l.wait.Milliseconds())); err != nil {
				tx.Rollback()
			}
		}
		if err == nil {
			l.noteHolder(ctx)
			return tx, nil
		}
		if !isBusy(err) {
			return nil, writeFailure(l.repo, op, err)
		}
		if err := l.waitBusy(ctx, op, start); err != nil {
			return nil, err
		}
	}
}

// waitBusy reports a wait that began at start and returns a BusyError
// once it has lasted the repository's Wait.
func (l *writeLock) waitBusy(ctx context.Context, op string, start time.Time) error {
	waited := time.Since(start)
	holder := l.holder(ctx)
	if waited >= l.wait {
		return &BusyError{Repo: l.repo, Op: op, Waited: waited, Holder: holder}
	}
	if l.waiting != nil {
		l.waiting(Busy{Waited: waited, Holder: holder})
	}
	if l.engine == "postgres" {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return ctx.Err()
}

// lockPostgres takes the transaction-scoped advisory lock key in tx,
// waiting up to the repository's Wait for the program that holds it.
func (l *writeLock) lockPostgres(ctx context.Context, tx *sql.Tx, op string, key int64) error {
	start := time.Now()
	for {
		var ok bool
		if err := tx.QueryRowContext(ctx, `SELECT pg_try_advisory_xact_lock($1)`, key).Scan(&ok); err != nil {
			return err
		}
		if ok {
			return nil
		}
		if err := l.waitBusy(ctx, op, start); err != nil {
			return err
		}
	}
}

// Advisory lock keys of PostgreSQL repositories.
const (
	lockCreate  = 7212090517 // creating the schema
	lockCommit  = 7212090518 // making an import visible (the duplicate check)
	lockNames   = 7212090519 // creating applications and experiments
	lockUpgrade = 7212090520 // upgrading the schema
	// lockImport + trial id is held (per session) by the program importing
	// that trial, so that others can tell a running import from a dead one.
	lockImport = 0x0cbe << 48
)
