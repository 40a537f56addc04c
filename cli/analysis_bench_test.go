package cli

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cubeview/format"
	"cubeview/internal/synth"
	"cubeview/internal/testkit"
)

// benchPair writes two generated experiments with the same call tree and
// different values (each row scaled by 0.5 to 1.5) as .cubex files.
func benchPair(b *testing.B, cnodes, locations int) (string, string) {
	b.Helper()
	dir := b.TempDir()
	var paths []string
	for i, vs := range []uint64{0, 2} {
		e := synth.Generate(synth.Config{Cnodes: cnodes, Locations: locations, Threads: 4, Nodes: 4, Metrics: 1,
			Seed: 1, ValueSeed: vs, Flat: true, OnDemand: true})
		p := filepath.Join(dir, []string{"a.cubex", "b.cubex"}[i])
		if err := format.Write(p, e); err != nil {
			b.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths[0], paths[1]
}

// reportCPU reports the CPU time per operation since cpu0: on a shared
// machine it says more than the wall time.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	if cpu := testkit.CPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	}
}

// runDiscard runs a command, its output discarded.
func runDiscard(b *testing.B, args ...string) {
	b.Helper()
	var errOut strings.Builder
	if status := Main(args, Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &errOut}); status != 0 {
		b.Fatalf("%v: status %d: %s", args, status, errOut.String())
	}
}

// BenchmarkPerfDiffText prints the performance difference of two runs of
// 2,000 call paths on 256 locations: with δ = 1 (absolute) about 450,000
// differing foci, with δ = 1 % of the whole program a few hundred.
func BenchmarkPerfDiffText(b *testing.B) {
	pa, pb := benchPair(b, 2000, 256)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"delta=1", []string{"--delta", "1"}},
		{"delta=1%", []string{"--delta", "0.01", "--relative"}},
		{"delta=1,csv", []string{"--delta", "1", "--csv"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := testkit.CPUTime()
			for b.Loop() {
				runDiscard(b, append([]string{"perfdiff", pa, pb, "--metric", "m0"}, c.args...)...)
			}
			reportCPU(b, cpu0)
		})
	}
}

// BenchmarkPerfDiffManyFoci prints the performance difference of two
// runs of 10,000 call paths on 64 locations with δ = 0.1 (absolute):
// about 1.5 million differing foci, the answer itself large. text prints
// the first 50 (the default), top=0 every focus as found, nothing held.
func BenchmarkPerfDiffManyFoci(b *testing.B) {
	pa, pb := benchPair(b, 10000, 64)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"text", nil},
		{"top=0", []string{"--top", "0"}},
		{"top=0,csv", []string{"--top", "0", "--csv"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := testkit.CPUTime()
			for b.Loop() {
				runDiscard(b, append([]string{"perfdiff", pa, pb, "--metric", "m0", "--delta", "0.1"}, c.args...)...)
			}
			reportCPU(b, cpu0)
		})
	}
}

// BenchmarkStat prints the statistics of every call path of 2,000 call
// paths on 256 locations, own and inclusive values.
func BenchmarkStat(b *testing.B) {
	pa, _ := benchPair(b, 2000, 256)
	for _, incl := range []bool{false, true} {
		name, args := "inclusive", []string{"stat", pa, "--metric", "m0"}
		if !incl {
			name, args = "exclusive", append(args, "--excl")
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := testkit.CPUTime()
			for b.Loop() {
				runDiscard(b, args...)
			}
			reportCPU(b, cpu0)
		})
	}
}
