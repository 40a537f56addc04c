package cli

import (
	"io"
	"testing"

	"cubeview/internal/synth"
)

// BenchmarkDump writes the CSV dump of a generated experiment (2,000 call
// paths × 256 locations × 4 metrics, about 2 M numbers) held in memory:
// what is measured is the formatting.
func BenchmarkDump(b *testing.B) {
	e := synth.Generate(synth.Config{Cnodes: 2000, Locations: 256, Threads: 4, Nodes: 4, Metrics: 4, Flat: true, Seed: 3})
	sel := []int{0, 1, 2, 3}
	b.ReportAllocs()
	for b.Loop() {
		if err := writeDump(io.Discard, e, sel, false); err != nil {
			b.Fatal(err)
		}
	}
}
