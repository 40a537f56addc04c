package gprof_test

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"cubeview/format"
	"cubeview/format/gprof"
	"cubeview/format/importer"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// The reference side of the tests reads a report's own tables with
// regular expressions, independently of the reader.
var (
	refFlatHeader = regexp.MustCompile(`^\s*(?:time|%)\s+(\S+)\s+\S+\s+calls\s+(\S*)/call\s+\S*/call\s+name\s*$`)
	refScale      = regexp.MustCompile(`^\s*(\(K\)\s*)+$`)
	refFlatRow    = regexp.MustCompile(`^\s*[\d.]+\s+[\d.]+\s+([\d.]+)\s+(?:(\d+)\s+([\d.]+)\s+([\d.]+)\s+)?(\S.*?)\s*$`)
	refGraphHead  = regexp.MustCompile(`^index\s+%\s*(?:time\s+)?self\s+(?:children|descend[ae]nts)\s+called`)
	refPrimary    = regexp.MustCompile(`^\[(\d+)\]\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(?:(\d+)(?:\+\d+)?\s+)?(.*?)\s+\[\d+\]$`)
	refArc        = regexp.MustCompile(`^\s+(?:([\d.]+)\s+([\d.]+)\s+)?(\d+)(?:/(\d+))?\s+(.*?)\s+\[(\d+)\]$`)
	refSuffix     = regexp.MustCompile(`( <cycle \d+>)?( \[\d+\]| \(\d+\))?$`)
	refTotal      = regexp.MustCompile(`granularity: each sample hit covers .* of ([\d.]+) seconds`)
)

type refRow struct {
	self, calls     float64
	hasCalls        bool
	selfPC, totalPC string // the per-call columns as printed
	index           int    // -1 without [N]
}

type refEntry struct {
	index               int
	name                string
	pct, self, children float64
	calls               float64
	hasCalls            bool
}

type refArcLine struct {
	caller, callee int // indices; -1 for <spontaneous>
	calls          float64
	value          float64
	hasValue       bool
}

type refReport struct {
	scale   float64 // (K) tables
	perSec  float64 // the per-call unit per histogram unit
	flat    map[string][]refRow
	flatIdx map[int]refRow
	entries map[int]refEntry
	arcs    []refArcLine
	total   float64 // seconds of the granularity line, 0 if absent
}

var perSecond = map[string]float64{"s": 1, "ms": 1e3, "us": 1e6, "ns": 1e9, "Ts": 1e-12, "": 1}

func refName(s string) string { return refSuffix.ReplaceAllString(s, "") }

func readReference(t *testing.T, path string) *refReport {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.HasPrefix(data, []byte{0xff, 0xfe}) {
		return nil // UTF-16: read through the reader only
	}
	ref := &refReport{scale: 1, flat: map[string][]refRow{}, flatIdx: map[int]refRow{}, entries: map[int]refEntry{}}
	const (
		none = iota
		flat
		graph
	)
	state, rows := none, 0
	var parents []refArcLine
	var me = -2
	for _, line := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		if m := refTotal.FindStringSubmatch(line); m != nil && ref.total == 0 {
			ref.total, _ = strconv.ParseFloat(m[1], 64)
		}
		if m := refFlatHeader.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			state, rows = flat, 0
			ref.perSec = perSecond[m[2]]
			if m[1] != "seconds" {
				ref.perSec = 1
			}
			continue
		}
		if refGraphHead.MatchString(strings.TrimSpace(line)) {
			state = graph
			continue
		}
		if refScale.MatchString(line) {
			ref.scale = 1000
			continue
		}
		switch state {
		case flat:
			if strings.TrimSpace(line) == "" {
				if rows > 0 {
					state = none
				}
				continue
			}
			m := refFlatRow.FindStringSubmatch(line)
			if m == nil {
				state = none
				continue
			}
			rows++
			r := refRow{index: -1}
			r.self, _ = strconv.ParseFloat(m[1], 64)
			r.self *= ref.scale
			if m[2] != "" {
				r.calls, _ = strconv.ParseFloat(m[2], 64)
				r.hasCalls = true
				r.selfPC, r.totalPC = m[3], m[4]
			}
			if i := strings.LastIndex(m[5], " ["); i >= 0 && strings.HasSuffix(m[5], "]") {
				r.index, _ = strconv.Atoi(m[5][i+2 : len(m[5])-1])
				ref.flatIdx[r.index] = r
			}
			name := refName(m[5])
			ref.flat[name] = append(ref.flat[name], r)
		case graph:
			trim := strings.TrimSpace(line)
			switch {
			case trim == "" || strings.HasPrefix(trim, "called/total"):
				continue
			case strings.HasPrefix(trim, "---"):
				me, parents = -2, nil
				continue
			case trim == "<spontaneous>":
				parents = append(parents, refArcLine{caller: -1})
				continue
			}
			if m := refPrimary.FindStringSubmatch(line); m != nil {
				en := refEntry{}
				en.index, _ = strconv.Atoi(m[1])
				en.pct, _ = strconv.ParseFloat(m[2], 64)
				en.self, _ = strconv.ParseFloat(m[3], 64)
				en.children, _ = strconv.ParseFloat(m[4], 64)
				en.self *= ref.scale
				en.children *= ref.scale
				if m[5] != "" {
					en.calls, _ = strconv.ParseFloat(m[5], 64)
					en.hasCalls = true
				}
				en.name = refName(m[6])
				ref.entries[en.index] = en
				me = en.index
				for _, p := range parents {
					p.callee = me
					ref.arcs = append(ref.arcs, p)
				}
				parents = nil
				continue
			}
			if m := refArc.FindStringSubmatch(line); m != nil {
				a := refArcLine{}
				a.calls, _ = strconv.ParseFloat(m[3], 64)
				if m[1] != "" {
					s, _ := strconv.ParseFloat(m[1], 64)
					c, _ := strconv.ParseFloat(m[2], 64)
					a.value, a.hasValue = (s+c)*ref.scale, true
				}
				other, _ := strconv.Atoi(m[6])
				if me == -2 {
					a.caller = other
					parents = append(parents, a)
				} else {
					a.caller, a.callee = me, other
					ref.arcs = append(ref.arcs, a)
				}
				continue
			}
			state = none
		}
	}
	return ref
}

// counts of one corpus: files tried and opened, values compared and
// values that disagree with the report.
type counts struct{ files, opened, values, bad int }

// checkReport compares an opened report with its own tables: every
// function's self value and calls with the flat profile (else its
// call-graph entry), its inclusive value with the call graph's self +
// children (else the flat profile's total per call × calls), its share
// of the run with the call graph's "% time", and every caller and callee
// line with an arc of equal calls and time.
func checkReport(t *testing.T, e *model.Experiment, path string, c *counts) {
	ref := readReference(t, path)
	if ref == nil {
		return
	}
	bad := func(format string, args ...any) {
		c.bad++
		t.Errorf("%s: "+format, append([]any{filepath.Base(path)}, args...)...)
	}
	hist := e.MetricByName("time")
	if hist < 0 {
		hist = 0
	}
	excl, incl, err := e.FlatProfileOf(model.MetricSel{Metric: hist, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	visits, _, _ := e.FlatProfileOf(model.MetricSel{Metric: e.MetricByName("visits"), Inclusive: true})
	perCall := e.MetricByName("s/call")
	var pcExcl []float64
	if perCall >= 0 {
		pcExcl, _, _ = e.FlatProfileOf(model.MetricSel{Metric: perCall, Inclusive: true})
	}
	regionOf := map[int]int{} // call-graph index → region
	for r, reg := range e.Regions {
		idx := -1
		for _, a := range reg.Attrs {
			if a.Key == "gprof index" {
				idx, _ = strconv.Atoi(a.Value)
			}
		}
		if idx >= 0 {
			regionOf[idx] = r
		}
		row, hasRow := ref.flatIdx[idx]
		en, hasEntry := ref.entries[idx]
		// A function gprof names only on caller lines has no row; others
		// without an index in the flat profile are found by a unique name.
		if !hasRow && (idx < 0 || hasEntry) && len(ref.flat[reg.Name]) == 1 {
			row, hasRow = ref.flat[reg.Name][0], true
		}
		if idx >= 0 && hasEntry && en.name != reg.Name {
			bad("region %q has index [%d] of %q", reg.Name, idx, en.name)
		}
		wantSelf, wantCalls := 0.0, 0.0
		switch {
		case hasRow:
			wantSelf, wantCalls = row.self, row.calls
		case hasEntry && !strings.HasPrefix(en.name, "<cycle"):
			wantSelf, wantCalls = en.self, en.calls
		case hasEntry:
			wantSelf, wantCalls = 0, 0
		}
		c.values += 2
		if math.Abs(excl[r]-wantSelf) > 1e-9*math.Max(1, wantSelf) || visits[r] != wantCalls {
			bad("%s: self %v calls %v, the report says %v and %v", reg.Name, excl[r], visits[r], wantSelf, wantCalls)
		}
		switch {
		case hasEntry:
			c.values++
			if want := en.self + en.children; math.Abs(incl[r]-want) > 1e-9*math.Max(1, want) {
				bad("%s: inclusive %v, the call graph's self + children %v", reg.Name, incl[r], want)
			}
			if ref.total > 0 && ref.scale == 1 {
				c.values++
				if got := 100 * incl[r] / ref.total; math.Abs(got-en.pct) > 0.05+100*0.01/ref.total {
					bad("%s: %.2f %% of the run, the call graph says %v %%", reg.Name, got, en.pct)
				}
			}
		case hasRow && row.hasCalls && row.calls > 0 && ref.perSec > 0:
			c.values++
			total, _ := strconv.ParseFloat(row.totalPC, 64)
			if want := total / ref.perSec * row.calls * ref.scale; math.Abs(incl[r]-want) > 1e-9*math.Max(1, want) {
				bad("%s: inclusive %v, the flat profile's total per call × calls %v", reg.Name, incl[r], want)
			}
		}
		if hasRow && row.selfPC != "" && pcExcl != nil && ref.perSec > 0 {
			c.values++
			// gprof divides its unrounded self time: the column lies
			// within the rounding of the printed self value per call.
			col, _ := strconv.ParseFloat(row.selfPC, 64)
			halfUnit := 0.5 * math.Pow10(-decimals(row.selfPC))
			slack := 0.005 * ref.scale / row.calls * ref.perSec
			if got := pcExcl[r] * ref.perSec; math.Abs(got-col) > slack+halfUnit+1e-9 {
				bad("%s: self per call %s, the report says %s", reg.Name, printed(got, row.selfPC), row.selfPC)
			}
		}
	}
	// Every function and cycle of the report is a region.
	names := map[string]bool{}
	for _, reg := range e.Regions {
		names[reg.Name] = true
	}
	for name := range ref.flat {
		if !names[name] {
			bad("function %q of the flat profile is missing", name)
		}
	}
	for idx, en := range ref.entries {
		if _, ok := regionOf[idx]; !ok {
			bad("entry [%d] %s is missing", idx, en.name)
		}
	}
	// Every caller and callee line is an arc.
	type pair struct{ caller, callee int }
	arcs := map[pair]model.CallArc{}
	for _, a := range e.CallGraph.Arcs {
		arcs[pair{a.Caller, a.Callee}] = a
	}
	for _, ra := range ref.arcs {
		caller := -1
		if ra.caller >= 0 {
			caller = regionOf[ra.caller]
		}
		a, ok := arcs[pair{caller, regionOf[ra.callee]}]
		c.values++
		if !ok {
			bad("no arc [%d] → [%d]", ra.caller, ra.callee)
			continue
		}
		if ra.caller < 0 {
			continue
		}
		if a.Calls != int64(ra.calls) {
			// The caller's and the callee's views of an arc agree but for
			// recursive calls, listed without a time on both sides.
			if !(ra.caller == ra.callee) {
				bad("arc [%d] → [%d]: %d calls, the report says %v", ra.caller, ra.callee, a.Calls, ra.calls)
			}
		}
		if ra.hasValue {
			c.values++
			if got := a.Values[hist]; math.Abs(got-ra.value) > 1e-9*math.Max(1, ra.value) {
				bad("arc [%d] → [%d]: %v, the report says %v", ra.caller, ra.callee, got, ra.value)
			}
		}
	}
}

// decimals returns the number of decimals of a printed column.
func decimals(column string) int {
	if dot := strings.IndexByte(column, '.'); dot >= 0 {
		return len(column) - dot - 1
	}
	return 0
}

// printed formats v with as many decimals as the report's column has.
func printed(v float64, column string) string {
	decimals := 0
	if dot := strings.IndexByte(column, '.'); dot >= 0 {
		decimals = len(column) - dot - 1
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// checkFiles opens every file and compares it with its tables; wantErr
// maps a file's base name to the error it must give instead.
func checkFiles(t *testing.T, label string, paths []string, wantErr map[string]string) {
	var c counts
	for _, path := range paths {
		c.files++
		e, err := format.Open(path)
		if want, ok := wantErr[filepath.Base(path)]; ok {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %v, want one containing %q", path, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if len(e.Regions) == 0 {
			t.Errorf("%s: opened without a function", path)
			continue
		}
		c.opened++
		checkReport(t, e, path, &c)
	}
	t.Logf("%s: %d reports tried, %d opened, %d values compared with the reports' own tables, %d disagreeing", label, c.files, c.opened, c.values, c.bad)
}

// TestSharedReports reads the shared sample reports.
func TestSharedReports(t *testing.T) {
	dir := filepath.Join(testkit.DataDir(t), "gprof")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.prof"))
	checkFiles(t, "shared data", paths, map[string]string{"issue88.prof": "lists no function"})
}

// TestGprof2dotReports reads the reports of gprof2dot's test suite: GNU
// gprof (C, C++ with static destructors, cycles, a UTF-16 report without
// data), BSD (Darwin), AIX (names beginning with a dot) and an embedded
// target's cycle-counting gprof.
func TestGprof2dotReports(t *testing.T) {
	paths, local := testkit.MirrorFiles(t, "jrfonseca/gprof2dot", func(p string) bool {
		return strings.HasPrefix(p, "tests/prof/") && strings.HasSuffix(p, ".prof")
	})
	var files []string
	for _, p := range paths {
		if st, err := os.Stat(local[p]); err == nil && st.Size() > 0 {
			files = append(files, local[p])
		}
	}
	checkFiles(t, "gprof2dot", files, map[string]string{"issue88.prof": "lists no function"})
}

// TestStudentReports reads reports checked in by users: flat profiles of
// the NAS Parallel Benchmarks (OpenMP, without call counts) and Fortran
// reports with call graphs.
func TestStudentReports(t *testing.T) {
	t.Run("NPB", func(t *testing.T) {
		var files []string
		for _, rev := range []string{"e4f7bd28ba71f12a8b916887b50f8956279e4504", "626d4d5fd33aca97fc9ad28198877c31b85590ba"} {
			paths, local := testkit.MirrorFilesAt(t, "wenyiwang-matthias/NPB-NAS-omp-nk", rev, func(p string) bool {
				return strings.HasSuffix(p, ".gp")
			})
			for _, p := range paths {
				files = append(files, local[p])
			}
		}
		// is.S.gp holds headers only ("no time accumulated"), two files
		// are empty.
		checkFiles(t, "NPB-NAS-omp-nk", files, map[string]string{
			"is.S.gp": "lists no function", "bt.gp.gp": "empty file", "gmon.out.gp": "empty file"})
	})
	t.Run("PHY905", func(t *testing.T) {
		paths, local := testkit.MirrorFiles(t, "santiama/PHY905", func(p string) bool { return strings.HasSuffix(p, ".profile") })
		var files []string
		for _, p := range paths {
			files = append(files, local[p])
		}
		checkFiles(t, "PHY905", files, nil)
	})
}

var (
	generateOnce sync.Once
	generated    []string
	generateErr  string
)

// generate builds testdata/prog.c with gcc -pg, runs it and writes its
// reports in gprof's layouts: GNU with and without explanations, BSD
// (-T), flat profile and call graph alone, with unused functions (-z).
func generate(t *testing.T) []string {
	generateOnce.Do(func() {
		for _, tool := range []string{"gcc", "gprof"} {
			if _, err := exec.LookPath(tool); err != nil {
				generateErr = tool + " not installed (scripts/ensure-deps.sh --test installs gcc and binutils)"
				return
			}
		}
		dir, err := os.MkdirTemp("", "cubeview-gprof")
		if err != nil {
			generateErr = err.Error()
			return
		}
		src, err := filepath.Abs(filepath.Join("testdata", "prog.c"))
		if err != nil {
			generateErr = err.Error()
			return
		}
		run := func(name string, args ...string) ([]byte, error) {
			cmd := exec.Command(name, args...)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				return nil, &exec.Error{Name: name + " " + strings.Join(args, " ") + ": " + stderr.String(), Err: err}
			}
			return out, nil
		}
		if _, err := run("gcc", "-O0", "-pg", "-o", "prog", src); err != nil {
			generateErr = err.Error()
			return
		}
		if _, err := run("./prog", "100"); err != nil {
			generateErr = err.Error()
			return
		}
		for _, v := range []struct {
			file string
			args []string
		}{
			{"gnu.txt", nil}, {"brief.txt", []string{"-b"}}, {"bsd.txt", []string{"-T"}}, {"bsd-brief.txt", []string{"-T", "-b"}},
			{"flat.txt", []string{"-p", "-b"}}, {"graph.txt", []string{"-q", "-b"}}, {"zero.txt", []string{"-z", "-b"}},
		} {
			out, err := run("gprof", append(v.args, "prog", "gmon.out")...)
			if err != nil {
				generateErr = err.Error()
				return
			}
			p := filepath.Join(dir, v.file)
			if err := os.WriteFile(p, out, 0o644); err != nil {
				generateErr = err.Error()
				return
			}
			generated = append(generated, p)
		}
	})
	if generateErr != "" {
		t.Skip(generateErr)
	}
	return generated
}

// TestGeneratedReports profiles a program built here with gcc -pg and
// reads gprof's reports of it in every layout.
func TestGeneratedReports(t *testing.T) {
	checkFiles(t, "generated", generate(t), nil)
}

// TestGeneratedLayoutsAgree: the GNU and BSD layouts of one profile give
// one experiment.
func TestGeneratedLayoutsAgree(t *testing.T) {
	files := generate(t)
	dump := func(path string) string {
		e, err := format.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var rows []string
		excl, incl, _ := e.FlatProfileOf(model.MetricSel{Metric: e.MetricByName("time"), Inclusive: true})
		vis, _, _ := e.FlatProfileOf(model.MetricSel{Metric: e.MetricByName("visits"), Inclusive: true})
		for r, reg := range e.Regions {
			rows = append(rows, reg.Name+" "+strconv.FormatFloat(excl[r], 'g', -1, 64)+" "+strconv.FormatFloat(incl[r], 'g', -1, 64)+" "+strconv.FormatFloat(vis[r], 'g', -1, 64))
		}
		sort.Strings(rows)
		return strings.Join(rows, "\n") + "\narcs " + strconv.Itoa(len(e.CallGraph.Arcs))
	}
	want := dump(files[0])
	for _, f := range files[1:4] {
		if d := testkit.Diff(want, dump(f)); d != "" {
			t.Errorf("%s differs from %s: %s", filepath.Base(f), filepath.Base(files[0]), d)
		}
	}
}

func TestCallGraphArcs(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "gprof", "gnu1.prof"))
	if err != nil {
		t.Fatal(err)
	}
	region := map[string]int{}
	for r, reg := range e.Regions {
		region[reg.Name] = r
	}
	arc := func(caller, callee string) *model.CallArc {
		c := -1
		if caller != "" {
			c = region[caller]
		}
		for i, a := range e.CallGraph.Arcs {
			if a.Caller == c && a.Callee == region[callee] {
				return &e.CallGraph.Arcs[i]
			}
		}
		t.Fatalf("no arc %q → %q", caller, callee)
		return nil
	}
	time := e.MetricByName("time")
	if a := arc("main", "read_all_makefiles"); a.Calls != 5 || a.Values[time] != 0.18 {
		t.Errorf("main → read_all_makefiles: %+v", a)
	}
	if a := arc("", "main"); a.Calls != -1 || a.Values != nil {
		t.Errorf("<spontaneous> → main: %+v", a)
	}
	if a := arc("pattern_search", "pattern_search"); a.Calls != 421 {
		t.Errorf("recursive pattern_search: %+v", a)
	}
	if a := arc("eval", "find_char_unquote"); a.Calls != 12980 || a.Values[time] != 0.03 {
		t.Errorf("eval → find_char_unquote: %+v", a)
	}
	if v, _ := e.Attr("gprof sample period"); v != "0.01 seconds" {
		t.Errorf("sample period attribute %q", v)
	}
	ps := e.Regions[region["pattern_search"]]
	if len(ps.Attrs) < 2 || ps.Attrs[1] != (model.Attr{Key: "gprof recursive calls", Value: "421"}) {
		t.Errorf("pattern_search attributes %v", ps.Attrs)
	}
}

// TestNoDataIsAnError: a report that lists no function (gprof's "no time
// accumulated" without calls, here in UTF-16) is an error, not an empty
// experiment.
func TestNoDataIsAnError(t *testing.T) {
	path := testkit.Data(t, "gprof", "issue88.prof")
	_, err := format.Open(path)
	if err == nil || !strings.Contains(err.Error(), "issue88.prof: the gprof report lists no function") {
		t.Errorf("error %v", err)
	}
}

// TestRoundTrip: the call graph survives both writers.
func TestRoundTrip(t *testing.T) {
	e, err := gprof.Read(testkit.Data(t, "gprof", "gnu1.prof"), importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := e.Dump(&want); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"g.cubex", "g.cube"} {
		out := filepath.Join(t.TempDir(), name)
		if err := format.Write(out, e); err != nil {
			t.Fatal(err)
		}
		back, err := format.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		back.Dump(&got)
		if d := testkit.Diff(want.String(), got.String()); d != "" {
			t.Errorf("%s: %s", name, d)
		}
		// The per-call metric comes back as a POSTDERIVED formula with
		// gprof's values.
		m, bm := e.MetricByName("s/call"), back.MetricByName("s/call")
		if bm < 0 || !back.Metrics[bm].IsDerived() || back.Metrics[bm].Type != model.PostDerived || back.Metrics[bm].Unit != "sec" {
			t.Fatalf("%s: s/call read back as %+v", name, back.Metrics[max(bm, 0)])
		}
		we, wi, _ := e.FlatProfileOf(model.MetricSel{Metric: m, Inclusive: true})
		ge, gi, err := back.FlatProfileOf(model.MetricSel{Metric: bm, Inclusive: true})
		if err != nil {
			t.Fatal(err)
		}
		for r := range we {
			if !sameValue(ge[r], we[r]) || !sameValue(gi[r], wi[r]) {
				t.Errorf("%s: %s: s/call %v/%v, before writing %v/%v", name, e.Regions[r].Name, ge[r], gi[r], we[r], wi[r])
			}
		}
	}
}

func BenchmarkReadGNU1(b *testing.B) {
	benchmarkRead(b, testkit.Data(b, "gprof", "gnu1.prof"))
}

// BenchmarkReadLargest reads the largest real report at hand, gprof2dot's
// hpasanen.prof (1.4 MB, 1,926 functions).
func BenchmarkReadLargest(b *testing.B) {
	_, local := testkit.MirrorFiles(b, "jrfonseca/gprof2dot", func(p string) bool { return p == "tests/prof/hpasanen.prof" })
	path, ok := local["tests/prof/hpasanen.prof"]
	if !ok {
		b.Skip("hpasanen.prof is not in the snapshot")
	}
	benchmarkRead(b, path)
}

func benchmarkRead(b *testing.B, path string) {
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	start := testkit.CPUTime()
	for i := 0; i < b.N; i++ {
		if _, err := gprof.Read(path, importer.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(testkit.CPUTime()-start)/float64(b.N)/1e6, "cpu-ms/op")
}

// sameValue reports whether a and b are equal, or both undefined (NaN, as
// a time over no calls is).
func sameValue(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
