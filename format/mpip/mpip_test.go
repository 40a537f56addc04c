package mpip

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cubeview/format/importer"
	"cubeview/model"
)

// v3 is a small report in mpiP 3.x layout (made for these tests, after the
// User Guide's description): two tasks, stack depth 2, an address frame,
// message sizes and MPI I/O.
const v3 = `@ mpiP
@ Command : /home/u/ring -n 4
@ Version                  : 3.5.0
@ MPIP env var             : -k2
@ MPI Task Assignment      : 0 node1
@ MPI Task Assignment      : 1 node2

---------------------------------------------------------------------------
@--- MPI Time (seconds) ---------------------------------------------------
---------------------------------------------------------------------------
Task    AppTime    MPITime     MPI%
   0          2        0.5    25.00
   1          2        0.7    35.00
   *          4        1.2    30.00
---------------------------------------------------------------------------
@--- Callsites: 3 ---------------------------------------------------------
---------------------------------------------------------------------------
 ID Lev File/Address        Line Parent_Funct             MPI_Call
  1   0 ring.c                40 exchange                 Send
  1   1 ring.c                90 main
  2   0 ring.c                45 exchange                 Recv
  2   1 ring.c                90 main
  3   0 0x4005d0                 [unknown]                File_write
---------------------------------------------------------------------------
@--- Aggregate Time (top twenty, descending, milliseconds) ----------------
---------------------------------------------------------------------------
Call                 Site       Time    App%    MPI%      Count    COV
Recv                    2        900   22.50   75.00         20   0.30
Send                    1        250    6.25   20.83         20   0.20
File_write              3         50    1.25    4.17          2   0.00
---------------------------------------------------------------------------
@--- Callsite Time statistics (all, milliseconds): 6 ----------------------
---------------------------------------------------------------------------
Name              Site Rank  Count      Max     Mean      Min   App%   MPI%
File_write           3    0      1       25       25       25   1.25   5.00
File_write           3    1      1       25       25       25   1.25   3.57
File_write           3    *      2       25       25       25   1.25   4.17

Recv                 2    0     10       50       40       30  20.00  80.00
Recv                 2    1     10      100       50       10  25.00  71.43
Recv                 2    *     20      100       45       10  22.50  75.00

Send                 1    0     10       20        5        1   2.50  10.00
Send                 1    1     10       40       20       10  10.00  28.57
Send                 1    *     20       40     12.5        1   6.25  20.83
---------------------------------------------------------------------------
@--- Callsite Message Sent statistics (all, sent bytes) -------------------
---------------------------------------------------------------------------
Name              Site Rank   Count       Max      Mean       Min       Sum
Send                 1    0      10      1024       512         8      5120
Send                 1    1      10      2048      1024        16 1.024e+04
Send                 1    *      20      2048       768         8 1.536e+04
---------------------------------------------------------------------------
@--- Callsite I/O statistics (all, I/O bytes) -----------------------------
---------------------------------------------------------------------------
Name              Site Rank   Count       Max      Mean       Min       Sum
File_write           3    0       1        64        64        64        64
File_write           3    1       1        64        64        64        64
File_write           3    *       2        64        64        64       128
---------------------------------------------------------------------------
@--- End of Report --------------------------------------------------------
---------------------------------------------------------------------------
`

func read(t *testing.T, text string) *model.Experiment {
	t.Helper()
	e, err := Parse(strings.NewReader(text), "r.mpiP")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	return e
}

// cnodeAt returns the cnode reached by region names from the root.
func cnodeAt(e *model.Experiment, names ...string) int {
	c := -1
	for _, n := range names {
		kids := e.CnodeRoots
		if c >= 0 {
			kids = e.Cnodes[c].Children
		}
		next := -1
		for _, k := range kids {
			if e.CnodeRegion(k).Name == n {
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

func value(t *testing.T, e *model.Experiment, uniq string, c, col int) float64 {
	t.Helper()
	m := e.MetricByName(uniq)
	if m < 0 {
		t.Fatalf("no metric %s", uniq)
	}
	b, _ := e.Block(m)
	return b.Value(c, col)
}

func TestVersion3(t *testing.T) {
	e := read(t, v3)
	send := cnodeAt(e, "ring", "main", "exchange", "MPI_Send")
	recv := cnodeAt(e, "ring", "main", "exchange", "MPI_Recv")
	write := cnodeAt(e, "ring", "[unknown]", "MPI_File_write")
	if send < 0 || recv < 0 || write < 0 {
		t.Fatalf("call paths missing: send %d recv %d write %d", send, recv, write)
	}
	// The call sites: exchange calls MPI_Send at ring.c:40, main calls
	// exchange at ring.c:90.
	exchange := e.Cnodes[e.Cnodes[send].Parent]
	if s := e.Cnodes[send]; s.CallFile != "ring.c" || s.CallLine != 40 {
		t.Errorf("MPI_Send's call site %s:%d", s.CallFile, s.CallLine)
	}
	if exchange.CallFile != "ring.c" || exchange.CallLine != 90 || e.Regions[exchange.Region].Module != "ring.c" {
		t.Errorf("exchange frame: %+v", exchange)
	}
	if a := e.Cnodes[write].Attrs; len(a) != 2 || a[0] != (model.Attr{Key: "call address", Value: "0x4005d0"}) || a[1] != (model.Attr{Key: "mpiP call site", Value: "3"}) {
		t.Errorf("address frame attributes %v", a)
	}
	for _, tt := range []struct {
		uniq string
		c    int
		want [2]float64 // task 0, task 1
	}{
		{"time", send, [2]float64{0.05, 0.2}},
		{"visits", recv, [2]float64{10, 10}},
		{"min_time", recv, [2]float64{0.03, 0.01}},
		{"max_time", recv, [2]float64{0.05, 0.1}},
		{"bytes_sent", send, [2]float64{5120, 10240}},
		{"max_bytes_sent", send, [2]float64{1024, 2048}},
		{"io_bytes", write, [2]float64{64, 64}},
		{"app_time", e.CnodeRoots[0], [2]float64{2, 2}},
	} {
		for col, w := range tt.want {
			if got := value(t, e, tt.uniq, tt.c, col); math.Abs(got-w) > 1e-12 {
				t.Errorf("%s at cnode %d task %d = %v, want %v", tt.uniq, tt.c, col, got, w)
			}
		}
	}
	hosts := []string{}
	for _, n := range e.System {
		if n.Class == "node" {
			hosts = append(hosts, n.Name)
		}
	}
	if strings.Join(hosts, ",") != "node1,node2" || len(e.Warnings) != 0 {
		t.Errorf("hosts %v, warnings %v", hosts, e.Warnings)
	}
	if r := e.Regions[e.Cnodes[send].Region]; r.Paradigm != "mpi" {
		t.Errorf("MPI_Send paradigm %q", r.Paradigm)
	}
}

// aggregates reads a report's own "*" rows and its aggregate time table.
func aggregates(t *testing.T, text string) (count, total map[int]float64, table map[int]float64) {
	count, total, table = map[int]float64{}, map[int]float64{}, map[int]float64{}
	sec := ""
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "@---") {
			sec = line
			continue
		}
		f := strings.Fields(line)
		switch {
		case strings.Contains(sec, "Aggregate Time") && len(f) >= 3 && f[0] != "Call":
			site, _ := strconv.Atoi(f[1])
			table[site], _ = strconv.ParseFloat(f[2], 64)
		case strings.Contains(sec, "Callsite") && strings.Contains(sec, "statistics (all, milliseconds") && len(f) == 9 && f[2] == "*":
			site, _ := strconv.Atoi(f[1])
			c, _ := strconv.ParseFloat(f[3], 64)
			mean, _ := strconv.ParseFloat(f[5], 64)
			count[site], total[site] = c, c*mean
		}
	}
	return count, total, table
}

// checkAggregates compares the sums over tasks with the report's own
// aggregate rows and its aggregate time table (printed to 3 significant
// digits); it returns the call sites that hold every task.
func checkAggregates(t *testing.T, e *model.Experiment, text string) int {
	t.Helper()
	count, total, table := aggregates(t, text)
	complete := 0
	for c := range e.Cnodes {
		var site int
		for _, a := range e.Cnodes[c].Attrs {
			if a.Key == "mpiP call site" {
				site, _ = strconv.Atoi(a.Value)
			}
		}
		if site == 0 {
			continue
		}
		var visits, ms float64
		for col := 0; col < e.NumLocations(); col++ {
			visits += value(t, e, "visits", c, col)
			ms += value(t, e, "time", c, col) * 1e3
		}
		if visits != count[site] {
			t.Logf("call site %d: %v of the report's %v calls are listed per task", site, visits, count[site])
			continue
		}
		complete++
		if math.Abs(ms-total[site]) > 5e-3*total[site] {
			t.Errorf("call site %d: Σ tasks %v ms, the aggregate row %v ms", site, ms, total[site])
		}
		if tab, ok := table[site]; ok && math.Abs(ms-tab) > 5e-3*tab {
			t.Errorf("call site %d: Σ tasks %v ms, the aggregate table %v ms", site, ms, tab)
		}
	}
	return complete
}

func TestVersion3Aggregates(t *testing.T) {
	if n := checkAggregates(t, read(t, v3), v3); n != 3 {
		t.Errorf("%d call sites with every task, want 3", n)
	}
}

// TestUserGuideReport reads the sample report of mpiP's own User Guide: a
// real mpiP 2.3 report with a print threshold, so call site 1 lists one
// of its four tasks and the experiment says so.
func TestUserGuideReport(t *testing.T) {
	file := filepath.Join("testdata", "userguide-2.4-9-test-mpip-time.mpiP")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Read(file, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e.NumLocations() != 4 || len(e.Regions) != 3 {
		t.Errorf("%d tasks, %d regions", e.NumLocations(), len(e.Regions))
	}
	if n := checkAggregates(t, e, string(data)); n != 1 {
		t.Errorf("%d call sites with every task, want 1 (site 2)", n)
	}
	if len(e.Warnings) != 1 || !strings.Contains(e.Warnings[0], "call site 1 (1 of 4 calls)") {
		t.Errorf("warnings %v", e.Warnings)
	}
	// The MPI Time section: each task's AppTime, and its MPITime as the
	// sum of its call sites.
	mpiTime := []float64{0.000243, 10, 10, 10}
	for col := 0; col < 4; col++ {
		var sum float64
		for c := range e.Cnodes {
			sum += value(t, e, "time", c, col)
		}
		if math.Abs(sum-mpiTime[col]) > 5e-3*mpiTime[col] {
			t.Errorf("task %d: MPI time %v, the report's %v", col, sum, mpiTime[col])
		}
		if got := value(t, e, "app_time", e.CnodeRoots[0], col); got != 10 {
			t.Errorf("task %d: AppTime %v", col, got)
		}
	}
}

func TestDetect(t *testing.T) {
	if Detect([]byte("\n@ mpiP\n@ Command"), "x") != importer.Certain || Detect([]byte("@ mpiPx"), "x") != importer.No || Detect(nil, "x") != importer.No {
		t.Error("Detect")
	}
}

func TestBadInput(t *testing.T) {
	for _, tt := range []struct {
		name, text, want string
	}{
		{"not mpiP", "hello", "r.mpiP: not an mpiP report"},
		{"truncated", v3[:strings.Index(v3, "---------------------------------------------------------------------------\n@--- Callsite Message")], `the report ends without "@--- End of Report"`},
		{"announced sites", strings.Replace(v3, "Callsites: 3", "Callsites: 4", 1), "announces 4 call sites but lists 3 (truncated?)"},
		{"non-numeric", strings.Replace(v3, "Recv                 2    0     10       50", "Recv                 2    0     1x       50", 1), `r.mpiP:39: Callsite Time statistics (all, milliseconds): 6: column Count: "1x" is not a number`},
		{"missing column", strings.Replace(v3, "   1          2        0.7    35.00", "   1", 1), `r.mpiP:13: MPI Time (seconds): want Task AppTime MPITime MPI%`},
		{"unknown site", strings.Replace(v3, "Send                 1    0     10       20", "Send                 7    0     10       20", 1), "r.mpiP:43: Callsite Time statistics: call site 7 is not in the Callsites section"},
		{"wrong call", strings.Replace(v3, "Send                 1    0     10       20", "Isend                1    0     10       20", 1), `r.mpiP:43: Callsite Time statistics: call site 1 is "Send" in the Callsites section, not "Isend"`},
		{"unknown rank", strings.Replace(v3, "Send                 1    1     10       40", "Send                 1    5     10       40", 1), "r.mpiP:44: Callsite Time statistics: rank 5 is not a task of the report"},
		{"level gap", strings.Replace(v3, "  1   1 ring.c", "  1   2 ring.c", 1), "r.mpiP:20: Callsites: 3: call site 1: level 2 after level 0"},
		{"no tasks", "@ mpiP\n@ Command : x\n", "r.mpiP: no \"MPI Time (seconds)\" section"},
	} {
		_, err := Parse(strings.NewReader(tt.text), "r.mpiP")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

func FuzzMpiP(f *testing.F) {
	f.Add([]byte(v3))
	for _, name := range []string{"userguide-2.4-9-test-mpip-time.mpiP", "two-wait-sites.mpiP"} {
		if data, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := Parse(strings.NewReader(string(data)), "fuzz.mpiP")
		if err != nil {
			return
		}
		if err := e.Validate(); err != nil {
			t.Fatalf("invalid experiment without an error: %v", err)
		}
	})
}

// BenchmarkReadUserGuide reads the real sample report.
func BenchmarkReadUserGuide(b *testing.B) {
	file := filepath.Join("testdata", "userguide-2.4-9-test-mpip-time.mpiP")
	st, err := os.Stat(file)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Read(file, importer.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMPITimeBelongsToMPI reads a report whose call sites have only
// addresses, as mpiP writes without debug information (after a real
// report whose MPI time showed as [unknown]'s 118 s, MPI_Wait's 0 s):
// the MPI functions own their time, and the two MPI_Wait call sites, 54 s
// and 16 s, stay two call paths.
func TestMPITimeBelongsToMPI(t *testing.T) {
	e, err := Read(filepath.Join("testdata", "two-wait-sites.mpiP"), importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(e.Warnings) != 0 {
		t.Errorf("warnings %v", e.Warnings)
	}
	tm := e.MetricByName("time")
	excl, incl, err := e.FlatProfileOf(model.MetricSel{Metric: tm, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	for r, reg := range e.Regions {
		want := map[string][2]float64{"MPI_Wait": {70, 70}, "MPI_Allreduce": {46, 46}, "MPI_Isend": {2, 2}, "[unknown]": {0, 118}, "solver": {0, 118}}[reg.Name]
		if math.Abs(excl[r]-want[0]) > 1e-9 || math.Abs(incl[r]-want[1]) > 1e-9 {
			t.Errorf("%s: exclusive %v inclusive %v, want %v", reg.Name, excl[r], incl[r], want)
		}
	}
	waits := map[string]float64{}
	for c, cn := range e.Cnodes {
		if e.Regions[cn.Region].Name != "MPI_Wait" {
			continue
		}
		addr := ""
		for _, a := range cn.Attrs {
			if a.Key == "call address" {
				addr = a.Value
			}
		}
		waits[addr] = value(t, e, "time", c, 0) + value(t, e, "time", c, 1)
	}
	if len(waits) != 2 || math.Abs(waits["0x401a2c"]-54) > 1e-9 || math.Abs(waits["0x401b80"]-16) > 1e-9 {
		t.Errorf("MPI_Wait call sites %v, want 0x401a2c 54 s and 0x401b80 16 s", waits)
	}
	// Every call site against the report's aggregate rows and table.
	data, _ := os.ReadFile(filepath.Join("testdata", "two-wait-sites.mpiP"))
	if n := checkAggregates(t, e, string(data)); n != 4 {
		t.Errorf("%d call sites agree with the aggregate rows, want 4", n)
	}
	// Call sites whose stacks look alike (no address, the same line)
	// stay apart by their ids.
	same := strings.NewReplacer("  1   0 0x401a2c                 [unknown]", "  1   0 solver.c             120 update   ",
		"  2   0 0x401b80                 [unknown]", "  2   0 solver.c             120 update   ").Replace(string(data))
	e = read(t, same)
	n := 0
	for _, cn := range e.Cnodes {
		if e.Regions[cn.Region].Name == "MPI_Wait" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d MPI_Wait call paths, want one per call site", n)
	}
}

// TestTruncated: a report cut short is an error naming what is missing,
// checked with the report's own totals (the truncated mpiP 2.x reports
// read before as complete with a time of 0).
func TestTruncated(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "userguide-2.4-9-test-mpip-time.mpiP"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	cut := func(after string) string {
		i := strings.Index(text, after)
		if i < 0 {
			t.Fatalf("%q not in the report", after)
		}
		return text[:i+len(after)]
	}
	two, _ := os.ReadFile(filepath.Join("testdata", "two-wait-sites.mpiP"))
	// v3 with its aggregate table of sent bytes but without the
	// statistics of the call sites that sent them.
	noSent := strings.Replace(v3, "@--- Callsite Time statistics", "@--- Aggregate Sent Message Size (top twenty, descending, bytes) ----------\n"+
		"Call                 Site      Count      Total       Avrg  Sent%\n"+
		"Send                    1         20   1.54e+04        768 100.00\n"+
		"---------------------------------------------------------------------------\n"+
		"@--- Callsite Time statistics", 1)
	from := strings.Index(noSent, "@--- Callsite Message Sent")
	to := strings.Index(noSent, "@--- Callsite I/O")
	noSent = noSent[:from] + noSent[to:]
	for _, tt := range []struct {
		name, text, want string
	}{
		{"before the statistics", cut("Barrier                 1      0.547    0.00    0.00\n"), "lists 2 call sites but has no Callsite Time statistics"},
		{"after the statistics' title", cut("Name              Site Rank  Count      Max     Mean      Min   App%   MPI%\n"), "lack the aggregate (\"*\") row of call sites 1, 2 (truncated?)"},
		{"inside the statistics", cut("Barrier              2    1      1    1e+04    1e+04    1e+04  99.92 100.00\n"), "lack the aggregate (\"*\") row of call site 2 (truncated?)"},
		{"inside the MPI Time section", cut("   1         10         10    99.92\n"), "lists 2 of the 4 tasks"},
		{"without the byte statistics", noSent, "aggregate table lists 1 call sites with bytes but it has no Callsite Message Sent statistics"},
	} {
		_, err := Parse(strings.NewReader(tt.text), "t.mpiP")
		if err == nil || !strings.Contains(err.Error(), "t.mpiP: ") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	// A report whose aggregate rows do not account for its MPI time reads
	// with a warning.
	bad := strings.Replace(string(two), "Wait                 2    *   1000      120       16    0.002   8.00  13.56", "Wait                 2    *   1000      120       16    0.002   8.00   3.56", 1)
	e := read(t, bad)
	if len(e.Warnings) != 1 || !strings.Contains(e.Warnings[0], "hold 89.99 % of the MPI time") {
		t.Errorf("warnings %v", e.Warnings)
	}
}

// TestLongTokenAndBOM: an error quotes a bounded part of a hostile token
// (here 4 MB), and a UTF-8 byte-order mark is no obstacle.
func TestLongTokenAndBOM(t *testing.T) {
	long := strings.Replace(v3, "Recv                 2    0     10       50", "Recv                 2    0     "+strings.Repeat("1x", 2<<20)+"       50", 1)
	_, err := Parse(strings.NewReader(long), "r.mpiP")
	if err == nil || !strings.Contains(err.Error(), "r.mpiP:39: ") || len(err.Error()) > 400 {
		t.Errorf("error of %d bytes: %.400v", len(fmt.Sprint(err)), err)
	}
	if Detect([]byte("\ufeff"+v3), "r.mpiP") != importer.Certain {
		t.Error("a report with a byte-order mark is not recognised")
	}
	if e := read(t, "\ufeff"+v3); e.NumLocations() != 2 {
		t.Errorf("with a byte-order mark: %d tasks", e.NumLocations())
	}
}
