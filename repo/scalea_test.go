package repo

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// nodeValue gives a metric's value at a call path or region of a trial
// and the run's total; ok false when the trial lacks the metric.
type nodeValue func(metric string, incl bool) (v, total float64, ok bool)

// scaleaCase is a search and, written out in Go, what it must find.
type scaleaCase struct {
	q    Query
	keep func(e *model.Experiment, node int, val nodeValue) bool
}

// bruteValues computes, from the experiment itself, what a search over
// all locations sees at each call path (or region).
func bruteValues(t *testing.T, e *model.Experiment, flat bool) func(node int) nodeValue {
	t.Helper()
	type vals struct {
		excl, incl []float64
		total      float64
	}
	cache := map[string]*vals{}
	get := func(name string) *vals {
		if v, ok := cache[name]; ok {
			return v
		}
		m := e.MetricNamed(name)
		if m < 0 {
			cache[name] = nil
			return nil
		}
		ms := model.MetricSel{Metric: m, Inclusive: true}
		agg := e.Metrics[m].Aggregation
		excl, err := e.CallTreeValues(ms, false)
		if err != nil {
			t.Fatal(err)
		}
		total, err := e.MetricTotal(ms)
		if err != nil {
			t.Fatal(err)
		}
		v := &vals{excl: excl, incl: e.CallInclusive(excl, agg), total: total}
		if flat {
			if v.excl, v.incl, err = e.FlatProfileOf(ms); err != nil {
				t.Fatal(err)
			}
		}
		cache[name] = v
		return v
	}
	return func(node int) nodeValue {
		return func(metric string, incl bool) (float64, float64, bool) {
			v := get(metric)
			if v == nil {
				return 0, 0, false
			}
			if incl {
				return v.incl[node], v.total, true
			}
			return v.excl[node], v.total, true
		}
	}
}

// TestConstraintSearch: SCALEA's searches — several tests joined with
// and, or and not, < as well as >, shares of the run, region name and
// call path patterns, region kinds, hosts — find exactly what the
// experiments hold, ranked by the first test's metric.
func TestConstraintSearch(t *testing.T) {
	var paths []string
	for _, f := range findFiles {
		paths = append(paths, testkit.Data(t, f...))
	}
	cases := []scaleaCase{
		{Query{Constraint: "time >= 5% and visits > 100"}, func(e *model.Experiment, c int, val nodeValue) bool {
			v, tot, ok1 := val("time", false)
			n, _, ok2 := val("visits", false)
			return ok1 && ok2 && tot > 0 && v >= 0.05*tot && n > 100
		}},
		{Query{Constraint: "incl(time) > 50% or excl(visits) >= 1000"}, func(e *model.Experiment, c int, val nodeValue) bool {
			v, tot, ok1 := val("time", true)
			n, _, ok2 := val("visits", false)
			return ok1 && tot > 0 && v > 0.5*tot || ok2 && n >= 1000
		}},
		{Query{Constraint: "time < 0.001 and not visits <= 1", Kind: "mpi"}, func(e *model.Experiment, c int, val nodeValue) bool {
			v, _, ok1 := val("time", false)
			n, _, ok2 := val("visits", false)
			return RegionKind(e.CnodeRegion(c)) == "mpi" && ok1 && v < 0.001 && !(ok2 && n <= 1)
		}},
		{Query{Constraint: "(incl(time) < 1% and visits >= 2) or excl(time) > 20%", Region: "MPI_*"}, func(e *model.Experiment, c int, val nodeValue) bool {
			vi, tot, ok := val("time", true)
			ve, _, _ := val("time", false)
			n, _, ok2 := val("visits", false)
			return strings.HasPrefix(e.CnodeRegion(c).Name, "MPI_") && ok && tot > 0 && (vi < 0.01*tot && ok2 && n >= 2 || ve > 0.2*tot)
		}},
		{Query{Constraint: "time > 0", Region: "*/iteration/MPI_*"}, func(e *model.Experiment, c int, val nodeValue) bool {
			v, _, ok := val("time", false)
			return ok && v > 0 && strings.Index(e.CallPath(c), "/iteration/MPI_") > 0
		}},
		// Shares of the run's own values, answered from the hot call
		// paths: and, or, not and < beside the share test, kinds, names.
		{Query{Constraint: "time >= 5% and time < 30%"}, func(e *model.Experiment, c int, val nodeValue) bool {
			v, tot, ok := val("time", false)
			return ok && tot > 0 && v >= 0.05*tot && v < 0.3*tot
		}},
		{Query{Constraint: "time >= 1% and not (time > 10% or time <= 0.000001)", Kind: "mpi"}, func(e *model.Experiment, c int, val nodeValue) bool {
			v, tot, ok := val("time", false)
			return RegionKind(e.CnodeRegion(c)) == "mpi" && ok && tot > 0 && v >= 0.01*tot && !(v > 0.1*tot || v <= 0.000001)
		}},
		{Query{Constraint: "excl(time) > 2%", Region: "*/MPI_*"}, func(e *model.Experiment, c int, val nodeValue) bool {
			v, tot, ok := val("time", false)
			return ok && tot > 0 && v > 0.02*tot && strings.Contains(e.CallPath(c), "/MPI_")
		}},
		{Query{Metric: "visits", Constraint: "time >= 2%", Inclusive: true}, func(e *model.Experiment, c int, val nodeValue) bool {
			v, tot, ok := val("time", true)
			_, _, hasVisits := val("visits", true)
			return ok && hasVisits && tot > 0 && v >= 0.02*tot
		}},
	}
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		exps := map[int64]*model.Experiment{}
		for _, p := range paths {
			id, err := r.Import(ctx, p, ImportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if exps[id], err = format.Open(p); err != nil {
				t.Fatal(err)
			}
		}
		for _, tc := range cases {
			t.Run(tc.q.Constraint+" "+tc.q.Region+tc.q.Kind, func(t *testing.T) {
				want := map[bruteKey]bool{}
				for id, e := range exps {
					vals := bruteValues(t, e, false)
					for c := range e.Cnodes {
						if tc.keep(e, c, vals(c)) {
							want[bruteKey{id, c, e.Cnodes[c].Region}] = true
						}
					}
				}
				if len(want) == 0 {
					t.Fatal("the case finds nothing: not a test")
				}
				hits, err := r.Find(ctx, tc.q)
				if err != nil {
					t.Fatal(err)
				}
				rank := tc.q.Metric
				if rank == "" {
					rank = strings.Fields(strings.NewReplacer("(", " ", ")", " ").Replace(tc.q.Constraint))[0]
					if rank == "incl" || rank == "excl" {
						rank = strings.Fields(strings.NewReplacer("(", " ", ")", " ").Replace(tc.q.Constraint))[1]
					}
				}
				for i, h := range hits {
					k := bruteKey{h.Trial, h.Cnode, h.Region}
					if !want[k] {
						t.Fatalf("hit %+v is not wanted", h)
					}
					delete(want, k)
					e := exps[h.Trial]
					if h.Path != e.CallPath(h.Cnode) {
						t.Fatalf("hit %+v: path %q", h, e.CallPath(h.Cnode))
					}
					incl := tc.q.Inclusive || strings.HasPrefix(tc.q.Constraint, "incl(")
					v, tot, _ := bruteValues(t, e, false)(h.Cnode)(rank, incl)
					if h.Value != v || h.Total != tot {
						t.Fatalf("hit %+v: %s value %v of %v", h, rank, v, tot)
					}
					byShare := strings.Contains(strings.SplitN(tc.q.Constraint, " and ", 2)[0], "%") && tc.q.Metric == ""
					if i > 0 && (!byShare && hits[i-1].Value < h.Value || byShare && hits[i-1].Share < h.Share) {
						t.Fatalf("not ranked by %s (share %v): %v before %v", rank, byShare, hits[i-1], h)
					}
				}
				if len(want) > 0 {
					t.Fatalf("%d wanted hits not found, e.g. %v", len(want), firstKey(want))
				}
			})
		}
		// A host selects the locations of that machine or node.
		hosts, err := r.Find(ctx, Query{Metric: "time", MinValue: 0, Host: "no such host"})
		if err != nil || len(hosts) != 0 {
			t.Errorf("an unknown host: %d hits, %v", len(hosts), err)
		}
	})
}

func firstKey(m map[bruteKey]bool) bruteKey {
	for k := range m {
		return k
	}
	return bruteKey{}
}

// TestHostSearch: --host restricts values to the locations of the
// matching system nodes, as a search over those ranks does.
func TestHostSearch(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		e := synth.Generate(synth.Config{Cnodes: 30, Locations: 16, Threads: 2, Nodes: 4, Metrics: 2, Seed: 3})
		id, err := r.ImportExperiment(ctx, e, Source{Path: "hosts", SHA256: "h"}, ImportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var node string
		for _, n := range e.System {
			if n.Kind == model.TreeNode && n.Class == "node" {
				node = n.Name
				break
			}
		}
		if node == "" {
			t.Fatal("no node in the system tree")
		}
		// The node's processes, as ranks.
		var ranks []Range
		for _, n := range e.System {
			if n.Kind == model.Group && e.System[n.Parent].Name == node {
				ranks = append(ranks, Range{n.Rank, n.Rank})
			}
		}
		byHost, err := r.Find(ctx, Query{Metric: "time", MinValue: 0, Host: node})
		if err != nil {
			t.Fatal(err)
		}
		byRanks, err := r.Find(ctx, Query{Metric: "time", MinValue: 0, Ranks: ranks})
		if err != nil {
			t.Fatal(err)
		}
		all, _ := r.Find(ctx, Query{Metric: "time", MinValue: 0})
		if len(byHost) == 0 || fmt.Sprint(byHost) != fmt.Sprint(byRanks) || fmt.Sprint(byHost) == fmt.Sprint(all) {
			t.Fatalf("host %s: %d hits; its ranks %v: %d hits; all: %d", node, len(byHost), ranks, len(byRanks), len(all))
		}
		_ = id
	})
}

// scaled multiplies every value of e's metrics by f.
func scaled(t *testing.T, e *model.Experiment, f float64) *model.Experiment {
	t.Helper()
	for m := range e.Metrics {
		b, err := e.Block(m)
		if err != nil {
			t.Fatal(err)
		}
		for c := 0; c < b.NumCnodes(); c++ {
			if row := b.Row(c); row != nil {
				for l := range row {
					row[l] *= f
				}
			}
		}
	}
	return e
}

// TestTopNReadsFewTrials: the best hits are the first of all hits, and
// finding them reads the summaries of a few trials, not of all: the
// work grows with the hits asked for, not with the trials stored.
func TestTopNReadsFewTrials(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		const n = 80
		for i := 0; i < n; i++ {
			e := scaled(t, synth.Generate(synth.Config{Cnodes: 40, Locations: 4, Threads: 2, Metrics: 3, Seed: uint64(i)}), math.Pow(1.2, float64(i%23)))
			if _, err := r.ImportExperiment(ctx, e, Source{Path: fmt.Sprint("run", i), SHA256: fmt.Sprint(i)},
				ImportOptions{Attrs: []model.Attr{{Key: "size", Value: fmt.Sprint(i)}}}); err != nil {
				t.Fatal(err)
			}
		}
		loaded := 0
		testHookLoaded = func(k int) { loaded += k }
		defer func() { testHookLoaded = nil }()
		for _, q := range []Query{
			{Metric: "time", MinValue: 0},
			{Metric: "time", Inclusive: true, MinValue: 0},
			{Metric: "time_part1", Share: true, MinShare: 0},
			{Metric: "time", Flat: true, MinValue: 0},
			{Constraint: "time >= 0 and time_part2 > 0"},
			{Metric: "time", MinValue: 0, Where: "size >= 40"},
		} {
			loaded = 0
			all, err := r.Find(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if loaded != n && q.Where == "" {
				t.Fatalf("%+v: all hits read %d trials, want %d", q, loaded, n)
			}
			for _, limit := range []int{1, 5, 20} {
				q.Limit = limit
				loaded = 0
				top, err := r.Find(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprint(top) != fmt.Sprint(all[:limit]) {
					t.Fatalf("%+v: the best %d are\n%v\nnot\n%v", q, limit, top, all[:limit])
				}
				if loaded > n/2 {
					t.Errorf("%+v: the best %d read %d of %d trials", q, limit, loaded, n)
				}
			}
		}
	})
}
