package repo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"cubeview/format"
	"cubeview/internal/synth"
	"cubeview/model"
)

// benchDir holds generated inputs between benchmark runs.
var benchDir = filepath.Join(os.TempDir(), "cubeview-bench")

// largeCubex returns a generated .cubex of 10k call paths × 1,024
// locations × 4 metrics (≈ 330 MB), writing it on first use.
func largeCubex(b *testing.B) string {
	path := filepath.Join(benchDir, "synth-10k-1024-4.cubex")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	if err := os.MkdirAll(benchDir, 0o755); err != nil {
		b.Fatal(err)
	}
	e := synth.Generate(synth.Config{Cnodes: 10000, Locations: 1024, Threads: 4, Nodes: 32, Metrics: 4, Seed: 1})
	if err := format.Write(path, e); err != nil {
		b.Fatal(err)
	}
	return path
}

func fileSize(b *testing.B, paths ...string) int64 {
	var n int64
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil {
			n += st.Size()
		}
	}
	return n
}

// BenchmarkImportLarge imports the large generated .cubex into a fresh
// SQLite repository and reports the repository's size relative to the file.
func BenchmarkImportLarge(b *testing.B) {
	path := largeCubex(b)
	ctx := context.Background()
	b.ReportAllocs()
	var ratio float64
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		loc := filepath.Join(dir, "repository.db")
		r, err := Init(ctx, loc)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := r.Import(ctx, path, ImportOptions{}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		r.Close() // checkpoints the write-ahead log into the file
		ratio = float64(fileSize(b, loc, loc+"-wal")) / float64(fileSize(b, path))
		os.RemoveAll(dir)
		b.StartTimer()
	}
	b.ReportMetric(ratio, "repo/cubex")
	b.SetBytes(fileSize(b, path))
}

// findRepo returns a repository of 100 trials of 10k call paths.
func findRepo(b *testing.B) *Repo {
	loc := filepath.Join(benchDir, fmt.Sprintf("find-100x10k-v%d.db", SchemaVersion))
	ctx := context.Background()
	if _, err := os.Stat(loc); err == nil {
		r, err := Open(ctx, loc)
		if err != nil {
			b.Fatal(err)
		}
		return r
	}
	os.MkdirAll(benchDir, 0o755)
	tmp := loc + ".tmp"
	os.Remove(tmp)
	r, err := Init(ctx, tmp)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		e := synth.Generate(synth.Config{Cnodes: 10000, Locations: 8, Threads: 2, Metrics: 4, Seed: uint64(i)})
		if _, err := r.ImportExperiment(ctx, e, Source{Path: fmt.Sprintf("run%d", i), SHA256: fmt.Sprint(i)},
			ImportOptions{App: fmt.Sprintf("app%d", i%5), Attrs: []model.Attr{{Key: "size", Value: fmt.Sprint(i)}}}); err != nil {
			b.Fatal(err)
		}
	}
	r.Close()
	if err := os.Rename(tmp, loc); err != nil {
		b.Fatal(err)
	}
	os.Rename(tmp+"-wal", loc+"-wal")
	if r, err = Open(ctx, loc); err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkFind100Trials searches 100 trials of 10k call paths each.
func BenchmarkFind100Trials(b *testing.B) {
	r := findRepo(b)
	defer r.Close()
	ctx := context.Background()
	for _, q := range []Query{
		{Metric: "time", Share: true, MinShare: 0.00015},
		{Metric: "time", Inclusive: true, Share: true, MinShare: 0.05},
		{Metric: "metric3", MinValue: 7000, Where: "app = app1 or size > 90"},
		{Metric: "time", Flat: true, Share: true, MinShare: 0.001},
	} {
		b.Run(fmt.Sprintf("%s-incl=%v-flat=%v", q.Metric, q.Inclusive, q.Flat), func(b *testing.B) {
			b.ReportAllocs()
			var hits []Hit
			for b.Loop() {
				var err error
				if hits, err = r.Find(ctx, q); err != nil {
					b.Fatal(err)
				}
			}
			if len(hits) == 0 {
				b.Fatal("no hits: the benchmark measures nothing")
			}
			b.ReportMetric(float64(len(hits)), "hits")
		})
	}
}
