package caliper

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
	"cubeview/model"
)

func near(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// TestCPI checks the cpi profile against the JSON's own tables: one cnode
// per node of the call-path column, and per node, rank and value column
// the sum of the rows (so also the per-rank totals).
func TestCPI(t *testing.T) {
	path := testkit.Data(t, "caliper", "cpi-json", "cpi-callpath-profile.json")
	e, err := Read(path, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Data    [][]*float64
		Columns []string
		Nodes   []struct{ Column string }
	}
	if err := json.Unmarshal(raw, &j); err != nil {
		t.Fatal(err)
	}
	pathCol := indexOf(j.Columns, "source.function#callpath.address")
	rankCol := indexOf(j.Columns, "mpi.rank")
	nPath, cnodeOf := 0, map[int]int{}
	for i, n := range j.Nodes {
		if n.Column == j.Columns[pathCol] {
			cnodeOf[i] = nPath // cnodes are made in node order
			nPath++
		}
	}
	if len(e.Cnodes) != nPath || nPath != 85 {
		t.Errorf("%d cnodes, the JSON has %d call-path nodes (85)", len(e.Cnodes), nPath)
	}
	column := map[string]int{}
	for l := range e.Locations {
		proc := e.System[e.Location(l).Parent]
		column[strings.TrimPrefix(proc.Name, "mpi.rank ")] = l
	}
	if len(column) != 4 {
		t.Fatalf("locations %v, want 4 ranks", column)
	}
	for _, metric := range []struct {
		col   string
		scale float64
	}{{"count", 1}, {"sum#time.duration", 1e-6}} {
		c := indexOf(j.Columns, metric.col)
		m := e.MetricByName(metric.col)
		if m < 0 || c < 0 {
			t.Fatalf("metric or column %s missing", metric.col)
		}
		blk, err := e.Block(m)
		if err != nil {
			t.Fatal(err)
		}
		want := map[[2]int]float64{}
		total := map[int]float64{}
		for _, row := range j.Data {
			l := column[strconv.Itoa(int(*row[rankCol]))]
			want[[2]int{cnodeOf[int(*row[pathCol])], l}] += *row[c] * metric.scale
			total[l] += *row[c] * metric.scale
		}
		for cn := range e.Cnodes {
			for l := range e.Locations {
				if got, w := blk.Value(cn, l), want[[2]int{cn, l}]; !near(got, w) {
					t.Errorf("%s %s at %s: %g, the rows sum to %g", metric.col, e.CallPath(cn), e.Location(l).Name, got, w)
				}
			}
		}
		locs, err := e.LocationValues(model.MetricSel{Metric: m, Inclusive: true}, model.AllCnodes)
		if err != nil {
			t.Fatal(err)
		}
		for l, w := range total {
			if !near(locs[l], w) {
				t.Errorf("%s total of %s: %g, the rows sum to %g", metric.col, e.Location(l).Name, locs[l], w)
			}
		}
	}
}

// TestHandmade checks testdata/handmade.json, worked out by hand: a path
// node below a node of another column, a row without a path, ranks and
// threads, and own values from an inclusive column.
func TestHandmade(t *testing.T) {
	e, err := Read(filepath.Join("testdata", "handmade.json"), importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	var locs []string
	for l := range e.Locations {
		locs = append(locs, e.Location(l).Name)
	}
	if got := strings.Join(locs, "; "); got != "omp.thread.id 1; omp.thread.id 2; omp.thread.id 1" {
		t.Errorf("locations %q", got)
	}
	time := e.MetricByName("sum#time.duration")
	count := e.MetricByName("count")
	if time < 0 || count < 0 || e.Metrics[time].Unit != "sec" {
		t.Fatalf("metrics %+v", e.Metrics)
	}
	// (rank 2, thread 1), (rank 2, thread 2), (rank 3, thread 1)
	want := []struct {
		path  string
		count [3]float64
		own   [3]float64 // inclusive minus the children's inclusive
	}{
		{"main", [3]float64{10, 3, 6}, [3]float64{5 - 3, 0, 4 - 1.5}}, // thread 2: 2 − 2
		{"main/solve", [3]float64{4, 2, 1}, [3]float64{3 - 1, 2, 1.5 - 0.5}},
		{"main/solve/exchange", [3]float64{2, 0, 1}, [3]float64{1 - 0.25, 0, 0.5}},
		{"main/solve/exchange/send", [3]float64{1, 0, 0}, [3]float64{0.25, 0, 0}},
		{"<no path>", [3]float64{0, 0, 2}, [3]float64{0, 0, 0.125}},
	}
	tb, _ := e.Block(time)
	cb, _ := e.Block(count)
	for _, w := range want {
		c := e.CnodeByPath(w.path)
		if c < 0 {
			t.Errorf("no cnode %s", w.path)
			continue
		}
		for l := 0; l < 3; l++ {
			if got := cb.Value(c, l); got != w.count[l] {
				t.Errorf("%s count at %d: %g, want %g", w.path, l, got, w.count[l])
			}
			if got := tb.Value(c, l); !near(got, w.own[l]) {
				t.Errorf("%s time at %d: %g, want %g", w.path, l, got, w.own[l])
			}
		}
	}
	if v, _ := e.Attr("Caliper cali.caliper.version"); v != "2.10.0" {
		t.Errorf("version attribute %q", v)
	}
}

// TestSpotSplit reads the json-split output of a region profile as spot
// and RAJAPerf write them (testdata/spot-split.json, written for the test
// after cali-query's output of Thicket's RAJAPerf files): inclusive sums
// behind an aggregation operator become own values, "any" values keep a
// maximum, Caliper's node order is no metric and a mean is left out.
func TestSpotSplit(t *testing.T) {
	e, err := Read(filepath.Join("testdata", "spot-split.json"), importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	total := e.MetricByName("sum#sum#time.duration")
	if total < 0 {
		t.Fatalf("no own-value metric sum#sum#time.duration among %d metrics", len(e.Metrics))
	}
	blk, err := e.Block(total)
	if err != nil {
		t.Fatal(err)
	}
	for c, want := range []float64{4.125, 3.0625, 3.0625} { // 10.25−6.125, 6.125−3.0625, 3.0625
		if got := blk.Value(c, 0); got != want {
			t.Errorf("own time of cnode %d: %v, want %v", c, got, want)
		}
	}
	if m := e.MetricByName("any#any#max#BlockSize"); m < 0 || e.Metrics[m].Aggregation != model.Max {
		t.Errorf("any#any#max#BlockSize: want a max metric")
	}
	for _, name := range []string{"min#min#aggregate.slot", "avg#inclusive#sum#time.duration", "sum#inclusive#sum#time.duration"} {
		if e.MetricByName(name) >= 0 {
			t.Errorf("metric %s imported", name)
		}
	}
}

// TestSplitBOM reads json-split output that starts with a UTF-8
// byte-order mark.
func TestSplitBOM(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "spot-split.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(strings.NewReader("\xef\xbb\xbf"+string(raw)), "bom.json"); err != nil {
		t.Fatal(err)
	}
}
