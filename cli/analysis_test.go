package cli

import (
	"bytes"
	"encoding/csv"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cubeview/analysis"
	"cubeview/format"
	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// mustRun runs a command that must succeed and returns its output.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	status, out, errOut := run(args...)
	if status != 0 {
		t.Fatalf("%v: status %d: %s", args, status, errOut)
	}
	return out
}

func readCSV(t *testing.T, text string) (header []string, rows [][]string) {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("CSV: %v\n%s", err, text)
	}
	return recs[0], recs[1:]
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return v
}

func close9(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) || math.Abs(a-b) < 1e-300
}

// dumpPoints runs "dump --incl" for one metric and returns value per
// (cnode id, location id).
func dumpPoints(t *testing.T, path, metric string) map[[2]int]float64 {
	t.Helper()
	return dumpPointsOf(t, path, metric, "--incl")
}

// dumpPointsOf runs dump with flavour (--incl or --excl) for one metric
// and returns value per (cnode id, location id).
func dumpPointsOf(t *testing.T, path, metric, flavour string) map[[2]int]float64 {
	t.Helper()
	_, rows := readCSV(t, mustRun(t, "dump", path, flavour, "--metric", metric))
	out := make(map[[2]int]float64, len(rows))
	for _, r := range rows {
		c, _ := strconv.Atoi(strings.TrimSpace(r[0]))
		l, _ := strconv.Atoi(strings.TrimSpace(r[1]))
		out[[2]int{c, l}] = num(t, r[2])
	}
	return out
}

// treeValues runs "tree" and returns each call path's value.
func treeValues(t *testing.T, path, metric string) map[string]float64 {
	t.Helper()
	lines := strings.Split(strings.TrimRight(mustRun(t, "tree", path, "--metric", metric, "--exact"), "\n"), "\n")
	out := map[string]float64{}
	var stack []string
	share := strings.Contains(lines[0], "% of the total")
	for _, line := range lines[1:] {
		value, _, depth, name := splitTreeLine(t, line, share)
		stack = append(stack[:depth], name)
		p := strings.Join(stack, "/")
		if _, dup := out[p]; dup {
			t.Fatalf("call path %q twice in the tree", p)
		}
		out[p] = num(t, value)
	}
	return out
}

// focusProcesses returns the process (location group) names below the
// system node named by path (names from the root joined by "/") in e,
// which supplies the hierarchy of the integrated domain.
func focusProcesses(e *model.Experiment, path string) map[string]bool {
	out := map[string]bool{}
	for l := range e.Locations {
		if sp := analysis.SystemPath(e, e.Locations[l]); sp == path || strings.HasPrefix(sp, path+"/") {
			out[e.System[e.Location(l).Parent].Name] = true
		}
	}
	return out
}

// focusSum aggregates dump values by hand: every cnode whose call path is
// callPath, every location of the given processes (runs are matched by
// process, not by the names of their nodes).
func focusSum(e *model.Experiment, pts map[[2]int]float64, callPath string, procs map[string]bool) float64 {
	sum := 0.0
	for c := range e.Cnodes {
		if e.CallPath(c) != callPath {
			continue
		}
		for l := range e.Locations {
			if procs[e.System[e.Location(l).Parent].Name] {
				sum += pts[[2]int{e.Cnodes[c].ID, e.Location(l).ID}]
			}
		}
	}
	return sum
}

func TestPerfDiffEqualsDumpByHand(t *testing.T) {
	pairs := [][2]string{
		{"mm_sweep/mm.x10y1z1.r1.cubex", "mm_sweep/mm.x25y1z1.r1.cubex"},
		{"mm_sweep/mm.x25y1z1.r1.cubex", "mm_sweep/mm.x50y1z1.r1.cubex"},
		{"mm_sweep/mm.x50y1z1.r1.cubex", "mm_sweep/mm.x2000y1z1.r1.cubex"},
		{"lulesh/lulesh.p27.size25.r1.cubex", "lulesh/lulesh.p27.size30.r1.cubex"},
	}
	for _, p := range pairs {
		pa, pb := testkit.Data(t, "cube4", p[0]), testkit.Data(t, "cube4", p[1])
		ea, err := format.Open(pa)
		if err != nil {
			t.Fatal(err)
		}
		eb, err := format.Open(pb)
		if err != nil {
			t.Fatal(err)
		}
		for _, metric := range []string{"time", "visits"} {
			da, db := dumpPoints(t, pa, metric), dumpPoints(t, pb, metric)
			ea2, eb2 := dumpPointsOf(t, pa, metric, "--excl"), dumpPointsOf(t, pb, metric, "--excl")
			header, rows := readCSV(t, mustRun(t, "perfdiff", pa, pb, "--metric", metric, "--delta", "0", "--csv"))
			if !slices.Equal(header, []string{"kind", "call_path", "system", "a", "b", "difference", "change", "most_specific"}) {
				t.Fatalf("header %v", header)
			}
			differing := 0
			seen := map[[2]string]bool{}
			for _, r := range rows {
				if r[0] != "differs" {
					continue // structural, checked elsewhere
				}
				differing++
				k := [2]string{r[1], r[2]}
				if seen[k] {
					t.Errorf("%v %s: focus %v reported twice", p, metric, k)
				}
				seen[k] = true
				procs := focusProcesses(ea, r[2])
				if len(procs) == 0 {
					t.Fatalf("%v: system %q names no process of %s", p, r[2], pa)
				}
				pathA, pathB := da, db
				cp, self := strings.CutSuffix(r[1], " (self)")
				if self {
					pathA, pathB = ea2, eb2
				}
				wantA, wantB := focusSum(ea, pathA, cp, procs), focusSum(eb, pathB, cp, procs)
				if a, b := num(t, r[3]), num(t, r[4]); !close9(a, wantA) || !close9(b, wantB) || !close9(num(t, r[5]), a-b) {
					t.Errorf("%v %s %v: A %v B %v, dump by hand gives %v and %v", p, metric, k, a, b, wantA, wantB)
				}
			}
			if metric == "time" && differing == 0 {
				t.Errorf("%v: no differing focus", p)
			}
		}
	}
}

func TestPerfDiffSelfAndBundled(t *testing.T) {
	f := testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size25.r1.cubex")
	if _, rows := readCSV(t, mustRun(t, "perfdiff", f, f, "--metric", "time", "--delta", "0", "--csv")); len(rows) != 0 {
		t.Errorf("a file against itself: %d foci", len(rows))
	}
	out := mustRun(t, "perfdiff", f, f, "--metric", "time", "--delta", "0")
	if !strings.Contains(out, "no difference") {
		t.Errorf("text output against itself:\n%s", out)
	}
	before, after := filepath.Join("..", "assets", "before.cubex"), filepath.Join("..", "assets", "after.cubex")
	_, rows := readCSV(t, mustRun(t, "perfdiff", before, after, "--metric", "mpi_barrier_wait", "--delta", "1", "--csv"))
	found := false
	for _, r := range rows {
		if strings.HasSuffix(r[1], "/MPI_Barrier") && r[7] == "true" {
			found = true
		}
	}
	if !found {
		t.Errorf("no most specific focus on MPI_Barrier: %v", rows)
	}
	if status, _, errOut := run("perfdiff", before, after, "--metric", "nope", "--delta", "1"); status != 1 || !strings.Contains(errOut, `"nope"`) {
		t.Errorf("unknown metric: status %d, %s", status, errOut)
	}
	if status, _, _ := run("perfdiff", before, after, "--metric", "time"); status != 2 {
		t.Errorf("missing --delta: status %d, want 2", status)
	}
}

// handStats computes the stat row of values by the documented rules,
// independently of package analysis.
func handStats(values []float64) (sum, lo, hi, mean, med, q1, q3, sd float64, argmin, argmax int) {
	lo, hi = values[0], values[0]
	for i, v := range values {
		sum += v
		if v < lo {
			lo, argmin = v, i
		}
		if v > hi {
			hi, argmax = v, i
		}
	}
	n := float64(len(values))
	mean = sum / n
	for _, v := range values {
		sd += (v - mean) * (v - mean)
	}
	sd = math.Sqrt(sd / n)
	s := slices.Clone(values)
	slices.Sort(s)
	q := func(p float64) float64 {
		h := (n - 1) * p
		k := int(h)
		if k+1 >= len(s) {
			return s[len(s)-1]
		}
		return s[k] + (h-float64(k))*(s[k+1]-s[k])
	}
	return sum, lo, hi, mean, q(0.5), q(0.25), q(0.75), sd, argmin, argmax
}

func TestStatEqualsHandComputation(t *testing.T) {
	files := []struct{ path, metric string }{
		{testkit.Data(t, "cube3", "example3.cube"), "time"},
		{testkit.Data(t, "cube3", "example3.cube"), "visits"},
		{testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size25.r1.cubex"), "time"},
		{testkit.Data(t, "cube4", "lulesh", "lulesh.p64.size25.r1.cubex"), "visits"},
	}
	for _, f := range files {
		e, err := format.Open(f.path)
		if err != nil {
			t.Fatal(err)
		}
		pts := dumpPoints(t, f.path, f.metric)
		header, rows := readCSV(t, mustRun(t, "stat", f.path, "--metric", f.metric, "--csv"))
		if !slices.Equal(header, statColumns) {
			t.Fatalf("header %v", header)
		}
		if len(rows) != len(e.Cnodes) {
			t.Fatalf("%s: %d rows for %d call paths", f.path, len(rows), len(e.Cnodes))
		}
		order := e.CnodeOrder()
		for i, r := range rows {
			c := order[i]
			if r[0] != e.CallPath(c) {
				t.Fatalf("row %d is %q, want %q", i, r[0], e.CallPath(c))
			}
			values := make([]float64, e.NumLocations())
			for l := range values {
				values[l] = pts[[2]int{e.Cnodes[c].ID, e.Location(l).ID}]
			}
			sum, lo, hi, mean, med, q1, q3, sd, amin, amax := handStats(values)
			if num(t, r[1]) != float64(len(values)) {
				t.Errorf("%s %s: count %s", f.path, r[0], r[1])
			}
			for j, want := range []float64{sum, lo, hi, mean, med, q1, q3} {
				if got := num(t, r[2+j]); !close9(got, want) {
					t.Errorf("%s %s: %s = %v, by hand %v", f.path, r[0], statColumns[2+j], got, want)
				}
			}
			if got := num(t, r[9]); math.Abs(got-sd) > 1e-9*math.Max(1, math.Abs(mean)) {
				t.Errorf("%s %s: stddev %v, by hand %v", f.path, r[0], got, sd)
			}
			if r[10] != analysis.LocationName(e, amin) || r[11] != analysis.LocationName(e, amax) {
				t.Errorf("%s %s: argmin/argmax %s/%s, by hand %s/%s", f.path, r[0], r[10], r[11], analysis.LocationName(e, amin), analysis.LocationName(e, amax))
			}
		}
	}
	// --cnode picks one call path.
	f := files[2].path
	_, rows := readCSV(t, mustRun(t, "stat", f, "--metric", "time", "--csv", "--cnode", "lulesh2.0/int main(int, char**)/MPI_Init"))
	if len(rows) != 1 || rows[0][0] != "lulesh2.0/int main(int, char**)/MPI_Init" {
		t.Errorf("--cnode: %v", rows)
	}
	if status, _, errOut := run("stat", f, "--metric", "time", "--cnode", "no/such"); status != 1 || !strings.Contains(errOut, "no/such") {
		t.Errorf("unknown --cnode: %d %s", status, errOut)
	}
}

func TestSeriesEqualsTreeRatios(t *testing.T) {
	mm := []string{"mm.x10y1z1.r1.cubex", "mm.x25y1z1.r1.cubex", "mm.x50y1z1.r1.cubex", "mm.x2000y1z1.r1.cubex"}
	var mmPaths []string
	for _, f := range mm {
		mmPaths = append(mmPaths, testkit.Data(t, "cube4", "mm_sweep", f))
	}
	lulesh := []string{testkit.Data(t, "cube4", "lulesh", "lulesh.p64.size25.r1.cubex"), testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size25.r1.cubex")}
	tests := []struct {
		files []string
		x     []float64 // per file
		args  []string
		weak  bool
	}{
		{mmPaths, []float64{10, 25, 50, 2000}, []string{"--x", "10,25,50,2000", "--basis", "mean"}, false},
		{mmPaths, []float64{10, 25, 50, 2000}, []string{"--x", "10,25,50,2000", "--weak", "--basis", "mean"}, true},
		{lulesh, []float64{64, 27}, []string{"--basis", "mean"}, false}, // x: process counts, given out of order
	}
	for _, tt := range tests {
		trees := map[string]map[string]float64{}
		locs := map[string]float64{}
		for _, f := range tt.files {
			trees[f] = treeValues(t, f, "time")
			e, err := format.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			locs[f] = float64(e.NumLocations())
		}
		args := append([]string{"series"}, tt.files...)
		args = append(append(args, "--metric", "time", "--csv"), tt.args...)
		header, rows := readCSV(t, mustRun(t, args...))
		ratio := "speedup"
		if tt.weak {
			ratio = "ratio"
		}
		if !slices.Equal(header, []string{"call_path", "run", "x", "value", "min", "mean", "max", ratio, "efficiency", "model", "adj_r2", "smape"}) {
			t.Fatalf("header %v", header)
		}
		xOf := map[string]float64{}
		for i, f := range tt.files {
			xOf[f] = tt.x[i]
		}
		first := map[string][2]float64{} // call path → x₀, mean₀ of the smallest x
		checked := 0
		for _, r := range rows {
			f := r[1]
			if num(t, r[2]) != xOf[f] {
				t.Fatalf("%s: x %s, want %v", f, r[2], xOf[f])
			}
			want := trees[f][r[0]] // 0 where the run lacks the call path
			if v := num(t, r[3]); !close9(v, want) {
				t.Errorf("%s %s: value %v, tree %v", f, r[0], v, want)
			}
			mean := want / locs[f]
			if m := num(t, r[5]); !close9(m, mean) {
				t.Errorf("%s %s: mean %v, tree/locations %v", f, r[0], m, mean)
			}
			if _, ok := first[r[0]]; !ok {
				first[r[0]] = [2]float64{xOf[f], mean}
			}
			x0, m0 := first[r[0]][0], first[r[0]][1]
			if m0 == 0 || mean == 0 {
				if r[7] != "" || r[8] != "" {
					t.Errorf("%s %s: ratio %q efficiency %q, want empty (a zero value)", f, r[0], r[7], r[8])
				}
				continue
			}
			wantRatio, wantEff := m0/mean, m0/mean*x0/xOf[f]
			if tt.weak {
				wantRatio, wantEff = mean/m0, m0/mean
			}
			if !close9(num(t, r[7]), wantRatio) || !close9(num(t, r[8]), wantEff) {
				t.Errorf("%s %s: %s %s efficiency %s; by hand %v and %v", f, r[0], ratio, r[7], r[8], wantRatio, wantEff)
			}
			checked++
		}
		if checked < len(tt.files)*2 {
			t.Errorf("only %d ratios checked", checked)
		}
	}
}

// checkImage decodes a PNG and checks its size and that it is not blank.
func checkImage(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 800 {
		t.Errorf("%s: %d×%d pixels, want 1200×800", path, b.Dx(), b.Dy())
	}
	colors := map[uint32]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colors[r>>8<<16|g>>8<<8|bl>>8]++
		}
	}
	white := colors[0xffffff]
	if len(colors) < 8 || white > 99*(b.Dx()/3)*(b.Dy()/3)/100 {
		t.Errorf("%s looks blank: %d colours, %d of the sampled pixels white", path, len(colors), white)
	}
}

func TestPlotsRender(t *testing.T) {
	dir := t.TempDir()
	p27 := testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size25.r1.cubex")
	p64 := testkit.Data(t, "cube4", "lulesh", "lulesh.p64.size25.r1.cubex")
	scaling := filepath.Join(dir, "scaling.png")
	mustRun(t, "series", p27, p64, "--metric", "time", "--top", "4", "-o", scaling)
	checkImage(t, scaling)
	box := filepath.Join(dir, "box.png")
	mustRun(t, "stat", p27, "--metric", "time", "-o", box)
	checkImage(t, box)
	svg := filepath.Join(dir, "box.svg")
	mustRun(t, "stat", p27, "--metric", "time", "-o", svg)
	data, err := os.ReadFile(svg)
	if err != nil || !bytes.Contains(data, []byte("<svg")) || !bytes.Contains(data, []byte("MPI_Init")) {
		t.Errorf("SVG box plot: %v, %d bytes", err, len(data))
	}
	bars := filepath.Join(dir, "top.png")
	mustRun(t, "flat", p64, "--metric", "time", "--top", "8", "-o", bars)
	checkImage(t, bars)
	if status, _, _ := run("stat", p27, "--metric", "time", "-o", filepath.Join(dir, "x.gif")); status != 2 {
		t.Errorf("-o x.gif: status %d, want 2", status)
	}
}

func TestDeriveRatioOfSums(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []struct{ file, num, den string }{
		{"L2_DCM_negative.cubex", "PAPI_L2_DCM", "PAPI_L1_DCM"},
		{"L3_DCA_negative.cubex", "PAPI_L3_LDM", "PAPI_L3_DCA"},
	} {
		in := testkit.Data(t, "cube4", "hw_counter", f.file)
		out := filepath.Join(dir, f.file)
		mustRun(t, "derive", in, "ratio = "+f.num+" / "+f.den, "--thresholds", "low < 0.1 < high", "-o", out)
		num, den := treeValues(t, in, f.num), treeValues(t, in, f.den)
		for _, incl := range []bool{true, false} {
			args := []string{"tree", out, "--metric", "ratio", "--exact"}
			if !incl {
				args = append(args, "--excl")
			}
			lines := strings.Split(strings.TrimSpace(mustRun(t, args...)), "\n")
			got := map[string]float64{}
			var stack []string
			for _, line := range lines[1:] {
				s := strings.TrimLeft(line, " ")
				value, rest, _ := strings.Cut(s, "  ")
				name := strings.TrimLeft(rest, " ")
				depth := (len(rest) - len(name)) / 2
				label := ""
				if i := strings.LastIndex(name, " ["); i >= 0 {
					name, label = name[:i], name[i+2:len(name)-1]
				}
				stack = append(stack[:depth], name)
				v := parseNum(t, value)
				got[strings.Join(stack, "/")] = v
				if wantLabel := map[bool]string{true: "low", false: "high"}[v < 0.1]; label != wantLabel {
					t.Errorf("%s: threshold label %q for %v, want %q", stack, label, v, wantLabel)
				}
			}
			if !incl {
				continue // exclusive ratios: the same formula at each call path's own values
			}
			if len(got) != len(num) {
				t.Fatalf("%s: %d call paths in the derived tree, %d in the file", f.file, len(got), len(num))
			}
			for p, n := range num {
				want := 0.0
				if den[p] != 0 {
					want = n / den[p]
				}
				if math.Abs(got[p]-want) > 1e-9*math.Max(1, math.Abs(want)) {
					t.Errorf("%s %s: ratio %v, numerator/denominator sums %v", f.file, p, got[p], want)
				}
			}
		}
	}
	if status, _, errOut := run("derive", filepath.Join("..", "assets", "before.cubex"), "x = nope / time", "-o", filepath.Join(dir, "x.cubex")); status != 1 || !strings.Contains(errOut, `"nope"`) {
		t.Errorf("unknown operand: status %d, %s", status, errOut)
	}
	if status, _, _ := run("derive", filepath.Join("..", "assets", "before.cubex"), "x = time +", "-o", filepath.Join(dir, "x.cubex")); status != 2 {
		t.Errorf("bad expression: status %d, want 2", status)
	}
}

func parseNum(t *testing.T, s string) float64 { t.Helper(); return num(t, s) }

// TestStatMinMaxVisitedOnly: a min or max counts only the locations that
// visited a call path: on the real Score-P profile time.p4, only rank 0
// calls bg::Vector::operator() below MODEL_1, so its inclusive minimum
// has count 1 and the value of rank 0 (it was 4 locations, minimum 0);
// on a generated experiment call paths without a stored min_time row have
// count 0 and empty fields, and no minimum is ever 0.
func TestStatMinMaxVisitedOnly(t *testing.T) {
	f := testkit.Data(t, "cube4", "time.p4.n2000.x1.r0", "profile.cubex")
	_, rows := readCSV(t, mustRun(t, "stat", f, "--metric", "min_time", "--csv"))
	found := false
	for _, r := range rows {
		if r[0] == "bg_time/main/MODEL_1(unsigned long, unsigned long, int, int)/bg::Vector<double>::operator()(int)" {
			found = true
			if r[1] != "1" || r[3] != "2.952435145031e-08" || r[10] != "MPI Rank 0" {
				t.Errorf("%s: count %s, min %s at %s; want 1, 2.952435145031e-08 at MPI Rank 0", r[0], r[1], r[3], r[10])
			}
		}
	}
	if !found {
		t.Fatal("call path bg::Vector<double>::operator()(int) below MODEL_1 not in stat's CSV")
	}
	e := synth.Generate(synth.Config{Cnodes: 60, Locations: 8, Threads: 2, Nodes: 2, Metrics: 5, MinMax: true, Seed: 2, Density: 0.5})
	path := filepath.Join(t.TempDir(), "minmax.cubex")
	if err := format.Write(path, e); err != nil {
		t.Fatal(err)
	}
	_, rows = readCSV(t, mustRun(t, "stat", path, "--metric", "min_time", "--excl", "--csv"))
	empty := 0
	for _, r := range rows {
		if r[1] == "0" {
			empty++
			for i, v := range r[2:] {
				if v != "" {
					t.Errorf("%s: count 0 but field %s = %q", r[0], statColumns[i+2], v)
				}
			}
		} else if r[3] == "0" {
			t.Errorf("%s: minimum 0 over %s locations", r[0], r[1])
		}
	}
	if empty == 0 {
		t.Error("no call path without a min_time row")
	}
	text := mustRun(t, "stat", path, "--metric", "min_time", "--excl")
	if !regexp.MustCompile(`(?m)^ *0 +- +- `).MatchString(text) {
		t.Errorf("text: no row of count 0 with '-':\n%s", text)
	}
}
