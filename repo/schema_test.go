package repo

import (
	"context"
	"strings"
	"testing"

	"cubeview/internal/synth"
)

// TestMigrations creates a repository at every older schema version,
// stores a trial, and checks that opening it migrates it to the current
// version with the trial intact.
func TestMigrations(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		for v := 1; v < SchemaVersion; v++ {
			old, err := openAt(ctx, loc, v)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := old.version(ctx, old.db); got < v {
				t.Fatalf("schema version %d, want at least %d", got, v)
			}
			want := dump(t, synth.Generate(synth.Config{Cnodes: 20, Locations: 3, Metrics: 2, Seed: uint64(v)}))
			id, err := old.ImportExperiment(ctx, synth.Generate(synth.Config{Cnodes: 20, Locations: 3, Metrics: 2, Seed: uint64(v)}),
				Source{Path: "old", SHA256: strings.Repeat("a", v)}, ImportOptions{Attrs: nil})
			if err != nil {
				t.Fatalf("import at version %d: %v", v, err)
			}
			old.Close()
			r, err := Open(ctx, loc)
			if err != nil {
				t.Fatalf("migrating from version %d: %v", v, err)
			}
			if got, _ := r.version(ctx, r.db); got != SchemaVersion {
				t.Fatalf("after migration: version %d, want %d", got, SchemaVersion)
			}
			e, err := r.Open(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if dump(t, e) != want {
				t.Fatalf("trial stored at version %d changed by the migration", v)
			}
			if hits, err := r.Find(ctx, Query{Metric: "time", Share: true, MinShare: 0.05}); err != nil || len(hits) == 0 {
				t.Fatalf("find after migration: %d hits, %v", len(hits), err)
			}
			r.Close()
		}
		// A repository from a newer program is refused, not damaged.
		r := openRepo(t, loc)
		if _, err := r.db.Exec(r.d.q(`INSERT INTO schema_version (version) VALUES (?)`), SchemaVersion+1); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(ctx, loc); err == nil || !strings.Contains(err.Error(), "newer") {
			t.Fatalf("opening a newer schema: %v", err)
		}
	})
}

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
