package cli

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
)

// rootValue runs tree (or flat) with args and returns the value printed
// for the first call path (region), the root.
func rootValue(t *testing.T, args ...string) float64 {
	t.Helper()
	status, out, errOut := run(args...)
	if status != 0 {
		t.Fatalf("%v: status %d: %s", args, status, errOut)
	}
	lines := strings.Split(out, "\n")
	row := 1
	if args[0] == "flat" {
		row = 2 // below the column heads; whole value in column 2
	}
	if len(lines) <= row {
		t.Fatalf("%v: no rows:\n%s", args, out)
	}
	f := strings.Fields(lines[row])
	col := 0
	if args[0] == "flat" {
		col = 1
	}
	v, err := strconv.ParseFloat(f[col], 64)
	if err != nil {
		t.Fatalf("%v: row %q: %v", args, lines[row], err)
	}
	return v
}

// TestMinMaxAlongCallTreeTAU reads the real TAU profile cpi-mpi, whose
// message-size events are stored at the root (.TAU application): every
// rank's files say min 4 (broadcast) and 8 (reduce). The root's inclusive
// minimum aggregates only call paths the ranks visited, so it is the
// files' own minimum, not the 0 of the callees without such events.
func TestMinMaxAlongCallTreeTAU(t *testing.T) {
	dir := testkit.Data(t, "tau", "cpi-mpi")
	files, _ := filepath.Glob(filepath.Join(dir, "profile.*"))
	if len(files) == 0 {
		t.Fatalf("%s: no profile files", dir)
	}
	// From the files' own userevents tables: name → min, max over ranks.
	type extremes struct{ min, max float64 }
	want := map[string]extremes{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		for sc.Scan() {
			line := sc.Text()
			if !strings.HasPrefix(line, `"Message size`) {
				continue
			}
			end := strings.LastIndexByte(line, '"')
			name := line[1:end]
			// numevents max min mean sumsqr
			f := strings.Fields(line[end+1:])
			mx, _ := strconv.ParseFloat(f[1], 64)
			mn, _ := strconv.ParseFloat(f[2], 64)
			w, ok := want[name]
			if !ok {
				w = extremes{math.Inf(1), math.Inf(-1)}
			}
			want[name] = extremes{min(w.min, mn), max(w.max, mx)}
		}
	}
	if len(want) == 0 {
		t.Fatalf("%s: no message-size events in the files", dir)
	}
	e, err := format.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, w := range want {
		for _, kind := range []struct {
			suffix string
			want   float64
		}{{".min", w.min}, {".max", w.max}} {
			// The event's statistics are children of its metric (the mean).
			metric := ""
			if p := e.MetricByName(name); p >= 0 {
				for _, c := range e.Metrics[p].Children {
					if strings.HasSuffix(e.Metrics[c].UniqName, kind.suffix) {
						metric = e.Metrics[c].UniqName
					}
				}
			}
			if metric == "" {
				t.Fatalf("%s: no %s statistic of event %q", dir, kind.suffix, name)
			}
			if got := rootValue(t, "tree", dir, "--metric", metric, "--exact"); got != kind.want {
				t.Errorf("tree %s: root %v, want %v (the files' own %s)", metric, got, kind.want, kind.suffix)
			}
			if got := rootValue(t, "flat", dir, "--metric", metric); got != kind.want {
				t.Errorf("flat %s: first region's inclusive %v, want %v", metric, got, kind.want)
			}
		}
	}
}

// TestMinMaxAlongCallTreeMpiP reads the mpiP User Guide's sample report:
// its call sites' "*" rows give each site's minimum and maximum time over
// the tasks. The program's root aggregates them: min 0.107 ms (not 0,
// which the report never says), max 10 s.
func TestMinMaxAlongCallTreeMpiP(t *testing.T) {
	file := filepath.Join("..", "format", "mpip", "testdata", "userguide-2.4-9-test-mpip-time.mpiP")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	wantMin, wantMax := math.Inf(1), math.Inf(-1)
	inStats := false
	for line := range strings.SplitSeq(string(data), "\n") {
		if strings.HasPrefix(line, "@--- ") {
			inStats = strings.HasPrefix(line, "@--- Callsite statistics")
			continue
		}
		f := strings.Fields(line)
		// Name Site Rank Count Max Mean Min App% MPI%
		if !inStats || len(f) != 9 || f[2] != "*" {
			continue
		}
		mx, err1 := strconv.ParseFloat(f[4], 64)
		mn, err2 := strconv.ParseFloat(f[6], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %q: not numbers", file, line)
		}
		wantMin, wantMax = min(wantMin, mn/1000), max(wantMax, mx/1000)
	}
	if math.IsInf(wantMin, 0) {
		t.Fatalf("%s: no \"*\" rows in the call site statistics", file)
	}
	if got := rootValue(t, "tree", file, "--metric", "min_time", "--exact"); math.Abs(got-wantMin) > 1e-12 {
		t.Errorf("tree min_time: root %v, want %v", got, wantMin)
	}
	if got := rootValue(t, "tree", file, "--metric", "max_time", "--exact"); math.Abs(got-wantMax) > 1e-9 {
		t.Errorf("tree max_time: root %v, want %v", got, wantMax)
	}
}
