package repo

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"cubeview/format"
	"cubeview/internal/synth"
	"cubeview/model"
)

// hostile are strings that break naive SQL, shells and C strings.
var hostile = []string{
	`it's`, `"quoted"`, `a; DROP TABLE trial; --`, `100%`, `_x_`, "nul\x00inside", `back\slash`, `\x41`,
	"new\nline", "bad utf-8 \xff\xfe", "$1", "?", "ünïcödé ✓", strings.Repeat("long;'%\x00", 1<<17),
}

func TestHostileText(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		for i, s := range hostile {
			e := synth.Generate(synth.Config{Cnodes: 5, Locations: 2, Metrics: 2, Seed: uint64(i)})
			// Also in the definitions and the file's own attributes.
			e.Regions[0].Name = s
			e.Metrics[1].Descr = s
			e.Attrs = append(e.Attrs, model.Attr{Key: "file " + s, Value: s})
			want := dump(t, e)
			id, err := r.ImportExperiment(ctx, e, Source{Path: s, SHA256: fmt.Sprint(i)},
				ImportOptions{App: s, Experiment: s, Name: s, Attrs: []model.Attr{{Key: s, Value: s}, {Key: "plain", Value: s}}})
			if err != nil {
				t.Fatalf("import %q: %v", short(s), err)
			}
			tr, err := r.Trial(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if tr.App != s || tr.Experiment != s || tr.Name != s || tr.Source != s {
				t.Fatalf("%q came back as %q %q %q %q", short(s), short(tr.App), short(tr.Experiment), short(tr.Name), short(tr.Source))
			}
			for _, k := range []string{s, "plain", "file " + s} {
				if a, ok := tr.Attr(k); !ok || a.Value != s {
					t.Fatalf("attribute %q = %q (%v), want %q", short(k), short(a.Value), ok, short(s))
				}
			}
			got, err := r.Open(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if dump(t, got) != want {
				t.Fatalf("definitions holding %q do not come back literally", short(s))
			}
			// Filters compare the exact bytes.
			quoted := "'" + strings.ReplaceAll(s, "'", "''") + "'"
			for _, f := range []string{"app = " + quoted, "plain = " + quoted, "@" + quoted + " = " + quoted} {
				ts, err := r.Trials(ctx, f, ListOptions{})
				if err != nil {
					t.Fatalf("filter on %q: %v", short(s), err)
				}
				if len(ts) != 1 || ts[0].ID != id {
					t.Fatalf("filter %q finds %d trials", short(f), len(ts))
				}
			}
			hits, err := r.Find(ctx, Query{Metric: "time", MinValue: -1, Where: "name = " + quoted})
			if err != nil || len(hits) != 5 || hits[0].Trial != id {
				t.Fatalf("find in the trial named %q: %d hits, %v", short(s), len(hits), err)
			}
		}
		ts, err := r.Trials(ctx, "", ListOptions{})
		if err != nil || len(ts) != len(hostile) {
			t.Fatalf("%d trials, %v; want %d", len(ts), err, len(hostile))
		}
	})
}

func short(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// The child process of TestKilledImport: imports into $CUBEVIEW_KILL_REPO
// and stops inside the transaction until killed.
func TestMain(m *testing.M) {
	if loc := os.Getenv("CUBEVIEW_KILL_REPO"); loc != "" {
		os.Exit(killChild(loc))
	}
	if mode := os.Getenv("CUBEVIEW_CHILD"); mode != "" {
		os.Exit(childMain(mode))
	}
	os.Exit(m.Run())
}

func killChild(loc string) int {
	r, err := Open(context.Background(), loc)
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	testHookBeforeCommit = func() {
		fmt.Println("in transaction")
		time.Sleep(time.Minute)
	}
	e := synth.Generate(synth.Config{Cnodes: 200, Locations: 64, Metrics: 4, Seed: 99})
	_, err = r.ImportExperiment(context.Background(), e, Source{Path: "killed", SHA256: "k"}, ImportOptions{})
	fmt.Println("import ended:", err)
	return 1
}

// TestKilledImport kills an importing process (kill -9) inside its
// transaction and checks that the repository is as before.
func TestKilledImport(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		before := importSynth(t, r, 1, "app", "exp", "kept")
		want := counts(t, r)
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "CUBEVIEW_KILL_REPO="+loc)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		if line != "in transaction\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child: %q", line)
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		// Readers never see the killed import.
		if ts, err := r.Trials(ctx, "", ListOptions{}); err != nil || len(ts) != 1 || ts[0].ID != before {
			t.Fatalf("after the kill: trials %v, %v; want only trial %d", ts, err, before)
		}
		if r.d.name == "sqlite" {
			var res string
			if err := r.db.QueryRow(`PRAGMA integrity_check`).Scan(&res); err != nil || res != "ok" {
				t.Fatalf("integrity check: %q %v", res, err)
			}
			rows, err := r.db.Query(`PRAGMA foreign_key_check`)
			if err != nil {
				t.Fatal(err)
			}
			if rows.Next() {
				t.Fatal("foreign key violations after the kill")
			}
			rows.Close()
		}
		if _, err := r.Open(ctx, before); err != nil {
			t.Fatal(err)
		}
		// The next import removes what the killed one left (PostgreSQL
		// notices the dropped connection asynchronously).
		deadline := time.Now().Add(10 * time.Second)
		for {
			after := importSynth(t, r, 2, "app", "exp", "after")
			if err := r.Remove(ctx, after); err != nil {
				t.Fatal(err)
			}
			got := counts(t, r)
			if got == want {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("after the kill and another import: %s, before: %s", got, want)
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}

// counts summarises every table's row count.
func counts(t *testing.T, r *Repo) string {
	var sb strings.Builder
	for _, table := range []string{"application", "experiment", "trial", "trial_attr", "metric", "region", "cnode", "sysnode",
		"summary", "bound", "chunk"} {
		var n int
		if err := r.db.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&sb, "%s=%d ", table, n)
	}
	return sb.String()
}

// TestReadDuringImport lists, opens and searches while an import holds
// its transaction open, and runs two imports at once.
func TestReadDuringImport(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		id := importSynth(t, r, 1, "app", "exp", "kept")
		reader := openRepo(t, loc)
		inTx, release := make(chan bool), make(chan bool)
		var once sync.Once
		testHookBeforeCommit = func() {
			once.Do(func() {
				inTx <- true
				<-release
			})
		}
		defer func() { testHookBeforeCommit = nil }()
		var wg sync.WaitGroup
		var importErr [2]error
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, importErr[0] = r.ImportExperiment(ctx, synth.Generate(synth.Config{Cnodes: 50, Locations: 8, Metrics: 3, Seed: 5}),
				Source{Path: "first", SHA256: "first"}, ImportOptions{})
		}()
		<-inTx
		// Readers are not blocked by the open import.
		done := make(chan error, 1)
		go func() {
			ts, err := reader.Trials(ctx, "app = app", ListOptions{})
			if err == nil && len(ts) != 1 {
				err = fmt.Errorf("%d trials visible during the import, want 1", len(ts))
			}
			if err == nil {
				var e *model.Experiment
				if e, err = reader.Open(ctx, id); err == nil {
					_, err = e.MetricTotal(model.MetricSel{Metric: 0, Inclusive: true})
				}
			}
			// Searches see none of the trial being imported, whose
			// bounds and hot call paths are stored already.
			for _, q := range []Query{{Metric: "time", MinValue: 0}, {Metric: "time", Share: true, MinShare: 0.01},
				{Constraint: "time >= 1% and time < 90%", Kind: "user"}} {
				if err != nil {
					break
				}
				var hits []Hit
				hits, err = reader.Find(ctx, q)
				for _, h := range hits {
					if h.Trial != id {
						err = fmt.Errorf("%+v finds %+v of the trial being imported", q, h)
						break
					}
				}
				if err == nil && len(hits) == 0 {
					err = fmt.Errorf("%+v finds nothing", q)
				}
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Error(err)
			}
		case <-time.After(20 * time.Second):
			t.Error("a reader is blocked by an import")
		}
		// A second import waits for the first and then succeeds.
		second := openRepo(t, loc)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, importErr[1] = second.ImportExperiment(ctx, synth.Generate(synth.Config{Cnodes: 50, Locations: 8, Metrics: 3, Seed: 6}),
				Source{Path: "second", SHA256: "second"}, ImportOptions{})
		}()
		time.Sleep(200 * time.Millisecond)
		close(release)
		wg.Wait()
		for i, err := range importErr {
			if err != nil {
				t.Errorf("import %d: %v", i+1, err)
			}
		}
		if ts, _ := r.Trials(ctx, "", ListOptions{}); len(ts) != 3 {
			t.Errorf("%d trials after two concurrent imports, want 3", len(ts))
		}
	})
}

// TestReadOnlyRole connects as a PostgreSQL role that may only read.
func TestReadOnlyRole(t *testing.T) {
	loc := postgresLoc(t)
	r := openRepo(t, loc)
	ctx := context.Background()
	id := importSynth(t, r, 1, "app", "exp", "run", "procs=4")
	ro, err := Open(ctx, readOnlyRole(t, r, loc))
	if err != nil {
		t.Fatalf("a read-only role cannot open the repository: %v", err)
	}
	defer ro.Close()
	if ts, err := ro.Trials(ctx, "procs = 4", ListOptions{}); err != nil || len(ts) != 1 {
		t.Fatalf("ls: %d trials, %v", len(ts), err)
	}
	if _, err := ro.Find(ctx, Query{Metric: "time", Share: true, MinShare: 0.01}); err != nil {
		t.Fatalf("find: %v", err)
	}
	e, err := ro.Open(ctx, id)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	if _, err := e.MetricTotal(model.MetricSel{Metric: 0, Inclusive: true}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "x.cubex")
	if err := ro.Export(ctx, id, out); err != nil {
		t.Fatalf("export: %v", err)
	}
	if _, err := format.Open(out); err != nil {
		t.Fatal(err)
	}
	for what, err := range map[string]error{
		"import": func() error {
			_, err := ro.ImportExperiment(ctx, synth.Generate(synth.Config{Cnodes: 3, Locations: 1, Metrics: 1}), Source{Path: "x", SHA256: "y"}, ImportOptions{})
			return err
		}(),
		"set": ro.SetAttrs(ctx, id, []model.Attr{{Key: "a", Value: "b"}}, nil),
		"rm":  ro.Remove(ctx, id),
	} {
		if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), "read-only") {
			t.Errorf("%s as a read-only role: %v, want a read-only error", what, err)
		}
	}
	if ts, _ := r.Trials(ctx, "", ListOptions{}); len(ts) != 1 {
		t.Fatalf("the read-only role changed the repository: %d trials", len(ts))
	}
}

// readOnlyRole creates a role that may only read the PostgreSQL
// repository r at loc and returns loc for that role.
func readOnlyRole(t *testing.T, r *Repo, loc string) string {
	t.Helper()
	role := "reader_" + strings.TrimPrefix(strings.TrimPrefix(must(url.Parse(loc)).Path, "/"), "cvtest_")
	for _, stmt := range []string{
		"CREATE ROLE " + role + " LOGIN",
		"GRANT USAGE ON SCHEMA public TO " + role,
		"GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + role,
	} {
		if _, err := r.db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		db, _ := sql.Open("pgx", os.Getenv(envPostgres))
		defer db.Close()
		db.Exec("DROP OWNED BY " + role)
	})
	u := must(url.Parse(loc))
	u.User = url.User(role)
	return u.String()
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
