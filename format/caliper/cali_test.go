package caliper

import (
	"bytes"
	"compress/gzip"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
	"cubeview/model"
)

func openCali(path string) (*model.Experiment, error) {
	return ReadCali(path, importer.Options{})
}

// cnodePath returns the names from the root down to cnode c, joined by "/".
func cnodePath(e *model.Experiment, c int) string {
	var parts []string
	for ; c >= 0; c = e.Cnodes[c].Parent {
		parts = append(parts, e.Regions[e.Cnodes[c].Region].Name)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "/")
}

// cnodeByPath maps each call path ("main/solve") to its cnode.
func cnodeByPath(e *model.Experiment) map[string]int {
	out := map[string]int{}
	for c := range e.Cnodes {
		out[cnodePath(e, c)] = c
	}
	return out
}

// locationByName maps "rank 1" (the process) or "rank 1/thread 2" to a
// location's data column.
func locationByName(e *model.Experiment) map[string]int {
	out := map[string]int{}
	for l := range e.Locations {
		loc := e.Location(l)
		proc := e.System[loc.Parent].Name
		out[proc+"/"+loc.Name] = l
		if _, dup := out[proc]; !dup {
			out[proc] = l
		}
	}
	return out
}

// value returns metric m's value at cnode c and column l: its own value,
// or with incl its call-tree inclusive value.
func value(t *testing.T, e *model.Experiment, m, c, l int, incl bool) float64 {
	t.Helper()
	blk, err := e.Block(m)
	if err != nil {
		t.Fatal(err)
	}
	if !incl {
		return blk.Value(c, l)
	}
	v := blk.Value(c, l)
	for _, ch := range e.Cnodes[c].Children {
		v += value(t, e, m, ch, l, true)
	}
	return v
}

// TestCaliHandmade reads a small file written for this test: two ranks,
// an escaped region name, inclusive sums that become own values, a min
// over ranks, a mean with its hidden sum and count, a record outside
// every region and Adiak metadata.
func TestCaliHandmade(t *testing.T) {
	e, err := openCali(filepath.Join("testdata", "handmade.cali"))
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	paths, locs := cnodeByPath(e), locationByName(e)
	want := []struct {
		metric, path, loc string
		own, incl         float64
	}{
		{"sum#sum#time.duration", "main", "rank 0", 1, 10},
		{"sum#sum#time.duration", "main/solve", "rank 0", 6, 6},
		{"sum#sum#time.duration", `main/a,b=c\d`, "rank 0", 3, 3},
		{"sum#sum#time.duration", "main", "rank 1", 4, 12},
		{"sum#sum#time.duration", "main/solve", "rank 1", 8, 8},
		{"sum#sum#time.duration", `main/a,b=c\d`, "rank 1", 0, 0},
		{"sum#sum#time.duration", "<outside annotated regions>", "rank 0", 0.5, 0.5},
		{"min#inclusive#sum#time.duration", "main", "rank 1", 12, math.NaN()},
		{"min#inclusive#sum#time.duration", "main/solve", "rank 0", 6, math.NaN()},
		{"count", "main", "rank 0", 5, 8},
		{"avg.sum#sum#time.duration", "main", "rank 1", 4, 12},
		{"avg.count#inclusive#sum#time.duration", "main/solve", "rank 1", 1, 1},
	}
	for _, w := range want {
		m := e.MetricByName(w.metric)
		c, okc := paths[w.path]
		l, okl := locs[w.loc]
		if m < 0 || !okc || !okl {
			t.Fatalf("%s at %s, %s: metric %d, call path found %v, location found %v", w.metric, w.path, w.loc, m, okc, okl)
		}
		if got := value(t, e, m, c, l, false); got != w.own {
			t.Errorf("%s at %s, %s: own value %v, want %v", w.metric, w.path, w.loc, got, w.own)
		}
		if !math.IsNaN(w.incl) {
			if got := value(t, e, m, c, l, true); got != w.incl {
				t.Errorf("%s at %s, %s: inclusive value %v, want %v", w.metric, w.path, w.loc, got, w.incl)
			}
		}
	}
	for _, w := range []struct {
		metric, disp, unit string
		agg                model.Aggregation
	}{
		{"sum#sum#time.duration", "Total time", "sec", model.Sum},
		{"min#inclusive#sum#time.duration", "Min time/rank", "sec", model.Min},
		{"avg.sum#sum#time.duration", "Avg time/rank (sum)", "sec", model.Sum},
		{"avg.count#inclusive#sum#time.duration", "Avg time/rank (count)", "occ", model.Sum},
	} {
		met := &e.Metrics[e.MetricByName(w.metric)]
		if met.DispName != w.disp || met.Unit != w.unit || met.Aggregation != w.agg {
			t.Errorf("metric %s: %q %s %v, want %q %s %v", w.metric, met.DispName, met.Unit, met.Aggregation, w.disp, w.unit, w.agg)
		}
	}
	if m := e.MetricByName("avg#inclusive#sum#time.duration"); m >= 0 {
		t.Error("the mean itself became a metric; its sum and count carry it")
	}
	if first := e.Metrics[0].UniqName; first != "sum#sum#time.duration" {
		t.Errorf("first metric %s, want the summed time (a window shows the first metric)", first)
	}
	attrs := map[string]string{}
	for _, a := range e.Attrs {
		attrs[a.Key] = a.Value
	}
	if attrs["cluster"] != "quartz" || attrs["launchdate"] != "1690619785" {
		t.Errorf("Adiak metadata %v, want cluster=quartz launchdate=1690619785", attrs)
	}
}

// hatchetOrder is what Hatchet's tests (hatchet/tests/caliper.py,
// test_graphframe_native_lulesh_from_file_node_order and its _mpi and
// duplicate variants) expect of LULESH profiles with Caliper's node
// order: the call paths in order and each one's "Total time"
// (sum#inclusive#sum#time.duration, an inclusive value).
var hatchetOrder = []struct {
	name  string
	value float64
}{
	{"main", 1.250952}, {"lulesh.cycle", 1.229935}, {"TimeIncrement", 0.000085},
	{"LagrangeLeapFrog", 1.229702}, {"LagrangeNodal", 0.604766}, {"CalcForceForNodes", 0.566399},
	{"CalcVolumeForceForElems", 0.561237}, {"IntegrateStressForElems", 0.161196},
	{"CalcHourglassControlForElems", 0.395344}, {"CalcFBHourglassForceForElems", 0.239849},
	{"LagrangeElements", 0.614079}, {"CalcLagrangeElements", 0.175102}, {"CalcKinematicsForElems", 0.168127},
	{"CalcQForElems", 0.136318}, {"CalcMonotonicQForElems", 0.038575},
	{"ApplyMaterialPropertiesForElems", 0.299062}, {"EvalEOSForElems", 0.293046},
	{"CalcEnergyForElems", 0.190395}, {"CalcTimeConstraintsForElems", 0.010707},
}

var hatchetOrderMPI = []struct {
	name  string
	value float64
}{
	{"main", 1.264876}, {"MPI_Barrier", 0.000025}, {"lulesh.cycle", 1.245757}, {"TimeIncrement", 0.000170},
	{"MPI_Allreduce", 0.000087}, {"LagrangeLeapFrog", 1.245438}, {"LagrangeNodal", 0.607194},
	{"CalcForceForNodes", 0.568202}, {"CalcVolumeForceForElems", 0.563011},
	{"IntegrateStressForElems", 0.161496}, {"CalcHourglassControlForElems", 0.396797},
	{"CalcFBHourglassForceForElems", 0.240649}, {"LagrangeElements", 0.627072},
	{"CalcLagrangeElements", 0.175473}, {"CalcKinematicsForElems", 0.168321}, {"CalcQForElems", 0.136137},
	{"CalcMonotonicQForElems", 0.039200}, {"ApplyMaterialPropertiesForElems", 0.311724},
	{"EvalEOSForElems", 0.305564}, {"CalcEnergyForElems", 0.199211}, {"CalcTimeConstraintsForElems", 0.011015},
	{"MPI_Reduce", 0.000029}, {"MPI_Finalize", 0.000024}, {"MPI_Initialized", 0.000007},
	{"MPI_Finalized", 0.000005}, {"MPI_Comm_dup", 0.000017},
}

// TestCaliHatchetNodeOrder compares with Hatchet's expectations: the call
// tree in Caliper's node order and the inclusive "Total time" per node.
func TestCaliHatchetNodeOrder(t *testing.T) {
	files, local := testkit.MirrorFiles(t, "LLNL/hatchet", func(p string) bool {
		return strings.HasPrefix(p, "hatchet/tests/data/caliper-ordered") && strings.HasSuffix(p, ".cali")
	})
	if len(files) != 4 {
		t.Fatalf("%d ordered .cali files in the Hatchet snapshot, want 4: %v", len(files), files)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			e, err := openCali(local[f])
			if err != nil {
				t.Fatal(err)
			}
			want := hatchetOrder
			if strings.Contains(f, "mpi") || strings.Contains(f, "old") {
				want = hatchetOrderMPI
			}
			m := e.MetricByName("sum#sum#time.duration")
			if m < 0 || e.Metrics[m].DispName != "Total time" {
				t.Fatalf("no Total time metric from sum#inclusive#sum#time.duration")
			}
			// Hatchet leaves out the record outside every region
			var cnodes []int
			for c := range e.Cnodes {
				if e.Regions[e.Cnodes[c].Region].Name != "<outside annotated regions>" {
					cnodes = append(cnodes, c)
				}
			}
			if len(cnodes) != len(want) {
				t.Fatalf("%d call paths, Hatchet has %d", len(cnodes), len(want))
			}
			for i, c := range cnodes {
				name := e.Regions[e.Cnodes[c].Region].Name
				got := value(t, e, m, c, 0, true)
				if name != want[i].name || math.Abs(got-want[i].value) > 5e-13 {
					t.Errorf("call path %d: %s %.9g, Hatchet: %s %.6f", i, name, got, want[i].name, want[i].value)
				}
			}
		})
	}
}

// hatchetJSONOrder is what Hatchet's test_graphframe_lulesh_from_json_node_order
// expects of the json-split output of its node-order LULESH profile: each
// call path's own "time" in order.
var hatchetJSONOrder = []float64{
	0.018887, 0.000154, 0.000100, 0.000159, 0.038220, 0.005107, 0.004684, 0.161500, 0.163350, 0.239820,
	0.003603, 0.007004, 0.168298, 0.097482, 0.038570, 0.006099, 0.102499, 0.190896, 0.010730,
}

// TestHatchetJSONNodeOrder reads Hatchet's json-split files of that
// profile with the JSON reader: "Node order" is no metric, "time" is in
// seconds and each call path's own time equals Hatchet's expectation.
func TestHatchetJSONNodeOrder(t *testing.T) {
	files, local := testkit.MirrorFiles(t, "LLNL/hatchet", func(p string) bool {
		return strings.HasPrefix(p, "hatchet/tests/data/caliper-ordered") && strings.HasSuffix(p, ".json")
	})
	if len(files) != 2 {
		t.Fatalf("%d ordered json-split files in the Hatchet snapshot, want 2", len(files))
	}
	for _, f := range files {
		e, err := Read(local[f], importer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if e.MetricByName("Node order") >= 0 {
			t.Errorf("%s: Node order imported as a metric", f)
		}
		m := e.MetricByName("time")
		if m < 0 || e.Metrics[m].Unit != "sec" {
			t.Fatalf("%s: no time metric in seconds", f)
		}
		blk, err := e.Block(m)
		if err != nil {
			t.Fatal(err)
		}
		var got []float64
		for c := range e.Cnodes {
			if !strings.HasPrefix(e.Regions[e.Cnodes[c].Region].Name, "<") {
				got = append(got, blk.Value(c, 0))
			}
		}
		if len(got) != len(hatchetJSONOrder) {
			t.Fatalf("%s: %d call paths, Hatchet has %d", f, len(got), len(hatchetJSONOrder))
		}
		for i, w := range hatchetJSONOrder {
			if math.Abs(got[i]-w) > 1e-12 {
				t.Errorf("%s: call path %d: own time %v, Hatchet %v", f, i, got[i], w)
			}
		}
	}
}

// TestCaliIdentities tags the summed time of a .cali profile as wall-clock
// time, and leaves its minimum and a mean's parts alone.
func TestCaliIdentities(t *testing.T) {
	e, err := openCali(filepath.Join("testdata", "handmade.cali"))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"sum#sum#time.duration": model.IdentityTime, "min#inclusive#sum#time.duration": "",
		"avg.sum#sum#time.duration": "", "count": model.IdentityVisits,
	} {
		if m := e.MetricByName(name); m < 0 || e.Metrics[m].Identity != want {
			t.Errorf("%s: identity %q, want %q", name, e.Metrics[max(m, 0)].Identity, want)
		}
	}
}

// TestCaliGzip reads a gzip-compressed .cali file, and refuses one that
// inflates beyond the shared decompression budget.
func TestCaliGzip(t *testing.T) {
	plain, err := os.ReadFile(filepath.Join("testdata", "handmade.cali"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(data)
		zw.Close()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	path := write("handmade.cali.gz", plain)
	if DetectCali(plain[:100], path) != importer.Certain {
		t.Fatal("not recognised")
	}
	e, err := openCali(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := openCali(filepath.Join("testdata", "handmade.cali"))
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Cnodes) != len(want.Cnodes) || e.NumLocations() != want.NumLocations() {
		t.Errorf("compressed: %d cnodes, %d locations; plain: %d, %d", len(e.Cnodes), e.NumLocations(), len(want.Cnodes), want.NumLocations())
	}
	// a record repeated 200,000 times inflates far beyond a small budget
	old := importer.Budget
	importer.Budget = func(int64) int64 { return 1 << 20 }
	defer func() { importer.Budget = old }()
	bomb := append([]byte(nil), plain...)
	for i := 0; i < 200000; i++ {
		bomb = append(bomb, "__rec=ctx,ref=40,attr=18=22,data=0=1\n"...)
	}
	path = write("bomb.cali.gz", bomb)
	_, err = openCali(path)
	var be *importer.BudgetError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), path) {
		t.Errorf("error %v, want a budget error naming %s", err, path)
	}
}

// TestCaliper215 reads what Caliper 2.15 writes for a small annotated
// program (testdata/caliper2.15): a spot profile's scaled nanoseconds are
// seconds, its call counts are visits with the unit occ, and every
// output has the program's eleven call paths.
func TestCaliper215(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "caliper2.15", "*.cali"))
	if len(files) != 5 {
		t.Fatalf("%d files, want 5", len(files))
	}
	for _, f := range files {
		e, err := openCali(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(e.Cnodes) != 11 {
			t.Errorf("%s: %d call paths, want 11", f, len(e.Cnodes))
		}
	}
	e, err := openCali(filepath.Join("testdata", "caliper2.15", "spot.cali"))
	if err != nil {
		t.Fatal(err)
	}
	calls := e.MetricByName("sum#sum#rc.count")
	if calls < 0 || e.Metrics[calls].Unit != "occ" || e.Metrics[calls].Identity != model.IdentityVisits {
		t.Errorf("sum#sum#rc.count: want visits in occ")
	}
	a, b := e.MetricByName("sum#sum#time.duration"), e.MetricByName("sum#scale#sum#time.duration.ns")
	if a < 0 || b < 0 || e.Metrics[b].Unit != "sec" {
		t.Fatalf("time metrics missing")
	}
	ta, err := e.MetricTotal(model.MetricSel{Metric: a, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := e.MetricTotal(model.MetricSel{Metric: b, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(ta-tb) > 1e-6*ta {
		t.Errorf("total time %v (from inclusive values) and %v (exclusive, scaled ns) differ", ta, tb)
	}
}
