package perf

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// tidy names a frame as stackcollapse-perf.pl does by default: ";"
// becomes ":", everything from the first "(" on goes (but in Go method
// names and C++'s "(anonymous namespace)"), quotes go, Java class names
// lose their "L"; "->" separates inlined frames, marked "_[i]". Frames
// whose symbol begins with "(" are left out. (Its Java rule, dropping the
// "L" of class names, is not in the results FlameGraph's tests hold.)
func tidy(name string) []string {
	if strings.HasPrefix(name, "(") {
		return nil
	}
	var out []string
	for i, f := range strings.Split(name, "->") {
		f = strings.ReplaceAll(f, ";", ":")
		if !regexp.MustCompile(`\.\(.*\)\.`).MatchString(f) {
			for j := 0; j < len(f); j++ {
				if f[j] == '(' && !strings.HasPrefix(f[j:], "(anonymous namespace)") {
					f = f[:j]
					break
				}
			}
		}
		f = strings.NewReplacer(`"`, "", "'", "").Replace(f)
		if i > 0 && !strings.Contains(f, "_[i]") {
			f += "_[i]"
		}
		out = append(out, f)
	}
	return out
}

// collapsed sums an experiment's first metric per thread and call path,
// named as stackcollapse-perf.pl --tid names them ("pid/tid;a;b"), in the
// metric's raw unit (periods or samples).
func collapsed(t *testing.T, e *model.Experiment) map[string]float64 {
	t.Helper()
	blk, err := e.Block(0)
	if err != nil {
		t.Fatal(err)
	}
	scale := 1.0
	if e.Metrics[0].Unit == "sec" {
		scale = 1e9
	}
	out := map[string]float64{}
	for c := range e.Cnodes {
		var path []string
		for l := 0; l < e.NumLocations(); l++ {
			v := blk.Value(c, l)
			if v == 0 {
				continue
			}
			loc := e.System[e.Locations[l]]
			proc := e.System[loc.Parent]
			if path == nil {
				for x := c; x >= 0; x = e.Cnodes[x].Parent {
					if n := e.CnodeRegion(x).Name; n != "[no stack]" {
						path = append(tidy(n), path...)
					}
				}
			}
			pid := "?"
			if !strings.Contains(proc.Name, "process not recorded") {
				pid = strconv.Itoa(proc.Rank)
			}
			key := pid + "/" + strings.TrimPrefix(loc.Name, "thread ")
			for _, f := range path {
				key += ";" + f
			}
			out[key] += v * scale
		}
	}
	return out
}

// byProcess sums collapsed's values per process ("pid;a;b"), as
// stackcollapse-perf.pl --pid does.
func byProcess(m map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for k, v := range m {
		pid, rest, _ := strings.Cut(k, "/")
		_, path, found := strings.Cut(rest, ";")
		key := pid
		if found {
			key += ";" + path
		}
		out[key] += v
	}
	return out
}

// readCollapsed reads stackcollapse-perf.pl's --tid result file (with
// --pid results when pid is true), keyed as collapsed (or byProcess) keys
// its stacks.
func readCollapsed(t *testing.T, path string, pid bool) map[string]float64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first := regexp.MustCompile(`^(.*)-(\d+|\?)/(\d+)$`)
	if pid {
		first = regexp.MustCompile(`^(.*)-(\d+|\?)()$`)
	}
	out := map[string]float64{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		sp := strings.LastIndexByte(line, ' ')
		n, err := strconv.ParseFloat(line[sp+1:], 64)
		if err != nil {
			t.Fatalf("%s: %q", path, line)
		}
		proc, rest, _ := strings.Cut(line[:sp], ";")
		m := first.FindStringSubmatch(proc)
		if m == nil {
			t.Fatalf("%s: %q is not comm-pid/tid", path, proc)
		}
		key := m[2] + "/" + m[3]
		if pid {
			key = m[2]
		}
		if rest != "" {
			key += ";" + rest
		}
		out[key] += n
	}
	return out
}

// compareStacks compares per-stack sums; it returns the number of values
// compared and of those that disagree.
func compareStacks(t *testing.T, label string, got, want map[string]float64) (values, bad int) {
	for k, w := range want {
		values++
		if g := got[k]; math.Abs(g-w) > 1e-9*math.Max(1, w) {
			bad++
			if bad <= 5 {
				t.Errorf("%s: %s: %v, stackcollapse-perf.pl says %v", label, k, g, w)
			}
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			values++
			bad++
			if bad <= 5 {
				t.Errorf("%s: %s: %v, not in stackcollapse-perf.pl's result", label, k, g)
			}
		}
	}
	return values, bad
}

// TestFlameGraphSamples reads the perf script outputs of FlameGraph's test
// suite and compares every thread's per-stack sums with the folded
// result stackcollapse-perf.pl --tid gives for them (FlameGraph's
// test/results), and the same result read as folded stacks.
func TestFlameGraphSamples(t *testing.T) {
	paths, local := testkit.MirrorFiles(t, "brendangregg/FlameGraph", func(p string) bool {
		return strings.HasPrefix(p, "test/") && strings.HasSuffix(p, ".txt")
	})
	var files, opened, values, bad, known int
	for _, p := range paths {
		if strings.HasPrefix(p, "test/results/") {
			continue
		}
		files++
		data, err := os.ReadFile(local[p])
		if err != nil {
			t.Fatal(err)
		}
		e, err := ParseScript(bytes.NewReader(withoutUnfinishedSample(data)), local[p])
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if err := e.Validate(); err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		opened++
		result := "test/results/" + strings.TrimSuffix(strings.TrimPrefix(p, "test/"), ".txt") + "-collapsed-tid.txt"
		ref, ok := local[result]
		if !ok {
			t.Errorf("%s: no %s", p, result)
			continue
		}
		want := readCollapsed(t, ref, false)
		got := collapsed(t, e)
		known += dropEmptySymbols(got, want)
		v, b := compareStacks(t, p, got, want)
		values, bad = values+v, bad+b
		// Per process, as stackcollapse-perf.pl --pid sums them.
		if pidRef, ok := local[strings.Replace(result, "-tid.txt", "-pid.txt", 1)]; ok {
			wantPid := readCollapsed(t, pidRef, true)
			gotPid := byProcess(got)
			known += dropEmptySymbols(gotPid, wantPid)
			v, b = compareStacks(t, pidRef, gotPid, wantPid)
			values, bad = values+v, bad+b
		}
		// The result file itself, as folded stacks with threads.
		fe, err := ReadFolded(ref, importer.Options{})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		got = collapsed(t, fe)
		for k := range got {
			if strings.HasSuffix(k, ";[unnamed]") {
				delete(got, k) // the frame " " of the stacks left out above
			}
		}
		v, b = compareStacks(t, result, got, want)
		values, bad = values+v, bad+b
	}
	t.Logf("FlameGraph: %d perf script outputs tried, %d opened, %d per-stack sums compared with stackcollapse-perf.pl's (also as folded input), %d disagreeing; %d stacks with an empty symbol left out", files, opened, values, bad, known)
}

// dropEmptySymbols leaves out the stacks with a frame whose symbol perf
// printed empty: stackcollapse-perf.pl names it " ", this reader like an
// unknown symbol, "[module]". It returns how many it left out.
func dropEmptySymbols(got, want map[string]float64) int {
	n := 0
	for k := range want {
		frames := strings.Split(k, ";")
		if !slices.Contains(frames, " ") {
			continue
		}
		for i, f := range frames {
			if f == " " {
				frames[i] = `\[[^;]*\]`
			} else {
				frames[i] = regexp.QuoteMeta(f)
			}
		}
		re := regexp.MustCompile("^" + strings.Join(frames, ";") + "$")
		for g := range got {
			if re.MatchString(g) {
				delete(got, g)
			}
		}
		delete(want, k)
		n++
	}
	return n
}

// withoutUnfinishedSample drops the last sample of perf script output
// that does not end with a blank line: stackcollapse-perf.pl counts a
// sample at the blank line after it, so it leaves such a sample out.
func withoutUnfinishedSample(data []byte) []byte {
	text := strings.TrimRight(string(data), " \t")
	if strings.HasSuffix(text, "\n\n") {
		return data
	}
	lines := strings.SplitAfter(text, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if _, ok := parseHeader(strings.TrimRight(lines[i], "\n")); ok {
			return []byte(strings.Join(lines[:i], ""))
		}
	}
	return data
}

// sampleCount counts a perf script output's sample lines, for the
// inputs without a folded reference.
func sampleCount(t *testing.T, path string) int {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	sample := regexp.MustCompile(`^\S.*\s\d+(/\d+)?\s.*:\s*$|^\S.*\s\d+(/\d+)?\s+(\[\d+\]\s+)?[\d.]+:`)
	for sc.Scan() {
		if l := sc.Text(); !strings.HasPrefix(l, "#") && sample.MatchString(l) {
			n++
		}
	}
	return n
}

// TestOtherSamples reads the perf script outputs and folded stacks of
// speedscope's and gprof2dot's test suites: every sample is counted once
// (samples, or periods summed in a metric per event), every folded count
// is summed.
func TestOtherSamples(t *testing.T) {
	for _, src := range []struct {
		repo   string
		script func(string) bool
		folded func(string) bool
	}{
		{"jlfwong/speedscope",
			func(p string) bool { return strings.HasPrefix(p, "sample/profiles/linux-perf/") },
			func(p string) bool { return strings.HasPrefix(p, "sample/profiles/stackcollapse/") }},
		{"jrfonseca/gprof2dot",
			func(p string) bool { return strings.HasPrefix(p, "tests/perf/") && strings.HasSuffix(p, ".perf") },
			func(p string) bool { return strings.HasPrefix(p, "tests/collapse/") }},
	} {
		t.Run(src.repo, func(t *testing.T) {
			paths, local := testkit.MirrorFiles(t, src.repo, func(p string) bool { return src.script(p) || src.folded(p) })
			var files, opened, values, bad int
			for _, p := range paths {
				files++
				if src.script(p) {
					e, err := ReadScript(local[p], importer.Options{})
					if err != nil {
						t.Errorf("%v", err)
						continue
					}
					opened++
					v, _ := e.Attr("perf samples")
					values++
					if want := sampleCount(t, local[p]); v != strconv.Itoa(want) {
						bad++
						t.Errorf("%s: %s samples, the file has %d", p, v, want)
					}
					continue
				}
				data, _ := os.ReadFile(local[p])
				e, err := ReadFolded(local[p], importer.Options{})
				if err != nil {
					t.Errorf("%v", err)
					continue
				}
				opened++
				want := 0.0
				for _, l := range strings.Split(strings.ReplaceAll(decodeAny(data), "\r\n", "\n"), "\n") {
					if s, n, ok := foldedLine(strings.TrimSpace(l)); ok && !isComment(s) {
						want += n
					}
				}
				total, _ := e.MetricTotal(model.MetricSel{Metric: 0, Inclusive: true})
				values++
				if math.Abs(total-want) > 1e-9*want {
					bad++
					t.Errorf("%s: total %v, the file's counts add up to %v", p, total, want)
				}
			}
			t.Logf("%s: %d files tried, %d opened, %d totals compared, %d disagreeing", src.repo, files, opened, values, bad)
		})
	}
}

func decodeAny(b []byte) string {
	if bytes.HasPrefix(b, []byte{0xff, 0xfe}) || bytes.HasPrefix(b, []byte{0xfe, 0xff}) {
		return decodeUTF16(b)
	}
	return string(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")))
}

var (
	recordOnce sync.Once
	recorded   string // perf script output
	reportOut  string // perf report's self samples per symbol
	recordErr  string
)

// record profiles a small program with perf record -g and writes perf
// script's output and perf report's per-symbol samples.
func record(t *testing.T) (script, report string) {
	recordOnce.Do(func() {
		for _, tool := range []string{"gcc", "perf"} {
			if _, err := exec.LookPath(tool); err != nil {
				recordErr = tool + " not installed (scripts/ensure-deps.sh --test installs gcc and linux-perf)"
				return
			}
		}
		dir, err := os.MkdirTemp("", "cubeview-perf")
		if err != nil {
			recordErr = err.Error()
			return
		}
		src, _ := filepath.Abs(filepath.Join("testdata", "spin.c"))
		run := func(args ...string) ([]byte, error) {
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				return nil, fmt.Errorf("%s: %v: %s", strings.Join(args, " "), err, stderr.String())
			}
			return out, nil
		}
		steps := [][]string{
			{"gcc", "-O0", "-fno-omit-frame-pointer", "-o", "spin", src},
			{"perf", "record", "-q", "-F", "999", "-g", "-o", "perf.data", "./spin"},
		}
		for _, s := range steps {
			if _, err := run(s...); err != nil {
				recordErr = "perf cannot record here: " + err.Error()
				return
			}
		}
		out, err := run("perf", "script", "-i", "perf.data", "-F", "comm,pid,tid,time,period,event,ip,sym,dso")
		if err != nil {
			recordErr = err.Error()
			return
		}
		recorded = filepath.Join(dir, "spin.perf")
		if err := os.WriteFile(recorded, out, 0o644); err != nil {
			recordErr = err.Error()
			return
		}
		rep, err := run("perf", "report", "-i", "perf.data", "--stdio", "--no-children", "-g", "none", "-F", "sample,period,pid,sym")
		if err != nil {
			recordErr = err.Error()
			return
		}
		reportOut = string(rep)
	})
	if recordErr != "" {
		t.Skip(recordErr)
	}
	return recorded, reportOut
}

// TestRecorded profiles a program here with perf record and compares the
// experiment's samples and periods per function (own values) with perf
// report's.
func TestRecorded(t *testing.T) {
	script, report := record(t)
	e, err := ReadScript(script, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	// perf report: "  322   322322322   8074:spin   [.] leaf"
	row := regexp.MustCompile(`^\s*(\d+)\s+(\d+)\s+\d+:\S+\s+\[[.k]\]\s+(\S.*?)\s*$`)
	total := regexp.MustCompile(`^# Samples: (\d+)\s+of event '([^']+)'`)
	want := map[string]float64{}
	var samples int
	event := ""
	for _, l := range strings.Split(report, "\n") {
		if m := total.FindStringSubmatch(l); m != nil {
			samples, _ = strconv.Atoi(m[1])
			event = m[2]
		}
		if m := row.FindStringSubmatch(l); m != nil && !strings.HasPrefix(m[3], "0x") {
			p, _ := strconv.ParseFloat(m[2], 64)
			want[m[3]] += p
		}
	}
	if v, _ := e.Attr("perf samples"); v != strconv.Itoa(samples) || e.Metrics[0].UniqName != event {
		t.Errorf("%s samples of %s, perf report: %d of %s", v, e.Metrics[0].UniqName, samples, event)
	}
	own, _, err := e.FlatProfileOf(model.MetricSel{Metric: 0, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for r, reg := range e.Regions {
		got[reg.Name] += own[r] * 1e9
	}
	bad := 0
	for sym, w := range want {
		if math.Abs(got[sym]-w) > 1e-6*w {
			bad++
			t.Errorf("%s: %v ns, perf report %v", sym, got[sym], w)
		}
	}
	if want["spin_leaf"] == 0 {
		t.Errorf("perf report has no samples in spin_leaf: %s", report)
	}
	t.Logf("recorded: %d samples, %d functions' periods compared with perf report, %d disagreeing", samples, len(want), bad)
}

// BenchmarkReadLargest reads the largest real perf script output at hand,
// gprof2dot's xwax.perf (4.1 MB).
func BenchmarkReadLargest(b *testing.B) {
	_, local := testkit.MirrorFiles(b, "jrfonseca/gprof2dot", func(p string) bool { return p == "tests/perf/xwax.perf" })
	path, ok := local["tests/perf/xwax.perf"]
	if !ok {
		b.Skip("xwax.perf is not in the snapshot")
	}
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ReportAllocs()
	start := testkit.CPUTime()
	for i := 0; i < b.N; i++ {
		if _, err := ReadScript(path, importer.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(testkit.CPUTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkReadFolded reads gprof2dot's synapse.collapse (2.8 MB of
// folded Python stacks).
func BenchmarkReadFolded(b *testing.B) {
	_, local := testkit.MirrorFiles(b, "jrfonseca/gprof2dot", func(p string) bool { return p == "tests/collapse/synapse.collapse" })
	path, ok := local["tests/collapse/synapse.collapse"]
	if !ok {
		b.Skip("synapse.collapse is not in the snapshot")
	}
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := ReadFolded(path, importer.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCompressed reads FlameGraph's gzip-compressed example
// (example-perf-stacks.txt.gz, 3.1 MB of perf script output): every
// sample is counted once.
func TestCompressed(t *testing.T) {
	_, local := testkit.MirrorFiles(t, "brendangregg/FlameGraph", func(p string) bool { return p == "example-perf-stacks.txt.gz" })
	path, ok := local["example-perf-stacks.txt.gz"]
	if !ok {
		t.Skip("example-perf-stacks.txt.gz is not in the snapshot")
	}
	e, err := ReadScript(path, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(t.TempDir(), "example-perf-stacks.txt")
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plain, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if v, _ := e.Attr("perf samples"); v != strconv.Itoa(sampleCount(t, plain)) {
		t.Errorf("%s samples, the file has %d", v, sampleCount(t, plain))
	}
}
