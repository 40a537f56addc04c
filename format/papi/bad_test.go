package papi

import (
	"bytes"
	"compress/gzip"
	"cubeview/format/importer"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goodHead = `{"papi_version":"7.0.0.0","event_definitions":{"PAPI_TOT_INS":{"component":"perf_event","type":"delta"}},`

// TestBadInput feeds broken rank files; each must give an error naming
// the file, where it is and what is wrong.
func TestBadInput(t *testing.T) {
	long := strings.Repeat("9", 1<<20)
	tests := []struct {
		name, text, want string
	}{
		{"empty", "", "ends early: the file is truncated"},
		{"truncated", goodHead + `"threads":{"0":{"regions":{"0":{"name":"main","parent_region_id":"-1","cycles":"5`, ":1: the JSON ends early: the file is truncated"},
		{"no threads", goodHead + `"x":1}`, `no "threads"`},
		{"bad value", goodHead + `"threads":{"0":{"regions":{"0":{"name":"main","parent_region_id":"-1","cycles":"fast"}}}}}`, `value "fast" is not a number (region 0, event "cycles")`},
		{"number not in a string", goodHead + `"threads":{"0":{"regions":{"0":{"name":"main","parent_region_id":"-1","cycles":5}}}}}`, `want '"'`},
		{"orphan", goodHead + `"threads":{"0":{"regions":{"1":{"name":"inner","parent_region_id":"0","cycles":"5"}}}}}`, `region 1 ("inner"): its parent region 0 is not an earlier region`},
		{"no name", goodHead + `"threads":{"0":{"regions":{"0":{"parent_region_id":"-1","cycles":"5"}}}}}`, "region 0 has no name"},
		{"no parent", goodHead + `"threads":{"0":{"regions":{"0":{"name":"main","cycles":"5"}}}}}`, `region 0 ("main"): no parent_region_id`},
		{"bad thread", goodHead + `"threads":{"x":{"regions":{}}}}`, `thread "x": not a thread number`},
		{"bad type", `{"event_definitions":{"E":{"type":"sometimes"}},"threads":{}}`, `event "E": unknown type "sometimes"`},
		{"reads without value", goodHead + `"threads":{"0":{"regions":{"0":{"name":"main","parent_region_id":"-1","cycles":{"read_1":"4"}}}}}}`, "PAPI_hl_read's values without region_value"},
		{"trailing data", goodHead + `"threads":{"0":{"regions":{"0":{"name":"main","parent_region_id":"-1","cycles":"5"}}}}} {}`, "data after the end of the JSON object"},
		{"no regions", goodHead + `"threads":{}}`, "no region was measured"},
		{"deep", `{"threads":{},"x":` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + "}", "nested more than 200 deep"},
		{"long value", goodHead + `"threads":{"0":{"regions":{"0":{"name":"main","parent_region_id":"-1","cycles":"` + long + `x"}}}}}`, "a string longer than 1 MB"},
		{"duplicate region", goodHead + `"threads":{"0":{"regions":{"0":{"name":"a","parent_region_id":"-1"},"0":{"name":"b","parent_region_id":"-1"}}}}}`, "region 0 occurs twice"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "rank_"+strings.ReplaceAll(tt.name, " ", "-")+".json")
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			e, err := Read(path, importer.Options{})
			if err == nil {
				t.Fatalf("no error (%d cnodes)", len(e.Cnodes))
			}
			msg := err.Error()
			if !strings.Contains(msg, path) || !strings.Contains(msg, tt.want) {
				t.Errorf("error %q, want one naming %s and saying %q", importer.Quote(msg), path, tt.want)
			}
			if len(msg) > 400 {
				t.Errorf("error of %d bytes: quotes from the file must be bounded", len(msg))
			}
		})
	}
}

// TestTolerated reads a file with a byte-order mark and escaped names.
func TestTolerated(t *testing.T) {
	text := "\xef\xbb\xbf" + goodHead + `"threads":{"0":{"regions":{"0":{"name":"a\"b\u00e9","parent_region_id":"-1","PAPI_TOT_INS":"7"}}}}}`
	e, err := Parse(strings.NewReader(text), "rank_000002.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Regions[0].Name; got != `a"bé` {
		t.Errorf("region %q", got)
	}
	if p := e.System[e.Location(0).Parent].Name; p != "rank 2" {
		t.Errorf("process %q, want rank 2", p)
	}
}

// FuzzRead checks that any input yields an experiment that validates or
// an error, never a panic.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"papi7-threads/rank_000000.json", "papi7-instant/rank_000001.json", "papi6/rank_0003"} {
		if data, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(goodHead + `"threads":{"0":{"regions":{"0":{"name":"main","parent_region_id":"-1","cycles":"5"},"1":{"name":"x","parent_region_id":"0","cycles":"9"}}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := Parse(strings.NewReader(string(data)), "rank_000000.json")
		if err != nil {
			return
		}
		if err := e.Validate(); err != nil {
			t.Fatalf("invalid experiment: %v", err)
		}
	})
}

// TestGzip reads a gzip-compressed rank file within the shared
// decompression budget.
func TestGzip(t *testing.T) {
	plain, err := os.ReadFile(filepath.Join("testdata", "papi7-threads", "rank_000001.json"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(plain)
	zw.Close()
	dir := t.TempDir()
	path := filepath.Join(dir, "rank_000001.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if Detect(nil, dir) != importer.Certain {
		t.Error("folder of a compressed rank file not recognised")
	}
	e, err := Read(path, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e.NumLocations() != 3 {
		t.Errorf("%d locations, want 3 threads", e.NumLocations())
	}
	old := importer.Budget
	importer.Budget = func(int64) int64 { return 1000 }
	defer func() { importer.Budget = old }()
	_, err = Read(path, importer.Options{})
	var be *importer.BudgetError
	if !errors.As(err, &be) {
		t.Errorf("error %v, want a budget error", err)
	}
}
