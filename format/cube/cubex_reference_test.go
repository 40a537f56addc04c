package cube

import (
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cubeview/internal/testkit"
	"cubeview/model"
)

// referenceTable is an incl.csv or excl.csv written by the original tools:
// header "Cnode ID, Thread ID,<uniq_name>,…", a row per (cnode id,
// location id).
type referenceTable struct {
	metrics []string
	rows    []referenceRow
}

type referenceRow struct {
	cnode, location int
	values          []float64
}

func readReference(t *testing.T, path string) referenceTable {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(recs) < 2 || len(recs[0]) < 3 || strings.TrimSpace(recs[0][0]) != "Cnode ID" || strings.TrimSpace(recs[0][1]) != "Thread ID" {
		t.Fatalf("%s: unexpected layout", path)
	}
	var tab referenceTable
	for _, h := range recs[0][2:] {
		tab.metrics = append(tab.metrics, strings.TrimSpace(h))
	}
	for i, rec := range recs[1:] {
		if len(rec) != len(recs[0]) {
			t.Fatalf("%s line %d: %d fields, want %d", path, i+2, len(rec), len(recs[0]))
		}
		var row referenceRow
		var err1, err2 error
		row.cnode, err1 = strconv.Atoi(strings.TrimSpace(rec[0]))
		row.location, err2 = strconv.Atoi(strings.TrimSpace(rec[1]))
		if err1 != nil || err2 != nil {
			t.Fatalf("%s line %d: bad ids %q %q", path, i+2, rec[0], rec[1])
		}
		for _, s := range rec[2:] {
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil {
				t.Fatalf("%s line %d: %v", path, i+2, err)
			}
			row.values = append(row.values, v)
		}
		tab.rows = append(tab.rows, row)
	}
	return tab
}

// closeEnough compares a value with a reference printed to about six
// significant digits.
func closeEnough(got, want float64) bool {
	return math.Abs(got-want) <= 2e-5*math.Abs(want)+1e-12
}

// TestReferenceValues compares the values read with CubeLib's dumps. For
// a min or max metric the inclusive values differ on purpose where a
// location did not visit a call path below: CubeLib counts the 0 stored
// there, cubeview only the visited call paths (see model). Those are
// compared with values derived from CubeLib's exclusive dump (values and
// visits), after checking that CubeLib's inclusive value is the plain
// minimum (maximum) of the same exclusive values.
func TestReferenceValues(t *testing.T) {
	dir := testkit.Data(t, "cube4")
	cases := []struct{ file, dir string }{
		{"call_tree_test.cubex", "call_tree_test"},
		{"profile.cubex", "time.p4.n2000.x1.r0"},
	}
	for _, tc := range cases {
		t.Run(tc.dir, func(t *testing.T) {
			e, err := OpenCubex(filepath.Join(dir, tc.dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Validate(); err != nil {
				t.Fatal(err)
			}
			cnodeIndex := map[int]int{}
			for i := range e.Cnodes {
				cnodeIndex[e.Cnodes[i].ID] = i
			}
			column := map[int]int{}
			for l := range e.Locations {
				column[e.Location(l).ID] = l
			}
			excl := readReference(t, filepath.Join(dir, tc.dir, "excl.csv"))
			for _, kind := range []string{"excl", "incl"} {
				tab := readReference(t, filepath.Join(dir, tc.dir, kind+".csv"))
				compared := 0
				for mi, name := range tab.metrics {
					m := e.MetricByName(name)
					if m < 0 {
						t.Fatalf("%s.csv metric %q not in the experiment", kind, name)
					}
					b, err := e.Block(m)
					if err != nil {
						t.Fatal(err)
					}
					// Per cnode, the call-tree inclusive values per location.
					incl := map[int][]float64{}
					bad := 0
					for _, row := range tab.rows {
						c, ok1 := cnodeIndex[row.cnode]
						l, ok2 := column[row.location]
						if !ok1 || !ok2 {
							t.Fatalf("%s.csv names unknown cnode %d or location %d", kind, row.cnode, row.location)
						}
						var got float64
						if kind == "excl" {
							got = b.Value(c, l)
						} else {
							if incl[c] == nil {
								incl[c], err = e.LocationValues(model.MetricSel{Metric: m, Inclusive: true}, model.CnodeSel{Cnode: c, Inclusive: true})
								if err != nil {
									t.Fatal(err)
								}
							}
							got = incl[c][l]
						}
						want := row.values[mi]
						if agg := e.Metrics[m].Aggregation; kind == "incl" && agg != model.Sum {
							plain, visited := minMaxFromExclusive(e, excl, name, c, l)
							if !closeEnough(plain, want) {
								t.Errorf("CubeLib's incl %s cnode %d location %d is %v, not the plain aggregate %v of its exclusive values", name, row.cnode, row.location, want, plain)
							}
							want = visited
						}
						if !closeEnough(got, want) {
							if bad++; bad <= 5 {
								t.Errorf("%s %s cnode %d location %d: got %v, want %v", kind, name, row.cnode, row.location, got, want)
							}
						}
						compared++
					}
				}
				if want := len(tab.rows) * len(tab.metrics); compared != want {
					t.Errorf("%s: compared %d values, want %d", kind, compared, want)
				}
				if want := len(e.Cnodes) * len(e.Locations); len(tab.rows) != want {
					t.Errorf("%s.csv has %d rows, want cnodes × locations = %d", kind, len(tab.rows), want)
				}
				t.Logf("%s: %d values compared", kind, compared)
			}
		})
	}
}

// minMaxFromExclusive returns, from the exclusive reference excl, min or
// max metric name aggregated over cnode c's subtree at location l: over
// every stored value (as CubeLib does) and over the call paths l visited
// (visits > 0), 0 when there are none.
func minMaxFromExclusive(e *model.Experiment, excl referenceTable, name string, c, l int) (plain, visited float64) {
	col, vis := slices.Index(excl.metrics, name), slices.Index(excl.metrics, "visits")
	agg := e.Metrics[e.MetricByName(name)].Aggregation
	plain, visited = agg.Identity(), agg.Identity()
	in := map[int]bool{}
	for _, d := range e.CnodeSubtree(model.CnodeSel{Cnode: c, Inclusive: true}) {
		in[e.Cnodes[d].ID] = true
	}
	for _, row := range excl.rows {
		if !in[row.cnode] || row.location != e.Location(l).ID {
			continue
		}
		plain = agg.Combine(plain, row.values[col])
		if vis >= 0 && row.values[vis] != 0 {
			visited = agg.Combine(visited, row.values[col])
		}
	}
	if math.IsInf(visited, 0) {
		visited = 0
	}
	return plain, visited
}

// TestWrappedUint64Counters reads the Kripke files whose INCLUSIVE UINT64
// PAPI counters hold words 0xFFFFFFFFFFFFFFFF, and parents that hold less
// than their children, as CubeLib does: every inclusive value is the
// stored one (such a word reads as 0), so some own values are negative.
func TestWrappedUint64Counters(t *testing.T) {
	for _, tt := range []struct{ file, metric string }{
		{"L2_DCM_negative.cubex", "PAPI_L2_DCM"},
		{"L3_DCA_negative.cubex", "PAPI_L3_DCA"},
	} {
		path := testkit.Data(t, "cube4", "hw_counter", tt.file)
		e, err := OpenCubex(path)
		if err != nil {
			t.Fatal(err)
		}
		m := e.MetricByName(tt.metric)
		if m < 0 || e.Metrics[m].DataType != "UINT64" || e.Metrics[m].Type != "INCLUSIVE" {
			t.Fatalf("%s: %s missing or not an INCLUSIVE UINT64 metric", tt.file, tt.metric)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		members, err := readTarIndex(bytes.NewReader(raw), int64(len(raw)))
		if err != nil {
			t.Fatal(err)
		}
		id := strconv.Itoa(e.Metrics[m].ID)
		md, ix := members[id+".data"], members[id+".index"]
		x, err := parseIndex(raw[ix.offset:ix.offset+ix.size], len(e.Cnodes))
		if err != nil {
			t.Fatal(err)
		}
		// Positions in the wide enumeration (INCLUSIVE metric) → cnodes.
		ld := &cubexLoader{e: e}
		_, wide := ld.enumerations()
		words := raw[md.offset+int64(len(dataMarker)) : md.offset+md.size]
		nl := e.NumLocations()
		b, err := e.Block(m)
		if err != nil {
			t.Fatal(err)
		}
		// Every inclusive value is the stored word, as CubeLib shows it
		// (an all-ones word reads as 0), also where a parent holds less
		// than its children and its own value is negative.
		incl, err := e.PointValues(model.MetricSel{Metric: m, Inclusive: true}, true)
		if err != nil {
			t.Fatal(err)
		}
		wrapped, negative := 0, 0
		for k, pos := range x.positions {
			c := wide[pos]
			for col := 0; col < nl; col++ {
				w := binary.LittleEndian.Uint64(words[8*(k*nl+col):])
				if w == math.MaxUint64 {
					wrapped++
				}
				if got, want := incl.Value(c, col), uint64Value(w); got != want {
					t.Errorf("%s: cnode id %d, location %d: inclusive %v, stored %v", tt.file, e.Cnodes[c].ID, col, got, want)
				}
				if b.Value(c, col) < 0 {
					negative++
				}
			}
		}
		if wrapped == 0 || negative == 0 {
			t.Fatalf("%s: %d 0xFFFFFFFFFFFFFFFF words, %d negative own values; the file is not what the test expects", tt.file, wrapped, negative)
		}
		t.Logf("%s %s: %d stored values compared, %d all-ones words, %d negative own values", tt.file, tt.metric, len(x.positions)*nl, wrapped, negative)
		// Written back and read again, the values are the same.
		var buf bytes.Buffer
		if err := WriteCubex(&buf, e); err != nil {
			t.Fatal(err)
		}
		back, err := ReadCubex(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "back.cubex")
		if err != nil {
			t.Fatal(err)
		}
		bb, err := back.Block(back.MetricByName(tt.metric))
		if err != nil {
			t.Fatal(err)
		}
		for c := range e.Cnodes {
			for l := 0; l < nl; l++ {
				if b.Value(c, l) != bb.Value(c, l) {
					t.Fatalf("%s: round trip changes cnode id %d, location %d: %v → %v", tt.file, e.Cnodes[c].ID, l, b.Value(c, l), bb.Value(c, l))
				}
			}
		}
	}
}
