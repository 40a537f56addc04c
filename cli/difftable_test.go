package cli

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
)

// ownByPath sums metric uniq's exclusive values (over the call tree, the
// metric's subtree and all locations) per call path of the file at path,
// straight from the stored blocks, and returns them with the total.
func ownByPath(t *testing.T, path, uniq string) (map[string]float64, float64) {
	t.Helper()
	e, err := format.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	root := e.MetricByName(uniq)
	metrics := []int{root}
	for i := 0; i < len(metrics); i++ {
		metrics = append(metrics, e.Metrics[metrics[i]].Children...)
	}
	out := map[string]float64{}
	total := 0.0
	for _, m := range metrics {
		b, err := e.Block(m)
		if err != nil {
			t.Fatal(err)
		}
		for c := range e.Cnodes {
			for l := 0; l < e.NumLocations(); l++ {
				v := b.Value(c, l)
				out[e.CallPath(c)] += v
				total += v
			}
		}
	}
	return out, total
}

// diffLine is one parsed row of diff's table.
type diffLine struct {
	a, b, diff float64
	pct        string
	path       string
}

func parseDiffTable(t *testing.T, out string) (rows []diffLine, footer string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	start := -1
	for i, l := range lines {
		if strings.Contains(l, "% of A  call path") {
			start = i + 1
		}
	}
	if start < 0 || !strings.HasPrefix(lines[0], "Time [time] sec") || !strings.Contains(out, "positive where A spent more") {
		t.Fatalf("no table header in\n%s", out)
	}
	for _, l := range lines[start : len(lines)-1] {
		f := strings.Fields(l)
		if len(f) < 5 {
			t.Fatalf("table row %q", l)
		}
		path := strings.TrimSpace(l[strings.Index(l, f[3])+len(f[3]):])
		n := func(s string) float64 { return num(t, strings.NewReplacer(",", "", "+", "").Replace(s)) }
		rows = append(rows, diffLine{n(f[0]), n(f[1]), n(f[2]), f[3], path})
	}
	return rows, lines[len(lines)-1]
}

// TestDiffTable checks diff's terminal table on two LULESH runs against
// values summed independently from each file's stored data.
func TestDiffTable(t *testing.T) {
	a := testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size30.r1.cubex")
	b := testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size25.r1.cubex")
	wantA, totalA := ownByPath(t, a, "time")
	wantB, _ := ownByPath(t, b, "time")
	changed := 0
	for p := range union(wantA, wantB) {
		if wantA[p] != wantB[p] {
			changed++
		}
	}

	out := mustRun(t, "diff", a, b, "--top", "0", "--exact", "--metric", "TIME")
	rows, footer := parseDiffTable(t, out)
	if len(rows) != changed || !strings.Contains(footer, strconv.Itoa(changed)+" changed call paths") {
		t.Errorf("%d rows, footer %q; want %d changed call paths", len(rows), footer, changed)
	}
	seen := map[string]bool{}
	for i, r := range rows {
		if seen[r.path] {
			t.Errorf("call path %s twice", r.path)
		}
		seen[r.path] = true
		if !close9(r.a, wantA[r.path]) || !close9(r.b, wantB[r.path]) {
			t.Errorf("%s: A %v B %v, want %v and %v", r.path, r.a, r.b, wantA[r.path], wantB[r.path])
		}
		if !close9(r.diff, wantA[r.path]-wantB[r.path]) {
			t.Errorf("%s: A − B %v, want %v", r.path, r.diff, wantA[r.path]-wantB[r.path])
		}
		p, err := strconv.ParseFloat(strings.TrimSuffix(r.pct, "%"), 64)
		if want := 100 * r.diff / totalA; err != nil || math.Abs(p-want) > 0.05+1e-9 {
			t.Errorf("%s: %% of A %q, want %.3f", r.path, r.pct, want)
		}
		if i > 0 && math.Abs(r.diff) > math.Abs(rows[i-1].diff) {
			t.Errorf("row %d (%s) changed more than the row above it", i, r.path)
		}
	}
	if !strings.Contains(out, "B: "+b+" (total ") {
		t.Errorf("table does not name B:\n%s", out)
	}

	// The default: 20 rows at most, 4 significant digits, the same as -o -.
	brief := mustRun(t, "diff", a, b)
	if dash := mustRun(t, "diff", a, b, "-o", "-"); dash != brief {
		t.Errorf("-o - prints\n%s\nwithout -o\n%s", dash, brief)
	}
	top, footer := parseDiffTable(t, mustRun(t, "diff", a, b, "--top", "3"))
	if len(top) != min(3, changed) || !strings.Contains(footer, "top 3 of") {
		t.Errorf("--top 3: %d rows, footer %q", len(top), footer)
	}
	for i := range top {
		if top[i].path != rows[i].path || math.Abs(top[i].diff-rows[i].diff) > 5e-4*math.Abs(rows[i].diff) {
			t.Errorf("--top 3 row %d: %s %v, want %s %v", i, top[i].path, top[i].diff, rows[i].path, rows[i].diff)
		}
	}
	// Reversed operands: the signs turn.
	rev, _ := parseDiffTable(t, mustRun(t, "diff", b, a, "--top", "1", "--exact"))
	if len(rev) != 1 || rev[0].path != rows[0].path || rev[0].diff != -rows[0].diff {
		t.Errorf("diff B A: %+v, want %s with A − B %v", rev, rows[0].path, -rows[0].diff)
	}
}

func TestDiffTableErrors(t *testing.T) {
	a := testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size30.r1.cubex")
	tests := []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"diff", a, a, "--top", "-1"}, 2, "--top -1: want N ≥ 0"},
		{[]string{"diff", a, a, "--top", "5", "-o", "x.cubex"}, 2, "leave out -o"},
		{[]string{"diff", a, a, "--metric", "tme"}, 1, "did you mean time?"},
		{[]string{"diff", a}, 2, "want 2 operands"},
	}
	for _, tt := range tests {
		status, _, errOut := run(tt.args...)
		if status != tt.status || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: status %d, stderr %q; want %d and %q", tt.args, status, errOut, tt.status, tt.want)
		}
	}
	if status, out, _ := run("diff", a, a); status != 0 || !strings.HasSuffix(out, "no call path changed (12 call paths)\n") {
		t.Errorf("diff of a file with itself: status %d\n%s", status, out)
	}
}

func union(a, b map[string]float64) map[string]bool {
	u := map[string]bool{}
	for k := range a {
		u[k] = true
	}
	for k := range b {
		u[k] = true
	}
	return u
}
