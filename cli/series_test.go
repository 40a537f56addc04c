package cli

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"cubeview/analysis"
	"cubeview/internal/testkit"
)

// TestSeriesRepoAttributes: for repo:… operands --x reads the
// repository's attributes, and the attribute scaling=weak makes the
// series weak unless --strong says otherwise; with 4 runs each call path
// has a model, printed and evaluated at --predict.
func TestSeriesRepoAttributes(t *testing.T) {
	t.Setenv("CUBEVIEW_REPO", filepath.Join(t.TempDir(), "repo.db"))
	sizes := []int{10, 25, 50, 100}
	var refs []string
	for i, x := range sizes {
		f := testkit.Data(t, "cube4", "mm_sweep", fmt.Sprintf("mm.x%dy1z1.r1.cubex", x))
		mustRun(t, "repo", "import", "--app", "mm", "--attr", fmt.Sprintf("size=%d", x), "--attr", "scaling=weak", f)
		refs = append(refs, "repo:"+strconv.Itoa(i+1))
	}
	header, rows := readCSV(t, mustRun(t, append(append([]string{"series"}, refs...), "--metric", "time", "--x", "size", "--csv", "--predict", "4000")...))
	want := []string{"call_path", "run", "x", "value", "min", "mean", "max", "ratio", "efficiency", "model", "adj_r2", "smape", "predicted"}
	if strings.Join(header, ",") != strings.Join(want, ",") {
		t.Fatalf("header %v, want %v (weak scaling from the attribute)", header, want)
	}
	type pts struct{ xs, ys []float64 }
	byPath := map[string]*pts{}
	var order []string
	for _, r := range rows {
		p := byPath[r[0]]
		if p == nil {
			p = &pts{}
			byPath[r[0]] = p
			order = append(order, r[0])
		}
		p.xs, p.ys = append(p.xs, num(t, r[2])), append(p.ys, num(t, r[6])) // time's basis: the slowest location
	}
	for _, r := range rows {
		p := byPath[r[0]]
		if len(p.xs) != 4 || p.xs[0] != 10 || p.xs[3] != 100 {
			t.Fatalf("%s: x %v, want the size attributes", r[0], p.xs)
		}
		m, err := analysis.FitModel(p.xs, p.ys, false)
		if err != nil {
			t.Fatal(err)
		}
		if r[9] != m.Format("size") {
			t.Errorf("%s: model %q, fitted by hand %q", r[0], r[9], m.Format("size"))
		}
		if got := num(t, r[12]); math.Abs(got-m.Eval(4000)) > 1e-9*math.Abs(got) {
			t.Errorf("%s: predicted %v, by hand %v", r[0], got, m.Eval(4000))
		}
	}
	// ranked by the prediction, largest first
	prev := math.Inf(1)
	for _, r := range rows {
		if p := num(t, r[12]); p > prev {
			t.Errorf("%s predicted %v after %v: not ranked by the prediction (%v)", r[0], p, prev, order)
		} else {
			prev = p
		}
	}
	out := mustRun(t, append(append([]string{"series"}, refs...), "--metric", "time", "--x", "size", "--strong")...)
	if !strings.Contains(out, "strong scaling") || !strings.Contains(out, "speedup") {
		t.Errorf("--strong:\n%s", out)
	}
	if status, _, errOut := run(append(append([]string{"series"}, refs...), "--metric", "time", "--x", "nosuch")...); status != 1 || !strings.Contains(errOut, "nosuch") {
		t.Errorf("unknown attribute: %d %q", status, errOut)
	}
}

// TestSeriesFromNames reads x from the mm sweep's file names as Extra-P
// does, ranks by growth and draws a plot with models.
func TestSeriesFromNames(t *testing.T) {
	var files []string
	for _, x := range []int{1, 10, 25, 50, 100, 250, 500, 1000, 2000} {
		files = append(files, testkit.Data(t, "cube4", "mm_sweep", fmt.Sprintf("mm.x%dy1z1.r1.cubex", x)))
	}
	plot := filepath.Join(t.TempDir(), "mm.png")
	args := append([]string{"series"}, files...)
	out := mustRun(t, append(args, "--metric", "time", "--x-from-name", `x(\d+)`, "--weak", "--rank", "growth", "--top", "2", "-o", plot)...)
	checkImage(t, plot)
	for _, want := range []string{"run 9: x = 2000", "weak scaling", "model: "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	// growth: the last run's slowest location over the first's
	re := regexp.MustCompile(`(?m)^(main[^\n]*)\n`)
	if got := re.FindAllStringSubmatch(out, -1); len(got) != 2 {
		t.Errorf("--top 2: %d call paths in\n%s", len(got), out)
	}
	if status, _, errOut := run(append(args, "--metric", "time", "--x-from-name", `y(\d+)z7`)...); status != 1 || !strings.Contains(errOut, "no number in the name") {
		t.Errorf("a pattern no name matches: %d %q", status, errOut)
	}
	if status, _, _ := run(append(args, "--metric", "time", "--rank", "predicted")...); status != 2 {
		t.Errorf("--rank predicted without --predict: status %d, want 2", status)
	}
}

// TestSeriesMatching: series takes the matching options of diff.
func TestSeriesMatching(t *testing.T) {
	p27 := testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size25.r1.cubex")
	p64 := testkit.Data(t, "cube4", "lulesh", "lulesh.p64.size25.r1.cubex")
	out := mustRun(t, "series", p27, p64, "--metric", "time", "--rename", "MPI_Allreduce=allreduce", "--strict-roots", "--csv")
	if !strings.Contains(out, "/allreduce\"") || strings.Contains(out, "MPI_Allreduce") {
		t.Errorf("--rename: no allreduce row, or MPI_Allreduce left:\n%s", out)
	}
	cpi := testkit.Data(t, "cube4", "cpi", "profile.cubex")
	hpc := testkit.Data(t, "hpctoolkit", "cpi-database-v2")
	out = mustRun(t, "series", cpi, hpc, "--metric", "time", "--x", "1,2", "--map-metric", "CPUTIME=time", "--csv")
	if !strings.Contains(out, "MPI_Init") {
		t.Errorf("--map-metric: no MPI_Init row in\n%s", out)
	}
}
