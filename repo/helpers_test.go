package repo

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"cubeview/model"
)

// envPostgres names a PostgreSQL server the tests may create databases
// on (a superuser URL); scripts/with-postgres.sh starts a throw-away
// server and sets it for `make test`.
const envPostgres = "CUBEVIEW_TEST_POSTGRES"

// eachEngine runs f on a fresh, empty repository of each engine: SQLite
// always, PostgreSQL when $CUBEVIEW_TEST_POSTGRES names a server.
func eachEngine(t *testing.T, f func(t *testing.T, loc string)) {
	t.Run("sqlite", func(t *testing.T) { f(t, sqliteLoc(t)) })
	t.Run("postgres", func(t *testing.T) { f(t, postgresLoc(t)) })
}

func sqliteLoc(t testing.TB) string {
	return filepath.Join(t.TempDir(), "repository.db")
}

// postgresLoc creates a database for the test on the server named by
// $CUBEVIEW_TEST_POSTGRES and drops it afterwards.
func postgresLoc(t testing.TB) string {
	t.Helper()
	admin := os.Getenv(envPostgres)
	if admin == "" {
		if os.Getenv("CUBEVIEW_REQUIRE_POSTGRES") != "" {
			t.Fatalf("%s is not set but CUBEVIEW_REQUIRE_POSTGRES is: run the tests through scripts/with-postgres.sh", envPostgres)
		}
		t.Skipf("no PostgreSQL server: set %s (make test starts one with scripts/with-postgres.sh)", envPostgres)
	}
	db, err := sql.Open("pgx", admin)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b [6]byte
	rand.Read(b[:])
	name := "cvtest_" + hex.EncodeToString(b[:])
	if _, err := db.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("creating a test database on %s: %v", admin, err)
	}
	t.Cleanup(func() {
		db, err := sql.Open("pgx", admin)
		if err != nil {
			return
		}
		defer db.Close()
		if _, err := db.Exec("DROP DATABASE " + name + " WITH (FORCE)"); err != nil {
			t.Errorf("dropping %s: %v", name, err)
		}
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// openRepo opens the repository at loc, creating it when new.
func openRepo(t testing.TB, loc string) *Repo {
	t.Helper()
	r, err := OpenWith(context.Background(), loc, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func dump(t testing.TB, e *model.Experiment) string {
	t.Helper()
	var buf bytes.Buffer
	if err := e.Dump(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}
