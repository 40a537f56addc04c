package cube

import (
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
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

func TestWrappedUint64Counters(t *testing.T) {
	// PAPI_L2_DCM is an INCLUSIVE UINT64 metric whose data hold words
	// 0xFFFFFFFFFFFFFFFF: counter readings that went backwards by one.
	path := filepath.Join(testkit.Data(t, "cube4", "hw_counter"), "L2_DCM_negative.cubex")
	e, err := OpenCubex(path)
	if err != nil {
		t.Fatal(err)
	}
	m := e.MetricByName("PAPI_L2_DCM")
	if m < 0 || e.Metrics[m].DataType != "UINT64" || e.Metrics[m].Type != "INCLUSIVE" {
		t.Fatalf("PAPI_L2_DCM missing or not an INCLUSIVE UINT64 metric")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	members, err := readTarIndex(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	md := members[strconv.Itoa(e.Metrics[m].ID)+".data"]
	words := raw[md.offset+int64(len(dataMarker)) : md.offset+md.size]
	wrapped := 0
	for i := 0; i+8 <= len(words); i += 8 {
		if binary.LittleEndian.Uint64(words[i:]) == math.MaxUint64 {
			wrapped++
		}
	}
	if wrapped == 0 {
		t.Fatal("no 0xFFFFFFFFFFFFFFFF word in the data; the file is not what the test expects")
	}
	// The stored values are call-tree inclusive, so the inclusive values
	// computed from the canonical storage must show each such word as −1.
	minusOne := 0
	for c := range e.Cnodes {
		incl, err := e.LocationValues(model.MetricSel{Metric: m, Inclusive: true}, model.CnodeSel{Cnode: c, Inclusive: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range incl {
			if v == -1 {
				minusOne++
			}
			if math.Abs(v) >= 1<<62 {
				t.Fatalf("cnode id %d: inclusive value %v looks like a misread wrapped counter", e.Cnodes[c].ID, v)
			}
		}
	}
	if minusOne != wrapped {
		t.Errorf("%d inclusive values are −1, the data hold %d words 0xFF…FF", minusOne, wrapped)
	}
}
