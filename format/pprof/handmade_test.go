package pprof

import (
	"cubeview/format/importer"
	"cubeview/model"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// handmade returns a small CPU profile with named functions in files,
// helper inlined into work, direct recursion in rec, and samples labelled
// with threads A and B (one sample has no label).
func handmade() *profile.Profile {
	fn := func(id uint64, name, file string, start int64) *profile.Function {
		return &profile.Function{ID: id, Name: name, SystemName: name, Filename: file, StartLine: start}
	}
	main := fn(1, "main.main", "/src/main.go", 10)
	work := fn(2, "main.work", "/src/work.go", 20)
	helper := fn(3, "main.helper", "/src/work.go", 40)
	leaf := fn(4, "main.leaf", "/src/leaf.go", 5)
	rec := fn(5, "main.rec", "/src/rec.go", 50)
	m := &profile.Mapping{ID: 1, Start: 0x1000, Limit: 0x9000, File: "/bin/app", HasFunctions: true, HasFilenames: true, HasLineNumbers: true, HasInlineFrames: true}
	loc := func(id, addr uint64, lines ...profile.Line) *profile.Location {
		return &profile.Location{ID: id, Mapping: m, Address: addr, Line: lines}
	}
	lMain := loc(1, 0x1100, profile.Line{Function: main, Line: 12})
	lWorkHelper := loc(2, 0x2000, profile.Line{Function: helper, Line: 42}, profile.Line{Function: work, Line: 25})
	lLeaf := loc(3, 0x3000, profile.Line{Function: leaf, Line: 6})
	lWork := loc(4, 0x2100, profile.Line{Function: work, Line: 30})
	lRec := loc(5, 0x5000, profile.Line{Function: rec, Line: 55})
	lMain2 := loc(6, 0x1200, profile.Line{Function: main, Line: 14})
	sample := func(n int64, thread string, locs ...*profile.Location) *profile.Sample {
		s := &profile.Sample{Location: locs, Value: []int64{n, n * 10_000_000}}
		if thread != "" {
			s.Label = map[string][]string{"thread": {thread}}
		}
		return s
	}
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10_000_000,
		Sample: []*profile.Sample{
			sample(1, "A", lLeaf, lWorkHelper, lMain),
			sample(2, "B", lWorkHelper, lMain),
			sample(3, "A", lLeaf, lWork, lMain),
			sample(4, "", lRec, lRec, lRec, lMain2),
			sample(5, "B", lLeaf, lWork, lMain2),
		},
		Mapping:  []*profile.Mapping{m},
		Location: []*profile.Location{lMain, lWorkHelper, lLeaf, lWork, lRec, lMain2},
		Function: []*profile.Function{main, work, helper, leaf, rec},
	}
}

// writeProfile writes p gzip-compressed to a temporary file.
func writeProfile(t testing.TB, p *profile.Profile) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "profile.pb.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestHandmadeStructure checks the call tree, call sites, regions and
// locations built from the handmade profile, worked out by hand.
func TestHandmadeStructure(t *testing.T) {
	e, err := Read(writeProfile(t, handmade()), importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e.Format != "pprof (protobuf)" {
		t.Errorf("Format = %q", e.Format)
	}
	type want struct {
		path     string
		callFile string
		callLine int
		samples  map[string]float64 // per location name
	}
	wants := []want{
		{"main.main", "", -1, nil},
		{"main.main/main.work", "", -1, nil}, // reached from lines 12 and 14
		{"main.main/main.work/main.helper", "/src/work.go", 25, map[string]float64{"thread B": 2}},
		{"main.main/main.work/main.helper/main.leaf", "/src/work.go", 42, map[string]float64{"thread A": 1}},
		{"main.main/main.work/main.leaf", "/src/work.go", 30, map[string]float64{"thread A": 3, "thread B": 5}},
		{"main.main/main.rec", "/src/main.go", 14, nil},
		{"main.main/main.rec/main.rec", "/src/rec.go", 55, nil},
		{"main.main/main.rec/main.rec/main.rec", "/src/rec.go", 55, map[string]float64{"no thread label": 4}},
	}
	if len(e.Cnodes) != len(wants) {
		t.Errorf("%d cnodes, want %d", len(e.Cnodes), len(wants))
	}
	var locs []string
	for l := range e.Locations {
		locs = append(locs, e.Location(l).Name)
	}
	if got := strings.Join(locs, ","); got != "no thread label,thread A,thread B" {
		t.Errorf("locations %s", got)
	}
	samples := e.MetricByName("samples")
	blk, err := e.Block(samples)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range wants {
		c := e.CnodeByPath(w.path)
		if c < 0 {
			t.Errorf("no cnode %s", w.path)
			continue
		}
		cn := &e.Cnodes[c]
		if cn.CallFile != w.callFile || cn.CallLine != w.callLine {
			t.Errorf("%s: call site %s:%d, want %s:%d", w.path, cn.CallFile, cn.CallLine, w.callFile, w.callLine)
		}
		for l := range e.Locations {
			if got, want := blk.Value(c, l), w.samples[e.Location(l).Name]; got != want {
				t.Errorf("%s at %s: %g samples, want %g", w.path, e.Location(l).Name, got, want)
			}
		}
	}
	cpu := e.MetricByName("cpu")
	if m := e.Metrics[cpu]; m.Unit != "sec" || m.DataType != "DOUBLE" {
		t.Errorf("cpu metric: unit %q, type %q", m.Unit, m.DataType)
	}
	if total, _ := e.MetricTotal(model.MetricSel{Metric: cpu, Inclusive: true}); math.Abs(total-0.15) > 1e-12 {
		t.Errorf("cpu total %g s, want 0.15", total)
	}
	for _, r := range e.Regions {
		if r.Name == "main.main" && (r.Module != "/src/main.go" || r.Begin != 10) {
			t.Errorf("main.main region: %s:%d", r.Module, r.Begin)
		}
		inlined := false
		for _, a := range r.Attrs {
			inlined = inlined || a.Key == "inlined" && a.Value == "true"
		}
		if inlined != (r.Name == "main.helper") {
			t.Errorf("region %s: inlined attribute %t", r.Name, inlined)
		}
	}
}
