package repo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"

	"cubeview/internal/synth"
	"cubeview/model"
)

func TestDefaultLocation(t *testing.T) {
	t.Setenv(EnvLocation, "")
	t.Setenv("XDG_DATA_HOME", "/data/home")
	if loc, _ := DefaultLocation(); loc != "/data/home/cubeview/repository.db" {
		t.Errorf("with XDG_DATA_HOME: %s", loc)
	}
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "/home/u")
	if loc, _ := DefaultLocation(); loc != "/home/u/.local/share/cubeview/repository.db" {
		t.Errorf("without XDG_DATA_HOME: %s", loc)
	}
	t.Setenv(EnvLocation, "postgres://db/x")
	if loc, _ := DefaultLocation(); loc != "postgres://db/x" {
		t.Errorf("with %s: %s", EnvLocation, loc)
	}
	r := &Repo{location: "postgres://user:secret@host/db"}
	if n := r.Name(); strings.Contains(n, "secret") {
		t.Errorf("Name shows the password: %s", n)
	}
}

// TestOlderSchema: a repository of an earlier program (schema 2 or 3) is
// read, read-only, saying how to upgrade, by this program and by a
// PostgreSQL role that may only read; "repo upgrade" converts it with
// every trial as it was (ids, places, attributes, import times, values,
// search results) and keeps the old one.
func TestOlderSchema(t *testing.T) {
	for v := oldestReadable; v < schemaChunks; v++ {
		t.Run(fmt.Sprintf("schema %d", v), func(t *testing.T) {
			eachEngine(t, func(t *testing.T, loc string) {
				ctx := context.Background()
				old := createLegacy(t, loc, v)
				var ids []int64
				want := map[int64]string{}
				for i, name := range []string{"a", "b", "c"} {
					e := synth.Generate(synth.Config{Cnodes: 20 + i, Locations: 4, Threads: 2, Metrics: 3, Seed: uint64(i + 1)})
					want[int64(i+1)] = dump(t, e)
					ids = append(ids, old.store(t, e, Source{Path: "/runs/" + name, Size: 10, SHA256: fmt.Sprint(i)}, "app", "exp", name,
						[]model.Attr{{Key: "procs", Value: fmt.Sprint(4 << i)}, {Key: "compiler", Value: "gcc"}}))
				}
				// Read-only: everything reads; changes say which schemas and what to do.
				r, err := Open(ctx, loc)
				if err != nil {
					t.Fatal(err)
				}
				if r.Schema() != v {
					t.Fatalf("schema %d, want %d", r.Schema(), v)
				}
				readEverything(t, r, ids[0])
				before := trialsAndHits(t, r)
				for _, id := range ids {
					e, err := r.Open(ctx, id)
					if err != nil {
						t.Fatal(err)
					}
					if dump(t, e) != want[id] {
						t.Fatalf("trial %d of schema %d reads differently", id, v)
					}
				}
				_, err = r.ImportExperiment(ctx, synth.Generate(synth.Config{Cnodes: 3, Locations: 1, Metrics: 1}), Source{Path: "x", SHA256: "y"}, ImportOptions{})
				if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), fmt.Sprintf("schema %d", v)) ||
					!strings.Contains(err.Error(), fmt.Sprintf("schema %d", SchemaVersion)) || !strings.Contains(err.Error(), "repo upgrade") {
					t.Errorf("import into schema %d: %v", v, err)
				}
				r.Close()
				var reader string
				if IsPostgres(loc) {
					reader = grantRead(t, old.db, loc)
					ro, err := Open(ctx, reader)
					if err != nil {
						t.Fatalf("a read-only role cannot open schema %d: %v", v, err)
					}
					readEverything(t, ro, ids[0])
					ro.Close()
				}
				old.db.Close()
				res, err := Upgrade(ctx, loc, UpgradeOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if res.From != v || res.To != SchemaVersion || res.Trials != 3 || res.Backup == "" {
					t.Fatalf("upgrade: %+v", res)
				}
				r, err = Open(ctx, loc)
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				if r.Schema() != SchemaVersion || r.Identity() == "" {
					t.Fatalf("after the upgrade: schema %d, identity %q", r.Schema(), r.Identity())
				}
				if after := trialsAndHits(t, r); after != before {
					t.Fatalf("the upgrade changed trials or search results:\nbefore %s\nafter  %s", before, after)
				}
				for _, id := range ids {
					e, err := r.Open(ctx, id)
					if err != nil {
						t.Fatal(err)
					}
					if dump(t, e) != want[id] {
						t.Fatalf("trial %d changed in the upgrade", id)
					}
				}
				if rep, err := r.Check(ctx, nil); err != nil || len(rep.Problems) > 0 || rep.Trials != 3 {
					t.Fatalf("check after the upgrade: %+v %v", rep, err)
				}
				id := importSynth(t, r, 9, "app", "exp", "new")
				if id <= ids[len(ids)-1] {
					t.Errorf("new trial id %d after the upgrade, want more than %d", id, ids[len(ids)-1])
				}
				if IsPostgres(loc) {
					ro, err := Open(ctx, reader)
					if err != nil {
						t.Fatalf("the read-only role after the upgrade: %v", err)
					}
					readEverything(t, ro, ids[0])
					ro.Close()
				} else {
					b, err := OpenReadOnly(ctx, res.Backup)
					if err != nil {
						t.Fatalf("backup %s: %v", res.Backup, err)
					}
					if b.Schema() != v || trialsAndHits(t, b) != before {
						t.Errorf("the backup does not hold the repository as it was")
					}
					b.Close()
				}
				if _, err := Upgrade(ctx, loc, UpgradeOptions{}); err == nil || !strings.Contains(err.Error(), "nothing to upgrade") {
					t.Errorf("second upgrade: %v", err)
				}
			})
		})
	}
}

// trialsAndHits renders every trial with its attributes and import time,
// and the hits of a few searches.
func trialsAndHits(t *testing.T, r *Repo) string {
	t.Helper()
	ctx := context.Background()
	ts, err := r.Trials(ctx, "", ListOptions{FileAttrs: true})
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for _, tr := range ts {
		fmt.Fprintf(&sb, "%d %s/%s/%s %s %d %s %s %v;", tr.ID, tr.App, tr.Experiment, tr.Name, tr.Source, tr.Size, tr.SHA256, tr.Imported, tr.Attrs)
	}
	for _, q := range []Query{
		{Metric: "time", Share: true, MinShare: 0.02},
		{Metric: "time", Inclusive: true, MinValue: 1, Limit: 5},
		{Metric: "time_part1", Flat: true, MinValue: 0, Where: "name = b"},
	} {
		hits, err := r.Find(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sb, "\n%+v", hits)
	}
	return sb.String()
}

// grantRead creates a role that may only read the database at loc.
func grantRead(t *testing.T, db *sql.DB, loc string) string {
	t.Helper()
	role := "reader_" + strings.TrimPrefix(strings.TrimPrefix(must(url.Parse(loc)).Path, "/"), "cvtest_")
	for _, stmt := range []string{
		"CREATE ROLE " + role + " LOGIN",
		"GRANT USAGE ON SCHEMA public TO " + role,
		"GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + role,
	} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		db, _ := sql.Open("pgx", os.Getenv(envPostgres))
		defer db.Close()
		db.Exec("DROP OWNED BY " + role)
		db.Exec("DROP ROLE " + role)
	})
	u := must(url.Parse(loc))
	u.User = url.User(role)
	return u.String()
}

// TestNewerSchema: a repository a newer program wrote is read read-only
// when that program says older readers may read it, else refused; both
// messages name both versions.
func TestNewerSchema(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		r := openRepo(t, loc)
		id := importSynth(t, r, 1, "app", "exp", "run", "procs=4")
		newer := SchemaVersion + 1
		if _, err := r.db.Exec(r.d.q(`INSERT INTO schema_version (version) VALUES (?)`), newer); err != nil {
			t.Fatal(err)
		}
		r.Close()
		ro, err := Open(ctx, loc)
		if err != nil {
			t.Fatalf("a newer schema older programs may read: %v", err)
		}
		readEverything(t, ro, id)
		err = ro.SetAttrs(ctx, id, []model.Attr{{Key: "a", Value: "b"}}, nil)
		if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), fmt.Sprintf("schema %d", newer)) || !strings.Contains(err.Error(), fmt.Sprint(SchemaVersion)) {
			t.Errorf("changing a newer schema: %v", err)
		}
		ro.Close()
		w := openRepo(t, loc) // schema newer: read-only, but the test writes the marker directly
		if _, err := w.db.Exec(`UPDATE ` + markerTable + ` SET reader_version = ` + fmt.Sprint(newer)); err != nil {
			t.Fatal(err)
		}
		w.Close()
		if _, err := Open(ctx, loc); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("schema %d", newer)) ||
			!strings.Contains(err.Error(), fmt.Sprintf("schema %d", SchemaVersion)) {
			t.Errorf("a schema older programs may not read: %v", err)
		}
	})
}
