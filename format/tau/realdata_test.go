package tau_test

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/format/importer"
	"cubeview/format/tau"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// fileEvent is an interval event as the profile file states it, read by a
// deliberately simple parser independent of the importer's.
type fileEvent struct {
	name, group       string
	calls, excl, incl float64
}

var profileRE = regexp.MustCompile(`^profile\.(\d+)\.(\d+)\.(\d+)$`)

// readColumns returns the interval events of every profile file of dir in
// (node, context, thread) order — the experiment's data columns.
func readColumns(t *testing.T, dir string) [][]fileEvent {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	type file struct {
		key  [3]int
		name string
	}
	var files []file
	for _, e := range entries {
		if m := profileRE.FindStringSubmatch(e.Name()); m != nil {
			var k [3]int
			for i := range k {
				k[i], _ = strconv.Atoi(m[i+1])
			}
			files = append(files, file{k, e.Name()})
		}
	}
	sort.Slice(files, func(i, j int) bool {
		a, b := files[i].key, files[j].key
		for x := range a {
			if a[x] != b[x] {
				return a[x] < b[x]
			}
		}
		return false
	})
	var out [][]fileEvent
	for _, f := range files {
		fh, err := os.Open(filepath.Join(dir, f.name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<24)
		sc.Scan()
		n, _ := strconv.Atoi(strings.Fields(sc.Text())[0])
		sc.Scan() // column header and metadata
		var evs []fileEvent
		for i := 0; i < n && sc.Scan(); i++ {
			line := sc.Text()
			end := strings.Index(line, `" `)
			name := strings.TrimSpace(line[1:end])
			f := strings.Fields(line[end+2:])
			num := func(i int) float64 {
				v, err := strconv.ParseFloat(f[i], 64)
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				return v
			}
			group := ""
			if len(f) > 5 {
				group = strings.Trim(strings.TrimPrefix(strings.Join(f[5:], " "), "GROUP="), `"`)
			}
			evs = append(evs, fileEvent{name: name, group: group, calls: num(0), excl: num(2), incl: num(3)})
		}
		fh.Close()
		out = append(out, evs)
	}
	return out
}

func openTAU(t *testing.T, elem ...string) (*model.Experiment, string) {
	t.Helper()
	dir := testkit.Data(t, elem...)
	e, err := format.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return e, dir
}

func metric(t *testing.T, e *model.Experiment, uniq string) int {
	t.Helper()
	m := e.MetricByName(uniq)
	if m < 0 {
		t.Fatalf("no metric %q", uniq)
	}
	return m
}

// cnodeOf returns the cnode of a TAU call path or flat root event.
func cnodeOf(e *model.Experiment, path string) int {
	parts := strings.Split(path, "=>")
	c := -1
	for _, p := range parts {
		p = strings.TrimSpace(p)
		kids := e.CnodeRoots
		if c >= 0 {
			kids = e.Cnodes[c].Children
		}
		next := -1
		for _, k := range kids {
			if e.CnodeRegion(k).Name == p {
				next = k
			}
		}
		if next < 0 {
			return -1
		}
		c = next
	}
	return c
}

func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))+1e-15
}

// TestTau2CubeProfile1 is the acceptance test on CubeLib's tau2cube sample:
// the flat profile equals the file's Excl, Incl and Calls for all 195
// events, and the regions are those of tau2cube's own conversion.
func TestTau2CubeProfile1(t *testing.T) {
	e, dir := openTAU(t, "tau", "tau2cube-profile1")
	events := readColumns(t, dir)[0]
	if len(events) != 195 {
		t.Fatalf("the file has %d events, want 195", len(events))
	}
	tm, visits := metric(t, e, "BGP Timers"), metric(t, e, "visits")
	if u := e.Metrics[tm].Unit; u != "sec" {
		t.Errorf("BGP Timers unit %q, want sec", u)
	}
	excl, incl, err := e.FlatProfileOf(model.MetricSel{Metric: tm, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	calls, _, _ := e.FlatProfileOf(model.MetricSel{Metric: visits, Inclusive: true})
	byName := map[string]int{}
	for r := range e.Regions {
		byName[e.Regions[r].Name] = r
	}
	for _, ev := range events {
		r, ok := byName[ev.name]
		if !ok {
			t.Errorf("no region %q", ev.name)
			continue
		}
		if excl[r] != ev.excl/1e6 || incl[r] != ev.incl/1e6 || calls[r] != ev.calls {
			t.Errorf("%s: excl/incl/calls %v %v %v, want %v %v %v", ev.name, excl[r], incl[r], calls[r], ev.excl/1e6, ev.incl/1e6, ev.calls)
		}
	}
	// The region set of CubeLib's tau2cube output of the same file.
	tmpl, err := format.Open(testkit.Data(t, "tau", "tau2cube-profile1.template.cube"))
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, r := range e.Regions {
		got = append(got, r.Name)
	}
	for _, r := range tmpl.Regions {
		want = append(want, r.Name)
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("region set differs from tau2cube's:\n%s", testkit.Diff(strings.Join(want, "\n"), strings.Join(got, "\n")))
	}
	// Source locations in event names become file and lines.
	r := e.Regions[byName["BC_FLUX [{bc_flux.pp.f90} {21,1}-{390,22}]"]]
	if r.Module != "bc_flux.pp.f90" || r.Begin != 21 || r.End != 390 {
		t.Errorf("BC_FLUX: module %q lines %d-%d, want bc_flux.pp.f90 21-390", r.Module, r.Begin, r.End)
	}
	// Metadata become attributes.
	if v, _ := e.Attr("BGP Location"); v != "R07-M1-N00-J23" {
		t.Errorf("attribute BGP Location = %q", v)
	}
}

// checkColumns compares every event of every file with the experiment at
// that file's location: a call-path event with its cnode's exclusive and
// inclusive values, a flat event with its region's values summed over its
// call paths (each subtree once); calls with visits.
func checkColumns(t *testing.T, e *model.Experiment, cols [][]fileEvent, timeMetric string) int {
	t.Helper()
	if len(cols) != e.NumLocations() {
		t.Fatalf("%d files, %d locations", len(cols), e.NumLocations())
	}
	checked := 0
	for col, evs := range cols {
		for _, ev := range evs {
			sample := strings.Contains(ev.group, "TAU_SAMPLE")
			tm, cm := metric(t, e, timeMetric), metric(t, e, "visits")
			if sample {
				tm, cm = metric(t, e, timeMetric+" (sampled)"), metric(t, e, "samples")
			}
			var own, sub []int
			if strings.Contains(ev.name, "=>") {
				c := cnodeOf(e, ev.name)
				if c < 0 {
					t.Errorf("location %d: no cnode for %q", col, ev.name)
					continue
				}
				own, sub = []int{c}, e.CnodeSubtree(model.CnodeSel{Cnode: c, Inclusive: true})
			} else {
				seen := map[int]bool{}
				for c := range e.Cnodes {
					if e.CnodeRegion(c).Name != ev.name {
						continue
					}
					own = append(own, c)
					for _, d := range e.CnodeSubtree(model.CnodeSel{Cnode: c, Inclusive: true}) {
						if !seen[d] {
							seen[d] = true
							sub = append(sub, d)
						}
					}
				}
			}
			at := func(m int, cnodes []int) float64 {
				v, err := e.SystemTreeValues(model.MetricSel{Metric: m, Inclusive: true}, cnodes)
				if err != nil {
					t.Fatal(err)
				}
				return v[e.Locations[col]]
			}
			if got := at(tm, own); !near(got, ev.excl/1e6) {
				t.Errorf("location %d %q: exclusive %v, want %v", col, ev.name, got, ev.excl/1e6)
			}
			if got := at(tm, sub); !near(got, ev.incl/1e6) {
				t.Errorf("location %d %q: inclusive %v, want %v", col, ev.name, got, ev.incl/1e6)
			}
			if got := at(cm, own); got != ev.calls {
				t.Errorf("location %d %q: calls %v, want %v", col, ev.name, got, ev.calls)
			}
			checked++
		}
	}
	return checked
}

func TestCpiMPI(t *testing.T) {
	e, dir := openTAU(t, "tau", "cpi-mpi")
	groups := 0
	for _, n := range e.System {
		if n.Kind == model.Group {
			groups++
		}
	}
	if groups != 4 || e.NumLocations() != 4 {
		t.Errorf("%d processes, %d locations; want 4 and 4", groups, e.NumLocations())
	}
	if e.CallGraph != nil {
		t.Error("a profile with complete call paths has a call graph")
	}
	n := checkColumns(t, e, readColumns(t, dir), "TIME")
	t.Logf("%d events compared", n)
	// MPI events are MPI regions.
	for _, r := range e.Regions {
		if strings.HasPrefix(r.Name, "MPI_") && r.Paradigm != "mpi" {
			t.Errorf("%s: paradigm %q, want mpi", r.Name, r.Paradigm)
		}
	}
	// Atomic events: sum and count per location; the mean is sum/count.
	cnt, sum := metric(t, e, tau.StatUniq(e, "Message size for reduce", "count")), metric(t, e, tau.StatUniq(e, "Message size for reduce", "sum"))
	c, _ := e.MetricTotal(model.MetricSel{Metric: cnt, Inclusive: true})
	s, _ := e.MetricTotal(model.MetricSel{Metric: sum, Inclusive: true})
	if c != 4 || s != 32 {
		t.Errorf("Message size for reduce: count %v sum %v, want 4 and 32", c, s)
	}
	if e.Metrics[metric(t, e, tau.StatUniq(e, "Message size for reduce", "max"))].Aggregation != model.Max {
		t.Error("the max of an atomic event does not aggregate by max")
	}
}

func TestOpenMP64Threads(t *testing.T) {
	e, dir := openTAU(t, "tau", "openmp-64threads")
	if e.NumLocations() != 64 || len(e.SystemRoots) != 1 {
		t.Fatalf("%d locations, want 64", e.NumLocations())
	}
	deep := 0
	for c := range e.Cnodes {
		if e.Cnodes[c].Parent >= 0 {
			deep++
		}
	}
	if deep == 0 || len(e.CnodeRoots) != 1 {
		t.Errorf("%d call paths below roots, %d roots; want call paths under one root", deep, len(e.CnodeRoots))
	}
	n := checkColumns(t, e, readColumns(t, dir), "TIME")
	t.Logf("%d events compared", n)
	for _, r := range e.Regions {
		if strings.HasPrefix(r.Name, "OpenMP_Parallel_Region") && (r.Paradigm != "openmp" || r.Role != "parallel") {
			t.Errorf("%s: paradigm/role %q/%q", r.Name, r.Paradigm, r.Role)
		}
	}
}

// TestOpenProfileFile: a profile.N.C.T file opens its whole directory.
func TestOpenProfileFile(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "tau", "cpi-mpi", "profile.2.0.0"))
	if err != nil {
		t.Fatal(err)
	}
	if e.NumLocations() != 4 {
		t.Errorf("%d locations, want the directory's 4", e.NumLocations())
	}
	if !tau.IsProfileName("profile.12.0.3") || tau.IsProfileName("profile.1.0") {
		t.Error("IsProfileName")
	}
}

// BenchmarkReadOpenMP64 imports the largest real sample, 64 threads with
// call paths and samples.
func BenchmarkReadOpenMP64(b *testing.B) {
	dir := testkit.Data(b, "tau", "openmp-64threads")
	var size int64
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			size += info.Size()
		}
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := tau.Read(dir, importer.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
