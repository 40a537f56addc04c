package algebra

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"cubeview/internal/synth"
	"cubeview/model"
)

// benchPair returns two generated experiments of the given size with the
// same call tree and system (two runs of one program) and different values.
func benchPair(cnodes, locations int) (a, b *model.Experiment, dataBytes int64) {
	cfg := synth.Config{Cnodes: cnodes, Locations: locations, Metrics: 10, Seed: 42}
	a = synth.Generate(cfg)
	b = synth.Generate(cfg)
	b.Source = "synthetic b"
	for m := range b.Metrics {
		blk, _ := b.Block(m)
		for c := 0; c < blk.NumCnodes(); c++ {
			if blk.Row(c) == nil {
				continue
			}
			row := blk.MutableRow(c)
			for l := range row {
				row[l] = row[l]*1.25 + float64(l%7)
			}
		}
		ab, _ := a.Block(m)
		dataBytes += ab.Bytes()
	}
	return a, b, dataBytes
}

var benchSizes = []struct{ cnodes, locations int }{
	{1000, 64},
	{10000, 1000},
}

// BenchmarkOperators measures integration plus arithmetic of each operator
// (no file reading). "operand-ratio" is the allocated bytes per operation
// divided by the bytes of one operand's data.
func BenchmarkOperators(b *testing.B) {
	for _, size := range benchSizes {
		if testing.Short() && size.cnodes > 1000 {
			continue
		}
		x, y, data := benchPair(size.cnodes, size.locations)
		name := fmt.Sprintf("%dcnodes_%dlocs_10metrics", size.cnodes, size.locations)
		ops := []struct {
			op string
			f  func() (*model.Experiment, error)
		}{
			{"diff", func() (*model.Experiment, error) { return Diff(x, y, Options{}) }},
			{"merge", func() (*model.Experiment, error) { return Merge(Options{}, x, y) }},
			{"mean", func() (*model.Experiment, error) { return Mean(Options{}, x, y) }},
			{"cut", func() (*model.Experiment, error) {
				return Cut(x, CutOptions{Prune: []string{x.CnodeRegion(len(x.Cnodes) - 1).Name}})
			}},
		}
		for _, o := range ops {
			b.Run(o.op+"/"+name, func(b *testing.B) {
				b.ReportAllocs()
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				cpu0, sys0 := cpuTime(), sysTime()
				for b.Loop() {
					if _, err := o.f(); err != nil {
						b.Fatal(err)
					}
				}
				cpu, sys := cpuTime()-cpu0, sysTime()-sys0
				runtime.ReadMemStats(&after)
				perOp := float64(after.TotalAlloc-before.TotalAlloc) / float64(b.N)
				b.ReportMetric(perOp/float64(data), "operand-ratio")
				b.ReportMetric(float64(data)/1e6, "operand-MB")
				// CPU time of the process (user + system) is less sensitive
				// than wall time to other load on a shared machine.
				b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
				b.ReportMetric(sys.Seconds()/float64(b.N), "sys-s/op")
			})
		}
		x, y = nil, nil
		runtime.GC()
	}
}

// BenchmarkIntegrate measures the metadata step alone.
func BenchmarkIntegrate(b *testing.B) {
	x, y, _ := benchPair(10000, 64)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Integrate([]*model.Experiment{x, y}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// cpuTime returns the user plus system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// sysTime returns the system CPU time of the process so far.
func sysTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Stime.Nano())
}
