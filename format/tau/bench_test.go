package tau

import (
	"bufio"
	"cubeview/format/importer"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// benchShape sizes a generated TAU profile directory.
type benchShape struct {
	ranks, threads int
	regions        int // call-tree nodes below the root, each its own region
}

// writeBenchProfile writes a TAU profile directory of ranks × threads
// files into dir: a call tree of shape.regions + 1 events (each a region
// of its own) under ".TAU application", so each file holds a flat event
// and a call-path event per region, with consistent Excl/Incl/Calls,
// metadata and three atomic events. It returns the bytes written.
func writeBenchProfile(dir string, shape benchShape) (int64, error) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := shape.regions + 1
	parent := make([]int, n)
	names := make([]string, n)
	paths := make([]string, n)
	depth := make([]int, n)
	names[0], paths[0], parent[0] = ".TAU application", ".TAU application", -1
	kinds := []string{"cmp", "xch", "upd", "slv", "red", "io", "set"}
	for i := 1; i < n; i++ {
		// A bushy tree: parents among the first twentieth of the nodes.
		p := rng.IntN(max(1, min(i, 1+i/20)))
		for depth[p] >= 5 {
			p = parent[p]
		}
		parent[i], depth[i] = p, depth[p]+1
		if i%50 == 0 {
			names[i] = fmt.Sprintf("MPI_Op_%d()", i)
		} else {
			names[i] = fmt.Sprintf("%s_%d [{m%d.f90} {%d,1}-{%d,9}]", kinds[i%len(kinds)], i, i%40, 10*i, 10*i+8)
		}
		paths[i] = paths[p] + " => " + names[i]
	}
	var total int64
	excl := make([]float64, n)
	incl := make([]float64, n)
	calls := make([]int, n)
	subrs := make([]int, n)
	for rank := 0; rank < shape.ranks; rank++ {
		for th := 0; th < shape.threads; th++ {
			for i := range excl {
				excl[i] = float64(rng.IntN(1e9)) / 1e3
				calls[i] = 1 + rng.IntN(1000)
				incl[i], subrs[i] = 0, 0
			}
			calls[0] = 1
			for i := n - 1; i >= 0; i-- {
				incl[i] += excl[i]
				if p := parent[i]; p >= 0 {
					incl[p] += incl[i]
					subrs[p] += calls[i]
				}
			}
			name := filepath.Join(dir, fmt.Sprintf("profile.%d.0.%d", rank, th))
			f, err := os.Create(name)
			if err != nil {
				return 0, err
			}
			w := bufio.NewWriterSize(f, 1<<16)
			fmt.Fprintf(w, "%d templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls # <metadata>", 2*n-1)
			for k := 0; k < 30; k++ {
				fmt.Fprintf(w, "<attribute><name>Key %d</name><value>value %d of rank %d</value></attribute>", k, k, rank*(k%2))
			}
			fmt.Fprintf(w, "<attribute><name>Hostname</name><value>node%03d</value></attribute></metadata>\n", rank/8)
			num := func(v float64) string { return strconv.FormatFloat(v, 'G', 16, 64) }
			for i := 0; i < n; i++ {
				group := "TAU_USER"
				if i%50 == 0 && i > 0 {
					group = "MPI"
				}
				fmt.Fprintf(w, "%q %d %d %s %s 0 GROUP=%q\n", names[i], calls[i], subrs[i], num(excl[i]), num(incl[i]), group)
				if i > 0 {
					fmt.Fprintf(w, "%q %d %d %s %s 0 GROUP=%q\n", paths[i], calls[i], subrs[i], num(excl[i]), num(incl[i]), "TAU_CALLPATH|"+group)
				}
			}
			w.WriteString("0 aggregates\n3 userevents\n# eventname numevents max min mean sumsqr\n")
			for k := 0; k < 3; k++ {
				fmt.Fprintf(w, "\"Message size %d\" 10 %d 1 5.5 400\n", k, 10+k)
			}
			if err := w.Flush(); err != nil {
				return 0, err
			}
			st, _ := f.Stat()
			total += st.Size()
			if err := f.Close(); err != nil {
				return 0, err
			}
		}
	}
	return total, nil
}

// BenchmarkReadTAU imports a generated directory of 64 ranks × 3 threads
// (192 files, ~80 MB, ~3,400 events per file). It reports the throughput
// of profile text, allocations per import, values-MB: the memory held by
// the experiment's metric values, to compare B/op with, and the CPU time
// per import with the throughput per CPU second.
func BenchmarkReadTAU(b *testing.B) {
	dir := b.TempDir()
	size, err := writeBenchProfile(dir, benchShape{ranks: 64, threads: 3, regions: 1700})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	runtime.GC()
	b.ResetTimer()
	cpu0 := cpuTime()
	var values int64
	for i := 0; i < b.N; i++ {
		e, err := Read(dir, importer.Options{})
		if err != nil {
			b.Fatal(err)
		}
		values = 0
		for m := range e.Metrics {
			blk, err := e.Block(m)
			if err != nil {
				b.Fatal(err)
			}
			values += blk.Bytes()
		}
	}
	if cpu := cpuTime() - cpu0; cpu > 0 {
		// CPU time is what the import costs on an idle machine; the
		// wall time above also counts waiting for a shared processor.
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
		b.ReportMetric(float64(size)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
	}
	b.ReportMetric(float64(size)/1e6, "input-MB")
	b.ReportMetric(float64(values)/1e6, "values-MB")
}

// TestBenchProfileReads checks the generator's output on a small shape:
// it reads back with the values written, so the benchmark measures a
// correct import.
func TestBenchProfileReads(t *testing.T) {
	dir := t.TempDir()
	if _, err := writeBenchProfile(dir, benchShape{ranks: 2, threads: 2, regions: 120}); err != nil {
		t.Fatal(err)
	}
	e, err := Read(dir, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e.NumLocations() != 4 || len(e.Cnodes) != 121 || len(e.CnodeRoots) != 1 || e.CallGraph != nil {
		t.Fatalf("%d locations, %d cnodes, %d roots, graph %v", e.NumLocations(), len(e.Cnodes), len(e.CnodeRoots), e.CallGraph != nil)
	}
	// The root's inclusive time is the sum of all exclusive times, as TAU's
	// Incl column of the root says.
	m := e.MetricByName("TIME")
	v, _ := e.CallTreeValues(modelSel(m), false)
	in := e.CallInclusive(v, e.Metrics[m].Aggregation)
	tm, _ := e.MetricTotal(modelSel(m))
	if !near2([2]float64{in[e.CnodeRoots[0]]}, [2]float64{tm}) {
		t.Errorf("root inclusive %v, total %v", in[e.CnodeRoots[0]], tm)
	}
}
