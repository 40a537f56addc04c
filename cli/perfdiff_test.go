package cli

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/internal/testkit"
)

// TestPerfDiffFilteredCallPath: B is A with one call path filtered out
// (cut --prune moves its time into its caller, as a measurement filter
// does). The filtered call path is a structural difference, printed
// apart with its value in A and "absent" in B, never ranked as a
// performance difference; the caller's own time, which grew by as much,
// is.
func TestPerfDiffFilteredCallPath(t *testing.T) {
	dir := t.TempDir()
	a := testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size25.r1.cubex")
	b := filepath.Join(dir, "filtered.cubex")
	mustRun(t, "cut", a, "--prune", "MPI_Allreduce", "-o", b)
	const caller = "lulesh2.0/int main(int, char**)/void TimeIncrement(Domain&)"
	filtered := caller + "/MPI_Allreduce"
	want := treeValues(t, a, "time")[filtered]
	if want < 100 {
		t.Fatalf("MPI_Allreduce has %v s in A; the test wants a large call path", want)
	}

	_, rows := readCSV(t, mustRun(t, "perfdiff", a, b, "--metric", "time", "--delta", "0.01", "--relative", "--csv"))
	var structural, self [][]string
	for _, r := range rows {
		switch {
		case r[0] != "differs":
			structural = append(structural, r)
		case r[1] == filtered:
			t.Errorf("the filtered call path is ranked as a performance difference: %v", r)
		case r[1] == caller && r[7] == "true":
			// The caller has no other callee: its own time is its whole
			// time in the common part.
			self = append(self, r)
		}
	}
	if len(structural) != 1 || structural[0][0] != "only_in_a" || structural[0][1] != filtered ||
		!close9(num(t, structural[0][3]), want) || structural[0][4] != "" {
		t.Errorf("structural rows %v; want only_in_a %s with A = %v and B empty", structural, filtered, want)
	}
	sum := 0.0
	for _, r := range self {
		sum += num(t, r[5])
	}
	if len(self) == 0 || !close9(-sum, want) {
		t.Errorf("the caller's time grew by %v in B (most specific foci %v), want %v", -sum, self, want)
	}

	text := mustRun(t, "perfdiff", a, b, "--metric", "time", "--delta", "0.01", "--relative")
	if !strings.Contains(text, "structural differences") || !strings.Contains(text, "absent") ||
		!strings.Contains(text, "call path "+filtered) || strings.Contains(strings.ToLower(text), "significant") {
		t.Errorf("text output:\n%s", text)
	}
	if i, j := strings.Index(text, "structural differences"), strings.Index(text, "differing foci"); i < 0 || j < i {
		t.Errorf("structural differences must come first:\n%s", text)
	}
}

// TestPerfDiffMatchingOptions: perfdiff matches experiments as diff does,
// with --rename and --strict-roots.
func TestPerfDiffMatchingOptions(t *testing.T) {
	before, after := filepath.Join("..", "assets", "before.cubex"), filepath.Join("..", "assets", "after.cubex")
	_, rows := readCSV(t, mustRun(t, "perfdiff", before, after, "--metric", "time", "--delta", "1", "--csv", "--rename", "MPI_Barrier=barrier"))
	renamed := false
	for _, r := range rows {
		if strings.HasSuffix(r[1], "/MPI_Barrier") {
			t.Fatalf("--rename not applied: %v", r)
		}
		renamed = renamed || strings.HasSuffix(r[1], "/barrier")
	}
	if !renamed {
		t.Errorf("no focus on the renamed region: %v", rows)
	}
	// Renaming the root of one side only: the roots still match unless
	// --strict-roots keeps them apart.
	_, rows = readCSV(t, mustRun(t, "perfdiff", before, after, "--metric", "time", "--delta", "1", "--csv", "--strict-roots"))
	for _, r := range rows {
		if r[0] != "differs" {
			t.Errorf("a file pair with the same root gave structural differences under --strict-roots: %v", r)
		}
	}
	if status, _, errOut := run("perfdiff", before, after, "--metric", "time", "--delta", "1", "--rename", "x"); status != 2 || !strings.Contains(errOut, "rename") {
		t.Errorf("bad --rename: status %d, %s", status, errOut)
	}
}

// TestPerfDiffAcrossTools: the cpi run measured by Score-P and by TAU.
// TAU did not record main and iteration, above its MPI calls; the
// algebra matches the calls across those frames, so they are compared
// (not listed as "cpi/main only in A"), and each side's whole-program
// value over the common part plus its structural differences is its
// total. HPCToolkit measured CPU time: without --map-metric the metric
// is missing in B, and the text names the mapping that compares it.
func TestPerfDiffAcrossTools(t *testing.T) {
	scorep := testkit.Data(t, "cube4", "cpi", "profile.cubex")
	tau := testkit.Data(t, "tau", "cpi-mpi")
	_, rows := readCSV(t, mustRun(t, "perfdiff", scorep, tau, "--metric", "TIME", "--delta", "0", "--csv"))
	var only [2]float64
	var root []string
	bcast := false
	for _, r := range rows {
		switch r[0] {
		case "only_in_a":
			if r[1] == "cpi/main" {
				t.Errorf("main is listed as only in A: %v", r)
			}
			only[0] += num(t, r[3])
		case "only_in_b":
			only[1] += num(t, r[4])
		case "differs":
			bcast = bcast || r[1] == "cpi/main/iteration/MPI_Bcast" && strings.HasSuffix(r[2], "MPI Rank 3")
			if r[1] == "cpi" && r[2] == "machine Linux" {
				root = r
			}
		default:
			t.Errorf("row %v", r)
		}
	}
	if !bcast {
		t.Errorf("MPI_Bcast on rank 3 is not compared across the frames TAU did not record:\n%v", rows)
	}
	if root == nil {
		t.Fatalf("no whole-program row in %v", rows)
	}
	totalA, totalB := treeRootValue(t, scorep, "time"), treeRootValue(t, tau, "TIME")
	if a := num(t, root[3]) + only[0]; math.Abs(a-totalA) > 1e-9*totalA {
		t.Errorf("A: common %s + only in A %v = %v, total %v", root[3], only[0], a, totalA)
	}
	if b := num(t, root[4]) + only[1]; math.Abs(b-totalB) > 1e-9*totalB {
		t.Errorf("B: common %s + only in B %v = %v, total %v", root[4], only[1], b, totalB)
	}
	text := mustRun(t, "perfdiff", scorep, tau, "--metric", "TIME", "--delta", "0.5")
	for _, want := range []string{"matched: metric time: time (operand 0) = TIME (operand 1)", "matched through frames it did not record (main, iteration)"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}

	hpc := testkit.Data(t, "hpctoolkit", "cpi-database-v2")
	text = mustRun(t, "perfdiff", scorep, hpc, "--metric", "time", "--delta", "0.01")
	if !strings.Contains(text, "not compared: time is missing in B") || !strings.Contains(text, "--map-metric 'CPUTIME=time' compares them") ||
		strings.Contains(text, "differing foci") {
		t.Errorf("without --map-metric:\n%s", text)
	}
	_, rows = readCSV(t, mustRun(t, "perfdiff", scorep, hpc, "--metric", "time", "--delta", "0.01", "--csv", "--map-metric", "CPUTIME=time"))
	finalize := false
	for _, r := range rows {
		finalize = finalize || r[0] == "only_in_b" && strings.HasPrefix(r[1], "cpi/main/MPI_Finalize/PMPI_Finalize")
		if strings.HasPrefix(r[0], "metric_only") {
			t.Errorf("with --map-metric: %v", r)
		}
	}
	if !finalize {
		t.Errorf("with --map-metric, HPCToolkit's PMPI_Finalize frames are not listed only in B: %v", rows)
	}
}

// treeRootValue returns the first call-tree root's inclusive value by tree.
func treeRootValue(t *testing.T, path, metric string) float64 {
	t.Helper()
	lines := strings.Split(mustRun(t, "tree", path, "--metric", metric, "--exact"), "\n")
	v, _, _, _ := splitTreeLine(t, lines[1], strings.Contains(lines[0], "% of the total"))
	return num(t, v)
}
