package cube

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"cubeview/internal/synth"
)

// FuzzReadXML: any input yields an experiment or an error, never a panic
// or a hang; what reads successfully also survives writing and reading
// again.
func FuzzReadXML(f *testing.F) {
	// Small documents: the hand-written ones in testdata, generated ones
	// in CUBE 3 and 4 layout (min/max metrics, threads, sparse data) and
	// the quirks; real files of a hundred kilobytes would leave the
	// engine a few thousand executions in its time budget (the real
	// files are read by the unit tests).
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.cube"))
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for i, cfg := range []synth.Config{
		{Cnodes: 5, Locations: 2, Metrics: 2, Seed: 1},
		{Cnodes: 6, Locations: 4, Threads: 2, Nodes: 2, Metrics: 3, MinMax: true, Density: 0.6, Seed: 2},
	} {
		e := synth.Generate(cfg)
		for _, anchor := range []bool{false, true} {
			var buf bytes.Buffer
			if err := encodeXML(&buf, e, anchor); err != nil {
				f.Fatalf("seed %d: %v", i, err)
			}
			f.Add(buf.Bytes())
		}
	}
	f.Add([]byte(xmlMinimal("", `<matrix metricId="0"><row cnodeId="0">1 2</row></matrix>`)))
	f.Add([]byte(ampDoc("a & b", "x &amp; y & z")))
	f.Add([]byte(xmlMinimal("", `<matrix metricId="0"><row cnodeId="0">nan -inf</row></matrix>`) + "\x00\x00trailing"))
	f.Add([]byte(`<?xml version="1.0"?><cube version="4.4"><metrics/><program/><system/></cube>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := decodeXML(bytes.NewReader(data), "fuzz.cube")
		if err != nil {
			return
		}
		if err := doc.Exp.Validate(); err != nil {
			t.Fatalf("decodeXML returned an invalid experiment: %v", err)
		}
		for _, anchor := range []bool{false, true} {
			var buf bytes.Buffer
			if err := encodeXML(&buf, doc.Exp, anchor); err != nil {
				continue // e.g. a system tree CUBE 3 cannot express
			}
			if _, err := decodeXML(bytes.NewReader(buf.Bytes()), "rewritten"); err != nil {
				t.Fatalf("cannot read back what encodeXML(anchor=%v) wrote: %v", anchor, err)
			}
		}
	})
}
