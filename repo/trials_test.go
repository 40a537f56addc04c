package repo

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"cubeview/internal/synth"
	"cubeview/model"
)

// importSynth stores a small generated experiment with the given
// placement and attributes.
func importSynth(t testing.TB, r *Repo, seed uint64, app, exp, name string, attrs ...string) int64 {
	t.Helper()
	e := synth.Generate(synth.Config{Cnodes: 12, Locations: 4, Threads: 2, Metrics: 3, Seed: seed})
	var as []model.Attr
	for _, kv := range attrs {
		k, v, _ := strings.Cut(kv, "=")
		as = append(as, model.Attr{Key: k, Value: v})
	}
	id, err := r.ImportExperiment(context.Background(), e,
		Source{Path: "/runs/" + name, Size: 100, SHA256: fmt.Sprintf("%064x", seed)},
		ImportOptions{App: app, Experiment: exp, Name: name, Attrs: as, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestFilter(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		a := importSynth(t, r, 1, "lulesh", "scaling", "p27", "procs=27", "size=25", "compiler=gcc-13")
		b := importSynth(t, r, 2, "lulesh", "scaling", "p64", "procs=64", "size=25", "compiler=gcc-14")
		c := importSynth(t, r, 3, "lulesh", "sizes", "p64 big", "procs=64", "size=30", "compiler=clang-17")
		d := importSynth(t, r, 4, "cpi", "default", "cpi run", "procs=4", "note=50% faster; 'quoted'", "ver=10")
		e := importSynth(t, r, 5, "cpi", "default", "v9", "ver=9", "tag=a*b")
		cases := []struct {
			filter string
			want   []int64
		}{
			{"", []int64{a, b, c, d, e}},
			{"app = lulesh", []int64{a, b, c}},
			{"app = lulesh and procs >= 64", []int64{b, c}},
			{"app == lulesh AND NOT procs >= 64", []int64{a}},
			{"procs < 27 or size > 25", []int64{c, d, e}}, // e: procs=2 from the system tree
			{"(app = cpi or size = 30) and procs != 4", []int64{c, e}},
			{"compiler ~ gcc*", []int64{a, b}},
			{"compiler !~ 'gcc-1?'", []int64{c}},
			{"name = 'p64 big'", []int64{c}},
			{`name = "cpi run"`, []int64{d}},
			{"name ~ '*4*'", []int64{b, c}},
			{"experiment = scaling", []int64{a, b}},
			{"note = \"50% faster; 'quoted'\"", []int64{d}},
			{"note = '50% faster; ''quoted'''", []int64{d}},
			{"note ~ '50%*'", []int64{d}},
			{"note ~ '5_%*'", nil},
			{"tag ~ 'a[*]b'", nil},
			{"tag = 'a*b'", []int64{e}},
			{"tag ~ 'a?b'", []int64{e}},
			{"ver > 9", []int64{d}},   // numbers compare as numbers
			{"ver > '9'", nil},        // text compares byte by byte: "10" < "9"
			{"ver < '9'", []int64{d}}, //
			{"has compiler", []int64{a, b, c}},
			{"not has compiler", []int64{d, e}},
			{"id >= 4", []int64{d, e}},
			{fmt.Sprintf("id = %d or id = %d", a, e), []int64{a, e}},
			{"procs = 64 and locations = 4 and threads = 2", []int64{b, c}},
			{"size = 25", []int64{a, b}},
			{"filesize = 100", []int64{a, b, c, d, e}},
			{"source ~ '/runs/*'", []int64{a, b, c, d, e}},
			{"format = generated", []int64{a, b, c, d, e}},
			{"Creator = 'cubeview synth'", []int64{a, b, c, d, e}},
			{"app = \"x'); DROP TABLE trial; --\"", nil},
		}
		for _, tc := range cases {
			ts, err := r.Trials(ctx, tc.filter, ListOptions{})
			if err != nil {
				t.Errorf("%q: %v", tc.filter, err)
				continue
			}
			var got []int64
			for _, tr := range ts {
				got = append(got, tr.ID)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%q: trials %v, want %v", tc.filter, got, tc.want)
			}
		}
		if n, _ := r.Trials(ctx, "", ListOptions{}); len(n) != 5 {
			t.Fatalf("the trial table lost rows: %d", len(n))
		}
	})
}

func TestFilterErrors(t *testing.T) {
	cases := []struct {
		filter string
		column int
		msg    string
	}{
		{"app = ", 7, "want a value"},
		{"app lulesh", 5, "want an operator"},
		{"app => x", 6, "want a value"},
		{"procs >= 64 and", 16, "want a field or attribute name"},
		{"(app = x", 9, "want \")\""},
		{"app = x)", 8, "unexpected \")\""},
		{"id = abc", 6, "id is a number"},
		{"filesize ~ 3", 10, "filesize is a number"},
		{"app ! x", 5, "unknown operator"},
		{"name = 'open", 8, "not closed"},
		{"and = 3", 1, "want a field"},
		{"procs >= 64 lulesh", 13, "unexpected"},
	}
	for _, tc := range cases {
		_, err := compileFilter(sqliteDialect, tc.filter)
		var fe *FilterError
		if !errors.As(err, &fe) {
			t.Errorf("%q: error %v, want a FilterError", tc.filter, err)
			continue
		}
		if fe.Column() != tc.column || !strings.Contains(fe.Msg, tc.msg) {
			t.Errorf("%q: column %d %q, want column %d %q", tc.filter, fe.Column(), fe.Msg, tc.column, tc.msg)
		}
		if lines := strings.Split(err.Error(), "\n"); len(lines) != 3 || strings.Index(lines[2], "^") != tc.column+1 {
			t.Errorf("%q: caret misplaced:\n%s", tc.filter, err)
		}
	}
}

func TestSetRemoveResolve(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		a := importSynth(t, r, 1, "lulesh", "scaling", "p27", "procs=27")
		b := importSynth(t, r, 2, "lulesh", "scaling", "p64", "procs=64", "size=25")
		for ref, want := range map[string]int64{
			fmt.Sprint(a): a, "repo:" + fmt.Sprint(b): b, "repo:app=lulesh,procs=64": b, "procs=27": a, "repo:name=p27": a,
		} {
			got, err := r.Resolve(ctx, ref)
			if err != nil || got != want {
				t.Errorf("Resolve(%q) = %d, %v; want %d", ref, got, err, want)
			}
		}
		for ref, msg := range map[string]string{
			"repo:app=lulesh": "2 trials match", "repo:app=none": "no trial", "repo:99": "no trial 99", "repo:": "no trial named",
			"repo:id=x": "id is a number", "repo:procs": "not key=value",
		} {
			if _, err := r.Resolve(ctx, ref); err == nil || !strings.Contains(err.Error(), msg) {
				t.Errorf("Resolve(%q): %v, want an error saying %q", ref, err, msg)
			}
		}
		if err := r.SetAttrs(ctx, a, []model.Attr{{Key: "compiler", Value: "gcc-13"}, {Key: "procs", Value: "28"}, {Key: "name", Value: "p28"}}, nil); err != nil {
			t.Fatal(err)
		}
		tr, err := r.Trial(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if at, _ := tr.Attr("procs"); at.Value != "28" || !at.IsNumber || at.Number != 28 || at.Origin != FromUser || tr.Name != "p28" {
			t.Fatalf("after set: %+v", tr)
		}
		if at, ok := tr.Attr("compiler"); !ok || at.IsNumber || at.Value != "gcc-13" {
			t.Fatalf("compiler: %+v", at)
		}
		if err := r.SetAttrs(ctx, a, []model.Attr{{Key: "app", Value: "moved"}}, []string{"compiler"}); err != nil {
			t.Fatal(err)
		}
		tr, _ = r.Trial(ctx, a)
		if _, ok := tr.Attr("compiler"); ok || tr.App != "moved" || tr.Experiment != "scaling" {
			t.Fatalf("after move: %+v", tr)
		}
		if err := r.SetAttrs(ctx, a, []model.Attr{{Key: "sha256", Value: "x"}}, nil); err == nil {
			t.Fatal("setting sha256 succeeded")
		}
		if err := r.SetAttrs(ctx, a, nil, []string{"nothere"}); err == nil {
			t.Fatal("unsetting a missing attribute succeeded")
		}
		if err := r.Remove(ctx, a, 99); err == nil {
			t.Fatal("removing a missing trial succeeded")
		}
		if ts, _ := r.Trials(ctx, "", ListOptions{}); len(ts) != 2 {
			t.Fatalf("a failed rm removed trials: %d left", len(ts))
		}
		if err := r.Remove(ctx, a); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Open(ctx, a); err == nil {
			t.Fatal("a removed trial opens")
		}
		var apps int
		r.db.QueryRow(`SELECT COUNT(*) FROM application`).Scan(&apps)
		if apps != 1 {
			t.Fatalf("%d applications after removing the only trial of one, want 1", apps)
		}
		for _, table := range []string{"metric", "cnode", "cnode_stat", "metric_data", "trial_attr", "location_total"} {
			var n int
			r.db.QueryRow(r.d.q(`SELECT COUNT(*) FROM `+table+` WHERE trial = ?`), a).Scan(&n)
			if n != 0 {
				t.Errorf("%s keeps %d rows of the removed trial", table, n)
			}
		}
	})
}
