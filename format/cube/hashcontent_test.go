package cube

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/format/importer"
	"cubeview/internal/filesum"
	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
)

func fileSHA256(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// hashCorpus returns real CUBE files of every kind: the .cubex and CUBE 3
// XML files of the shared data, a gzip-compressed XML and .cubex made
// from them, and one generated .cubex written by this package.
func hashCorpus(t *testing.T) []string {
	var paths []string
	for _, dir := range []string{"cube3", "cube4"} {
		filepath.WalkDir(filepath.Join(testkit.DataDir(t), dir), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".cubex") || strings.HasSuffix(p, ".cube")) {
				paths = append(paths, p)
			}
			return nil
		})
	}
	if len(paths) < 20 {
		t.Fatalf("only %d CUBE files in the shared data", len(paths))
	}
	tmp := t.TempDir()
	for _, p := range []string{paths[0], paths[len(paths)-1]} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(data)
		zw.Close()
		out := filepath.Join(tmp, filepath.Base(p)+".gz")
		if err := os.WriteFile(out, gz.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, out)
	}
	gen := filepath.Join(tmp, "synth.cubex")
	var buf bytes.Buffer
	if err := WriteCubex(&buf, synth.Generate(synth.Config{Cnodes: 300, Locations: 64, Threads: 4, Metrics: 4, Seed: 2})); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gen, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return append(paths, gen)
}

// TestContentSumEqualsFileSHA256: with HashContent, the checksum the
// reader computes from the bytes it read is the SHA-256 of the file, for
// every kind of CUBE file, whether no metric, one or all were loaded.
func TestContentSumEqualsFileSHA256(t *testing.T) {
	for _, path := range hashCorpus(t) {
		want := fileSHA256(t, path)
		st, _ := os.Stat(path)
		for _, load := range []string{"none", "first", "all"} {
			e, err := Read(path, importer.Options{HashContent: true})
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for m := range e.Metrics {
				if load == "none" || load == "first" && m > 0 {
					break
				}
				if _, err := e.Block(m); err != nil {
					t.Fatalf("%s: metric %d: %v", path, m, err)
				}
			}
			sum, size, ok, err := model.ContentSum(e)
			if !ok || err != nil || sum != want || size != st.Size() {
				t.Errorf("%s (%s loaded): ContentSum = %s, %d, %v, %v; want %s, %d", path, load, sum, size, ok, err, want, st.Size())
			}
		}
		e, err := Read(path, importer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, ok, _ := model.ContentSum(e); ok {
			t.Errorf("%s: a checksum without HashContent", path)
		}
	}
}

// TestContentSumReadsLittleAgain: once every metric of a .cubex is
// loaded, finishing the checksum reads at most the archive's end blocks
// again (this package's files), and for the real files less than a
// tenth of the file.
func TestContentSumReadsLittleAgain(t *testing.T) {
	for _, path := range hashCorpus(t) {
		if !strings.HasSuffix(path, ".cubex") {
			continue
		}
		hf, err := filesum.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		e, err := readFrom(hf, path)
		if err != nil {
			t.Fatal(err)
		}
		for m := range e.Metrics {
			if _, err := e.Block(m); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := hf.Sum(); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d of %d bytes read again", filepath.Base(path), hf.CaughtUp(), hf.Size())
		limit := hf.Size() / 10
		if filepath.Base(path) == "synth.cubex" {
			limit = 1024 + 10240 // tar's end-of-archive blocks and padding
		}
		if hf.CaughtUp() > limit {
			t.Errorf("%s: %d of %d bytes read again to finish the checksum, want at most %d", path, hf.CaughtUp(), hf.Size(), limit)
		}
	}
}

// BenchmarkContentSum: reading every metric of a file row by row (what
// diff and mean do with their operands) and its SHA-256, once as a
// separate pass over the file afterwards and once computed while reading
// (HashContent). Files: the generated 10k call paths × 1,024 locations ×
// 4 metrics (≈ 330 MB; CUBEX_BENCH_DIR keeps it between runs) and every
// real .cubex of the shared data (all of them per iteration).
func BenchmarkContentSum(b *testing.B) {
	dir := fixtureDir(b)
	big := writeFixture(b, dir, "sum-10k-1024-4.cubex", synth.Config{Cnodes: 10000, Locations: 1024, Threads: 4, Nodes: 32, Metrics: 4, Seed: 1}, false)
	real, _ := filepath.Glob(filepath.Join(testkit.Data(b, "cube4"), "*", "*.cubex"))
	for _, set := range []struct {
		name  string
		files []string
	}{{"generated-330MB", []string{big}}, {"real-files", real}} {
		var size int64
		for _, p := range set.files {
			st, err := os.Stat(p)
			if err != nil {
				b.Fatal(err)
			}
			size += st.Size()
		}
		for _, mode := range []string{"separate-pass", "while-reading"} {
			b.Run(set.name+"/"+mode, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(size)
				var again int64
				cpu := startCPU()
				for b.Loop() {
					again = 0
					for _, path := range set.files {
						var sum string
						if mode == "separate-pass" {
							e, err := Read(path, importer.Options{})
							if err != nil {
								b.Fatal(err)
							}
							scanAll(b, e)
							sum = hashWhole(b, path)
							st, _ := os.Stat(path)
							again += st.Size()
						} else {
							hf, err := filesum.Open(path)
							if err != nil {
								b.Fatal(err)
							}
							e, err := readFrom(hf, path)
							if err != nil {
								b.Fatal(err)
							}
							scanAll(b, e)
							if sum, _, err = hf.Sum(); err != nil {
								b.Fatal(err)
							}
							hf.Close() // rows on demand keep it open
							again += hf.CaughtUp()
						}
						if len(sum) != 64 {
							b.Fatalf("sum %q", sum)
						}
					}
				}
				cpu.report(b, size)
				b.ReportMetric(float64(again), "bytes-read-again/op")
			})
		}
	}
}

// scanAll reads every row of every metric of e.
func scanAll(b *testing.B, e *model.Experiment) {
	for m := range e.Metrics {
		blk, err := e.Block(m)
		if err != nil {
			b.Fatal(err)
		}
		if blk == nil {
			continue
		}
		if err := blk.Scan(func(int, []float64) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

// hashWhole is the separate pass: SHA-256 of the file read again.
func hashWhole(b *testing.B, path string) string {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		b.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}
