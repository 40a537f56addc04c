package cli

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// bruteFlat computes region r's flat values of metric m straight from the
// stored block: exclusive sums r's cnodes, inclusive sums every cnode in
// the union of their subtrees once.
func bruteFlat(e *model.Experiment, m, r int) (excl, incl float64) {
	b, _ := e.Block(m)
	agg := e.Metrics[m].Aggregation
	excl, incl = agg.Identity(), agg.Identity()
	in := make([]bool, len(e.Cnodes))
	var mark func(c int)
	mark = func(c int) {
		in[c] = true
		for _, ch := range e.Cnodes[c].Children {
			mark(ch)
		}
	}
	for c := range e.Cnodes {
		if e.Cnodes[c].Region == r {
			mark(c)
			for l := 0; l < e.NumLocations(); l++ {
				if isValue(e, m, c, l) {
					excl = agg.Combine(excl, b.Value(c, l))
				}
			}
		}
	}
	for c, ok := range in {
		if ok {
			for l := 0; l < e.NumLocations(); l++ {
				if isValue(e, m, c, l) {
					incl = agg.Combine(incl, b.Value(c, l))
				}
			}
		}
	}
	if math.IsInf(excl, 0) {
		excl = 0
	}
	if math.IsInf(incl, 0) {
		incl = 0
	}
	return excl, incl
}

func TestFlatRowsSynthetic(t *testing.T) {
	e := synthetic()
	visits := e.MetricByName("visits")
	for _, m := range e.MetricOrder() {
		if e.Metrics[m].Unavailable != "" {
			continue
		}
		rows, err := flatRows(e, m)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		for i, row := range rows {
			seen[row.Region] = true
			ex, in := bruteFlat(e, m, row.Region)
			if !near(row.Exclusive, ex) || !near(row.Inclusive, in) {
				t.Errorf("metric %s region %q: got %v/%v, want %v/%v", e.Metrics[m].UniqName,
					e.Regions[row.Region].Name, row.Exclusive, row.Inclusive, ex, in)
			}
			if row.HasVisits != (visits >= 0) {
				t.Errorf("HasVisits = %v with visits metric index %d", row.HasVisits, visits)
			}
			if i > 0 && rows[i-1].Exclusive < row.Exclusive {
				t.Errorf("metric %s: row %d (%v) after a smaller exclusive value %v", e.Metrics[m].UniqName, i, row.Exclusive, rows[i-1].Exclusive)
			}
		}
		for c := range e.Cnodes {
			if !seen[e.Cnodes[c].Region] {
				t.Errorf("region %q has a call path but no row", e.CnodeRegion(c).Name)
			}
		}
	}
}

func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// graphFlat returns a flat forest main, work, helper with a call graph
// whose inclusive times are the tool's: main 10, work 8, helper 1.5.
func graphFlat(t *testing.T) string {
	e := &model.Experiment{
		Metrics: []model.Metric{
			{ID: 0, UniqName: "time", DispName: "self seconds", DataType: "DOUBLE", Unit: "sec", Parent: -1},
			{ID: 1, UniqName: "visits", DispName: "calls", DataType: "UINT64", Unit: "occ", Parent: -1},
		},
		Regions: []model.Region{{ID: 0, Name: "main"}, {ID: 1, Name: "work, with comma"}, {ID: 2, Name: "helper"}},
		Cnodes: []model.Cnode{
			{ID: 0, Region: 0, Parent: -1, CallLine: -1},
			{ID: 1, Region: 1, Parent: -1, CallLine: -1},
			{ID: 2, Region: 2, Parent: -1, CallLine: -1},
		},
		System: []model.SystemNode{
			{ID: 0, Kind: model.TreeNode, Class: "machine", Name: "m", Parent: -1},
			{ID: 1, Kind: model.TreeNode, Class: "node", Name: "n", Parent: 0},
			{ID: 0, Kind: model.Group, Class: "process", Name: "p", Parent: 1},
			{ID: 0, Kind: model.Leaf, Class: "thread", Name: "t", Parent: 2},
		},
		CallGraph: &model.CallGraph{
			Arcs:      []model.CallArc{{Caller: 0, Callee: 1, Calls: 3, Values: map[int]float64{0: 8}}},
			Inclusive: map[int][]float64{0: {10, 8, 1.5}},
		},
	}
	e.Link()
	e.NumberLocations()
	time, visits := model.NewBlock(3, 1), model.NewBlock(3, 1)
	for c, v := range []float64{0.5, 6.5, 1.5} {
		time.SetRow(c, []float64{v})
	}
	for c, v := range []float64{1, 3, 10} {
		visits.SetRow(c, []float64{v})
	}
	e.SetBlock(0, time)
	e.SetBlock(1, visits)
	path := filepath.Join(t.TempDir(), "graph.cubex")
	if err := format.Write(path, e); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestFlatCSVToolInclusive(t *testing.T) {
	path := graphFlat(t)
	status, out, errOut := run("flat", "--csv", path)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	want := "region,exclusive,inclusive,visits\n" +
		"\"work, with comma\",6.5,8,3\n" +
		"helper,1.5,1.5,10\n" +
		"main,0.5,10,1\n"
	if out != want {
		t.Errorf("flat --csv:\n%s\nwant\n%s", out, want)
	}
	status, out, _ = run("flat", path, "--metric", "visits")
	lines := strings.Split(out, "\n")
	if status != 0 || !strings.HasPrefix(lines[0], "calls [visits] occ, flat profile, sum over 1 location") ||
		strings.Fields(lines[2])[0] != "10" || !strings.HasSuffix(lines[2], "  helper") {
		t.Errorf("flat --metric visits: status %d\n%s", status, out)
	}
}

// TestFlatMatchesReference compares the flat profile of a real CUBE file
// with region values summed from CubeLib's own per-cnode dump.
func TestFlatMatchesReference(t *testing.T) {
	dir := testkit.Data(t, "cube4", "call_tree_test")
	file := filepath.Join(dir, "call_tree_test.cubex")
	e, err := format.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	refData, err := os.ReadFile(filepath.Join(dir, "excl.csv"))
	if err != nil {
		t.Fatal(err)
	}
	ref := parseCSV(t, "excl.csv", refData)
	byID := map[int]int{}
	for c := range e.Cnodes {
		byID[e.Cnodes[c].ID] = c
	}
	// Σ over each cnode's subtree, from the reference's exclusive values.
	col := ref.column("time")
	vcol := ref.column("visits")
	own := make([]float64, len(e.Cnodes))
	ownVisits := make([]float64, len(e.Cnodes))
	for key, vals := range ref.rows {
		id, _ := strconv.Atoi(strings.Split(key, ",")[0])
		own[byID[id]] += vals[col]
		ownVisits[byID[id]] += vals[vcol]
	}
	type want struct{ excl, incl, visits float64 }
	wants := map[string]*want{}
	for c := range e.Cnodes {
		name := e.CnodeRegion(c).Name
		w := wants[name]
		if w == nil {
			w = &want{}
			wants[name] = w
		}
		w.excl += own[c]
		w.visits += ownVisits[c]
		var sub func(c int) float64
		sub = func(c int) float64 {
			s := own[c]
			for _, ch := range e.Cnodes[c].Children {
				s += sub(ch)
			}
			return s
		}
		w.incl += sub(c) // no region recurses in this file
	}
	status, out, errOut := run("flat", "--csv", "--metric", "time", file)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	recs, err := csv.NewReader(bytes.NewReader([]byte(out))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != "region,exclusive,inclusive,visits" {
		t.Fatalf("header %q", recs[0])
	}
	if len(recs)-1 != len(wants) {
		t.Errorf("%d rows, want %d regions", len(recs)-1, len(wants))
	}
	for _, r := range recs[1:] {
		w := wants[r[0]]
		if w == nil {
			t.Errorf("unexpected region %q", r[0])
			continue
		}
		got := make([]float64, 3)
		for i := range got {
			got[i], _ = strconv.ParseFloat(r[i+1], 64)
		}
		for i, x := range []float64{w.excl, w.incl, w.visits} {
			if math.Abs(got[i]-x) > 2e-5*math.Max(math.Abs(x), 1e-3) {
				t.Errorf("%s column %d: got %v, want %v", r[0], i+1, got[i], x)
			}
		}
	}
}

func TestFlatErrors(t *testing.T) {
	path := graphFlat(t)
	for _, tt := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"flat"}, 2, "want exactly one FILE-OR-DIR"},
		{[]string{"flat", path, "--metric", "nope"}, 1, `has no metric "nope" (it has: time, visits)`},
		{[]string{"flat", filepath.Join(t.TempDir(), "missing.cubex")}, 1, "no such file"},
	} {
		status, _, errOut := run(tt.args...)
		if status != tt.status || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: status %d, stderr %q; want %d and %q", tt.args, status, errOut, tt.status, tt.want)
		}
	}
}

// TestImportedFormatsOpen: every TAU and gprof sample opens in info and
// flat — but for a gprof report without any function, an error — and
// info reports an imported call graph.
func TestImportedFormatsOpen(t *testing.T) {
	for _, dir := range []string{"tau", "gprof"} {
		entries, err := os.ReadDir(testkit.Data(t, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, en := range entries {
			path := filepath.Join(testkit.Data(t, dir), en.Name())
			for _, cmd := range []string{"info", "flat"} {
				status, out, errOut := run(cmd, path)
				if en.Name() == "issue88.prof" {
					if status == 0 || !strings.Contains(errOut, "lists no function") {
						t.Errorf("%s %s: status %d: %s; want the error that it lists no function", cmd, path, status, errOut)
					}
					continue
				}
				if status != 0 || out == "" {
					t.Errorf("%s %s: status %d: %s", cmd, path, status, errOut)
				}
			}
		}
	}
	status, out, _ := run("info", graphFlat(t))
	if status != 0 || !strings.Contains(out, "Call graph: 1 caller → callee arcs; the tool's inclusive values of time\n") {
		t.Errorf("info of a call-graph experiment: status %d\n%s", status, out)
	}
}

// TestFlatTau2CubeProfile1 is the acceptance check through the
// command: the flat profile of CubeLib's TAU sample equals the file's own
// Excl, Incl (microseconds → seconds) and Calls for all 195 events.
func TestFlatTau2CubeProfile1(t *testing.T) {
	dir := testkit.Data(t, "tau", "tau2cube-profile1")
	data, err := os.ReadFile(filepath.Join(dir, "profile.0.0.0"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	n, _ := strconv.Atoi(strings.Fields(lines[0])[0])
	want := map[string][3]float64{}
	for _, l := range lines[2 : 2+n] {
		end := strings.Index(l, `" `)
		f := strings.Fields(l[end+2:])
		var v [3]float64
		for i, col := range []int{2, 3, 0} { // Excl, Incl, Calls
			v[i], _ = strconv.ParseFloat(f[col], 64)
		}
		v[0], v[1] = v[0]/1e6, v[1]/1e6
		want[l[1:end]] = v
	}
	status, out, errOut := run("flat", "--csv", dir)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs)-1 != 195 || len(want) != 195 {
		t.Fatalf("%d rows, %d events; want 195", len(recs)-1, len(want))
	}
	for _, r := range recs[1:] {
		w, ok := want[r[0]]
		if !ok {
			t.Errorf("row %q is not an event of the file", r[0])
			continue
		}
		for i := range w {
			if got, _ := strconv.ParseFloat(r[i+1], 64); got != w[i] {
				t.Errorf("%s column %d: %v, the file says %v", r[0], i+1, got, w[i])
			}
		}
	}
}
