package format

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/internal/testkit"
)

// TestOpenOtherTools opens every sample of the pprof, callgrind,
// HPCToolkit and Caliper folders through Open, which must recognise each
// by content (a directory for HPCToolkit, or a file inside it).
func TestOpenOtherTools(t *testing.T) {
	data := testkit.DataDir(t)
	cases := map[string]string{ // path → start of the Format
		filepath.Join("hpctoolkit", "cpi-database-v2"):                    "HPCToolkit database (experiment.xml)",
		filepath.Join("hpctoolkit", "cpi-database-v2", "experiment.xml"):  "HPCToolkit database (experiment.xml)",
		filepath.Join("hpctoolkit", "vectorAdd-metadb"):                   "HPCToolkit database (meta.db)",
		filepath.Join("hpctoolkit", "vectorAdd-metadb", "profile.db"):     "HPCToolkit database (meta.db)",
		filepath.Join("caliper", "cpi-json", "cpi-callpath-profile.json"): "Caliper JSON",
	}
	for _, dir := range []string{"pprof", "callgrind"} {
		entries, err := os.ReadDir(filepath.Join(data, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".string") {
				cases[filepath.Join(dir, e.Name())] = map[string]string{"pprof": "pprof", "callgrind": "callgrind"}[dir]
			}
		}
	}
	for rel, want := range cases {
		t.Run(rel, func(t *testing.T) {
			path := filepath.Join(data, rel)
			e, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(e.Format, want) || e.Source != path {
				t.Errorf("Format %q, Source %q", e.Format, e.Source)
			}
			if len(e.Metrics) == 0 || len(e.Cnodes) == 0 || e.NumLocations() == 0 {
				t.Errorf("empty dimension: %d metrics, %d cnodes, %d locations", len(e.Metrics), len(e.Cnodes), e.NumLocations())
			}
		})
	}
}

// TestOpenLegacyPprofText opens legacy text profiles that the pprof
// library parses, plain and gzip-compressed.
func TestOpenLegacyPprofText(t *testing.T) {
	texts := map[string]string{
		"contention": "--- contention:\ncycles/second=1000000000\nsampling period=1\n100 10 @ 0x1 0x2\n200 20 @ 0x3 0x2\n",
		"goroutine":  "goroutine profile: total 3\n2 @ 0x1 0x2\n1 @ 0x3\n",
		"heap":       "heap profile: 2: 64 [2: 64] @ heap/1048576\n1: 32 [1: 32] @ 0x1 0x2\n1: 32 [1: 32] @ 0x3\n",
	}
	dir := t.TempDir()
	for name, text := range texts {
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write([]byte(text))
		zw.Close()
		for _, v := range []struct {
			suffix string
			data   []byte
		}{{".txt", []byte(text)}, {".txt.gz", gz.Bytes()}} {
			path := filepath.Join(dir, name+v.suffix)
			if err := os.WriteFile(path, v.data, 0o644); err != nil {
				t.Fatal(err)
			}
			e, err := Open(path)
			if err != nil {
				t.Errorf("%s: %v", path, err)
				continue
			}
			if !strings.HasPrefix(e.Format, "pprof (legacy") || len(e.Cnodes) < 2 {
				t.Errorf("%s: Format %q, %d cnodes", path, e.Format, len(e.Cnodes))
			}
		}
	}
}

// TestOpenCompressed: a gzip-compressed file of a text format opens like
// the plain file (the readers read through importer.Open).
func TestOpenCompressed(t *testing.T) {
	dir := t.TempDir()
	for _, rel := range []string{
		filepath.Join("gprof", "gnu1.prof"),
		filepath.Join("callgrind", "bool.callgrind"),
		filepath.Join("caliper", "cpi-json", "cpi-callpath-profile.json"),
		filepath.Join("pprof", "cppbench.cpu"),
	} {
		path := testkit.Data(t, rel)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(data)
		zw.Close()
		zpath := filepath.Join(dir, filepath.Base(rel)+".gz")
		if err := os.WriteFile(zpath, gz.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		plain, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		packed, err := Open(zpath)
		if err != nil {
			t.Errorf("%s: %v", zpath, err)
			continue
		}
		if !strings.HasPrefix(packed.Format, plain.Format) || len(packed.Cnodes) != len(plain.Cnodes) || len(packed.Metrics) != len(plain.Metrics) {
			t.Errorf("%s: %q with %d cnodes, %d metrics; plain %q with %d, %d", rel, packed.Format, len(packed.Cnodes), len(packed.Metrics), plain.Format, len(plain.Cnodes), len(plain.Metrics))
		}
	}
}

// TestOpenWithBOM: callgrind files and pprof text profiles that start
// with a UTF-8 byte-order mark (as Windows editors save them) open like
// the same files without it.
func TestOpenWithBOM(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"bom.callgrind":  "# callgrind format\nversion: 1\nevents: Ir\nfl=a.c\nfn=main\n1 10\ntotals: 10\n",
		"bom.cachegrind": "events: Ir\nfl=a.c\nfn=main\n1 10\n",
		"bom.heap.txt":   "heap profile: 2: 64 [2: 64] @ heap/1048576\n1: 32 [1: 32] @ 0x1 0x2\n1: 32 [1: 32] @ 0x3\n",
		"bom.goroutine":  "goroutine profile: total 3\n2 @ 0x1 0x2\n1 @ 0x3\n",
		"bom.contention": "--- contention:\ncycles/second=1000000000\nsampling period=1\n100 10 @ 0x1 0x2\n",
	} {
		plain := filepath.Join(dir, "plain-"+name)
		bom := filepath.Join(dir, name)
		if err := os.WriteFile(plain, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bom, []byte("\xef\xbb\xbf"+text), 0o644); err != nil {
			t.Fatal(err)
		}
		want, err := Open(plain)
		if err != nil {
			t.Fatalf("%s without a byte-order mark: %v", name, err)
		}
		got, err := Open(bom)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got.Format != want.Format || len(got.Cnodes) != len(want.Cnodes) || len(got.Metrics) != len(want.Metrics) {
			t.Errorf("%s: %s with %d cnodes; without the mark %s with %d", name, got.Format, len(got.Cnodes), want.Format, len(want.Cnodes))
		}
	}
}
