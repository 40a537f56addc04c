package pprof

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// realProfiles lists the profiles of the shared real-data folder.
func realProfiles(t *testing.T) []string {
	t.Helper()
	dir := testkit.Data(t, "pprof")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && !strings.HasSuffix(e.Name(), ".string") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	if len(out) == 0 {
		t.Fatalf("no profiles in %s", dir)
	}
	return out
}

// goTool returns the go command, skipping the test without one.
func goTool(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	p := filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	if _, err := os.Stat(p); err != nil {
		t.Skip("the go command is not available to run \"go tool pprof\"")
	}
	return p
}

var pprofPath struct {
	once sync.Once
	path string
	err  error
}

// pprofTool returns the path of the pprof tool "go tool pprof" runs, so
// that the many runs of a test skip the go command's start-up.
func pprofTool(t *testing.T, goCmd string) string {
	t.Helper()
	pprofPath.once.Do(func() {
		out, err := exec.Command(goCmd, "tool", "-n", "pprof").Output()
		pprofPath.path, pprofPath.err = strings.TrimSpace(string(out)), err
	})
	if pprofPath.err != nil || pprofPath.path == "" {
		t.Fatalf("go tool -n pprof: %v", pprofPath.err)
	}
	return pprofPath.path
}

var topRow = regexp.MustCompile(`^\s*(\S+)\s+\S+\s+\S+\s+(\S+)\s+\S+\s+(.*)$`)

// pprofTop runs "go tool pprof -top" on path for one sample type and
// returns flat and cum per function, in the sample type's own unit.
func pprofTop(t *testing.T, goCmd, path string, sampleIndex int, unit string) map[string][2]float64 {
	t.Helper()
	args := []string{"-top", "-nodecount=100000", "-nodefraction=0", "-edgefraction=0",
		"-symbolize=none", "-sample_index=" + strconv.Itoa(sampleIndex)}
	if unit != "" {
		args = append(args, "-unit="+unit)
	}
	cmd := exec.Command(pprofTool(t, goCmd), append(args, path)...)
	cmd.Env = append(os.Environ(), "PPROF_TMPDIR="+t.TempDir(), "PPROF_BINARY_PATH=/nonexistent")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go tool pprof %s: %v", path, err)
	}
	rows := map[string][2]float64{}
	header := false
	last := "" // the name of the row before
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "flat%") && strings.Contains(line, "cum%") {
			header = true
			continue
		}
		if !header || strings.TrimSpace(line) == "" {
			continue
		}
		m := topRow.FindStringSubmatch(line)
		if m == nil && last != "" {
			// A function name with a line break goes on.
			v := rows[last]
			delete(rows, last)
			last += "\n" + line
			rows[last] = v
			continue
		}
		if m == nil {
			t.Fatalf("unexpected pprof -top line %q", line)
		}
		// "(inline)" and "(partial-inline)" annotate how a function was
		// reached; the name is what precedes them.
		name := strings.TrimSuffix(strings.TrimSuffix(m[3], " (inline)"), " (partial-inline)")
		rows[name] = [2]float64{parseQuantity(t, m[1]), parseQuantity(t, m[2])}
		last = name
	}
	if !header {
		t.Fatalf("no table in the output of go tool pprof:\n%s", out)
	}
	return rows
}

// parseQuantity reads "7080000000ns", "41063B" or "712".
func parseQuantity(t *testing.T, s string) float64 {
	num := strings.TrimRightFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		t.Fatalf("bad quantity %q in pprof output", s)
	}
	return v
}

// byName returns per region name the flat value (Σ own values of its
// cnodes) and the cumulative value (each call path counted once however
// often the name occurs on it), which is how pprof aggregates at function
// granularity.
func byName(e *model.Experiment, excl []float64) map[string][2]float64 {
	incl := e.CallInclusive(excl, model.Sum)
	out := map[string][2]float64{}
	onPath := map[string]int{}
	var walk func(c int)
	walk = func(c int) {
		name := e.CnodeRegion(c).Name
		v := out[name]
		v[0] += excl[c]
		if onPath[name] == 0 {
			v[1] += incl[c]
		}
		out[name] = v
		onPath[name]++
		for _, ch := range e.Cnodes[c].Children {
			walk(ch)
		}
		onPath[name]--
	}
	for _, r := range e.CnodeRoots {
		walk(r)
	}
	return out
}

func close(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// TestTopEqualsPprof compares, for every real profile and every sample
// type, each function's flat and cumulative value with "go tool pprof -top".
func TestTopEqualsPprof(t *testing.T) {
	goCmd := goTool(t)
	for _, path := range realProfiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) { checkTop(t, goCmd, path) })
	}
}

// TestTopEqualsPprofHandmade does the same on a profile with function
// names, files, inlined frames, recursion and thread labels.
func TestTopEqualsPprofHandmade(t *testing.T) {
	checkTop(t, goTool(t), writeProfile(t, handmade()))
}

// checkTop compares the profile at path with "go tool pprof -top" for every
// sample type and returns how many values it compared.
func checkTop(t *testing.T, goCmd, path string) int {
	t.Helper()
	e, err := Read(path, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	compared := 0
	for m := range e.Metrics {
		met := &e.Metrics[m]
		unit, scale := "", 1.0
		switch met.Unit {
		case "sec":
			unit, scale = "ns", 1e9
		case "bytes":
			unit = "B"
		}
		want := pprofTop(t, goCmd, path, m, unit)
		excl, err := e.CallTreeValues(model.MetricSel{Metric: m, Inclusive: true}, false)
		if err != nil {
			t.Fatal(err)
		}
		got := byName(e, excl)
		for name, w := range want {
			compared += 2
			g := got[name]
			if !close(g[0]*scale, w[0]) || !close(g[1]*scale, w[1]) {
				t.Errorf("%s %s: flat %g cum %g, pprof says %g %g", met.UniqName, name, g[0]*scale, g[1]*scale, w[0], w[1])
			}
		}
		for name, g := range got {
			if _, ok := want[name]; !ok && (g[0] != 0 || g[1] != 0) {
				t.Errorf("%s %s: flat %g cum %g, not listed by pprof", met.UniqName, name, g[0], g[1])
			}
		}
		if len(want) == 0 && len(got) == 0 {
			t.Errorf("%s: neither pprof nor cubeview lists a function", met.UniqName)
		}
	}
	return compared
}
