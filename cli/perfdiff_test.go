package cli

import (
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
