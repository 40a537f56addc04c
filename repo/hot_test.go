package repo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"cubeview/internal/testkit"
	"cubeview/model"
)

// TestHotPaths: the hot call paths of every metric are those whose own
// value holds at least 1% of a positive total, encoded and decoded
// exactly; damage is refused.
func TestHotPaths(t *testing.T) {
	excl := []float64{50, 0.5, 1, math.NaN(), -3, 30, 0.99999, 17.5}
	h := hotOf(excl, 100)
	if !slices.Equal(h.cnodes, []int{0, 2, 5, 7}) || !slices.Equal(h.values, []float64{50, 1, 30, 17.5}) || h.total != 100 {
		t.Fatalf("hot of %v: %+v", excl, h)
	}
	for _, total := range []float64{0, -1, math.NaN()} {
		if h := hotOf(excl, total); len(h.cnodes) != 0 {
			t.Errorf("total %v: hot %v, want none (shares need a positive total)", total, h.cnodes)
		}
	}
	b := encodeHot(h)
	back, err := decodeHot(b, len(excl))
	if err != nil || !sameHot(back, h) {
		t.Fatalf("decoded %+v, %v; want %+v", back, err, h)
	}
	if _, err := decodeHot(b, 7); err == nil {
		t.Error("a call path beyond the trial's was accepted")
	}
	b[len(b)/2] ^= 1
	if _, err := decodeHot(b, len(excl)); !errors.Is(err, errDamaged) {
		t.Errorf("a changed byte: %v", err)
	}
}

// TestHotSearch: a search for shares of the run's own values of at
// least 1% reads no summaries, only the hot call paths, and finds what
// the summaries hold (the same search at a threshold below 1%, which
// reads them, filtered); the best N are the first N. Damaged or missing
// hot call paths are errors that name "repo check", and check finds them.
func TestHotSearch(t *testing.T) {
	var paths []string
	for _, f := range findFiles {
		paths = append(paths, testkit.Data(t, f...))
	}
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		for _, p := range paths {
			if _, err := r.Import(ctx, p, ImportOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		var summaries int
		testHookSummaries = func(n int) { summaries += n }
		defer func() { testHookSummaries = nil }()
		find := func(q Query) ([]Hit, int) {
			t.Helper()
			summaries = 0
			hits, err := r.Find(ctx, q)
			if err != nil {
				t.Fatalf("%+v: %v", q, err)
			}
			return hits, summaries
		}
		for _, q := range []Query{
			{Metric: "time", Share: true, MinShare: 0.01},
			{Metric: "time", Share: true, MinShare: 0.3, Kind: "mpi"},
			{Metric: "TIME", Share: true, MinShare: 0.05, Region: "MPI_*"},
			{Metric: "visits", Share: true, MinShare: 0.1},
			{Constraint: "time >= 2% and (time < 40% or time > 90%)"},
		} {
			hits, read := find(q)
			if read != 0 {
				t.Errorf("%+v read %d summaries", q, read)
			}
			if len(hits) == 0 {
				t.Fatalf("%+v finds nothing: not a test", q)
			}
			// Below 1% the summaries answer; filtered to the threshold
			// they must find the same.
			low, floor := q, q.MinShare
			if low.Constraint != "" {
				low.Constraint, floor = strings.Replace(low.Constraint, "time >= 2%", "time >= 0.5%", 1), 0.02
			} else {
				low.MinShare = 0.005
			}
			all, read := find(low)
			if read == 0 {
				t.Fatalf("%+v read no summaries", low)
			}
			var want []Hit
			for _, h := range all {
				if h.Value >= floor*h.Total {
					want = append(want, h)
				}
			}
			if fmt.Sprint(hits) != fmt.Sprint(want) {
				t.Errorf("%+v:\n%v\nfrom the summaries:\n%v", q, hits, want)
			}
			q.Limit = 3
			if best, _ := find(q); fmt.Sprint(best) != fmt.Sprint(hits[:len(best)]) || len(best) != min(3, len(hits)) {
				t.Errorf("%+v: %v, want the first three of %v", q, best, hits)
			}
		}
		// Inclusive shares, a share below 1%, values and a second metric
		// read the summaries.
		for _, q := range []Query{
			{Metric: "time", Inclusive: true, Share: true, MinShare: 0.1},
			{Metric: "time", Share: true, MinShare: 0.009},
			{Metric: "time", MinValue: 1},
			{Constraint: "time >= 10% and visits > 1"},
			{Constraint: "time >= 10% or time < 0.001"},
		} {
			if _, read := find(q); read == 0 {
				t.Errorf("%+v read no summaries", q)
			}
		}

		damaged := func(err error) bool { return errors.Is(err, errDamaged) && strings.Contains(err.Error(), "repo check") }
		var id int64
		var m int
		if err := r.db.QueryRow(`SELECT h.trial, h.metric FROM hot h JOIN metric m ON m.trial = h.trial AND m.idx = h.metric
			WHERE m.uniq = 'time' ORDER BY h.trial LIMIT 1`).Scan(&id, &m); err != nil {
			t.Fatal(err)
		}
		where := fmt.Sprintf("trial = %d AND metric = %d", id, m)
		// Another value, sealed: check sees that it is not the summary's.
		var b []byte
		if err := r.db.QueryRow(`SELECT paths FROM hot WHERE ` + where).Scan(&b); err != nil {
			t.Fatal(err)
		}
		h, err := decodeHot(b, 1<<20)
		if err != nil || len(h.values) == 0 {
			t.Fatalf("hot paths of trial %d: %+v %v", id, h, err)
		}
		h.values[0] *= 2
		if _, err := r.db.Exec(r.d.q(`UPDATE hot SET paths = ? WHERE `+where), encodeHot(h)); err != nil {
			t.Fatal(err)
		}
		if rep, err := r.Check(ctx, nil); err != nil || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], "not those of its own values") {
			t.Errorf("check of changed hot call paths: %v %q", err, rep.Problems)
		}
		flip(t, r, "hot", "paths", where, 2)
		if _, err := r.Find(ctx, Query{Metric: "time", Share: true, MinShare: 0.01}); !damaged(err) {
			t.Errorf("a search of damaged hot call paths: %v", err)
		}
		if _, err := r.db.Exec(`DELETE FROM hot WHERE ` + where); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Find(ctx, Query{Metric: "time", Share: true, MinShare: 0.01}); !damaged(err) {
			t.Errorf("a search of missing hot call paths: %v", err)
		}
		if rep, err := r.Check(ctx, nil); err != nil || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], "hot call paths are missing") {
			t.Errorf("check of missing hot call paths: %v %q", err, rep.Problems)
		}
	})
}

// downgradeTo5 turns a new repository into what schema 5 wrote: no hot
// call paths.
func downgradeTo5(t *testing.T, r *Repo) {
	t.Helper()
	for _, stmt := range []string{`DROP TABLE hot`, `DROP INDEX trial_state`, `UPDATE schema_version SET version = 5`} {
		if _, err := r.db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
}

// TestUpgradeFrom5: a repository of schema 5 reads (read-only) as
// before; "repo upgrade" lists the hot call paths in place, in one
// transaction, every listing and search answers as before, shares are
// then found without the summaries, and check verifies the new rows.
func TestUpgradeFrom5(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		r := openRepo(t, loc)
		attrTrials(t, r)
		downgradeTo5(t, r)
		r.Close()
		old, err := Open(ctx, loc)
		if err != nil {
			t.Fatal(err)
		}
		if old.Schema() != 5 {
			t.Fatalf("schema %d", old.Schema())
		}
		before := trialsAndHits(t, old)
		share := Query{Metric: "time", Share: true, MinShare: 0.05}
		want, err := old.Find(ctx, share)
		if err != nil || len(want) == 0 {
			t.Fatalf("schema 5: %d hits, %v", len(want), err)
		}
		if err := old.SetAttrs(ctx, 1, []model.Attr{{Key: "a", Value: "b"}}, nil); err == nil || !strings.Contains(err.Error(), "repo upgrade") {
			t.Errorf("changing schema 5: %v", err)
		}
		old.Close()
		// An upgrade that fails at its end leaves schema 5 as it was.
		testHookUpgrade = func(*sql.Tx) error { return errors.New("disk full") }
		_, err = Upgrade(ctx, loc, UpgradeOptions{})
		testHookUpgrade = nil
		if err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Fatalf("failing upgrade: %v", err)
		}
		if old, err = Open(ctx, loc); err != nil {
			t.Fatal(err)
		}
		if old.Schema() != 5 || hasTable(t, old, "hot") || trialsAndHits(t, old) != before {
			t.Errorf("after a failed upgrade: schema %d, table hot %v", old.Schema(), hasTable(t, old, "hot"))
		}
		old.Close()
		res, err := Upgrade(ctx, loc, UpgradeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.From != 5 || res.To != SchemaVersion || res.Trials != 23 || res.Backup != "" {
			t.Errorf("upgrade result %+v", res)
		}
		r, err = Open(ctx, loc)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if r.Schema() != SchemaVersion {
			t.Fatalf("after the upgrade: schema %d", r.Schema())
		}
		var nHot, nSummaries int
		r.db.QueryRow(`SELECT COUNT(*) FROM hot`).Scan(&nHot)
		r.db.QueryRow(`SELECT COUNT(*) FROM summary`).Scan(&nSummaries)
		if nHot != nSummaries || nHot == 0 {
			t.Errorf("%d hot rows for %d summaries", nHot, nSummaries)
		}
		if rep, err := r.Check(ctx, nil); err != nil || len(rep.Problems) > 0 {
			t.Errorf("check after the upgrade: %v %v", err, rep.Problems)
		}
		if trialsAndHits(t, r) != before {
			t.Errorf("trials and searches differ after the upgrade")
		}
		summaries := 0
		testHookSummaries = func(n int) { summaries += n }
		got, err := r.Find(ctx, share)
		testHookSummaries = nil
		if err != nil || fmt.Sprint(got) != fmt.Sprint(want) || summaries != 0 {
			t.Errorf("after the upgrade: %v (%d summaries read), %v; want %v", got, summaries, err, want)
		}
		// Imported after the upgrade: found from its hot call paths.
		id := importSynth(t, r, 99, "new", "exp", "late")
		hits, err := r.Find(ctx, Query{Metric: "time", Share: true, MinShare: 0.05, Where: "app = new"})
		if err != nil || len(hits) == 0 || hits[0].Trial != id {
			t.Errorf("a trial imported after the upgrade: %v %v", hits, err)
		}
		if _, err := Upgrade(ctx, loc, UpgradeOptions{}); err == nil || !strings.Contains(err.Error(), "nothing to upgrade") {
			t.Errorf("second upgrade: %v", err)
		}
	})
}

// hasTable reports whether r's database has table name.
func hasTable(t *testing.T, r *Repo, name string) bool {
	t.Helper()
	info, err := inspect(context.Background(), r.db, r.d.name)
	if err != nil {
		t.Fatal(err)
	}
	return info.tables[name]
}
