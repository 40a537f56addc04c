package cube

import (
	"archive/tar"
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// metadataCopy returns e's metadata without any data.
func metadataCopy(e *model.Experiment) *model.Experiment {
	c := &model.Experiment{
		Source: e.Source, Format: e.Format,
		Attrs:      slices.Clone(e.Attrs),
		Mirrors:    slices.Clone(e.Mirrors),
		Metrics:    slices.Clone(e.Metrics),
		Regions:    slices.Clone(e.Regions),
		Cnodes:     slices.Clone(e.Cnodes),
		System:     slices.Clone(e.System),
		Locations:  slices.Clone(e.Locations),
		Topologies: slices.Clone(e.Topologies),
	}
	c.Link()
	return c
}

// locationIDs maps location Ids to data columns, as decodeXML does.
func locationIDs(e *model.Experiment) map[int]int {
	m := map[int]int{}
	for l := range e.Locations {
		m[e.Location(l).ID] = l
	}
	return m
}

// writeDataArchive writes e's data members (no anchor) in memory.
func writeDataArchive(t testing.TB, e *model.Experiment, opt cubexWriteOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if _, err := writeCubexData(tw, e, opt); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// attachArchive reads the data members of data into a metadata copy of
// e, whose metric types say which metrics are stored inclusive.
func attachArchive(t testing.TB, data []byte, meta *model.Experiment) error {
	t.Helper()
	a, err := indexArchive(bytes.NewReader(data), int64(len(data)), "test.cubex", nil)
	if err != nil {
		return err
	}
	return a.attachData(meta, locationIDs(meta))
}

func dumpString(t testing.TB, e *model.Experiment) string {
	t.Helper()
	var sb strings.Builder
	if err := e.Dump(&sb); err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

func TestCubexDataRoundTrip(t *testing.T) {
	isSum := func(e *model.Experiment) func(int) bool {
		return func(m int) bool { return e.Metrics[m].Aggregation == model.Sum }
	}
	tests := []struct {
		name       string
		cfg        synth.Config
		opt        func(e *model.Experiment) cubexWriteOptions
		permuteIDs bool
		multiRoot  bool
	}{
		{name: "default", cfg: synth.Config{Cnodes: 60, Locations: 6, Threads: 2, Metrics: 6, MinMax: true, Density: 0.5, Seed: 1}},
		{name: "dense", cfg: synth.Config{Cnodes: 30, Locations: 4, Metrics: 3, Density: 0.3, Seed: 2},
			opt: func(*model.Experiment) cubexWriteOptions { return cubexWriteOptions{dense: true} }},
		{name: "compressed", cfg: synth.Config{Cnodes: 40, Locations: 5, Metrics: 5, MinMax: true, Density: 0.6, Seed: 3},
			opt: func(*model.Experiment) cubexWriteOptions { return cubexWriteOptions{compress: true} }},
		{name: "big endian", cfg: synth.Config{Cnodes: 40, Locations: 3, Metrics: 4, Density: 0.6, Seed: 4},
			opt: func(*model.Experiment) cubexWriteOptions { return cubexWriteOptions{bigEndian: true} }},
		{name: "inclusive wide", cfg: synth.Config{Cnodes: 80, Locations: 4, Metrics: 6, MinMax: true, Density: 0.4, Seed: 5},
			opt: func(e *model.Experiment) cubexWriteOptions { return cubexWriteOptions{inclusive: isSum(e)} }},
		{name: "inclusive dense compressed", cfg: synth.Config{Cnodes: 50, Locations: 2, Metrics: 4, Density: 0.2, Seed: 6},
			opt: func(e *model.Experiment) cubexWriteOptions {
				return cubexWriteOptions{inclusive: isSum(e), dense: true, compress: true}
			}},
		{name: "permuted location ids", cfg: synth.Config{Cnodes: 20, Locations: 7, Metrics: 4, Density: 0.7, Seed: 7}, permuteIDs: true},
		{name: "several roots inclusive", cfg: synth.Config{Cnodes: 40, Locations: 3, Metrics: 3, Density: 0.8, Seed: 8}, multiRoot: true,
			opt: func(e *model.Experiment) cubexWriteOptions { return cubexWriteOptions{inclusive: isSum(e)} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := synth.Generate(tt.cfg)
			if tt.permuteIDs {
				for l := range e.Locations {
					e.System[e.Locations[l]].ID = (l * 3) % len(e.Locations) // 0…6 in another order
				}
			}
			if tt.multiRoot {
				// Cut the first children of the root loose as roots.
				e.Cnodes[1].Parent, e.Cnodes[2].Parent = -1, -1
				e.Link()
			}
			var opt cubexWriteOptions
			if tt.opt != nil {
				opt = tt.opt(e)
			}
			data := writeDataArchive(t, e, opt)
			meta := metadataCopy(e)
			for m := range meta.Metrics {
				if opt.inclusive != nil && opt.inclusive(m) {
					meta.Metrics[m].Type = "INCLUSIVE"
				}
			}
			if err := attachArchive(t, data, meta); err != nil {
				t.Fatal(err)
			}
			for m := range meta.Metrics {
				if meta.Loaded(m) {
					t.Fatalf("metric %d loaded before use", m)
				}
			}
			if err := meta.Validate(); err != nil {
				t.Fatal(err)
			}
			want, got := dumpString(t, e), dumpString(t, meta)
			if tt.opt != nil && opt.inclusive != nil {
				// Subtracting inclusive sums rounds; compare values numerically.
				compareBlocks(t, e, meta, 1e-9)
				return
			}
			if got != want {
				t.Errorf("dump differs after round trip\n%s", testkit.Diff(want, got))
			}
		})
	}
}

// compareBlocks compares every value of a and b within a relative tolerance.
func compareBlocks(t *testing.T, a, b *model.Experiment, tol float64) {
	t.Helper()
	for m := range a.Metrics {
		ba, err := a.Block(m)
		if err != nil {
			t.Fatal(err)
		}
		bb, err := b.Block(m)
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		for c := range a.Cnodes {
			for l := range a.Locations {
				x, y := ba.Value(c, l), bb.Value(c, l)
				if math.Abs(x-y) > tol*math.Max(1, math.Abs(x)) {
					if bad++; bad <= 3 {
						t.Errorf("metric %q cnode %d location %d: got %v, want %v", a.Metrics[m].UniqName, c, l, y, x)
					}
				}
			}
		}
	}
}

func TestWriteStoresInclusiveWhenOwnValuesDoNotFit(t *testing.T) {
	// INT8 own values 130, −5, −3 (cnode 0 and its children): the parent's
	// own value does not fit, its inclusive value 122 does.
	e := smallExperiment("INT8", "INCLUSIVE")
	b := model.NewBlock(4, 2)
	copy(b.MutableRow(0), []float64{130, 0})
	copy(b.MutableRow(1), []float64{-5, 1})
	copy(b.MutableRow(2), []float64{-3, 2})
	e.SetBlock(0, b)
	var buf bytes.Buffer
	if err := WriteCubex(&buf, e); err != nil {
		t.Fatal(err)
	}
	back, err := ReadCubex(bytes.NewReader(buf.Bytes()), int64(buf.Len()), "incl.cubex")
	if err != nil {
		t.Fatal(err)
	}
	if back.Metrics[0].Type != "INCLUSIVE" {
		t.Errorf("metric written as %q, want INCLUSIVE", back.Metrics[0].Type)
	}
	if got, want := dumpString(t, back), dumpString(t, e); got != want {
		t.Errorf("round trip differs:\n%s", testkit.Diff(want, got))
	}

	// A value that fits neither way is an error.
	b.MutableRow(3)[0] = 200
	if err := WriteCubex(&buf, e); err == nil || !strings.Contains(err.Error(), "; nor the call-tree inclusive value 322 at cnode id 10") {
		t.Errorf("error %v, want one naming the inclusive value 322 at cnode id 10", err)
	}
}

func TestSetInclusive(t *testing.T) {
	anchor := []byte(`<?xml version="1.0"?><cube><metrics>` +
		`<metric id="1" type="EXCLUSIVE"><uniq_name>a</uniq_name><metric id="2" type='EXCLUSIVE'/></metric>` +
		`<metric id="3"><uniq_name>id="1" type="EXCLUSIVE"</uniq_name></metric></metrics></cube>`)
	got, err := setInclusive(anchor, map[int]bool{2: true, 3: true})
	if err != nil {
		t.Fatal(err)
	}
	want := `<?xml version="1.0"?><cube><metrics>` +
		`<metric id="1" type="EXCLUSIVE"><uniq_name>a</uniq_name><metric id="2" type="INCLUSIVE"/></metric>` +
		`<metric type="INCLUSIVE" id="3"><uniq_name>id="1" type="EXCLUSIVE"</uniq_name></metric></metrics></cube>`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if _, err := setInclusive(anchor, map[int]bool{9: true}); err == nil {
		t.Error("missing metric id not reported")
	}
}

func TestCube3DocumentInsideCubex(t *testing.T) {
	// The CUBE 4 reader accepts a whole CUBE 3 document as anchor.xml; its
	// data come from the severity section, stray data members are ignored.
	e := synth.Generate(synth.Config{Cnodes: 15, Locations: 3, Metrics: 3, Seed: 12})
	var doc bytes.Buffer
	if err := WriteXML(&doc, e); err != nil {
		t.Fatal(err)
	}
	raw := handArchive(t, tarFile{"0.index", "garbage"}, tarFile{anchorName, doc.String()})
	back, err := ReadCubex(bytes.NewReader(raw), int64(len(raw)), "cube3.cubex")
	if err != nil {
		t.Fatal(err)
	}
	if back.Format != "CUBE 3.0 (.cubex)" {
		t.Errorf("Format = %q", back.Format)
	}
	if got, want := dumpString(t, back), dumpString(t, e); got != want {
		t.Errorf("dump differs:\n%s", testkit.Diff(want, got))
	}
}

func TestConcurrentLoads(t *testing.T) {
	e := synth.Generate(synth.Config{Cnodes: 100, Locations: 16, Metrics: 8, Density: 0.5, Seed: 13})
	path := filepath.Join(t.TempDir(), "c.cubex")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteCubex(f, e); err != nil {
		t.Fatal(err)
	}
	f.Close()
	fds := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			return -1 // not Linux: nothing to compare
		}
		return len(ents)
	}
	before := fds()
	back, err := OpenCubex(path)
	if err != nil {
		t.Fatal(err)
	}
	if before >= 0 && fds() != before+1 {
		t.Errorf("%d descriptors open after OpenCubex, want %d", fds(), before+1)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for m := range back.Metrics {
				if _, err := back.Block(m); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if after := fds(); after != before {
		t.Errorf("%d descriptors open after loading every metric, want %d: the file stays open", after, before)
	}
	if got, want := dumpString(t, back), dumpString(t, e); got != want {
		t.Errorf("dump differs:\n%s", testkit.Diff(want, got))
	}
}
