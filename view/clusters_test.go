package view

import (
	"testing"

	"cubeview/analysis/cluster"
	"cubeview/colormap"
	"cubeview/internal/synth"
	"cubeview/model"
)

// TestClusterMode colours the hand-made experiment's locations by
// cluster and selects a cluster as a whole: locations 0 (rank 0, t0) and
// 2 (rank 1) in cluster 1, location 1 (rank 0, t1) in cluster 2.
func TestClusterMode(t *testing.T) {
	v := NewView(handMade())
	v.SetMode(SystemPane, ClusterMode)
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
	if c := v.Row(SystemPane, sT01).Color; c != colormap.Gray {
		t.Errorf("before clustering: colour %v, want gray", c)
	}
	v.Clusters().Set(0, []int{0, 1, 0}, 2)
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		s    int
		want int
	}{{3, 0}, {4, 1}, {6, 0}, {5, 0}} {
		if got := v.Row(SystemPane, Node{SystemNode, tc.s}).Color; got != ClusterColor(tc.want) {
			t.Errorf("system node %d: colour %v, want cluster %d's %v", tc.s, got, tc.want, ClusterColor(tc.want))
		}
	}
	if got := v.Row(SystemPane, sRank0).Color; got != colormap.White {
		t.Errorf("rank 0 of two clusters: colour %v, want white", got)
	}
	if u := v.Values().Unit(SystemPane, sT01); u != "sec" {
		t.Errorf("unit %q in the Clusters mode, want sec", u)
	}
	sysBefore := v.Values().Value(SystemPane, sT01)

	for _, tc := range []struct {
		cluster int
		mean    bool
		want    float64 // time, whole program
	}{
		{0, false, 15}, {0, true, 7.5}, {1, false, 10}, {-2, false, 25},
	} {
		if err := v.Clusters().Select(tc.cluster, tc.mean); err != nil {
			t.Fatal(err)
		}
		if err := v.Update(); err != nil {
			t.Fatal(err)
		}
		if got := v.Values().Value(MetricPane, mTime); !near(got, tc.want) {
			t.Errorf("cluster %d mean %v: time %v, want %v", tc.cluster, tc.mean, got, tc.want)
		}
		if got := v.Values().Value(CallPane, cMain); !near(got, tc.want) {
			t.Errorf("cluster %d mean %v: main %v, want %v", tc.cluster, tc.mean, got, tc.want)
		}
		if got := v.Values().Value(SystemPane, sT01); got != sysBefore {
			t.Errorf("the system pane changed with the cluster selection: %v, was %v", got, sysBefore)
		}
		if j, _ := v.Clusters().Selected(); j != tc.cluster {
			t.Errorf("selected cluster %d, want %d", j, tc.cluster)
		}
	}
	if err := v.Clusters().Select(2, false); err == nil {
		t.Error("cluster 3 of 2 selected")
	}
	v.SetMode(SystemPane, Absolute)
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
	if got := v.Row(SystemPane, sT01).Color; got == ClusterColor(1) {
		t.Error("the Absolute mode kept the cluster colour")
	}
}

// TestClusterModeMode checks the mode's name on the command line.
func TestClusterModeMode(t *testing.T) {
	if m, ok := ParseMode(SystemPane, "clusters"); !ok || m != ClusterMode {
		t.Errorf("ParseMode(clusters) = %v, %v", m, ok)
	}
}

// TestClusterSelectionSums: a planted cluster selected as a whole shows
// its members' summed values in the call pane.
func TestClusterSelectionSums(t *testing.T) {
	e, _ := synth.Clustered(synth.Planted{Cnodes: 10, Processes: 32, Threads: 2, Groups: 3, Noise: 0.02, Seed: 3})
	r, err := cluster.Locations(e, 0, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := NewView(e)
	v.Clusters().Set(0, r.Of, len(r.Clusters))
	for j, cl := range r.Clusters {
		if err := v.Clusters().Select(j, false); err != nil {
			t.Fatal(err)
		}
		if err := v.Update(); err != nil {
			t.Fatal(err)
		}
		for c := range e.Cnodes {
			want := cl.Centroid[c] * float64(len(cl.Members))
			if got := v.Values().Exclusive(CallPane, Node{CnodeNode, c}); !near(got, want) {
				t.Errorf("cluster %d, cnode %d: %v, want %v", j, c, got, want)
			}
		}
	}
}

// TestClusterNeedsRows: with a cluster selected as a whole, the window
// reads the rows of the metrics shown (their per-cnode summaries of all
// locations do not give a cluster's totals), before Update asks for them.
func TestClusterNeedsRows(t *testing.T) {
	src := handMade()
	e := &model.Experiment{Metrics: src.Metrics, MetricRoots: src.MetricRoots, Regions: src.Regions, Cnodes: src.Cnodes,
		CnodeRoots: src.CnodeRoots, System: src.System, SystemRoots: src.SystemRoots, Locations: src.Locations}
	e.SetLoader(streamLoader{src})
	v := NewView(e)
	v.Clusters().Set(0, []int{0, 1, 0}, 2)
	if err := v.Clusters().Select(0, false); err != nil {
		t.Fatal(err)
	}
	miss := v.Values().Missing()
	if len(miss) == 0 {
		t.Fatal("nothing missing")
	}
	for _, r := range miss {
		if !r.Rows || r.Exp != e {
			t.Errorf("metric %d: %+v, want the rows of the experiment shown", r.Metric, r)
		}
		if _, err := e.Block(r.Metric); err != nil {
			t.Fatal(err)
		}
	}
	if miss := v.Values().Missing(); len(miss) != 0 {
		t.Errorf("still missing: %v", miss)
	}
	if err := v.Update(); err != nil {
		t.Fatal(err)
	}
	if got := v.Values().Value(MetricPane, mTime); !near(got, 15) {
		t.Errorf("time of cluster 1: %v, want 15", got)
	}
}
