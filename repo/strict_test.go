package repo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// TestTyposAreErrors: a metric, region kind or attribute that no trial
// has is an error that names it and suggests what was meant, not an
// empty result.
func TestTyposAreErrors(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		importSynth(t, r, 1, "app", "exp", "a", "procs=64")
		if _, err := r.Import(ctx, testkit.Data(t, "cube4", "cpi", "profile.cubex"), ImportOptions{Attrs: []model.Attr{{Key: "procs", Value: "8"}}}); err != nil {
			t.Fatal(err)
		}
		unknown := func(q Query, what, name, suggestion string) {
			t.Helper()
			_, err := r.Find(ctx, q)
			var ue *UnknownNameError
			if !errors.As(err, &ue) || ue.What != what || ue.Name != name {
				t.Fatalf("%+v: %v, want an unknown %s %q", q, err, what, name)
			}
			if suggestion != "" && !strings.Contains(err.Error(), "did you mean "+suggestion) {
				t.Errorf("%+v: %q does not suggest %q", q, err, suggestion)
			}
		}
		unknown(Query{Metric: "tiem", MinValue: 0}, "metric", "tiem", "time")
		unknown(Query{Constraint: "time > 0 and vists < 5"}, "metric", "vists", "visits")
		unknown(Query{Metric: "x", Derived: derived(t, "x = tiem / visits"), MinValue: 0}, "metric", "tiem", "time")
		unknown(Query{Metric: "time", Kind: "mpii", MinValue: 0}, "region kind", "mpii", "mpi")
		unknown(Query{Metric: "time", Kind: "cuda", MinValue: 0}, "region kind", "cuda", "")
		// A kind in another case is the kind.
		upper, err := r.Find(ctx, Query{Metric: "time", Kind: "MPI", MinValue: 0})
		lower, err2 := r.Find(ctx, Query{Metric: "time", Kind: "mpi", MinValue: 0})
		if err != nil || err2 != nil || len(upper) == 0 || len(upper) != len(lower) {
			t.Fatalf("--kind MPI: %d hits (%v), mpi: %d hits (%v)", len(upper), err, len(lower), err2)
		}
		// Attributes that no trial has, in every command that filters.
		for _, f := range []string{"prcos >= 64", "procs >= 8 and @name = x", "not (compiler = gcc)"} {
			_, err1 := r.Trials(ctx, f, ListOptions{})
			_, err2 := r.Find(ctx, Query{Metric: "time", MinValue: 0, Where: f})
			_, err3 := r.MetricNames(ctx, f)
			for _, err := range []error{err1, err2, err3} {
				var fe *FilterError
				if !errors.As(err, &fe) || !strings.Contains(fe.Msg, "no trial has an attribute") {
					t.Fatalf("%q: %v, want a filter error naming the attribute", f, err)
				}
			}
		}
		_, err = r.Trials(ctx, "prcos >= 64", ListOptions{})
		var fe *FilterError
		if errors.As(err, &fe); fe.Column() != 1 || !strings.Contains(fe.Msg, `"prcos"; did you mean procs?`) {
			t.Errorf("prcos: %v", err)
		}
		// Testing for an attribute is no typo.
		if ts, err := r.Trials(ctx, "has prcos or procs = 8", ListOptions{}); err != nil || len(ts) != 1 {
			t.Errorf("has prcos: %d trials, %v", len(ts), err)
		}
	})
}

// TestForeignDatabases: databases of other programs are refused and left
// as they were; a missing or empty location is an error unless a
// repository is asked for (Init) or it is the personal default.
func TestForeignDatabases(t *testing.T) {
	ctx := context.Background()
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		// A TAUdb database also has a schema_version 2 and a trial table.
		taudb := filepath.Join(dir, "taudb.db")
		foreign(t, "sqlite", taudb, []string{
			`CREATE TABLE schema_version (version INTEGER, description TEXT)`,
			`INSERT INTO schema_version VALUES (2, 'taudb')`,
			`CREATE TABLE application (id INTEGER PRIMARY KEY, name TEXT)`,
			`CREATE TABLE experiment (id INTEGER PRIMARY KEY, name TEXT)`,
			`CREATE TABLE trial (id INTEGER PRIMARY KEY, name TEXT, date TEXT)`,
			`CREATE TABLE metric (id INTEGER PRIMARY KEY, trial INTEGER, name TEXT)`,
			`CREATE TABLE timer (id INTEGER PRIMARY KEY, trial INTEGER, name TEXT)`,
		})
		other := filepath.Join(dir, "other.db")
		foreign(t, "sqlite", other, []string{`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)`})
		for _, path := range []string{taudb, other} {
			before := fileDigest(t, path)
			for _, open := range []func() (*Repo, error){
				func() (*Repo, error) { return Open(ctx, path) },
				func() (*Repo, error) { return OpenReadOnly(ctx, path) },
				func() (*Repo, error) { return Init(ctx, path) },
			} {
				r, err := open()
				if err == nil {
					r.Close()
					t.Fatalf("%s taken for a repository", path)
				}
				if !strings.Contains(err.Error(), "not a cubeview repository") || !strings.Contains(err.Error(), "left unchanged") {
					t.Errorf("%s: %v", path, err)
				}
			}
			if fileDigest(t, path) != before {
				t.Errorf("%s was changed", path)
			}
			if _, err := os.Stat(path + "-wal"); err == nil {
				t.Errorf("%s was switched to write-ahead logging", path)
			}
		}
		if _, err := Open(ctx, taudb); !strings.Contains(err.Error(), "TAU") {
			t.Errorf("the TAU database is not named as such: %v", err)
		}
		// A mistyped location creates nothing.
		typo := filepath.Join(dir, "sub", "reposiotry.db")
		if _, err := Open(ctx, typo); err == nil || !strings.Contains(err.Error(), "repo init") {
			t.Errorf("missing repository: %v", err)
		}
		if _, err := os.Stat(filepath.Dir(typo)); err == nil {
			t.Errorf("opening a missing repository made %s", filepath.Dir(typo))
		}
		r, err := Init(ctx, typo)
		if err != nil {
			t.Fatal(err)
		}
		var id int64
		r.db.QueryRow(`PRAGMA application_id`).Scan(&id)
		if id != sqliteApplicationID || r.Identity() == "" {
			t.Errorf("new repository: application id %#x, identity %q", id, r.Identity())
		}
		r.Close()
		if r, err := Init(ctx, typo); err == nil || !strings.Contains(err.Error(), "already holds a cubeview repository") {
			t.Errorf("second init: %v", err)
			if r != nil {
				r.Close()
			}
		}
		if r, err := Open(ctx, typo); err != nil {
			t.Fatal(err)
		} else {
			r.Close()
		}
	})
	t.Run("postgres", func(t *testing.T) {
		loc := postgresLoc(t)
		if _, err := Open(ctx, loc); err == nil || !strings.Contains(err.Error(), "repo init") {
			t.Fatalf("empty database: %v", err)
		}
		if n := pgTables(t, loc); n != 0 {
			t.Fatalf("opening an empty database made %d tables", n)
		}
		foreign(t, "postgres", loc, []string{
			`CREATE TABLE schema_version (version INTEGER, description TEXT)`,
			`INSERT INTO schema_version VALUES (2, 'taudb')`,
			`CREATE TABLE trial (id SERIAL PRIMARY KEY, name TEXT)`,
			`CREATE TABLE timer (id SERIAL PRIMARY KEY, trial INTEGER, name TEXT)`,
		})
		for _, open := range []func() (*Repo, error){
			func() (*Repo, error) { return Open(ctx, loc) },
			func() (*Repo, error) { return Init(ctx, loc) },
		} {
			if r, err := open(); err == nil || !strings.Contains(err.Error(), "TAU") {
				t.Errorf("TAUdb database: %v", err)
				if r != nil {
					r.Close()
				}
			}
		}
		if n := pgTables(t, loc); n != 3 {
			t.Errorf("the foreign database now has %d tables, want 3", n)
		}
		fresh := postgresLoc(t)
		r, err := Init(ctx, fresh)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		var n int
		if err := r.db.QueryRow(`SELECT COUNT(*) FROM ` + markerTable).Scan(&n); err != nil || n != 1 || r.Identity() == "" {
			t.Errorf("marker: %d rows, %v, identity %q", n, err, r.Identity())
		}
	})
}

// foreign makes a database of another program.
func foreign(t *testing.T, driver, loc string, stmts []string) {
	t.Helper()
	name := driver
	if driver == "postgres" {
		name = "pgx"
	}
	db, err := sql.Open(name, loc)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
}

func pgTables(t *testing.T, loc string) int {
	t.Helper()
	db, err := sql.Open("pgx", loc)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func fileDigest(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// TestDefaultRepositoryPrivate: the personal repository is made on first
// use, readable by its owner only (it holds command lines, paths and host
// names), in a folder only its owner may enter, whatever the umask.
// PostgreSQL repositories are guarded by the server's roles instead.
func TestDefaultRepositoryPrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	home := t.TempDir()
	t.Setenv("XDG_DATA_HOME", home)
	t.Setenv(EnvLocation, "")
	r, err := Open(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	importSynth(t, r, 1, "app", "exp", "run")
	loc := r.Location()
	if loc != filepath.Join(home, "cubeview", "repository.db") {
		t.Fatalf("default repository at %s", loc)
	}
	for _, p := range []string{loc, loc + "-wal", loc + "-shm"} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", p, st.Mode().Perm())
		}
	}
	r.Close()
	if st, err := os.Stat(filepath.Dir(loc)); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("folder %s: %v %v, want 0700", filepath.Dir(loc), st.Mode().Perm(), err)
	}
	// Initialised anywhere, a repository is private too.
	other := filepath.Join(t.TempDir(), "a", "b.db")
	r, err = Init(context.Background(), other)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if st, _ := os.Stat(other); st.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", other, st.Mode().Perm())
	}
}

// TestReadOnlyOpenWritesNothing: a repository opened read-only reads as
// usual and refuses every change before the database is asked, and
// reading changes no byte of an SQLite file.
func TestReadOnlyOpenWritesNothing(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		w := openRepo(t, loc)
		id := importSynth(t, w, 1, "app", "exp", "run", "procs=4")
		w.Close()
		var before [32]byte
		if !IsPostgres(loc) {
			before = fileDigest(t, loc)
		}
		r, err := OpenReadOnly(ctx, loc)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		readEverything(t, r, id)
		for what, err := range map[string]error{
			"import": func() error {
				_, err := r.ImportExperiment(ctx, synth.Generate(synth.Config{Cnodes: 3, Locations: 1, Metrics: 1}), Source{Path: "x", SHA256: "y"}, ImportOptions{})
				return err
			}(),
			"set": r.SetAttrs(ctx, id, []model.Attr{{Key: "a", Value: "b"}}, nil),
			"rm":  r.Remove(ctx, id),
		} {
			if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), "opened read-only") {
				t.Errorf("%s on a repository opened read-only: %v", what, err)
			}
		}
		if !IsPostgres(loc) && fileDigest(t, loc) != before {
			t.Error("reading changed the file")
		}
	})
}

// readEverything lists, shows, searches, opens and exports trial id.
func readEverything(t *testing.T, r *Repo, id int64) {
	t.Helper()
	ctx := context.Background()
	if ts, err := r.Trials(ctx, "procs = 4", ListOptions{}); err != nil || len(ts) != 1 {
		t.Fatalf("ls: %d trials, %v", len(ts), err)
	}
	if _, err := r.Trial(ctx, id); err != nil {
		t.Fatalf("show: %v", err)
	}
	if hits, err := r.Find(ctx, Query{Metric: "time", Share: true, MinShare: 0.01}); err != nil || len(hits) == 0 {
		t.Fatalf("find: %d hits, %v", len(hits), err)
	}
	e, err := r.Open(ctx, id)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	var buf bytes.Buffer
	if err := e.Dump(&buf); err != nil {
		t.Fatalf("dump: %v", err)
	}
	if err := r.Export(ctx, id, filepath.Join(t.TempDir(), "x.cubex")); err != nil {
		t.Fatalf("export: %v", err)
	}
}
