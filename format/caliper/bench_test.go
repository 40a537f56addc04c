package caliper

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"cubeview/format/importer"
	"cubeview/internal/testkit"
)

// BenchmarkOpenCPI imports the cpi profile (144 nodes, 108 rows).
func BenchmarkOpenCPI(b *testing.B) {
	path := testkit.Data(b, "caliper", "cpi-json", "cpi-callpath-profile.json")
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(path, importer.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenCaliReal reads the largest real .cali file of the corpus,
// Hatchet's LULESH time series (714 KB, 3,605 snapshot records).
func BenchmarkOpenCaliReal(b *testing.B) {
	files, local := testkit.MirrorFiles(b, "LLNL/hatchet", func(p string) bool {
		return strings.HasSuffix(p, "caliper-timeseries-cali/timeseries.cali")
	})
	if len(files) != 1 {
		b.Fatalf("timeseries.cali not in the Hatchet snapshot")
	}
	path := local[files[0]]
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	cpu0 := testkit.CPUTime()
	for b.Loop() {
		if _, err := openCali(path); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, st.Size(), cpu0)
}

// reportCPU adds the throughput per CPU second, which other work on a
// shared machine distorts much less than wall time.
func reportCPU(b *testing.B, size int64, cpu0 time.Duration) {
	if cpu := testkit.CPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/cpu.Seconds()/1e6, "MB/cpu-s")
	}
}

// syntheticCali writes a profile as Caliper's hatchet-region-profile
// writes it per rank: a region tree of the given depth and fan-out, one
// record per region and rank with sum, min, max and count.
func syntheticCali(ranks, depth, fanout int) []byte {
	var w bytes.Buffer
	w.WriteString(goodCali)
	w.WriteString("__rec=node,id=17,attr=10,data=77,parent=1\n__rec=node,id=18,attr=8,data=mpi.rank,parent=17\n" +
		"__rec=node,id=19,attr=10,data=65,parent=5\n__rec=node,id=20,attr=8,data=sum#time.duration,parent=19\n" +
		"__rec=node,id=21,attr=8,data=min#time.duration,parent=19\n__rec=node,id=22,attr=8,data=max#time.duration,parent=19\n" +
		"__rec=node,id=23,attr=10,data=65,parent=2\n__rec=node,id=24,attr=8,data=count,parent=23\n")
	next := 100
	var nodes []int
	var grow func(parent, level int)
	grow = func(parent, level int) {
		for i := 0; i < fanout; i++ {
			id := next
			next++
			fmt.Fprintf(&w, "__rec=node,id=%d,attr=13,data=region_%d_%d", id, level, i)
			if parent >= 0 {
				fmt.Fprintf(&w, ",parent=%d", parent)
			}
			w.WriteByte('\n')
			nodes = append(nodes, id)
			if level+1 < depth {
				grow(id, level+1)
			}
		}
	}
	grow(-1, 0)
	for r := 0; r < ranks; r++ {
		for i, id := range nodes {
			v := float64(i%97+r%13) * 1e-3
			fmt.Fprintf(&w, "__rec=ctx,ref=%d,attr=18=20=21=22=24,data=%d=%g=%g=%g=%d\n", id, r, v, v/4, v/2, i%7+1)
		}
	}
	return w.Bytes()
}

// BenchmarkReadCaliSynthetic reads 64 ranks × 4,680 regions (300,000
// records, about 20 MB).
func BenchmarkReadCaliSynthetic(b *testing.B) {
	data := syntheticCali(64, 4, 8)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := testkit.CPUTime()
	for b.Loop() {
		if _, err := ParseCali(bytes.NewReader(data), "synthetic.cali"); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, int64(len(data)), cpu0)
}
