package cube

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// benchSizes are the generated experiments of the benchmarks.
var benchSizes = []struct {
	name string
	cfg  synth.Config
}{
	{"1k×64×10", synth.Config{Cnodes: 1000, Locations: 64, Threads: 4, Nodes: 4, Metrics: 10, Seed: 1}},
	{"10k×1k×10", synth.Config{Cnodes: 10000, Locations: 1024, Threads: 8, Nodes: 16, Metrics: 10, Seed: 2}},
	{"20k×4k×4", synth.Config{Cnodes: 20000, Locations: 4096, Threads: 8, Nodes: 64, Metrics: 4, Seed: 3}},
}

// fixtureDir is where generated files go: a fresh temporary directory,
// or CUBEX_BENCH_DIR when set, so that the files can be measured by an
// outside process afterwards.
func fixtureDir(b *testing.B) string {
	if d := os.Getenv("CUBEX_BENCH_DIR"); d != "" {
		return d
	}
	return b.TempDir()
}

// writeFixture generates cfg and writes it as a .cubex file; metrics
// listed in inclusive are stored call-tree inclusive (the anchor saying
// so). It skips the benchmark when the disk lacks space.
func writeFixture(b *testing.B, dir, name string, cfg synth.Config, allDouble bool, inclusive ...string) string {
	b.Helper()
	need := int64(cfg.Cnodes) * int64(cfg.Locations) * int64(cfg.Metrics) * 8
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err == nil && int64(st.Bavail)*st.Bsize < need+need/4 {
		b.Skipf("%s needs about %d MB of disk, %s has %d MB free", name, need>>20, dir, int64(st.Bavail)*st.Bsize>>20)
	}
	path := filepath.Join(dir, name)
	if _, err := os.Stat(path); err == nil && os.Getenv("CUBEX_BENCH_DIR") != "" {
		return path // kept from an earlier run
	}
	e := synth.Generate(cfg)
	if allDouble {
		for m := range e.Metrics {
			if e.Metrics[m].Aggregation == model.Sum {
				e.Metrics[m].DataType = "DOUBLE"
			}
		}
	}
	opt := cubexWriteOptions{}
	if len(inclusive) > 0 {
		set := map[int]bool{}
		for _, u := range inclusive {
			set[e.MetricByName(u)] = true
		}
		opt.inclusive = func(m int) bool { return set[m] }
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := writeCubex(w, e, opt); err != nil {
		b.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	return path
}

func memberSize(b *testing.B, path, member string) int64 {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	members, err := readTarIndex(f, st.Size())
	if err != nil {
		b.Fatal(err)
	}
	return members[member].size
}

func BenchmarkCubex(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(size.name, func(b *testing.B) {
			path := writeFixture(b, fixtureDir(b), "bench-"+fmt.Sprint(size.cfg.Cnodes)+"x"+fmt.Sprint(size.cfg.Locations)+".cubex", size.cfg, false)
			benchmarkFile(b, path, "time")
		})
	}
}

// benchmarkFile measures opening (metadata only), decoding one metric and
// computing its call-tree inclusive values.
func benchmarkFile(b *testing.B, path, metric string) {
	open := func() *model.Experiment {
		e, err := OpenCubex(path)
		if err != nil {
			b.Fatal(err)
		}
		return e
	}
	m := open().MetricByName(metric)
	if m < 0 {
		b.Fatalf("%s: no metric %q", path, metric)
	}
	id := fmt.Sprint(open().Metrics[m].ID)
	b.Run("Open", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(memberSize(b, path, anchorName))
		for b.Loop() {
			open()
		}
	})
	b.Run("DecodeMetric", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(memberSize(b, path, id+".data"))
		for range b.N {
			b.StopTimer()
			e := open()
			b.StartTimer()
			if _, err := e.Block(m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("CallInclusive", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			b.StopTimer()
			e := open()
			blk, err := e.Block(m)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(blk.Bytes())
			b.StartTimer()
			v, err := e.CallTreeValues(model.MetricSel{Metric: m, Inclusive: true}, false)
			if err != nil {
				b.Fatal(err)
			}
			e.CallInclusive(v, e.Metrics[m].Aggregation)
		}
	})
}

// BenchmarkCubexProcess uses the 10k cnodes × 1,024 locations × 4 DOUBLE
// metrics file of the whole-process target, once with the metric stored
// EXCLUSIVE and once INCLUSIVE; each iteration opens the file and computes
// the metric's call-tree inclusive values, what "cubeview tree" does (one
// streaming pass over the metric's rows, no block). Bytes are those of the
// metric's data member.
func BenchmarkCubexProcess(b *testing.B) {
	cfg := synth.Config{Cnodes: 10000, Locations: 1024, Threads: 8, Nodes: 16, Metrics: 4, Seed: 4}
	dir := fixtureDir(b)
	for _, typ := range []model.MetricType{"EXCLUSIVE", "INCLUSIVE"} {
		b.Run(string(typ), func(b *testing.B) {
			var path string
			if typ == "INCLUSIVE" {
				path = writeFixture(b, dir, "process-inclusive.cubex", cfg, true, "time")
			} else {
				path = writeFixture(b, dir, "process-exclusive.cubex", cfg, true)
			}
			e0, err := OpenCubex(path)
			if err != nil {
				b.Fatal(err)
			}
			data := memberSize(b, path, fmt.Sprint(e0.Metrics[e0.MetricByName("time")].ID)+".data")
			b.SetBytes(data)
			b.ReportAllocs()
			cpu := startCPU()
			for b.Loop() {
				e, err := OpenCubex(path)
				if err != nil {
					b.Fatal(err)
				}
				m := e.MetricByName("time")
				if e.Metrics[m].Type != typ {
					b.Fatalf("metric type %q, want %q", e.Metrics[m].Type, typ)
				}
				v, err := e.CallTreeValues(model.MetricSel{Metric: m, Inclusive: true}, false)
				if err != nil {
					b.Fatal(err)
				}
				e.CallInclusive(v, e.Metrics[m].Aggregation)
				if e.Loaded(m) {
					b.Fatal("the block was loaded for call-tree values")
				}
			}
			cpu.report(b, data)
		})
	}
}

func BenchmarkCubexRealFiles(b *testing.B) {
	dir := testkit.Data(b, "cube4")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.cubex"))
	for _, path := range files {
		st, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(st.Size())
			for b.Loop() {
				e, err := OpenCubex(path)
				if err != nil {
					b.Fatal(err)
				}
				for m := range e.Metrics {
					if _, err := e.Block(m); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
