package papi

import (
	"bytes"
	"cubeview/format/importer"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"cubeview/internal/testkit"
)

func reportCPU(b *testing.B, size int64, cpu0 time.Duration) {
	if cpu := testkit.CPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/cpu.Seconds()/1e6, "MB/cpu-s")
	}
}

// BenchmarkOpenReal reads the largest real measurement folder of the
// corpus (32 rank files).
func BenchmarkOpenReal(b *testing.B) {
	var dir string
	var size int64
	for d, files := range realFolders(b) {
		var s int64
		for _, f := range files {
			if st, err := os.Stat(f); err == nil {
				s += st.Size()
			}
		}
		if s > size {
			dir, size = d, s
		}
	}
	b.SetBytes(size)
	b.ReportAllocs()
	cpu0 := testkit.CPUTime()
	for b.Loop() {
		if _, err := Read(dir, importer.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, size, cpu0)
}

// BenchmarkReadGenerated reads one rank file of 8 threads × 25,000
// region instances, three deep, with four events.
func BenchmarkReadGenerated(b *testing.B) {
	var w bytes.Buffer
	w.WriteString(`{"papi_version":"7.0.0.0","event_definitions":{"PAPI_TOT_INS":{"component":"perf_event","type":"delta"},` +
		`"PAPI_TOT_CYC":{"component":"perf_event","type":"delta"}},"threads":{`)
	for t := 0; t < 8; t++ {
		if t > 0 {
			w.WriteByte(',')
		}
		fmt.Fprintf(&w, `"%d":{"regions":{`, t)
		for i := 0; i < 25000; i++ {
			if i > 0 {
				w.WriteByte(',')
			}
			parent := -1
			if i%3 != 0 {
				parent = i - 1
			}
			fmt.Fprintf(&w, "\n"+`"%d":{"name":"region_%d","parent_region_id":"%d","cycles":"%d","real_time_nsec":"%d","PAPI_TOT_INS":"%d","PAPI_TOT_CYC":"%d"}`,
				i, i%3+i%50, parent, 9000-i%3*1000, 3000-i%3*1000, 5000-i%3*100, 8000-i%3*100)
		}
		w.WriteString("}}")
	}
	w.WriteString("}}\n")
	data := w.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := testkit.CPUTime()
	for b.Loop() {
		if _, err := Parse(bytes.NewReader(data), filepath.Join("gen", "rank_000000.json")); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, int64(len(data)), cpu0)
}
