package cluster

import (
	"testing"

	"cubeview/format"
	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// BenchmarkLocations clusters generated experiments of 10,000 call paths
// × 1,024 locations (uniform noise; four planted groups, each doubling 100 call paths, and
// outliers)
// and the largest real profiles.
func BenchmarkLocations(b *testing.B) {
	bench := func(b *testing.B, e *model.Experiment, metric int, k int) {
		b.ReportAllocs()
		var r *Result
		cpu := testkit.CPUTime()
		for b.Loop() {
			var err error
			if r, err = Locations(e, metric, Options{K: k}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(testkit.CPUTime()-cpu)/1e6/float64(b.N), "cpu-ms/op")
		b.ReportMetric(float64(len(r.Clusters)), "clusters")
		b.ReportMetric(float64(len(r.Outliers)), "outliers")
	}
	noise := synth.Generate(synth.Config{Cnodes: 10000, Locations: 1024, Threads: 1, Metrics: 1, Seed: 1})
	planted, _ := synth.Clustered(synth.Planted{Cnodes: 10000, Processes: 1024, Threads: 1, Groups: 4, Shifted: 100, Noise: 0.05, Outliers: 3, Seed: 1})
	b.Run("noise-10k-x-1k/auto", func(b *testing.B) { bench(b, noise, 0, 0) })
	b.Run("noise-10k-x-1k/k4", func(b *testing.B) { bench(b, noise, 0, 4) })
	b.Run("planted-10k-x-1k/auto", func(b *testing.B) { bench(b, planted, 0, 0) })
	b.Run("planted-10k-x-1k/k4", func(b *testing.B) { bench(b, planted, 0, 4) })
	for _, f := range [][]string{
		{"cube3", "example3.cube"},
		{"cube3", "cubew-test3.cube"},
		{"cube4", "lulesh", "lulesh.p343.size25.r1.cubex"},
		{"cube4", "hw_counter", "L2_DCM_negative.cubex"},
	} {
		b.Run(f[len(f)-1], func(b *testing.B) {
			e, err := format.Open(testkit.Data(b, f...))
			if err != nil {
				b.Fatal(err)
			}
			bench(b, e, e.MetricByName("time"), 0)
		})
	}
}
