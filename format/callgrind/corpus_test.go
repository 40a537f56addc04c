package callgrind

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// callgrindCorpora are public repositories whose callgrind and cachegrind
// files the corpus test reads, with the paths that hold them.
var callgrindCorpora = []struct {
	repo  string
	match func(string) bool
}{
	{"jrfonseca/gprof2dot", func(p string) bool { return strings.HasSuffix(p, ".callgrind") }},
	{"jlfwong/speedscope", func(p string) bool { return strings.HasPrefix(p, "sample/profiles/callgrind/") }},
	{"google/pprof", func(p string) bool {
		return strings.HasPrefix(p, "internal/driver/testdata/") && strings.HasSuffix(p, ".callgrind")
	}},
}

// knownRefused are corpus files this reader refuses on purpose, with why.
var knownRefused = map[string]string{
	// speedscope's own test of "subposition compression" puts "*" in a
	// cost column ("* *"), which the format does not define (the
	// compression applies to positions); callgrind_annotate reads it as
	// a cost of 0, speedscope as the previous line's cost.
	"sample/profiles/callgrind/callgrind.subposition-compression.log": `"*" (same as before) compresses positions, not costs`,
}

// annotateRefuses are corpus files callgrind_annotate refuses that
// KCachegrind and gprof2dot read, with why.
var annotateRefuses = map[string]string{
	"tests/callgrind/bzr.callgrind": "fi= lines before the first fn= line",
}

// checkOwnTotals compares the total of every event with the sum of the
// file's cost lines, counted here the simple way (one position column;
// the cost line after calls= is a call's inclusive cost, not counted),
// and expects a warning where the file's summary: line says otherwise.
// It returns how many values it compared.
func checkOwnTotals(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var events, summary []string
	var sums []float64
	afterCalls := false
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "events:"):
			events = strings.Fields(strings.TrimPrefix(line, "events:"))
			sums = make([]float64, len(events))
		case strings.HasPrefix(line, "summary:"):
			summary = strings.Fields(strings.TrimPrefix(line, "summary:"))
		case strings.HasPrefix(line, "calls="):
			afterCalls = true
		case line != "" && (line[0] >= '0' && line[0] <= '9' || line[0] == '+' || line[0] == '-'):
			if afterCalls {
				afterCalls = false
				continue
			}
			for i, f := range strings.Fields(line)[1:] {
				v, err := strconv.ParseFloat(f, 64)
				if err != nil {
					t.Fatalf("cost %q: %v", f, err)
				}
				sums[i] += v
			}
		}
	}
	e, err := Read(path, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, ev := range events {
		m := e.MetricByName(ev)
		excl, err := e.CallTreeValues(model.MetricSel{Metric: m, Inclusive: true}, false)
		if err != nil {
			t.Fatal(err)
		}
		var got float64
		for _, v := range excl {
			got += v
		}
		if got != sums[i] {
			t.Errorf("%s: total %g, the file's cost lines sum to %g", ev, got, sums[i])
		}
		if i < len(summary) && summary[i] != strconv.FormatFloat(sums[i], 'f', -1, 64) {
			if !strings.Contains(strings.Join(e.Warnings, "\n"), "summary: line says "+summary[i]) {
				t.Errorf("%s: the summary: line says %s, the costs sum to %g, and no warning says so: %q", ev, summary[i], sums[i], e.Warnings)
			}
		}
	}
	return len(events)
}

// TestCorpus compares the callgrind files of public repositories (where
// their snapshots are on this machine) with callgrind_annotate.
func TestCorpus(t *testing.T) {
	skipped := 0
	var mu sync.Mutex
	tried, opened, compared := 0, 0, 0
	for _, c := range callgrindCorpora {
		t.Run(strings.ReplaceAll(c.repo, "/", "+"), func(t *testing.T) {
			paths, local := testkit.MirrorFiles(t, c.repo, c.match)
			more := testkit.CorpusBudget(t)
			if len(paths) == 0 {
				t.Fatalf("no callgrind files in the snapshot of %s", c.repo)
			}
			for _, p := range paths {
				if !more() {
					skipped++
					continue
				}
				t.Run(p, func(t *testing.T) {
					mu.Lock()
					tried++
					mu.Unlock()
					if why, ok := knownRefused[p]; ok {
						_, err := Read(local[p], importer.Options{})
						if err == nil || !strings.Contains(err.Error(), why) {
							t.Errorf("error %v, want one saying %q", err, why)
						}
						return
					}
					var n int
					if why, ok := annotateRefuses[p]; ok {
						// The file's own cost lines are the reference.
						n = checkOwnTotals(t, local[p])
						t.Logf("callgrind_annotate refuses it (%s); compared with the sums of its cost lines", why)
					} else {
						n = checkAnnotate(t, "callgrind_annotate", local[p])
					}
					mu.Lock()
					opened++
					compared += n
					mu.Unlock()
				})
			}
		})
	}
	t.Logf("callgrind corpus: %d files tried, %d left for lack of time ("+testkit.CorpusTimeEnv+"=0 checks all), %d opened, %d values compared", tried, skipped, opened, compared)
}

// testProgram is a small C program with recursion, a loop with a branch
// and calls into the C library, so that callgrind writes calls, jumps and
// subpositions of every kind.
const testProgram = `#include <stdio.h>
#include <stdlib.h>
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static double work(int n) {
	double s = 0;
	for (int i = 0; i < n; i++) { if (i % K) s += i * 0.5; else s -= i; }
	return s;
}
int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 15;
	printf("%d %f\n", fib(n), work(20000 * n));
	return 0;
}
`

// buildProgram compiles testProgram with K set to k, skipping the test
// without a C compiler or valgrind.
func buildProgram(t *testing.T, dir string, k int) string {
	t.Helper()
	for _, tool := range []string{"gcc", "valgrind"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (make test installs it)", tool)
		}
	}
	src := filepath.Join(dir, "prog.c")
	if err := os.WriteFile(src, []byte(strings.Replace(testProgram, "K", string(rune('0'+k)), 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "prog"+string(rune('0'+k)))
	if out, err := exec.Command("gcc", "-g", "-O1", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	return bin
}

// valgrind runs a valgrind tool on bin with options, writing out.
func valgrind(t *testing.T, out, tool string, bin string, opts ...string) {
	t.Helper()
	args := append([]string{"--tool=" + tool, "--" + tool + "-out-file=" + out}, opts...)
	cmd := exec.Command("valgrind", append(args, bin, "12")...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("valgrind %v: %v\n%s", args, err, msg)
	}
}

// TestValgrindOutputs runs callgrind with the options that change what it
// writes (jumps, instruction positions, no compression, cache simulation)
// and cachegrind, and compares each output with callgrind_annotate or
// cg_annotate; and cg_diff's difference of two cachegrind runs, whose
// costs are negative where the second run spent less, with cg_annotate.
func TestValgrindOutputs(t *testing.T) {
	dir := t.TempDir()
	bin := buildProgram(t, dir, 3)
	for name, opts := range map[string][]string{
		"default":         nil,
		"jumps":           {"--collect-jumps=yes"},
		"instr-jumps":     {"--dump-instr=yes", "--collect-jumps=yes"},
		"no-compression":  {"--dump-instr=yes", "--compress-pos=no", "--compress-strings=no"},
		"cache-branch":    {"--cache-sim=yes", "--branch-sim=yes"},
		"instr-only":      {"--dump-instr=yes", "--dump-line=no"},
		"collect-systime": {"--collect-systime=yes"},
	} {
		t.Run("callgrind-"+name, func(t *testing.T) {
			out := filepath.Join(dir, "callgrind."+name)
			valgrind(t, out, "callgrind", bin, opts...)
			checkAnnotate(t, "callgrind_annotate", out)
		})
	}
	t.Run("cachegrind-and-cg_diff", func(t *testing.T) {
		if _, err := exec.LookPath("cg_diff"); err != nil {
			t.Skip("cg_diff not installed (make test installs valgrind)")
		}
		a, b := filepath.Join(dir, "cachegrind.a"), filepath.Join(dir, "cachegrind.b")
		valgrind(t, a, "cachegrind", bin)
		valgrind(t, b, "cachegrind", buildProgram(t, dir, 5))
		checkAnnotate(t, "cg_annotate", a)
		diff, err := exec.Command("cg_diff", a, b).Output()
		if err != nil {
			t.Fatalf("cg_diff: %v", err)
		}
		d := filepath.Join(dir, "cachegrind.diff")
		if err := os.WriteFile(d, diff, 0o644); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(diff), " -") {
			t.Fatal("cg_diff wrote no negative cost; the test needs one")
		}
		checkAnnotate(t, "cg_annotate", d)
	})
}
