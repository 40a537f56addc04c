package repo

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"

	"cubeview/model"
)

// attrFilters are filters over the trials attrTrials makes: every
// operator on fields and on number and text attributes, "has", and
// and/or/not nested.
var attrFilters = []string{
	"procs >= 64", "procs < 16", "procs = 32", "procs != 32", "procs > 8 and procs <= 128",
	"compiler = gcc-13", "compiler == 'gcc-13'", "compiler != gcc-13", "compiler < h", "compiler >= clang",
	"compiler ~ 'gcc*'", "compiler !~ 'gcc*'", "compiler = nothing-like-it",
	"has tag", "not has tag", "tag = 'a*b'", "tag ~ 'a*'", "tag = 'x''y'", "tag = '\x01lead'", "tag = 'bad\xff'",
	"app = lulesh", "app != lulesh", "experiment ~ 'sc*'", "name = r7", "id <= 10", "filesize > 3", "has name",
	"app = lulesh and procs >= 64 and compiler = 'gcc-13'",
	"app = lulesh or procs >= 256", "(app = amg or app = kripke) and not compiler = gcc-14",
	"not (procs < 64 or has tag)", "not not has note", "procs >= 8 and (tag = 'a*b' or note = yes) and not app = amg",
	"note = yes or note = no or has tag", "size = 12", "size = '12'", "run = x", "has run", "not has run or procs = 1",
}

// attrTrials fills r with trials of varied attributes, including text
// that PostgreSQL stores escaped, user attributes and a removed trial.
func attrTrials(t *testing.T, r *Repo) {
	t.Helper()
	ctx := context.Background()
	apps := []string{"lulesh", "amg", "kripke"}
	var ids []int64
	for i := 0; i < 24; i++ {
		attrs := []string{fmt.Sprintf("procs=%d", 1<<(i%9)), "compiler=" + []string{"gcc-13", "gcc-14", "clang-18"}[i%3], fmt.Sprintf("size=%d", 10+i%4)}
		if i%4 == 0 {
			attrs = append(attrs, "tag="+[]string{"a*b", "x'y", "\x01lead", "bad\xff", "plain", "a*b"}[i/4])
		}
		if i%5 == 0 {
			attrs = append(attrs, "run=x")
		}
		exp := []string{"scaling", "sizes"}[i%2]
		ids = append(ids, importSynth(t, r, uint64(i+1), apps[i%3], exp, fmt.Sprintf("r%d", i), attrs...))
	}
	for i, id := range ids[:6] {
		if err := r.SetAttrs(ctx, id, []model.Attr{{Key: "note", Value: []string{"yes", "no"}[i%2]}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.SetAttrs(ctx, ids[6], []model.Attr{{Key: "procs", Value: "1000"}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := r.Remove(ctx, ids[7]); err != nil {
		t.Fatal(err)
	}
}

// plainFilter returns the ids of the trials filter selects, by the
// straightforward query: the filter's SQL of schema 4, one subquery per
// test, evaluated trial by trial.
func plainFilter(t *testing.T, r *Repo, filter string) []int64 {
	t.Helper()
	c, err := compileFilter(r.d, filter)
	if err != nil {
		t.Fatalf("%q: %v", filter, err)
	}
	var ids []int64
	err = r.rows(context.Background(), `SELECT t.id`+trialFrom+` WHERE t.state = 0 AND `+c.sql+` ORDER BY t.id`, c.args, func(s scanner) error {
		var id int64
		err := s.Scan(&id)
		ids = append(ids, id)
		return err
	})
	if err != nil {
		t.Fatalf("%q: %v", filter, err)
	}
	return ids
}

// listed returns the ids and attributes Trials returns for filter.
func listed(t *testing.T, r *Repo, filter string) ([]int64, string) {
	t.Helper()
	ts, err := r.Trials(context.Background(), filter, ListOptions{FileAttrs: true})
	if err != nil {
		t.Fatalf("%q: %v", filter, err)
	}
	var ids []int64
	var sb strings.Builder
	for _, tr := range ts {
		ids = append(ids, tr.ID)
		fmt.Fprintf(&sb, "%d %s/%s/%s %v\n", tr.ID, tr.App, tr.Experiment, tr.Name, tr.Attrs)
	}
	return ids, sb.String()
}

// TestIndexedFilter: filters over indexed attributes select exactly the
// trials the straightforward query selects, also when another stored
// key or value shares a hash with the one a filter names (made here by
// writing such rows directly).
func TestIndexedFilter(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		if r.schema < schemaAttrIndex {
			t.Fatalf("a new repository of schema %d has no attribute index", r.Schema())
		}
		attrTrials(t, r)
		check := func(when string) {
			t.Helper()
			for _, f := range attrFilters {
				got, _ := listed(t, r, f)
				if want := plainFilter(t, r, f); !slices.Equal(got, want) {
					t.Errorf("%s: %q: trials %v, the straightforward query %v", when, f, got, want)
				}
			}
		}
		check("distinct hashes")
		if rep, err := r.Check(context.Background(), nil); err != nil || len(rep.Problems) > 0 {
			t.Fatalf("check: %v %v", err, rep.Problems)
		}
		if all, _ := listed(t, r, ""); len(all) != 23 {
			t.Fatalf("%d trials, want 23", len(all))
		}
		// A trial whose only "procs" is a row of another key with procs's
		// hash, and a "compiler" row of another text with gcc-13's hash:
		// hashes alone would select it.
		var victim int64
		if err := r.db.QueryRow(`SELECT MIN(id) FROM trial WHERE id NOT IN (SELECT trial FROM trial_attr WHERE key = 'procs' AND num >= 64)
			AND id NOT IN (SELECT trial FROM trial_attr WHERE key = 'compiler' AND value = 'gcc-13')`).Scan(&victim); err != nil {
			t.Fatal(err)
		}
		for _, stmt := range []struct {
			sql  string
			args []any
		}{
			{`INSERT INTO trial_attr (trial, key, key_hash, value, value_hash, num, origin) VALUES (?, ?, ?, ?, ?, ?, 2)`,
				[]any{victim, "zz", textHash("procs"), "4096", textHash("4096"), 4096.0}},
			{`INSERT INTO attr_key (key_hash, key) VALUES (?, ?)`, []any{textHash("procs"), "zz"}},
			{`INSERT INTO trial_attr (trial, key, key_hash, value, value_hash, num, origin) VALUES (?, ?, ?, ?, ?, NULL, 2)`,
				[]any{victim, "compiler", textHash("compiler"), "other", textHash("gcc-13")}},
			{`INSERT INTO attr_value (key_hash, value_hash, value) VALUES (?, ?, ?)`, []any{textHash("compiler"), textHash("gcc-13"), "other"}},
		} {
			if _, err := r.db.Exec(r.d.q(stmt.sql), stmt.args...); err != nil {
				t.Fatal(err)
			}
		}
		check("shared hashes")
		if rep, err := r.Check(context.Background(), nil); err != nil || len(rep.Problems) != 2 || !strings.Contains(rep.Problems[0], "hashes") {
			t.Errorf("check of rows whose hashes are not their text's: %v %q", err, rep.Problems)
		}
		for _, f := range []string{"procs >= 64", "compiler = gcc-13"} {
			if got, _ := listed(t, r, f); slices.Contains(got, victim) {
				t.Errorf("%q selects trial %d by a hash another text shares", f, victim)
			}
		}
	})
}

// downgradeTo4 turns a new, empty-of-changes repository into what
// schema 4 wrote: no value hashes, no dictionaries, the old index.
func downgradeTo4(t *testing.T, r *Repo) {
	t.Helper()
	for _, stmt := range []string{
		`DROP INDEX trial_attr_num`, `DROP INDEX trial_attr_text`, `DROP TABLE attr_key`, `DROP TABLE attr_value`,
		`ALTER TABLE trial_attr DROP COLUMN value_hash`, `CREATE INDEX trial_attr_key ON trial_attr (key_hash, num)`, `DROP TABLE hot`, `DROP INDEX trial_state`,
		`DROP INDEX trial_experiment`, `CREATE INDEX trial_experiment ON trial (experiment)`,
		`UPDATE schema_version SET version = 4`,
	} {
		if _, err := r.db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
}

// TestUpgradeFrom4: a repository of schema 4 reads (read-only) as
// before; "repo upgrade" adds the attribute index in place, in one
// transaction, and every listing, filter and search answers as before.
func TestUpgradeFrom4(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		r := openRepo(t, loc)
		attrTrials(t, r)
		downgradeTo4(t, r)
		r.Close()
		old, err := Open(ctx, loc)
		if err != nil {
			t.Fatal(err)
		}
		if old.Schema() != 4 || old.schema >= schemaAttrIndex {
			t.Fatalf("schema %d", old.Schema())
		}
		listings := map[string]string{}
		for _, f := range attrFilters {
			_, listings[f] = listed(t, old, f)
		}
		before := trialsAndHits(t, old)
		if err := old.SetAttrs(ctx, 1, []model.Attr{{Key: "a", Value: "b"}}, nil); err == nil || !strings.Contains(err.Error(), "repo upgrade") {
			t.Errorf("changing schema 4: %v", err)
		}
		old.Close()
		res, err := Upgrade(ctx, loc, UpgradeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.From != 4 || res.To != SchemaVersion || res.Trials != 23 || res.Backup != "" {
			t.Errorf("upgrade result %+v", res)
		}
		r, err = Open(ctx, loc)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if r.Schema() != SchemaVersion || r.schema < schemaAttrIndex {
			t.Fatalf("after the upgrade: schema %d", r.Schema())
		}
		// Every stored value got its hash and its dictionary entries.
		var bad int
		err = r.rows(ctx, `SELECT v.key, v.value, v.value_hash FROM trial_attr v`, nil, func(s scanner) error {
			var k, v string
			var h int64
			if err := s.Scan(r.d.str(&k), r.d.str(&v), &h); err != nil {
				return err
			}
			var n int
			if err := r.db.QueryRow(r.d.q(`SELECT COUNT(*) FROM attr_value WHERE key_hash = ? AND value_hash = ? AND value = ?`),
				textHash(k), h, r.d.text(v)).Scan(&n); err != nil {
				return err
			}
			if h != textHash(v) || n == 0 {
				bad++
				t.Errorf("%s=%q: hash %d, want %d; %d dictionary entries", k, v, h, textHash(v), n)
			}
			return nil
		})
		if err != nil || bad > 0 {
			t.Fatalf("hashes: %v", err)
		}
		for _, f := range attrFilters {
			if _, got := listed(t, r, f); got != listings[f] {
				t.Errorf("%q after the upgrade:\n%s\nbefore:\n%s", f, got, listings[f])
			}
		}
		if rep, err := r.Check(ctx, nil); err != nil || len(rep.Problems) > 0 {
			t.Errorf("check after the upgrade: %v %v", err, rep.Problems)
		}
		if trialsAndHits(t, r) != before {
			t.Errorf("trials and searches differ after the upgrade")
		}
		// Written after the upgrade: found through the index.
		id := importSynth(t, r, 99, "new", "exp", "late", "procs=4096", "compiler=gcc-13")
		if got, _ := listed(t, r, "procs >= 4096 and compiler = gcc-13"); !slices.Equal(got, []int64{id}) {
			t.Errorf("a trial imported after the upgrade: found %v, want [%d]", got, id)
		}
		if _, err := Upgrade(ctx, loc, UpgradeOptions{}); err == nil || !strings.Contains(err.Error(), "nothing to upgrade") {
			t.Errorf("second upgrade: %v", err)
		}
	})
}

// TestUpgradeFrom4Fails: an upgrade that fails leaves schema 4 as it was.
func TestUpgradeFrom4Fails(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		r := openRepo(t, loc)
		attrTrials(t, r)
		downgradeTo4(t, r)
		// A table in the way of the dictionaries makes the upgrade fail
		// after the value hashes were written.
		if _, err := r.db.Exec(`CREATE TABLE attr_value (x INTEGER)`); err != nil {
			t.Fatal(err)
		}
		r.Close()
		if _, err := Upgrade(ctx, loc, UpgradeOptions{}); err == nil {
			t.Fatal("the upgrade succeeded")
		}
		old, err := Open(ctx, loc)
		if err != nil {
			t.Fatal(err)
		}
		defer old.Close()
		var cols int
		q := `SELECT COUNT(*) FROM pragma_table_info('trial_attr') WHERE name = 'value_hash'`
		if old.d.name == "postgres" {
			q = `SELECT COUNT(*) FROM information_schema.columns WHERE table_name = 'trial_attr' AND column_name = 'value_hash' AND table_schema = current_schema()`
		}
		if err := old.db.QueryRow(q).Scan(&cols); err != nil && err != sql.ErrNoRows {
			t.Fatal(err)
		}
		if old.Schema() != 4 || cols != 0 {
			t.Errorf("after a failed upgrade: schema %d, value_hash columns %d", old.Schema(), cols)
		}
		if got, _ := listed(t, old, "procs >= 64"); !slices.Equal(got, plainFilter(t, old, "procs >= 64")) {
			t.Errorf("after a failed upgrade the repository lists differently")
		}
	})
}
