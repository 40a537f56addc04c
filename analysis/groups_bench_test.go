package analysis

import (
	"testing"
	"time"

	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// tenGroups returns 10 groups × 5 runs of the generated 10,000 call
// paths × 1,000 locations experiment, rows generated as they are read
// (each run its own values).
func tenGroups() [][]*model.Experiment {
	groups := make([][]*model.Experiment, 10)
	for g := range groups {
		for r := range 5 {
			groups[g] = append(groups[g], synth.Generate(synth.Config{Cnodes: 10000, Locations: 1000, Metrics: 1,
				OnDemand: true, Seed: 1, ValueSeed: uint64(1 + 5*g + r)}))
		}
	}
	return groups
}

// BenchmarkTenGroupsAgainstBaseline compares each of 9 groups of 5 runs
// with a baseline group of 5 (10 groups × 5 trials of the 10k × 1k
// experiment): 9 CompareGroups.
func BenchmarkTenGroupsAgainstBaseline(b *testing.B) {
	groups := tenGroups()
	b.ReportAllocs()
	cpu0 := testkit.CPUTime()
	for b.Loop() {
		for _, g := range groups[1:] {
			if _, err := CompareGroups(groups[0], g, GroupOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportCPU(b, cpu0)
}

// BenchmarkTenGroupsNoise measures the run-to-run noise of each of the
// 10 groups of 5 runs (10 RunNoise, as "stat --runs" per configuration).
func BenchmarkTenGroupsNoise(b *testing.B) {
	groups := tenGroups()
	b.ReportAllocs()
	cpu0 := testkit.CPUTime()
	for b.Loop() {
		for _, g := range groups {
			if _, err := RunNoise(g, GroupOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportCPU(b, cpu0)
}

// reportCPU adds the CPU seconds per operation, which other work on a
// shared machine distorts much less than wall time.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	if cpu := testkit.CPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	}
}
