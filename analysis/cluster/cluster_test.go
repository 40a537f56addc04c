package cluster

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"cubeview/internal/synth"
	"cubeview/model"
)

// partitionOf returns the planted groups as sorted member lists (-1
// left out), ordered by first member.
func partitionOf(group []int) [][]int {
	by := map[int][]int{}
	for l, g := range group {
		if g >= 0 {
			by[g] = append(by[g], l)
		}
	}
	var out [][]int
	for _, m := range by {
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b []int) int { return a[0] - b[0] })
	return out
}

func clustersOf(r *Result) [][]int {
	var out [][]int
	for _, cl := range r.Clusters {
		m := slices.Clone(cl.Members)
		slices.Sort(m)
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b []int) int { return a[0] - b[0] })
	return out
}

func outliersOf(r *Result) []int {
	var out []int
	for _, o := range r.Outliers {
		out = append(out, o.Location)
	}
	slices.Sort(out)
	return out
}

func plantedOutliers(group []int) []int {
	var out []int
	for l, g := range group {
		if g < 0 {
			out = append(out, l)
		}
	}
	return out
}

// TestPlantedClustersRecovered plants groups and outliers among 1,024
// locations and wants them back exactly, with k automatic and given.
func TestPlantedClustersRecovered(t *testing.T) {
	for _, tc := range []struct {
		procs, threads, groups, outliers int
		noise                            float64
		seed                             uint64
	}{
		{1024, 1, 4, 3, 0.02, 1},
		{256, 4, 3, 2, 0.03, 2},
		{128, 8, 5, 0, 0.02, 3},
		{512, 2, 2, 5, 0.05, 4},
		{64, 16, 6, 1, 0.02, 5},
	} {
		t.Run(fmt.Sprintf("%dx%d_k%d_seed%d", tc.procs, tc.threads, tc.groups, tc.seed), func(t *testing.T) {
			e, group := synth.Clustered(synth.Planted{Cnodes: 40, Processes: tc.procs, Threads: tc.threads,
				Groups: tc.groups, Noise: tc.noise, Outliers: tc.outliers, Seed: tc.seed})
			want := partitionOf(group)
			for _, k := range []int{0, tc.groups} {
				r, err := Locations(e, 0, Options{K: k})
				if err != nil {
					t.Fatal(err)
				}
				if got := clustersOf(r); !reflect.DeepEqual(got, want) {
					t.Errorf("k=%d: %d clusters of sizes %v, want %d of %v", k, len(got), sizes(got), len(want), sizes(want))
				}
				if got, want := outliersOf(r), plantedOutliers(group); !slices.Equal(got, want) {
					t.Errorf("k=%d: outliers %v, want %v", k, got, want)
				}
				for l, j := range r.Of {
					if (j < 0) != (group[l] < 0) {
						t.Errorf("k=%d: location %d in cluster %d, planted %d", k, l, j, group[l])
						break
					}
				}
				if k == 0 && tc.groups > 1 && r.Silhouette < 0.5 {
					t.Errorf("silhouette %.3f of well separated groups, want > 0.5", r.Silhouette)
				}
			}
		})
	}
}

func sizes(p [][]int) []int {
	var s []int
	for _, m := range p {
		s = append(s, len(m))
	}
	return s
}

// TestNoStructureIsOneCluster: locations differing by noise only form
// one cluster, with no outliers.
func TestNoStructureIsOneCluster(t *testing.T) {
	e, _ := synth.Clustered(synth.Planted{Cnodes: 30, Processes: 300, Threads: 1, Groups: 1, Noise: 0.05, Seed: 7})
	r, err := Locations(e, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Clusters) != 1 || len(r.Outliers) != 0 {
		t.Errorf("%d clusters and %d outliers of noise; scores %v", len(r.Clusters), len(r.Outliers), r.Scores)
	}
	if len(r.Scores) != DefaultMaxK-1 {
		t.Errorf("scores %v, want k = 2…%d", r.Scores, DefaultMaxK)
	}
}

// TestOrderIndependent shuffles the locations and wants the same
// clusters, numbering, outliers and scores, bit for bit.
func TestOrderIndependent(t *testing.T) {
	e, _ := synth.Clustered(synth.Planted{Cnodes: 25, Processes: 128, Threads: 4, Groups: 4, Noise: 0.1, Outliers: 2, Seed: 11})
	for _, k := range []int{0, 3, 6} {
		a, err := Locations(e, 0, Options{K: k})
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 3; seed++ {
			s, perm := synth.ShuffleLocations(e, seed)
			if slices.Equal(s.Locations, e.Locations) {
				t.Fatal("the shuffle kept the order")
			}
			b, err := Locations(s, 0, Options{K: k})
			if err != nil {
				t.Fatal(err)
			}
			mapped := *a
			mapped.Clusters = slices.Clone(a.Clusters)
			for j := range mapped.Clusters {
				cl := mapped.Clusters[j]
				cl.Members = mapLocs(cl.Members, perm)
				mapped.Clusters[j] = cl
			}
			mapped.Of = make([]int, len(a.Of))
			for l, j := range a.Of {
				mapped.Of[perm[l]] = j
			}
			mapped.Outliers = slices.Clone(a.Outliers)
			for o := range mapped.Outliers {
				mapped.Outliers[o].Location = perm[a.Outliers[o].Location]
			}
			if !reflect.DeepEqual(&mapped, b) {
				t.Errorf("k=%d, shuffle %d: results differ:\n%s\n%s", k, seed, summary(&mapped), summary(b))
			}
		}
	}
}

// mapLocs maps locations through perm, keeping the canonical order
// (which is by rank, so it does not change).
func mapLocs(ls, perm []int) []int {
	out := make([]int, len(ls))
	for i, l := range ls {
		out[i] = perm[l]
	}
	return out
}

func summary(r *Result) string {
	s := fmt.Sprintf("scores %v silhouette %v;", r.Scores, r.Silhouette)
	for _, cl := range r.Clusters {
		s += fmt.Sprintf(" [%d: %v…]", len(cl.Members), cl.Members[:min(4, len(cl.Members))])
	}
	return s + fmt.Sprintf(" outliers %v", outliersOf(r))
}

// TestDeterministic: the same input gives the same result; another seed
// may only change nothing on well separated groups.
func TestDeterministic(t *testing.T) {
	e, _ := synth.Clustered(synth.Planted{Cnodes: 20, Processes: 200, Threads: 2, Groups: 3, Noise: 0.3, Outliers: 1, Seed: 3})
	a, err := Locations(e, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		b, err := Locations(e, 0, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("two runs differ:\n%s\n%s", summary(a), summary(b))
		}
	}
}

// TestOutlierNotACluster: one odd location among otherwise alike ones is
// an outlier, not a cluster of its own, even with k given.
func TestOutlierNotACluster(t *testing.T) {
	e, group := synth.Clustered(synth.Planted{Cnodes: 10, Processes: 64, Threads: 1, Groups: 1, Noise: 0.01, Outliers: 1, Seed: 9})
	for _, k := range []int{0, 1, 2} {
		r, err := Locations(e, 0, Options{K: k})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := outliersOf(r), plantedOutliers(group); !slices.Equal(got, want) {
			t.Errorf("k=%d: outliers %v, want %v", k, got, want)
		}
		for _, cl := range r.Clusters {
			if len(cl.Members) == 1 {
				t.Errorf("k=%d: a cluster of one location, %v", k, cl.Members)
			}
		}
		if r.Outliers[0].Distance < 0.3 {
			t.Errorf("outlier distance %.3f, want about 0.5 (half a location's total)", r.Outliers[0].Distance)
		}
	}
}

// TestReport checks the centroids and the differences on a hand-made
// experiment: two ranks spend 3 s in a, two others 3 s in b.
func TestReport(t *testing.T) {
	e := handExperiment([][]float64{
		// a, b, c per location
		{3, 0, 1}, {3, 0, 1}, {0, 3, 1}, {0, 3, 1},
	})
	r, err := Locations(e, 0, Options{K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Clusters) != 2 {
		t.Fatalf("%d clusters", len(r.Clusters))
	}
	first := r.Clusters[0]
	if !slices.Equal(first.Members, []int{0, 1}) || !slices.Equal(first.Centroid, []float64{0, 3, 0, 1}) {
		t.Errorf("cluster 0: members %v centroid %v", first.Members, first.Centroid)
	}
	if r.Scale != 4 {
		t.Errorf("scale %v, want 4 (each location's total)", r.Scale)
	}
	top := r.Top(0, 5)
	if len(top) != 2 || top[0].Cnode != 1 || top[0].Value != 3 || top[1].Cnode != 3 {
		t.Errorf("top %+v", top)
	}
	diff := r.Differences(0, 5)
	if len(diff) != 2 || diff[0].Cnode != 1 || diff[0].Diff() != 3 || diff[1].Cnode != 2 || diff[1].Diff() != -3 {
		t.Errorf("differences %+v", diff)
	}
	if got := Members(e, first.Members); got != "ranks 0-1" {
		t.Errorf("members %q", got)
	}
}

// handExperiment builds main > {a, b, c} over one-thread processes, the
// values given per location (a, b, c; main holds 0).
func handExperiment(vals [][]float64) *model.Experiment {
	e := &model.Experiment{Source: "hand"}
	e.Metrics = []model.Metric{{ID: 0, UniqName: "time", DataType: "DOUBLE", Unit: "sec", Parent: -1}}
	for i, n := range []string{"main", "a", "b", "c"} {
		p := 0
		if i == 0 {
			p = -1
		}
		e.Regions = append(e.Regions, model.Region{ID: i, Name: n, Begin: -1, End: -1})
		e.Cnodes = append(e.Cnodes, model.Cnode{ID: i, Region: i, Parent: p, CallLine: -1})
	}
	e.System = []model.SystemNode{{ID: 0, Kind: model.TreeNode, Name: "machine", Parent: -1}}
	for l := range vals {
		g := len(e.System)
		e.System = append(e.System,
			model.SystemNode{ID: l, Kind: model.Group, Name: fmt.Sprintf("rank %d", l), Rank: l, Parent: 0},
			model.SystemNode{ID: l, Kind: model.Leaf, Name: "thread 0", Parent: g})
	}
	e.Link()
	e.NumberLocations()
	b := model.NewBlock(4, len(vals))
	for c := 1; c < 4; c++ {
		row := b.MutableRow(c)
		for l, v := range vals {
			row[l] = v[c-1]
		}
	}
	e.SetBlock(0, b)
	return e
}

func TestErrors(t *testing.T) {
	e := handExperiment([][]float64{{0, 0, 0}, {0, 0, 0}})
	if _, err := Locations(e, 0, Options{}); err == nil {
		t.Error("an all-zero metric clustered")
	}
	one := handExperiment([][]float64{{1, 2, 3}})
	if _, err := Locations(one, 0, Options{}); err == nil {
		t.Error("one location clustered")
	}
	if _, err := Locations(e, 3, Options{}); err == nil {
		t.Error("metric 3 of 1")
	}
}

// TestIdenticalLocations: no variance at all is one cluster.
func TestIdenticalLocations(t *testing.T) {
	e := handExperiment([][]float64{{1, 2, 3}, {1, 2, 3}, {1, 2, 3}})
	for _, k := range []int{0, 2} {
		r, err := Locations(e, 0, Options{K: k})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Clusters) != 1 || len(r.Outliers) != 0 || r.Used != 0 {
			t.Errorf("k=%d: %s, %d call paths used", k, summary(r), r.Used)
		}
	}
}

func TestMembers(t *testing.T) {
	e, _ := synth.Clustered(synth.Planted{Cnodes: 3, Processes: 8, Threads: 4, Groups: 1, Seed: 1})
	loc := func(p, t int) int { return p*4 + t }
	var whole, masters, mixed []int
	for p := range 8 {
		if p < 3 || p >= 6 {
			for t := range 4 {
				whole = append(whole, loc(p, t))
			}
		}
		masters = append(masters, loc(p, 0))
	}
	mixed = []int{loc(0, 1), loc(0, 2), loc(0, 3), loc(1, 1), loc(1, 2), loc(1, 3), loc(2, 0), loc(2, 2), loc(5, 0), loc(5, 1), loc(5, 2), loc(5, 3)}
	for _, tc := range []struct {
		locs []int
		want string
	}{
		{whole, "ranks 0-2, 6-7"},
		{masters, "ranks 0-7.0"},
		{mixed, "ranks 0-1.1-3, 2.{0,2}, 5"},
		{[]int{loc(3, 2)}, "rank 3.2"},
		{[]int{loc(3, 1), loc(3, 2)}, "rank 3.1-2"},
	} {
		if got := Members(e, tc.locs); got != tc.want {
			t.Errorf("Members(%v) = %q, want %q", tc.locs, got, tc.want)
		}
	}
	if got := Name(e, loc(3, 2)); got != "rank 3.2" {
		t.Errorf("Name = %q", got)
	}
	single, _ := synth.Clustered(synth.Planted{Cnodes: 3, Processes: 1, Threads: 16, Groups: 1, Seed: 1})
	if got := Members(single, []int{0, 1, 2, 5, 7, 8}); got != "threads 0-2, 5, 7-8" {
		t.Errorf("one process: %q", got)
	}
	flat, _ := synth.Clustered(synth.Planted{Cnodes: 3, Processes: 10, Threads: 1, Groups: 1, Seed: 1})
	if got := Members(flat, []int{4}); got != "rank 4" {
		t.Errorf("one rank: %q", got)
	}
	if got := Name(flat, 4); got != "rank 4" {
		t.Errorf("Name = %q", got)
	}
}

// TestSubset: a subset's call-tree values are the sums (or means) of its
// members' values, with the system tree cut to them.
func TestSubset(t *testing.T) {
	e, _ := synth.Clustered(synth.Planted{Cnodes: 6, Processes: 4, Threads: 3, Groups: 2, Noise: 0.1, Seed: 4})
	members := []int{1, 2, 7, 10}
	ms := model.MetricSel{Metric: 0, Inclusive: true}
	b, err := e.Block(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, mean := range []bool{false, true} {
		s, err := Subset(e, members, mean)
		if err != nil {
			t.Fatal(err)
		}
		// Every process of the subset has all its threads.
		if s.NumLocations() != len(members) || Members(s, []int{0, 1, 2, 3}) != "ranks 0-3" || Members(e, members) != "ranks 0.1-2, 2-3.1" {
			t.Errorf("subset locations: %d, %s of %s", s.NumLocations(), Members(s, []int{0, 1, 2, 3}), Members(e, members))
		}
		got, err := s.CallTreeValues(ms, false)
		if err != nil {
			t.Fatal(err)
		}
		for c := range e.Cnodes {
			want := 0.0
			for _, l := range members {
				want += b.Value(c, l)
			}
			if mean {
				want /= float64(len(members))
			}
			if d := got[c] - want; d > 1e-9 || d < -1e-9 {
				t.Errorf("mean %v: cnode %d: %v, want %v", mean, c, got[c], want)
			}
		}
	}
	if _, err := Subset(e, nil, false); err == nil {
		t.Error("an empty subset")
	}
}
