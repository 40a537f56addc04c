package repo

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cubeview/internal/synth"
	"cubeview/model"
)

// flip changes n bytes in the middle of a stored blob, as a damaged disk
// or an edit outside cubeview would.
func flip(t *testing.T, r *Repo, table, column, where string, n int) {
	t.Helper()
	var b []byte
	if err := r.db.QueryRow(`SELECT ` + column + ` FROM ` + table + ` WHERE ` + where).Scan(&b); err != nil {
		t.Fatal(err)
	}
	if len(b) < 2*n {
		t.Fatalf("%s.%s holds only %d bytes", table, column, len(b))
	}
	for i := len(b)/2 - n/2; i < len(b)/2-n/2+n; i++ {
		b[i] ^= 0x5a
	}
	if _, err := r.db.Exec(r.d.q(`UPDATE `+table+` SET `+column+` = ? WHERE `+where), b); err != nil {
		t.Fatal(err)
	}
}

// TestDamageDetected: 16 changed bytes anywhere in what a trial stores —
// its per-location data, its search summaries, its call tree, its
// header — make reading fail with a message that says the data are
// damaged, never give other values; "repo check" finds each.
func TestDamageDetected(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		r := openRepo(t, loc)
		e := synth.Generate(synth.Config{Cnodes: 300, Locations: 16, Threads: 4, Metrics: 3, Seed: 7})
		id, err := r.ImportExperiment(ctx, e, Source{Path: "run", SHA256: "s"}, ImportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		other := importSynth(t, r, 2, "app", "exp", "other")
		if rep, err := r.Check(ctx, nil); err != nil || len(rep.Problems) > 0 || rep.Trials != 2 || rep.Chunks == 0 {
			t.Fatalf("check of an intact repository: %+v %v", rep, err)
		}
		where := "trial = " + itoa(id) + " AND metric = 1"
		damaged := func(err error) bool { return errors.Is(err, errDamaged) && strings.Contains(err.Error(), "repo check") }

		flip(t, r, "chunk", "data", where+" AND seq = 0", 16)
		got, err := r.Open(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if err := got.Dump(io.Discard); !damaged(err) {
			t.Errorf("dump of damaged data: %v", err)
		}
		if err := r.Export(ctx, id, filepath.Join(t.TempDir(), "x.cubex")); !damaged(err) {
			t.Errorf("export of damaged data: %v", err)
		}
		// Call-tree values come from the intact summary: still right.
		if v, err := got.CallTreeValues(model.MetricSel{Metric: 1, Inclusive: true}, false); err != nil {
			t.Errorf("tree beside damaged per-location data: %v", err)
		} else if want, _ := e.CallTreeValues(model.MetricSel{Metric: 1, Inclusive: true}, false); !slices.Equal(v, want) {
			t.Errorf("tree beside damaged per-location data: other values")
		}
		if _, err := got.LocationValues(model.MetricSel{Metric: 1, Inclusive: true}, model.AllCnodes); !damaged(err) {
			t.Errorf("location values of damaged data: %v", err)
		}
		if _, err := r.Find(ctx, Query{Metric: "time_part1", Ranks: []Range{{0, 1}}, MinValue: 0}); !damaged(err) {
			t.Errorf("a search over locations of damaged data: %v", err)
		}
		rep, err := r.Check(ctx, nil)
		if err != nil || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], `metric "time_part1": chunk 0`) {
			t.Fatalf("check: %+v %v", rep, err)
		}

		flip(t, r, "summary", "excl", where, 16)
		if got, err = r.Open(ctx, id); err != nil {
			t.Fatal(err)
		}
		if _, err := got.CallTreeValues(model.MetricSel{Metric: 1}, false); !damaged(err) {
			t.Errorf("tree of a damaged summary: %v", err)
		}
		flip(t, r, "summary", "incl", where, 16)
		if _, err := r.Find(ctx, Query{Metric: "time_part1", Inclusive: true, MinValue: 0}); !damaged(err) {
			t.Errorf("a search of damaged summaries: %v", err)
		}
		flip(t, r, "trial", "tree", "id = "+itoa(id), 16)
		if _, err := r.Find(ctx, Query{Metric: "time", MinValue: 0}); !damaged(err) {
			t.Errorf("a search of a damaged call tree: %v", err)
		}
		flip(t, r, "trial", "header", "id = "+itoa(id), 2)
		if _, err := r.Open(ctx, id); !damaged(err) {
			t.Errorf("opening a damaged header: %v", err)
		}
		rep, err = r.Check(ctx, nil)
		if err != nil || len(rep.Problems) != 5 {
			t.Fatalf("check after five damages: %d problems %q, %v", len(rep.Problems), rep.Problems, err)
		}
		// The other trial is intact and reads as before.
		if e, err := r.Open(ctx, other); err != nil {
			t.Fatal(err)
		} else if err := e.Dump(io.Discard); err != nil {
			t.Fatal(err)
		}
	})
}

func itoa(i int64) string { return strconv.FormatInt(i, 10) }
