package cli

import (
	"encoding/csv"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cubeview/analysis"
	"cubeview/format"
	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// writePlanted writes a generated experiment with planted groups and
// returns its path and the planted group of each location.
func writePlanted(t *testing.T, p synth.Planted) (string, []int) {
	t.Helper()
	e, group := synth.Clustered(p)
	path := filepath.Join(t.TempDir(), "planted.cubex")
	if err := format.Write(path, e); err != nil {
		t.Fatal(err)
	}
	return path, group
}

// clusterCSV runs cluster --csv and returns each location's cluster
// column by location row.
func clusterCSV(t *testing.T, args ...string) []string {
	t.Helper()
	status, out, errOut := run(append([]string{"cluster", "--csv"}, args...)...)
	if status != 0 {
		t.Fatalf("cluster %v: status %d: %s", args, status, errOut)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rows[0], []string{"location", "rank", "thread", "cluster"}) {
		t.Fatalf("header %v", rows[0])
	}
	var which []string
	for _, r := range rows[1:] {
		which = append(which, r[3])
	}
	return which
}

func TestClusterGolden(t *testing.T) {
	path, _ := writePlanted(t, synth.Planted{Cnodes: 8, Processes: 16, Threads: 2, Groups: 3, Noise: 0.02, Outliers: 1, Seed: 5})
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"cluster.golden", []string{"cluster", path, "--metric", "time", "--top", "3"}},
		{"cluster-k2.golden", []string{"cluster", path, "--metric", "Time", "-k", "2", "--top", "2"}},
		{"cluster-csv.golden", []string{"cluster", path, "--metric", "time", "--csv"}},
	} {
		status, out, errOut := run(tc.args...)
		if status != 0 {
			t.Fatalf("%v: status %d: %s", tc.args, status, errOut)
		}
		testkit.Golden(t, tc.golden, []byte(out))
	}
}

// TestClusterPlanted: the groups planted in 1,024 locations come back
// exactly through the file and the command line.
func TestClusterPlanted(t *testing.T) {
	path, group := writePlanted(t, synth.Planted{Cnodes: 30, Processes: 256, Threads: 4, Groups: 4, Noise: 0.02, Outliers: 2, Seed: 8})
	which := clusterCSV(t, path, "--metric", "time")
	if len(which) != len(group) {
		t.Fatalf("%d rows for %d locations", len(which), len(group))
	}
	byCluster := map[string]int{} // cluster → planted group
	for l, w := range which {
		if (w == "outlier") != (group[l] < 0) {
			t.Fatalf("location %d: %s, planted %d", l, w, group[l])
		}
		if g, ok := byCluster[w]; ok && g != group[l] {
			t.Fatalf("cluster %s holds planted groups %d and %d", w, g, group[l])
		}
		byCluster[w] = group[l]
	}
	if len(byCluster) != 5 { // 4 clusters and the outliers
		t.Errorf("%d clusters and outliers, want 4 and outliers: %v", len(byCluster), byCluster)
	}
}

// TestClusterDifference: in a − b, where ranks 8-15 and 40-47 of b lost
// time in one call path, those ranks changed alike and the others not.
func TestClusterDifference(t *testing.T) {
	a, _ := synth.Clustered(synth.Planted{Cnodes: 12, Processes: 64, Threads: 1, Groups: 1, Noise: 0.02, Seed: 2})
	b, _ := synth.Clustered(synth.Planted{Cnodes: 12, Processes: 64, Threads: 1, Groups: 1, Noise: 0.02, Seed: 2})
	blk, err := b.Block(0)
	if err != nil {
		t.Fatal(err)
	}
	changed := func(l int) bool { return (l >= 8 && l < 16) || (l >= 40 && l < 48) }
	row := blk.MutableRow(5)
	for l := range row {
		if changed(l) {
			row[l] *= 0.25
		}
	}
	dir := t.TempDir()
	pa, pb, pd := filepath.Join(dir, "a.cubex"), filepath.Join(dir, "b.cubex"), filepath.Join(dir, "d.cubex")
	for p, e := range map[string]*model.Experiment{pa: a, pb: b} {
		if err := format.Write(p, e); err != nil {
			t.Fatal(err)
		}
	}
	if status, _, errOut := run("diff", pa, pb, "-o", pd); status != 0 {
		t.Fatalf("diff: %s", errOut)
	}
	which := clusterCSV(t, pd, "--metric", "time")
	for l, w := range which {
		if changed(l) != (w == which[8]) {
			t.Errorf("rank %d: cluster %s, rank 8: %s", l, w, which[8])
		}
	}
	status, out, _ := run("cluster", pd, "--metric", "time")
	if status != 0 || !strings.Contains(out, "16 locations, ranks 8-15, 40-47\n") {
		t.Errorf("the changed ranks are not named as a cluster:\n%s", out)
	}
}

func TestClusterErrors(t *testing.T) {
	path, _ := writePlanted(t, synth.Planted{Cnodes: 4, Processes: 4, Threads: 1, Groups: 1, Seed: 1})
	for _, tc := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{path}, 2, "--metric is required"},
		{[]string{path, "--metric", "time", "-k", "0"}, 2, "-k 0: want a number ≥ 1 or auto"},
		{[]string{path, "--metric", "time", "-k", "many"}, 2, "-k many"},
		{[]string{path, "--metric", "time", "--max-k", "1"}, 2, "--max-k 1: want N ≥ 2"},
		{[]string{path, "--metric", "time", "-k", "3", "--max-k", "5"}, 2, "--max-k goes with -k auto, not with -k 3"},
		{[]string{path, "--metric", "tme"}, 1, path + ` has no metric "tme"`},
		{[]string{path, path, "--metric", "time"}, 2, "want exactly one FILE"},
		{[]string{filepath.Join(t.TempDir(), "none.cubex"), "--metric", "time"}, 1, "none.cubex"},
	} {
		status, _, errOut := run(append([]string{"cluster"}, tc.args...)...)
		if status != tc.status || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: status %d, stderr %q; want %d and %q", tc.args, status, errOut, tc.status, tc.want)
		}
	}
}

// TestClusterRealData runs the command on real Score-P profiles and
// checks what their own numbers say.
func TestClusterRealData(t *testing.T) {
	btmz := testkit.Data(t, "cube4", "quirks", "cube4.8_with_checksum_bug.cubex")
	// BT-MZ, 2 ranks × 4 threads: the master threads run the MPI and
	// serial parts, the others only the parallel regions.
	status, out, errOut := run("cluster", btmz, "--metric", "time")
	if status != 0 {
		t.Fatalf("BT-MZ: %s", errOut)
	}
	for _, want := range []string{"cluster 1: 6 locations, ranks 0-1.1-3\n", "cluster 2: 2 locations, ranks 0-1.0\n", "0 outliers"} {
		if !strings.Contains(out, want) {
			t.Errorf("BT-MZ: no %q in\n%s", want, out)
		}
	}

	// LULESH on 343 ranks: the ranks that wait least in MPI_Allreduce
	// are the loaded ones, far from the rest; the one that waits least
	// (stat's argmin) is the first outlier.
	lulesh := testkit.Data(t, "cube4", "lulesh", "lulesh.p343.size25.r1.cubex")
	e, err := format.Open(lulesh)
	if err != nil {
		t.Fatal(err)
	}
	c := e.CnodeByPath("lulesh2.0/int main(int, char**)/void TimeIncrement(Domain&)/MPI_Allreduce")
	if c < 0 {
		t.Fatal("no MPI_Allreduce call path")
	}
	stats, err := analysis.Statistics(e, "time", []int{c}, false)
	if err != nil {
		t.Fatal(err)
	}
	status, out, errOut = run("cluster", lulesh, "--metric", "time")
	if status != 0 {
		t.Fatalf("LULESH: %s", errOut)
	}
	_, outliers, _ := strings.Cut(out, "outliers (far from every centroid):\n")
	first := strings.Fields(outliers)
	want := fmt.Sprintf("rank %d:", e.System[e.Location(stats[0].ArgMin).Parent].Rank)
	if len(first) < 2 || first[0]+" "+first[1] != want {
		t.Errorf("first outlier %v, want %s (least MPI_Allreduce)\n%s", first[:min(2, len(first))], want, out)
	}
}

// TestClusterMaxK: ten planted groups are found with --max-k 12; the
// default range (k ≤ 8) ends at its top, and the output says so.
func TestClusterMaxK(t *testing.T) {
	path, group := writePlanted(t, synth.Planted{Cnodes: 40, Processes: 80, Threads: 1, Groups: 10, Noise: 0.02, Seed: 3})
	status, out, errOut := run("cluster", path, "--metric", "time")
	if status != 0 {
		t.Fatal(errOut)
	}
	if !strings.Contains(out, "8 clusters (by silhouette)") || !strings.Contains(out, "k = 8 is the largest k tried: more groups may fit (--max-k)") {
		t.Errorf("default range: want 8 clusters, said to be the top of the range:\n%s", out)
	}
	which := clusterCSV(t, path, "--metric", "time", "--max-k", "12")
	byCluster := map[string]int{}
	for l, w := range which {
		if g, ok := byCluster[w]; ok && g != group[l] {
			t.Fatalf("--max-k 12: cluster %s holds planted groups %d and %d", w, g, group[l])
		}
		byCluster[w] = group[l]
	}
	if len(byCluster) != 10 {
		t.Errorf("--max-k 12: %d clusters, want the 10 planted: %v", len(byCluster), byCluster)
	}
	status, out, _ = run("cluster", path, "--metric", "time", "--max-k", "12")
	if status != 0 || strings.Contains(out, "largest k tried") {
		t.Errorf("--max-k 12 found 10 groups, yet says the range ended:\n%s", out)
	}
	status, out, _ = run("cluster", path, "--metric", "time", "--max-k", "3")
	if status != 0 || !strings.Contains(out, "3 clusters (by silhouette)") {
		t.Errorf("--max-k 3: want 3 clusters:\n%s", out)
	}

	// Score-P's ctest-pomp, 8 ranks × 4 threads: each rank's threads
	// differ from the other ranks' in MPI_Init; k = 8 was the top of the
	// default range, a wider one finds 10 groups and an outlier.
	pomp := testkit.Data(t, "cube3", "ctest-pomp.cube")
	status, out, errOut = run("cluster", pomp, "--metric", "time", "--max-k", "16")
	if status != 0 {
		t.Fatal(errOut)
	}
	if !strings.Contains(out, "10 clusters (by silhouette), 1 outlier\n") || strings.Contains(out, "largest k tried") {
		t.Errorf("ctest-pomp --max-k 16:\n%s", out)
	}
}
