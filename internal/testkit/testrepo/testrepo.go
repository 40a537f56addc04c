package testrepo

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"cubeview/internal/testkit"
	"cubeview/model"
	"cubeview/repo"
)

// Trial is one real experiment to import: its file under the data
// folder, where it goes and its user attributes.
type Trial struct {
	File            string // relative to the data folder
	App, Experiment string
	Attrs           []model.Attr
}

// Standard is the set Filled imports: the matrix-multiply sweep (size)
// and LULESH runs (procs, size).
var Standard = []Trial{
	{"cube4/mm_sweep/mm.x10y1z1.r1.cubex", "mm", "sweep", []model.Attr{{Key: "size", Value: "10"}}},
	{"cube4/mm_sweep/mm.x25y1z1.r1.cubex", "mm", "sweep", []model.Attr{{Key: "size", Value: "25"}}},
	{"cube4/mm_sweep/mm.x50y1z1.r1.cubex", "mm", "sweep", []model.Attr{{Key: "size", Value: "50"}}},
	{"cube4/lulesh/lulesh.p27.size25.r1.cubex", "lulesh", "scaling", []model.Attr{{Key: "size", Value: "25"}, {Key: "compiler", Value: "gcc-13"}}},
	{"cube4/lulesh/lulesh.p64.size25.r1.cubex", "lulesh", "scaling", []model.Attr{{Key: "size", Value: "25"}, {Key: "compiler", Value: "gcc-13"}}},
	{"cube4/lulesh/lulesh.p27.size30.r1.cubex", "lulesh", "sizes", []model.Attr{{Key: "size", Value: "30"}, {Key: "compiler", Value: "gcc-14"}}},
}

// Location returns a new SQLite repository location in a temporary folder.
func Location(t testing.TB) string {
	return filepath.Join(t.TempDir(), "repository.db")
}

// Filled returns an open SQLite repository in a temporary folder holding
// trials, and the path of each trial's file by trial id. It skips the
// test when the data folder is absent.
func Filled(t testing.TB, trials []Trial) (*repo.Repo, map[int64]string) {
	t.Helper()
	r, err := repo.Init(context.Background(), Location(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	files := map[int64]string{}
	for _, tr := range trials {
		path := testkit.Data(t, filepath.FromSlash(tr.File))
		id, err := r.Import(context.Background(), path, repo.ImportOptions{App: tr.App, Experiment: tr.Experiment, Attrs: tr.Attrs})
		if err != nil {
			t.Fatal(err)
		}
		files[id] = path
	}
	return r, files
}

// envPostgres names a PostgreSQL server tests may create databases on (a
// superuser URL); scripts/with-postgres.sh starts one for `make test`.
const envPostgres = "CUBEVIEW_TEST_POSTGRES"

// ReadOnlyPostgres creates a PostgreSQL repository holding trials on the
// server $CUBEVIEW_TEST_POSTGRES names and returns its location for a
// role that may only read it; the database and the role are dropped
// after the test. Without the server the test is skipped (failed when
// $CUBEVIEW_REQUIRE_POSTGRES is set), as are the repository's own tests.
func ReadOnlyPostgres(t testing.TB, trials []Trial) string {
	t.Helper()
	admin := os.Getenv(envPostgres)
	if admin == "" {
		if os.Getenv("CUBEVIEW_REQUIRE_POSTGRES") != "" {
			t.Fatalf("%s is not set but CUBEVIEW_REQUIRE_POSTGRES is: run the tests through scripts/with-postgres.sh", envPostgres)
		}
		t.Skipf("no PostgreSQL server: set %s (make test starts one with scripts/with-postgres.sh)", envPostgres)
	}
	var b [6]byte
	rand.Read(b[:])
	name := "cvui_" + hex.EncodeToString(b[:])
	exec := func(loc string, stmts ...string) {
		t.Helper()
		db, err := sql.Open("pgx", loc)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, s := range stmts {
			if _, err := db.Exec(s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
	}
	exec(admin, "CREATE DATABASE "+name)
	t.Cleanup(func() { exec(admin, "DROP DATABASE "+name+" WITH (FORCE)", "DROP ROLE IF EXISTS "+name) })
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	owner := u.String()
	r, err := repo.Init(context.Background(), owner)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, tr := range trials {
		if _, err := r.Import(context.Background(), testkit.Data(t, filepath.FromSlash(tr.File)),
			repo.ImportOptions{App: tr.App, Experiment: tr.Experiment, Attrs: tr.Attrs}); err != nil {
			t.Fatal(err)
		}
	}
	exec(owner, "CREATE ROLE "+name+" LOGIN", "GRANT USAGE ON SCHEMA public TO "+name,
		"GRANT SELECT ON ALL TABLES IN SCHEMA public TO "+name)
	u.User = url.User(name)
	return u.String()
}

// Postgres creates an empty database on the server $CUBEVIEW_TEST_POSTGRES
// names and returns its location; it is dropped after the test. Without
// the server the test is skipped (failed when $CUBEVIEW_REQUIRE_POSTGRES
// is set).
func Postgres(t testing.TB) string {
	t.Helper()
	admin := os.Getenv(envPostgres)
	if admin == "" {
		if os.Getenv("CUBEVIEW_REQUIRE_POSTGRES") != "" {
			t.Fatalf("%s is not set but CUBEVIEW_REQUIRE_POSTGRES is: run the tests through scripts/with-postgres.sh", envPostgres)
		}
		t.Skipf("no PostgreSQL server: set %s (make test starts one with scripts/with-postgres.sh)", envPostgres)
	}
	var b [6]byte
	rand.Read(b[:])
	name := "cvcli_" + hex.EncodeToString(b[:])
	db, err := sql.Open("pgx", admin)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		db, err := sql.Open("pgx", admin)
		if err == nil {
			db.Exec("DROP DATABASE " + name + " WITH (FORCE)")
			db.Close()
		}
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}
