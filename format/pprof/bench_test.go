package pprof

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/google/pprof/profile"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
)

// generated returns a CPU profile of n samples with stacks 4 to 32 frames
// deep over 2,000 functions in 200 files, every fourth location holding
// an inlined frame, and samples spread over 8 threads.
func generated(n int) *profile.Profile {
	rng := rand.New(rand.NewPCG(3, 4))
	m := &profile.Mapping{ID: 1, Start: 0x400000, Limit: 0x8000000, File: "/usr/bin/service", HasFunctions: true, HasFilenames: true, HasLineNumbers: true, HasInlineFrames: true}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10_000_000,
		Mapping:    []*profile.Mapping{m},
	}
	const nfn, nloc = 2000, 20000
	for i := 0; i < nfn; i++ {
		p.Function = append(p.Function, &profile.Function{ID: uint64(i + 1), Name: fmt.Sprintf("pkg%d.(*T%d).method%d", i%40, i%300, i),
			Filename: fmt.Sprintf("/src/pkg%d/file%d.go", i%40, i%200), StartLine: int64(10 + i%900)})
	}
	for i := 0; i < nloc; i++ {
		l := &profile.Location{ID: uint64(i + 1), Mapping: m, Address: uint64(0x400000 + 16*i)}
		f := p.Function[(i*7)%nfn]
		l.Line = []profile.Line{{Function: f, Line: f.StartLine + int64(i%40)}}
		if i%4 == 0 {
			g := p.Function[(i*13+5)%nfn]
			l.Line = append([]profile.Line{{Function: g, Line: g.StartLine + 2}}, l.Line...)
		}
		p.Location = append(p.Location, l)
	}
	// 50,000 distinct stacks that walk a fixed "call graph" from a few
	// roots, so that call paths share prefixes as in real programs;
	// samples pick among them with a skew towards the first
	stacks := make([][]*profile.Location, 50_000)
	for i := range stacks {
		depth := 4 + rng.IntN(29)
		stack := make([]*profile.Location, depth)
		at := rng.IntN(16)
		for d := depth - 1; d >= 0; d-- {
			stack[d] = p.Location[at]
			at = (at*31 + 1 + rng.IntN(3)) % nloc
		}
		stacks[i] = stack
	}
	for i := 0; i < n; i++ {
		s := stacks[int(float64(len(stacks))*rng.Float64()*rng.Float64())]
		p.Sample = append(p.Sample, &profile.Sample{
			Location: s,
			Value:    []int64{1, 10_000_000},
			Label:    map[string][]string{"thread": {fmt.Sprint("worker-", i%8)}},
		})
	}
	return p
}

// BenchmarkOpen1MSamples imports a generated profile of one million
// samples, gzip-compressed as Go writes them.
func BenchmarkOpen1MSamples(b *testing.B) {
	path := writeProfile(b, generated(1_000_000))
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := testkit.CPUTime()
	for b.Loop() {
		e, err := Read(path, importer.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(e.Cnodes)), "cnodes")
	}
	// On a shared machine wall time overstates the cost; CPU time (all
	// threads, garbage collection included) says what the import takes.
	if cpu := testkit.CPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	}
}

// BenchmarkOpenReal imports the largest real sample.
func BenchmarkOpenReal(b *testing.B) {
	path := testkit.Data(b, "pprof", "cppbench.cpu")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(path, importer.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
