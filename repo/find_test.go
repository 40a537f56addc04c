package repo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
)

var findFiles = [][]string{
	{"cube4", "cpi", "profile.cubex"},
	{"cube4", "lulesh", "lulesh.p27.size25.r1.cubex"},
	{"cube4", "lulesh", "lulesh.p64.size25.r1.cubex"},
	{"cube4", "time.p4.n2000.x1.r0", "profile.cubex"},
	{"cube4", "call_tree_test", "call_tree_test.cubex"},
	{"cube4", "mm_sweep", "mm.x10y1z1.r1.cubex"},
	{"cube3", "ctest-pomp.cube"},
	// other tools' recordings of cpi: "time" finds TAU's TIME and
	// Caliper's sum#time.duration by canonical identity, "visits" TAU's
	// Calls; HPCToolkit's CPUTIME is CPU time, which no search for time
	// finds
	{"tau", "cpi-mpi"},
	{"caliper", "cpi-json", "cpi-callpath-profile.json"},
	{"hpctoolkit", "cpi-database-v2"},
}

// bruteHit keys a hit by trial and call path (or region).
type bruteKey struct {
	trial       int64
	cnode, regn int
}

// bruteForce searches the opened experiments directly with the model's
// queries, location by location where ranks are restricted.
func bruteForce(t *testing.T, exps map[int64]*model.Experiment, apps map[int64]string, q Query) map[bruteKey]float64 {
	t.Helper()
	out := map[bruteKey]float64{}
	for id, e := range exps {
		if q.Where == "app = lulesh" && apps[id] != "lulesh" {
			continue
		}
		skip := false
		for _, d := range q.Derived {
			withD, err := e.WithDerived(d)
			if err != nil {
				skip = true // an operand is missing
				break
			}
			e = withD
		}
		m := e.MetricNamed(q.Metric)
		if m < 0 || skip {
			continue
		}
		ms := model.MetricSel{Metric: m, Inclusive: true}
		agg := e.Metrics[m].Aggregation
		restricted := q.Ranks != nil || q.Threads != nil
		var selected []int
		for l := range e.Locations {
			n := e.Location(l)
			proc := e.System[n.Parent].Rank
			if inRanges(q.Ranks, proc) && inRanges(q.Threads, n.Rank) {
				selected = append(selected, l)
			}
		}
		if restricted && len(selected) == 0 {
			continue
		}
		over := func(cs model.CnodeSel) float64 {
			lv, err := e.LocationValues(ms, cs)
			if err != nil {
				t.Fatal(err)
			}
			acc := agg.Identity()
			for _, l := range selected {
				acc = agg.Combine(acc, lv[l])
			}
			return acc
		}
		var total float64
		var excl, incl []float64
		if restricted {
			excl, incl = make([]float64, len(e.Cnodes)), make([]float64, len(e.Cnodes))
			for c := range e.Cnodes {
				excl[c] = over(model.CnodeSel{Cnode: c})
				incl[c] = over(model.CnodeSel{Cnode: c, Inclusive: true})
			}
			total = model.ForestValue(e, excl, agg)
		} else if e.Metrics[m].IsDerived() {
			var err error
			if excl, err = e.CallTreeValues(ms, false); err != nil {
				t.Fatal(err)
			}
			if incl, err = e.CallTreeValues(ms, true); err != nil {
				t.Fatal(err)
			}
			if total, err = e.Metrics[m].Formula.EvalScalar(func(name string) (float64, error) {
				return e.MetricTotal(model.MetricSel{Metric: e.MetricByName(name), Inclusive: true})
			}); err != nil {
				t.Fatal(err)
			}
		} else {
			var err error
			if total, err = e.MetricTotal(ms); err != nil {
				t.Fatal(err)
			}
			if excl, err = e.CallTreeValues(ms, false); err != nil {
				t.Fatal(err)
			}
			incl = e.CallInclusive(excl, agg)
		}
		meets := func(v float64) bool {
			if q.Share {
				return total > 0 && v >= q.MinShare*total
			}
			return v >= q.MinValue
		}
		if q.Flat {
			rx, ri := e.FlatProfile(excl, agg)
			if !restricted {
				var err error
				if e.Metrics[m].IsDerived() {
					rx, ri, err = e.FlatProfileOf(ms)
				} else {
					rx, ri, err = e.FlatProfileOf(ms)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			for g := range e.Regions {
				v := rx[g]
				if q.Inclusive {
					v = ri[g]
				}
				if (q.Kind == "" || RegionKind(&e.Regions[g]) == q.Kind) && meets(v) {
					out[bruteKey{id, -1, g}] = v
				}
			}
			continue
		}
		for c := range e.Cnodes {
			v := excl[c]
			if q.Inclusive {
				v = incl[c]
			}
			if (q.Kind == "" || RegionKind(e.CnodeRegion(c)) == q.Kind) && meets(v) {
				out[bruteKey{id, c, e.Cnodes[c].Region}] = v
			}
		}
	}
	return out
}

// TestFindEqualsBruteForce compares the repository's search with the same
// search over the opened files.
func TestFindEqualsBruteForce(t *testing.T) {
	var paths []string
	for _, f := range findFiles {
		paths = append(paths, testkit.Data(t, f...))
	}
	queries := []Query{
		{Metric: "time", Share: true, MinShare: 0.01},
		{Metric: "time", Share: true, MinShare: 0.2},
		{Metric: "time", Share: true, MinShare: 0.004},
		{Metric: "time", Kind: "mpi", Share: true, MinShare: 0.05},
		{Metric: "visits", Share: true, MinShare: 0.1, Where: "app = lulesh"},
		{Metric: "TIME", Kind: "user", Share: true, MinShare: 0.02},
		{Metric: "time", Inclusive: true, Share: true, MinShare: 0.05},
		{Metric: "time", MinValue: 0},
		{Metric: "time", MinValue: 1.5, Where: "app = lulesh"},
		{Metric: "visits", MinValue: 100},
		{Metric: "time", Flat: true, Share: true, MinShare: 0.01},
		{Metric: "time", Flat: true, Inclusive: true, MinValue: 1},
		{Metric: "time", Kind: "mpi", Share: true, MinShare: 0},
		{Metric: "time", Kind: "user", Inclusive: true, Share: true, MinShare: 0.1},
		{Metric: "time", Ranks: []Range{{0, 1}}, Share: true, MinShare: 0.01},
		{Metric: "time", Ranks: []Range{{1, 2}, {5, 5}}, Inclusive: true, MinValue: 0.5},
		{Metric: "0Time", Threads: []Range{{1, 3}}, Share: true, MinShare: 0.001},
		{Metric: "2MPI", Ranks: []Range{{2, 5}}, Threads: []Range{{0, 0}}, Inclusive: true, Share: true, MinShare: 0.01},
		{Metric: "2MPI", Kind: "mpi", Share: true, MinShare: 0.01},
		{Metric: "time", Ranks: []Range{{0, 3}}, Flat: true, Kind: "mpi", Share: true, MinShare: 0.001},
		{Metric: "min_time", MinValue: 0},
		{Metric: "max_time", Inclusive: true, MinValue: 0.001},
		{Metric: "bytes_sent", Share: true, MinShare: 0.2},
		{Metric: "no_such_metric", MinValue: 0},
		{Metric: "tpv", Derived: derived(t, "tpv = time / visits"), MinValue: 1e-4},
		{Metric: "tpv", Derived: derived(t, "tpv = time / visits"), Inclusive: true, Share: true, MinShare: 0.5},
		{Metric: "bpv", Derived: derived(t, "bpv = bytes_sent / (visits + 1)"), Flat: true, MinValue: 0.01},
		{Metric: "twice", Derived: derived(t, "half = time / 2", "twice = half * 4 - time"), Kind: "mpi", Share: true, MinShare: 0.01},
	}
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		exps := map[int64]*model.Experiment{}
		apps := map[int64]string{}
		for i, p := range paths {
			app := "other"
			if i == 1 || i == 2 {
				app = "lulesh"
			}
			id, err := r.Import(ctx, p, ImportOptions{App: app})
			if err != nil {
				t.Fatal(err)
			}
			if exps[id], err = format.Open(p); err != nil {
				t.Fatal(err)
			}
			apps[id] = app
		}
		for _, q := range queries {
			t.Run(fmt.Sprintf("%+v", q), func(t *testing.T) {
				want := bruteForce(t, exps, apps, q)
				hits, err := r.Find(ctx, q)
				if q.Metric == "no_such_metric" {
					var ue *UnknownNameError
					if !errors.As(err, &ue) || ue.Name != q.Metric {
						t.Fatalf("a metric no trial has: %v, want an UnknownNameError", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				got := map[bruteKey]float64{}
				for i, h := range hits {
					k := bruteKey{h.Trial, h.Cnode, h.Region}
					if _, dup := got[k]; dup {
						t.Fatalf("hit %+v twice", h)
					}
					got[k] = h.Value
					if i > 0 {
						prev, key := hits[i-1].Value, h.Value
						if q.Share {
							prev, key = hits[i-1].Share, h.Share
						}
						if prev < key {
							t.Fatalf("hits not best first: %v before %v", hits[i-1], h)
						}
					}
					e := exps[h.Trial]
					if q.Flat {
						if h.Path != e.Regions[h.Region].Name {
							t.Fatalf("region %d named %q, want %q", h.Region, h.Path, e.Regions[h.Region].Name)
						}
					} else if h.Path != e.CallPath(h.Cnode) || h.CnodeID != e.Cnodes[h.Cnode].ID {
						t.Fatalf("hit %+v: call path %q id %d", h, e.CallPath(h.Cnode), e.Cnodes[h.Cnode].ID)
					}
				}
				if len(got) != len(want) {
					t.Fatalf("%d hits, brute force finds %d: %s", len(got), len(want), firstMissing(want, got))
				}
				for k, w := range want {
					g, ok := got[k]
					if !ok {
						t.Fatalf("brute force finds %+v = %v, the repository does not", k, w)
					}
					if g != w && math.Abs(g-w) > 1e-9*math.Max(math.Abs(g), math.Abs(w)) {
						t.Fatalf("%+v: value %v, brute force %v", k, g, w)
					}
				}
				if q.Metric != "no_such_metric" && len(want) == 0 {
					t.Fatalf("query finds nothing: not a test")
				}
			})
		}
	})
}

func derived(t *testing.T, defs ...string) []model.DerivedMetric {
	var out []model.DerivedMetric
	for _, d := range defs {
		name, f, err := model.ParseDefinition(d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, model.DerivedMetric{UniqName: name, Formula: f})
	}
	return out
}

// TestStoredDerivedMetric imports an experiment with a derived metric:
// it reopens as derived, and searching it equals a search-time definition.
func TestStoredDerivedMetric(t *testing.T) {
	p := testkit.Data(t, "cube4", "cpi", "profile.cubex")
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		e, err := format.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		d := derived(t, "tpv = time / visits")
		withD, err := e.WithDerived(d[0])
		if err != nil {
			t.Fatal(err)
		}
		id, err := r.ImportExperiment(ctx, withD, Source{Path: p, SHA256: "x"}, ImportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		back, err := r.Open(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if m := back.MetricByName("tpv"); m < 0 || !back.Metrics[m].IsDerived() {
			t.Fatal("the derived metric does not come back derived")
		}
		if testkit.Diff(dump(t, withD), dump(t, back)) != "" {
			t.Fatalf("reopened: %s", testkit.Diff(dump(t, withD), dump(t, back)))
		}
		for _, q := range []Query{{MinValue: 1e-5}, {Inclusive: true, Share: true, MinShare: 0.2}, {Flat: true, MinValue: 0.001}} {
			q.Metric = "tpv"
			stored, err := r.Find(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			q.Metric, q.Derived = "tpv2", derived(t, "tpv2 = time / visits")
			adhoc, err := r.Find(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if len(stored) == 0 || fmt.Sprint(stored) != fmt.Sprint(adhoc) {
				t.Fatalf("stored derived metric finds %v, defined at search time %v", stored, adhoc)
			}
		}
	})
}

func firstMissing(want, got map[bruteKey]float64) string {
	var keys []string
	for k, v := range want {
		if _, ok := got[k]; !ok {
			keys = append(keys, fmt.Sprintf("missing %+v=%v", k, v))
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, fmt.Sprintf("extra %+v=%v", k, v))
		}
	}
	sort.Strings(keys)
	if len(keys) > 3 {
		keys = keys[:3]
	}
	return fmt.Sprint(keys)
}

// TestFindAcrossTools searches one program recorded by several tools:
// "time" finds Score-P's time, TAU's TIME and Caliper's sum#time.duration
// (canonical identity time, in any case), not HPCToolkit's CPUTIME (CPU
// time); a unique name that is no identity finds only the trial that has
// it.
func TestFindAcrossTools(t *testing.T) {
	files := map[string][]string{
		"scorep":  {"cube4", "cpi", "profile.cubex"},
		"tau":     {"tau", "cpi-mpi"},
		"caliper": {"caliper", "cpi-json", "cpi-callpath-profile.json"},
		"hpc":     {"hpctoolkit", "cpi-database-v2"},
	}
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		ids := map[int64]string{}
		for name, f := range files {
			id, err := r.Import(ctx, testkit.Data(t, f...), ImportOptions{App: "cpi", Experiment: name})
			if err != nil {
				t.Fatal(err)
			}
			ids[id] = name
		}
		found := func(q Query) string {
			hits, err := r.Find(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, h := range hits {
				if n := ids[h.Trial]; !slices.Contains(names, n) {
					names = append(names, n)
				}
			}
			slices.Sort(names)
			return strings.Join(names, ",")
		}
		for _, tt := range []struct {
			q    Query
			want string
		}{
			{Query{Metric: "time", MinValue: 0}, "caliper,scorep,tau"},
			{Query{Metric: "time", Kind: "mpi", Inclusive: true, MinValue: 0}, "caliper,scorep,tau"},
			{Query{Metric: "time", Ranks: []Range{{0, 1}}, MinValue: 0}, "caliper,scorep,tau"},
			{Query{Metric: "TIME", MinValue: 0}, "caliper,scorep,tau"},
			{Query{Metric: "sum#time.duration", MinValue: 0}, "caliper"},
			{Query{Metric: "visits", MinValue: 1}, "scorep,tau"},
			{Query{Metric: "cputime", MinValue: 0}, "hpc"},
		} {
			if got := found(tt.q); got != tt.want {
				t.Errorf("%+v: found in %s, want %s", tt.q, got, tt.want)
			}
		}
	})
}
