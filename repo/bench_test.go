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
		r, err := Open(ctx, loc)
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
	r, err := Open(ctx, tmp)
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

// lsRepo returns a repository of 10,000 small trials with attributes.
func lsRepo(b *testing.B) *Repo {
	loc := filepath.Join(benchDir, fmt.Sprintf("ls-10k-v%d.db", SchemaVersion))
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
	r, err := Open(ctx, tmp)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 10000; i++ {
		e := synth.Generate(synth.Config{Cnodes: 3, Locations: 1, Metrics: 1, Seed: uint64(i)})
		attrs := []model.Attr{{Key: "procs", Value: fmt.Sprint(1 << (i % 11))}, {Key: "size", Value: fmt.Sprint(10 + i%40)},
			{Key: "compiler", Value: []string{"gcc-13", "gcc-14", "clang-17"}[i%3]}}
		if _, err := r.ImportExperiment(ctx, e, Source{Path: fmt.Sprintf("run%d", i), SHA256: fmt.Sprint(i)},
			ImportOptions{App: []string{"lulesh", "cpi", "bt-mz", "kripke"}[i%4], Experiment: fmt.Sprintf("e%d", i%10), Attrs: attrs}); err != nil {
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

// BenchmarkListWhere10kTrials filters and lists 10,000 trials.
func BenchmarkListWhere10kTrials(b *testing.B) {
	r := lsRepo(b)
	defer r.Close()
	ctx := context.Background()
	for _, f := range []string{
		"app = lulesh and procs >= 64",
		"compiler ~ 'gcc*' and size < 30 or experiment = e3",
		"",
	} {
		b.Run(fmt.Sprintf("%q", f), func(b *testing.B) {
			b.ReportAllocs()
			var ts []Trial
			for b.Loop() {
				var err error
				if ts, err = r.Trials(ctx, f, ListOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			if len(ts) == 0 {
				b.Fatal("no trials listed")
			}
			b.ReportMetric(float64(len(ts)), "trials")
		})
	}
}
