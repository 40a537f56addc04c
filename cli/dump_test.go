package cli

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cubeview/format/cube"
	"cubeview/format/importer"
	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// table is a parsed dump: column names and rows keyed by "cnode,thread".
type table struct {
	columns []string
	rows    map[string][]float64
	order   []string
}

func parseCSV(t *testing.T, name string, data []byte) table {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(recs) == 0 {
		t.Fatalf("%s: empty CSV", name)
	}
	head := recs[0]
	if len(head) < 2 || strings.TrimSpace(head[0]) != "Cnode ID" || strings.TrimSpace(head[1]) != "Thread ID" {
		t.Fatalf("%s: header %q does not start with Cnode ID, Thread ID", name, head)
	}
	tab := table{rows: map[string][]float64{}}
	for _, h := range head[2:] {
		tab.columns = append(tab.columns, strings.TrimSpace(h))
	}
	for i, r := range recs[1:] {
		key := strings.TrimSpace(r[0]) + "," + strings.TrimSpace(r[1])
		if _, dup := tab.rows[key]; dup {
			t.Fatalf("%s: row %d: duplicate (cnode, thread) %s", name, i+2, key)
		}
		vals := make([]float64, len(r)-2)
		for j, s := range r[2:] {
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil {
				t.Fatalf("%s: row %d column %d: %v", name, i+2, j+3, err)
			}
			vals[j] = v
		}
		tab.rows[key] = vals
		tab.order = append(tab.order, key)
	}
	return tab
}

func (tab table) column(name string) int {
	for i, c := range tab.columns {
		if c == name {
			return i
		}
	}
	return -1
}

// closeEnough compares with relative tolerance rel; values that differ by
// less than a 1e-12 fraction of the column's magnitude are cancellation
// residue (an own value computed as a difference of inclusive values) and
// count as equal.
func closeEnough(got, want, rel, colMax float64) bool {
	d := math.Abs(got - want)
	return d <= rel*math.Max(math.Abs(got), math.Abs(want)) || d <= 1e-12*colMax
}

// TestDumpMatchesReference compares dump with CubeLib's own dumps. For
// min and max metrics the inclusive values differ on purpose where a
// thread did not visit a call path below: CubeLib counts the 0 stored
// there, cubeview only the visited call paths. Those columns are
// compared with values derived from CubeLib's exclusive dump (its values
// and visits), after checking that CubeLib's inclusive dump is the plain
// minimum (maximum) of the same values.
func TestDumpMatchesReference(t *testing.T) {
	data := testkit.DataDir(t)
	for _, dir := range []string{"call_tree_test", "time.p4.n2000.x1.r0"} {
		matches, _ := filepath.Glob(filepath.Join(data, "cube4", dir, "*.cubex"))
		if len(matches) != 1 {
			t.Fatalf("%s: want one .cubex, found %q", dir, matches)
		}
		file := matches[0]
		for _, mode := range []string{"incl", "excl"} {
			t.Run(dir+"/"+mode, func(t *testing.T) {
				refName := filepath.Join(data, "cube4", dir, mode+".csv")
				refData, err := os.ReadFile(refName)
				if err != nil {
					t.Fatal(err)
				}
				ref := parseCSV(t, refName, refData)
				status, out, errOut := run("dump", "--"+mode, file)
				if status != 0 {
					t.Fatalf("dump --%s %s: status %d: %s", mode, file, status, errOut)
				}
				got := parseCSV(t, "dump output", []byte(out))
				if mode == "incl" {
					ref = visitedMinMax(t, file, ref, filepath.Join(data, "cube4", dir, "excl.csv"))
				}
				if len(got.rows) != len(ref.rows) {
					t.Errorf("dump has %d rows, reference %d", len(got.rows), len(ref.rows))
				}
				colMax := make([]float64, len(ref.columns))
				for _, vals := range ref.rows {
					for j, v := range vals {
						colMax[j] = math.Max(colMax[j], math.Abs(v))
					}
				}
				compared, bad := 0, 0
				for j, name := range ref.columns {
					gj := got.column(name)
					if gj < 0 {
						t.Errorf("dump has no column %q", name)
						continue
					}
					for _, key := range ref.order {
						grow, ok := got.rows[key]
						if !ok {
							if j == 0 {
								t.Errorf("dump has no row (cnode, thread) = %s", key)
							}
							continue
						}
						want, have := ref.rows[key][j], grow[gj]
						compared++
						if !closeEnough(have, want, 2e-5, colMax[j]) {
							bad++
							if bad <= 10 {
								t.Errorf("%s at (cnode, thread) %s: got %v, want %v", name, key, have, want)
							}
						}
					}
				}
				if want := len(ref.rows) * len(ref.columns); compared != want || bad > 0 {
					t.Errorf("compared %d of %d reference values, %d differ", compared, want, bad)
				}
				t.Logf("%s --%s: %d values compared", dir, mode, compared)
				// Rows come grouped by cnode id, then location id, as in the reference.
				if fmt.Sprint(got.order) != fmt.Sprint(ref.order) {
					t.Errorf("row order differs from the reference:\n got %v\nwant %v", got.order, ref.order)
				}
			})
		}
	}
}

// visitedMinMax returns CubeLib's inclusive reference incl with every
// min and max column replaced by the aggregate over the call paths each
// thread visited, derived from CubeLib's exclusive reference (values and
// visits) and the call tree of file. It first checks that incl holds the
// plain aggregate over every stored value of the subtree.
func visitedMinMax(t *testing.T, file string, incl table, exclName string) table {
	t.Helper()
	e, err := cube.Read(file, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	exclData, err := os.ReadFile(exclName)
	if err != nil {
		t.Fatal(err)
	}
	excl := parseCSV(t, exclName, exclData)
	vis := excl.column("visits")
	out := table{columns: incl.columns, order: incl.order, rows: map[string][]float64{}}
	for k, v := range incl.rows {
		out.rows[k] = slices.Clone(v)
	}
	differ := 0
	for j, name := range incl.columns {
		m := e.MetricByName(name)
		if m < 0 || e.Metrics[m].Aggregation == model.Sum {
			continue
		}
		if vis < 0 {
			t.Fatalf("%s: no visits column", exclName)
		}
		agg := e.Metrics[m].Aggregation
		xj := excl.column(name)
		for c := range e.Cnodes {
			for l := range e.NumLocations() {
				key := fmt.Sprintf("%d,%d", e.Cnodes[c].ID, e.Location(l).ID)
				plain, visited := agg.Identity(), agg.Identity()
				for _, d := range e.CnodeSubtree(model.CnodeSel{Cnode: c, Inclusive: true}) {
					row := excl.rows[fmt.Sprintf("%d,%d", e.Cnodes[d].ID, e.Location(l).ID)]
					plain = agg.Combine(plain, row[xj])
					if row[vis] != 0 {
						visited = agg.Combine(visited, row[xj])
					}
				}
				if math.IsInf(visited, 0) {
					visited = 0 // no value, shown 0
				}
				if !closeEnough(incl.rows[key][j], plain, 2e-5, 0) {
					t.Errorf("%s: CubeLib's %s at %s is %v, not the plain aggregate %v of its exclusive values", exclName, name, key, incl.rows[key][j], plain)
				}
				if !closeEnough(visited, plain, 2e-5, 0) {
					differ++
				}
				out.rows[key][j] = visited
			}
		}
	}
	t.Logf("%s: %d min/max values over visited call paths differ from CubeLib's", file, differ)
	return out
}

// synthetic returns a small generated experiment with sparse rows,
// min/max metrics and several threads per process.
func synthetic() *model.Experiment {
	return synth.Generate(synth.Config{
		Cnodes: 40, Locations: 6, Threads: 2, Nodes: 2, Metrics: 6,
		Density: 0.6, Seed: 7, MinMax: true,
	})
}

// TestDumpSynthetic checks the CSV against the model's own queries:
// exclusive values are the stored ones, inclusive values those of
// LocationValues over each cnode's subtree.
func TestDumpSynthetic(t *testing.T) {
	e := synthetic()
	sel := e.MetricOrder()
	for _, inclusive := range []bool{false, true} {
		var buf bytes.Buffer
		if err := writeDump(&buf, e, sel, inclusive); err != nil {
			t.Fatal(err)
		}
		tab := parseCSV(t, "dump", buf.Bytes())
		if n := len(e.Cnodes) * e.NumLocations(); len(tab.rows) != n {
			t.Fatalf("inclusive=%v: %d rows, want %d", inclusive, len(tab.rows), n)
		}
		for i, m := range sel {
			if tab.columns[i] != e.Metrics[m].UniqName {
				t.Errorf("column %d is %q, want %q", i, tab.columns[i], e.Metrics[m].UniqName)
			}
		}
		checked := 0
		for c := range e.Cnodes {
			for i, m := range sel {
				want, err := e.LocationValues(model.MetricSel{Metric: m, Inclusive: true}, model.CnodeSel{Cnode: c, Inclusive: inclusive})
				if err != nil {
					t.Fatal(err)
				}
				for l, w := range want {
					key := fmt.Sprintf("%d,%d", e.Cnodes[c].ID, e.Location(l).ID)
					got := tab.rows[key][i]
					if math.Abs(got-w) > 1e-12*math.Max(1, math.Abs(w)) {
						t.Errorf("inclusive=%v %s at %s: got %v, want %v", inclusive, e.Metrics[m].UniqName, key, got, w)
					}
					checked++
				}
			}
		}
		if checked != len(e.Cnodes)*e.NumLocations()*len(sel) {
			t.Errorf("checked %d values", checked)
		}
	}
}

// TestDumpExactValues checks that the printed values read back exactly.
func TestDumpExactValues(t *testing.T) {
	e := synthetic()
	var buf bytes.Buffer
	if err := writeDump(&buf, e, e.MetricOrder(), false); err != nil {
		t.Fatal(err)
	}
	tab := parseCSV(t, "dump", buf.Bytes())
	for i, m := range e.MetricOrder() {
		b, _ := e.Block(m)
		for c := range e.Cnodes {
			for l := 0; l < e.NumLocations(); l++ {
				key := fmt.Sprintf("%d,%d", e.Cnodes[c].ID, e.Location(l).ID)
				if got, want := tab.rows[key][i], b.Value(c, l); got != want {
					t.Fatalf("%s at %s: read back %v, stored %v", e.Metrics[m].UniqName, key, got, want)
				}
			}
		}
	}
}

// TestDumpOrder checks that rows follow cnode and location ids, not the
// storage order.
func TestDumpOrder(t *testing.T) {
	e := synthetic()
	n, nl := len(e.Cnodes), e.NumLocations()
	for c := range e.Cnodes {
		e.Cnodes[c].ID = 10 * (n - c) // reverse of storage order
	}
	for l := 0; l < nl; l++ {
		e.Location(l).ID = (l*5 + 3) % nl // a permutation, since 5 and 6 are coprime
	}
	var buf bytes.Buffer
	if err := writeDump(&buf, e, []int{0}, false); err != nil {
		t.Fatal(err)
	}
	tab := parseCSV(t, "dump", buf.Bytes())
	i := 0
	for c := 1; c <= n; c++ {
		for l := 0; l < nl; l++ {
			if want := fmt.Sprintf("%d,%d", 10*c, l); tab.order[i] != want {
				t.Fatalf("row %d is %s, want %s", i, tab.order[i], want)
			}
			i++
		}
	}
}

// TestDumpStreamsRows: dumping call-tree exclusive values of a .cubex
// reads each metric row by row from the file, loading no block, and
// prints what the dump of the same file with its blocks loaded prints,
// for metrics stored exclusive and inclusive.
func TestDumpStreamsRows(t *testing.T) {
	mem := synthetic()
	for _, incl := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "stream.cubex")
		var file bytes.Buffer
		if err := cube.WriteCubexWith(&file, mem, cube.CubexOptions{Inclusive: incl}); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, file.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		loaded, err := cube.OpenCubex(path)
		if err != nil {
			t.Fatal(err)
		}
		for m := range loaded.Metrics {
			if _, err := loaded.Block(m); err != nil && !errors.Is(err, model.ErrDerived) {
				t.Fatal(err)
			}
		}
		var want bytes.Buffer
		if err := writeDump(&want, loaded, loaded.MetricOrder(), false); err != nil {
			t.Fatal(err)
		}
		e, err := cube.OpenCubex(path)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := writeDump(&got, e, e.MetricOrder(), false); err != nil {
			t.Fatal(err)
		}
		for _, m := range e.MetricOrder() {
			if e.Loaded(m) {
				t.Errorf("stored inclusive=%v: metric %q was loaded for the dump", incl, e.Metrics[m].UniqName)
			}
		}
		if d := testkit.Diff(want.String(), got.String()); d != "" {
			t.Errorf("stored inclusive=%v: dump read row by row differs:\n%s", incl, d)
		}
	}
}

// TestDumpSummarisesUnavailable: metrics without values are left out with
// one line on stderr, not one line each.
func TestDumpSummarisesUnavailable(t *testing.T) {
	path := testkit.Data(t, "cube4", "quirks", "cube-values_example.cubex")
	e, err := openExperiment(path)
	if err != nil {
		t.Fatal(err)
	}
	unavailable := 0
	for _, m := range e.Metrics {
		if m.Unavailable != "" {
			unavailable++
		}
	}
	if unavailable < 2 {
		t.Fatalf("%s has %d metrics without values; the test needs several", path, unavailable)
	}
	status, out, errOut := run("dump", path)
	if status != 0 || out == "" {
		t.Fatalf("status %d: %s", status, errOut)
	}
	if strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, fmt.Sprintf("left out %d metrics without values", unavailable)) {
		t.Errorf("stderr %q; want one line about %d metrics", errOut, unavailable)
	}
}
