package cube

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"cubeview/internal/synth"
	"cubeview/internal/testkit"
)

// BenchmarkReadXML measures decodeXML on real and generated CUBE 3 files.
func BenchmarkReadXML(b *testing.B) {
	inputs := []struct {
		name string
		data func(b *testing.B) []byte
	}{
		{"cubew-test3", xmlSharedBytes("cubew-test3.cube")},
		{"example3", xmlSharedBytes("example3.cube")},
		{"synth-100MB", func(b *testing.B) []byte {
			// 2,000 cnodes × 512 threads × 5 metrics of 17-digit values.
			e := synth.Generate(synth.Config{Cnodes: 2000, Locations: 512, Threads: 4, Nodes: 8, Metrics: 5, Seed: 5})
			var buf bytes.Buffer
			if err := encodeXML(&buf, e, false); err != nil {
				b.Fatal(err)
			}
			return buf.Bytes()
		}},
		{"synth-1kx64x10", func(b *testing.B) []byte {
			e := synth.Generate(synth.Config{Cnodes: 1000, Locations: 64, Threads: 4, Nodes: 4, Metrics: 10, Seed: 1})
			var buf bytes.Buffer
			if err := encodeXML(&buf, e, false); err != nil {
				b.Fatal(err)
			}
			return buf.Bytes()
		}},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			data := in.data(b)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			cpu := startCPU()
			for b.Loop() {
				if _, err := decodeXML(bytes.NewReader(data), in.name); err != nil {
					b.Fatal(err)
				}
			}
			cpu.report(b, int64(len(data)))
		})
	}
}

// cpuClock measures the process's CPU time (user + system) over a
// benchmark loop. On a machine shared with other work, wall-clock MB/s
// falls with the load; MB per CPU second does not, as long as the
// benchmark itself runs on one goroutine.
type cpuClock struct{ start time.Duration }

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func startCPU() cpuClock { return cpuClock{cpuTime()} }

// report adds cpu-ms/op and, for bytes > 0, MB per CPU second.
func (c cpuClock) report(b *testing.B, bytes int64) {
	d := cpuTime() - c.start
	if b.N == 0 || d <= 0 {
		return
	}
	b.ReportMetric(float64(d.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
	if bytes > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/d.Seconds()/1e6, "cpu-MB/s")
	}
}

func xmlSharedBytes(name string) func(b *testing.B) []byte {
	return func(b *testing.B) []byte {
		data, err := os.ReadFile(filepath.Join(testkit.Data(b, "cube3"), name))
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
}

// BenchmarkReadAnchor measures decodeXML on the anchor.xml of a .cubex
// with 10k call paths and 1,024 locations (the size of the 330 MB
// experiment of the big-file benchmarks).
func BenchmarkReadAnchor(b *testing.B) {
	e := synth.Generate(synth.Config{Cnodes: 10000, Locations: 1024, Threads: 4, Nodes: 16, Metrics: 1, Density: 0.001, Seed: 2})
	var buf bytes.Buffer
	if err := encodeXML(&buf, e, true); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu := startCPU()
	for b.Loop() {
		if _, err := decodeXML(bytes.NewReader(data), "anchor.xml"); err != nil {
			b.Fatal(err)
		}
	}
	cpu.report(b, int64(len(data)))
}

// BenchmarkWriteXML measures encodeXML of a generated experiment as CUBE 3.
func BenchmarkWriteXML(b *testing.B) {
	e := synth.Generate(synth.Config{Cnodes: 1000, Locations: 64, Threads: 4, Nodes: 4, Metrics: 10, Seed: 1})
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := encodeXML(&buf, e, false); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
}
