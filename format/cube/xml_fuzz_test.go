package cube

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadXML: any input yields an experiment or an error, never a panic
// or a hang; what reads successfully also survives writing and reading
// again.
func FuzzReadXML(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.cube"))
	shared, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "data", "cube3", "*.cube"))
	for _, p := range append(seeds, shared...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(xmlFuzzSeed(b))
		}
	}
	f.Add([]byte(xmlMinimal("", `<matrix metricId="0"><row cnodeId="0">1 2</row></matrix>`)))
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

// xmlFuzzSeed shortens the severity section of a large document, keeping
// it well-formed: multi-megabyte seeds would leave the fuzzer only a
// handful of executions in its time budget.
func xmlFuzzSeed(b []byte) []byte {
	const keep = 64 << 10
	sev := bytes.Index(b, []byte("<severity>"))
	if len(b) <= 2*keep || sev < 0 {
		return b
	}
	end := bytes.Index(b[max(sev, keep):], []byte("</row>"))
	if end < 0 {
		return b
	}
	cut := max(sev, keep) + end + len("</row>")
	out := append([]byte(nil), b[:cut]...)
	return append(out, "\n</matrix>\n</severity>\n</cube>\n"...)
}
