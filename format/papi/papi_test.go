package papi

import (
	"cubeview/format/importer"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"cubeview/internal/testkit"
	"cubeview/model"
)

// inclusive returns metric m's value at cnode c and data column l with
// the values of the cnodes below it.
func inclusive(t *testing.T, e *model.Experiment, m, c, l int) float64 {
	t.Helper()
	blk, err := e.Block(m)
	if err != nil {
		t.Fatal(err)
	}
	v := blk.Value(c, l)
	for _, ch := range e.Cnodes[c].Children {
		v += inclusive(t, e, m, ch, l)
	}
	return v
}

func cnodePath(e *model.Experiment, c int) string {
	var parts []string
	for ; c >= 0; c = e.Cnodes[c].Parent {
		parts = append([]string{e.Regions[e.Cnodes[c].Region].Name}, parts...)
	}
	return strings.Join(parts, "/")
}

// fileValues computes from a PAPI 7 rank file's region instances, per
// thread and call path, the number of instances and the sum of each
// event's values (the instances' own, nested regions included).
func fileValues(t *testing.T, path string) map[string]map[string]float64 {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Threads map[string]struct {
			Regions map[string]map[string]any
		}
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]float64{}
	for th, thread := range f.Threads {
		var name func(id string) string
		name = func(id string) string {
			rg := thread.Regions[id]
			n := rg["name"].(string)
			if p := rg["parent_region_id"].(string); p != "-1" {
				return name(p) + "/" + n
			}
			return n
		}
		for id, rg := range thread.Regions {
			k := th + "|" + name(id)
			if out[k] == nil {
				out[k] = map[string]float64{}
			}
			out[k]["visits"]++
			for ev, v := range rg {
				if ev == "name" || ev == "parent_region_id" {
					continue
				}
				if obj, ok := v.(map[string]any); ok {
					v = obj["region_value"]
				}
				x, err := strconv.ParseFloat(v.(string), 64)
				if err != nil {
					t.Fatal(err)
				}
				out[k][ev] += x
			}
		}
	}
	return out
}

// checkAgainstFiles compares the experiment read from dir with the
// instances of its rank files: per rank, thread and call path the visits
// and, for each additive event, the inclusive value. It returns the
// number of values compared.
func checkAgainstFiles(t *testing.T, e *model.Experiment, files map[int]string) int {
	t.Helper()
	metricOf := map[string]int{"visits": e.MetricByName("visits")}
	factor := map[string]float64{"visits": 1}
	additive := map[string]bool{"visits": true}
	for m := range e.Metrics {
		for _, a := range e.Metrics[m].Attrs {
			if a.Key == "PAPI event" {
				metricOf[a.Value] = m
				factor[a.Value] = 1
				if e.Metrics[m].Unit == "sec" {
					factor[a.Value] = 1e-9
				}
				additive[a.Value] = e.Metrics[m].Aggregation == model.Sum
			}
		}
	}
	cnodes := map[string]int{}
	for c := range e.Cnodes {
		cnodes[cnodePath(e, c)] = c
	}
	cols := map[string]int{}
	for l := range e.Locations {
		loc := e.Location(l)
		cols[e.System[loc.Parent].Name+"|"+strings.TrimPrefix(loc.Name, "thread ")] = l
	}
	n := 0
	for rank, path := range files {
		for k, evs := range fileValues(t, path) {
			th, cpath, _ := strings.Cut(k, "|")
			c, ok := cnodes[cpath]
			l, okl := cols["rank "+strconv.Itoa(rank)+"|"+th]
			if !ok || !okl {
				t.Fatalf("%s: call path %q or thread %s missing", path, cpath, th)
			}
			for ev, want := range evs {
				m, ok := metricOf[ev]
				if !ok {
					t.Fatalf("%s: event %s is no metric", path, ev)
				}
				if !additive[ev] {
					continue
				}
				got := inclusive(t, e, m, c, l)
				if ev == "visits" { // a count per call path, not inclusive
					blk, _ := e.Block(m)
					got = blk.Value(c, l)
				}
				if w := want * factor[ev]; math.Abs(got-w) > 1e-9*math.Abs(w) {
					t.Errorf("%s: thread %s, %s, %s: %v, the file's instances: %v", path, th, cpath, ev, got, w)
				}
				n++
			}
		}
	}
	return n
}

func rankPaths(t *testing.T, dir string) map[int]string {
	t.Helper()
	files, err := rankFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]string{}
	for _, f := range files {
		out[f.rank] = f.path
	}
	return out
}

// TestGenerated reads measurements PAPI 7.0 wrote on this project's build
// machine (see testdata/README.md): four processes with three threads
// each, nested and repeated regions, reads inside a region.
func TestGenerated(t *testing.T) {
	dir := filepath.Join("testdata", "papi7-threads")
	e, err := Read(dir, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(e.Locations) != 12 || len(e.Cnodes) != 6 {
		t.Errorf("%d locations and %d cnodes, want 12 (4 ranks × 3 threads) and 6", len(e.Locations), len(e.Cnodes))
	}
	if first := e.Metrics[0].UniqName; first != "real_time" {
		t.Errorf("first metric %s, want real_time (a window shows the first metric)", first)
	}
	if n := checkAgainstFiles(t, e, rankPaths(t, dir)); n < 100 {
		t.Errorf("only %d values compared", n)
	}
	// main's own real time: main's instances less their children's
	raw := fileValues(t, filepath.Join(dir, "rank_000000.json"))
	own := raw["0|main"]["real_time_nsec"] - raw["0|main/init"]["real_time_nsec"] - raw["0|main/compute"]["real_time_nsec"]
	blk, err := e.Block(e.MetricByName("real_time"))
	if err != nil {
		t.Fatal(err)
	}
	if got := blk.Value(0, 0); math.Abs(got-own*1e-9) > 1e-15 {
		t.Errorf("main's own real time on rank 0 %v, want %v", got, own*1e-9)
	}
	if v := raw["0|main/compute"]["visits"]; v != 2 {
		t.Errorf("compute has %v instances in the file, want 2", v)
	}
}

// TestInstant reads events PAPI marks "instant": not additive, kept as
// the largest value at a region's end.
func TestInstant(t *testing.T) {
	dir := filepath.Join("testdata", "papi7-instant")
	e, err := Read(dir, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := e.MetricByName("perf::TASK-CLOCK")
	if m < 0 || e.Metrics[m].Aggregation != model.Max {
		t.Fatalf("perf::TASK-CLOCK: metric %d, want a max metric", m)
	}
	// the largest value of thread 1's inner instances on rank 1
	raw, err := os.ReadFile(filepath.Join(dir, "rank_000001.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Threads map[string]struct{ Regions map[string]map[string]any }
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	want := 0.0
	for _, rg := range f.Threads["1"].Regions {
		if rg["name"] == "inner" {
			v, _ := strconv.ParseFloat(rg["perf::TASK-CLOCK"].(string), 64)
			want = math.Max(want, v)
		}
	}
	var c int
	for c = range e.Cnodes {
		if cnodePath(e, c) == "thread_work/inner" {
			break
		}
	}
	l := -1
	for col := range e.Locations {
		loc := e.Location(col)
		if e.System[loc.Parent].Name == "rank 1" && loc.Name == "thread 1" {
			l = col
		}
	}
	blk, err := e.Block(m)
	if err != nil {
		t.Fatal(err)
	}
	if got := blk.Value(c, l); want == 0 || math.Abs(got-want*1e-9) > 1e-15 {
		t.Errorf("largest TASK-CLOCK of inner on rank 1 thread 1: %v, want %v", got, want*1e-9)
	}
}

// TestPAPI6 reads PAPI 6.0's layout: region totals per thread, no nesting.
func TestPAPI6(t *testing.T) {
	e, err := Read(filepath.Join("testdata", "papi6"), importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		metric, region string
		thread         int
		want           float64
	}{
		{"visits", "compute", 0, 3}, {"visits", "compute", 1, 2}, {"visits", "main", 0, 1},
		{"cycles", "compute", 1, 2500}, {"PAPI_TOT_INS", "compute", 0, 6000}, {"PAPI_TOT_INS", "main", 0, 9000},
	}
	for _, tt := range tests {
		m := e.MetricByName(tt.metric)
		c := -1
		for i := range e.Cnodes {
			if cnodePath(e, i) == tt.region {
				c = i
			}
		}
		if m < 0 || c < 0 {
			t.Fatalf("metric %s or region %s missing", tt.metric, tt.region)
		}
		blk, err := e.Block(m)
		if err != nil {
			t.Fatal(err)
		}
		if got := blk.Value(c, tt.thread); got != tt.want {
			t.Errorf("%s of %s, thread %d: %v, want %v", tt.metric, tt.region, tt.thread, got, tt.want)
		}
	}
	if p := e.System[e.Location(0).Parent]; p.Name != "rank 3" {
		t.Errorf("process %q, want rank 3 (from rank_0003)", p.Name)
	}
}

// dphpcRev is the commit of TomWartm/DPHPC2023 that holds its PAPI
// measurements (15 folders of 32 ranks, PAPI 7.0.1 on AMD EPYC with
// hardware counters); later commits removed them.
const dphpcRev = "ad6e19c69c2c8d235ff6376ad3d6c54e860d4fb4"

// realFolders returns the real measurement folders of the corpus.
func realFolders(t testing.TB) map[string][]string {
	t.Helper()
	files, local := testkit.MirrorFilesAt(t, "TomWartm/DPHPC2023", dphpcRev, func(p string) bool {
		return strings.HasPrefix(p, "papi_hl_output") && strings.HasSuffix(p, ".json")
	})
	dirs := map[string][]string{}
	for _, f := range files {
		d := filepath.Dir(local[f])
		dirs[d] = append(dirs[d], local[f])
	}
	return dirs
}

// TestReal reads every real measurement folder of the corpus and compares
// with the files' own region instances.
func TestReal(t *testing.T) {
	dirs := realFolders(t)
	if len(dirs) != 15 {
		t.Fatalf("%d measurement folders, want 15", len(dirs))
	}
	values := 0
	for dir := range dirs {
		e, err := Read(dir, importer.Options{})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if err := e.Validate(); err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		if np := len(e.Locations); np != 32 {
			t.Errorf("%s: %d locations, want 32 ranks", dir, np)
		}
		values += checkAgainstFiles(t, e, rankPaths(t, dir))
	}
	t.Logf("%d folders (%d rank files), %d values equal to the files' region instances", len(dirs), 15*32, values)
}

// TestWriterSummary compares with PAPI's own report of the same folders,
// papi_hl_output_writer (Debian package papi-tools): per region name, the
// number of instances and each additive event's total (the sum of the
// inclusive values of its call paths) and, for instantaneous events, the
// largest value.
func TestWriterSummary(t *testing.T) {
	writer, err := exec.LookPath("papi_hl_output_writer")
	if err != nil {
		t.Skip("papi_hl_output_writer not installed (Debian package papi-tools)")
	}
	compared := 0
	check := func(t *testing.T, dirs []string) {
		sort.Strings(dirs)
		for _, dir := range dirs {
			abs, err := filepath.Abs(dir)
			if err != nil {
				t.Fatal(err)
			}
			// the writer also leaves papi_sum.json in its working directory
			cmd := exec.Command(writer, "--source", abs, "--type", "summary", "--notation", "raw")
			cmd.Dir = t.TempDir()
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: papi_hl_output_writer: %v", dir, err)
			}
			var sum map[string]map[string]any
			if err := json.Unmarshal(out, &sum); err != nil {
				t.Fatalf("%s: papi_hl_output_writer's output: %v", dir, err)
			}
			e, err := Read(dir, importer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			compared += compareSummary(t, dir, e, sum)
		}
	}
	check(t, []string{filepath.Join("testdata", "papi7-threads"), filepath.Join("testdata", "papi7-instant")})
	t.Run("DPHPC2023", func(t *testing.T) {
		var dirs []string
		for d := range realFolders(t) {
			dirs = append(dirs, d)
		}
		// the Python report takes a second or two per folder: three of
		// the fifteen (all fifteen agree: see the package's notes)
		sort.Strings(dirs)
		check(t, []string{dirs[0], dirs[7], dirs[14]})
	})
	t.Logf("%d values equal to papi_hl_output_writer's summary", compared)
}

func compareSummary(t *testing.T, dir string, e *model.Experiment, sum map[string]map[string]any) int {
	t.Helper()
	n := 0
	for region, fields := range sum {
		var cnodes []int
		for c := range e.Cnodes {
			if e.Regions[e.Cnodes[c].Region].Name == region {
				cnodes = append(cnodes, c)
			}
		}
		if len(cnodes) == 0 {
			t.Errorf("%s: region %s missing", dir, region)
			continue
		}
		count, _ := fields["region_count"].(float64)
		for name, v := range fields {
			var m int
			var factor float64 = 1
			switch name {
			case "region_count":
				m = e.MetricByName("visits")
			case "Number of ranks", "Number of threads per rank":
				continue
			default:
				m = -1
				for i := range e.Metrics {
					for _, a := range e.Metrics[i].Attrs {
						if a.Key == "PAPI event" && a.Value == name {
							m = i
						}
					}
				}
				if m >= 0 && e.Metrics[m].Unit == "sec" {
					factor = 1e-9
				}
			}
			if m < 0 {
				t.Errorf("%s: event %s is no metric", dir, name)
				continue
			}
			want, stat := 0.0, "total"
			switch x := v.(type) {
			case float64:
				want = x // one instance: the value itself
			case map[string]any:
				if e.Metrics[m].Aggregation == model.Max {
					stat = "max"
				}
				w, ok := x[stat].(float64)
				if !ok {
					t.Errorf("%s: %s of %s has no %s", dir, name, region, stat)
					continue
				}
				want = w
			}
			got := 0.0
			for _, c := range cnodes {
				for l := range e.Locations {
					switch {
					case name == "region_count":
						blk, _ := e.Block(m)
						got += blk.Value(c, l)
					case stat == "max" || count == 1 && e.Metrics[m].Aggregation == model.Max:
						blk, err := e.Block(m)
						if err != nil {
							t.Fatal(err)
						}
						got = math.Max(got, blk.Value(c, l))
					default:
						got += inclusive(t, e, m, c, l)
					}
				}
			}
			if w := want * factor; math.Abs(got-w) > 1e-9*math.Abs(w) {
				t.Errorf("%s: %s of %s: %v, papi_hl_output_writer: %v", dir, stat, name, got, w)
			}
			n++
		}
	}
	return n
}

// TestDetect recognises a measurement folder and its files by content.
func TestDetect(t *testing.T) {
	dir := filepath.Join("testdata", "papi7-threads")
	if Detect(nil, dir) != importer.Certain {
		t.Error("measurement folder not recognised")
	}
	if Detect(nil, "testdata") != importer.No {
		t.Error("testdata (no rank file at its top) recognised")
	}
	head, err := os.ReadFile(filepath.Join(dir, "rank_000000.json"))
	if err != nil {
		t.Fatal(err)
	}
	if Detect(head[:200], "rank_000000.json") != importer.Certain {
		t.Error("rank file not recognised")
	}
	six, err := os.ReadFile(filepath.Join("testdata", "papi6", "rank_0003"))
	if err != nil {
		t.Fatal(err)
	}
	if Detect(six, "rank_0003") != importer.Certain {
		t.Error("PAPI 6.0 rank file not recognised")
	}
	for _, other := range []string{`{"data": [], "columns": []}`, `{"threads": {}}`, "[1, 2]", "papi_version"} {
		if Detect([]byte(other), "x.json") != importer.No {
			t.Errorf("%q recognised", other)
		}
	}
}

// TestIdentities tags PAPI's real time, CPU time and visits.
func TestIdentities(t *testing.T) {
	e, err := Read(filepath.Join("testdata", "papi7-threads"), importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"real_time": model.IdentityTime, "perf::TASK-CLOCK": model.IdentityCPUTime, "visits": model.IdentityVisits, "cycles": "",
	} {
		if m := e.MetricByName(name); m < 0 || e.Metrics[m].Identity != want {
			t.Errorf("%s: identity %q, want %q", name, e.Metrics[max(m, 0)].Identity, want)
		}
	}
}
