package repoview

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"cubeview/internal/testkit"
	"cubeview/model"
	"cubeview/numfmt"
	"cubeview/repo"
)

// trials10k is a listing of 10,000 trials: 20 applications × 25
// experiments × 20 trials, each with three automatic and three user
// attributes, as repo.Trials returns it.
func trials10k() Listing {
	var ts []repo.Trial
	id := int64(0)
	for a := 0; a < 20; a++ {
		for e := 0; e < 25; e++ {
			for k := 0; k < 20; k++ {
				id++
				procs := strconv.Itoa(1 << (k % 8))
				ts = append(ts, repo.Trial{ID: id, App: fmt.Sprintf("app%02d", a), Experiment: fmt.Sprintf("exp%02d", e),
					Name: fmt.Sprintf("run%d.cubex", id), Format: "CUBE 4.5 (.cubex)", Imported: time.Unix(1700000000+id, 0),
					Attrs: []repo.Attribute{
						repo.NewAttribute("compiler", "gcc-13", repo.FromUser), repo.NewAttribute("locations", procs, repo.Automatic),
						repo.NewAttribute("procs", procs, repo.Automatic), repo.NewAttribute("size", strconv.Itoa(10*k), repo.FromUser),
						repo.NewAttribute("threads", "1", repo.Automatic), repo.NewAttribute("variant", "v"+strconv.Itoa(e%3), repo.FromUser),
					}})
			}
		}
	}
	return Listing{Trials: ts}
}

// BenchmarkSetListing10k lays out the tree of 10,000 trials, as the
// window does after every filter change.
func BenchmarkSetListing10k(b *testing.B) {
	l := trials10k()
	b.ReportAllocs()
	for b.Loop() {
		br := NewBrowser()
		br.SetListing(l)
		if len(br.Rows()) != 10000+20+500 {
			b.Fatalf("%d rows", len(br.Rows()))
		}
	}
}

// BenchmarkVisibleRows10k is what drawing one screen of 40 rows asks
// for, with an application of 500 trials marked and the marks of every
// group row counted.
func BenchmarkVisibleRows10k(b *testing.B) {
	br := NewBrowser()
	br.SetListing(trials10k())
	br.MarkRow(0, true)
	if len(br.Marked()) != 500 {
		b.Fatalf("%d marked", len(br.Marked()))
	}
	b.ReportAllocs()
	for b.Loop() {
		for i := 0; i < 40; i++ {
			_ = br.Rows()[i].TreeText()
			_ = br.RowMark(i)
		}
	}
}

// realRounds is how often realRepo imports the real experiments: 13
// files × 30 = 390 trials.
const realRounds = 30

// realRepo returns a repository of the real experiments in ../shared/data
// imported realRounds times, each round as its own experiments with its
// own compiler and run attributes, as a team's repository of many runs
// would hold them. It is built on first use (about a minute) and kept in
// the temporary folder.
func realRepo(b *testing.B) *repo.Repo {
	b.Helper()
	files := []struct{ app, exp, file string }{
		{"lulesh", "weak", "cube4/lulesh/lulesh.p27.size25.r1.cubex"},
		{"lulesh", "weak", "cube4/lulesh/lulesh.p64.size25.r1.cubex"},
		{"lulesh", "size", "cube4/lulesh/lulesh.p27.size30.r1.cubex"},
		{"mm", "sweep", "cube4/mm_sweep/mm.x10y1z1.r1.cubex"},
		{"mm", "sweep", "cube4/mm_sweep/mm.x25y1z1.r1.cubex"},
		{"mm", "sweep", "cube4/mm_sweep/mm.x50y1z1.r1.cubex"},
		{"mm", "sweep", "cube4/mm_sweep/mm.x2000y1z1.r1.cubex"},
		{"cpi", "runs", "cube4/cpi/profile.cubex"},
		{"cpi", "runs", "cube4/time.p4.n2000.x1.r0/profile.cubex"},
		{"kripke", "hw", "cube4/hw_counter/L2_DCM_negative.cubex"},
		{"kripke", "hw", "cube4/hw_counter/L3_DCA_negative.cubex"},
		{"cube3", "examples", "cube3/example3.cube"},
		{"cube3", "examples", "cube3/ctest-pomp.cube"},
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = testkit.Data(b, filepath.FromSlash(f.file))
	}
	dir := filepath.Join(os.TempDir(), "cubeview-bench")
	loc := filepath.Join(dir, fmt.Sprintf("repoview-real-%d.db", realRounds*len(files)))
	ctx := context.Background()
	if _, err := os.Stat(loc); err != nil {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		tmp := loc + ".part"
		os.Remove(tmp)
		r, err := repo.Init(ctx, tmp)
		if err != nil {
			b.Fatal(err)
		}
		compilers := []string{"gcc-13", "icx-2024", "clang-18"}
		for round := 1; round <= realRounds; round++ {
			for i, f := range files {
				opt := repo.ImportOptions{App: f.app, Experiment: fmt.Sprintf("%s-r%02d", f.exp, round), Force: true,
					Attrs: []model.Attr{{Key: "compiler", Value: compilers[round%3]}, {Key: "run", Value: strconv.Itoa(round)}}}
				if _, err := r.Import(ctx, paths[i], opt); err != nil {
					b.Fatal(err)
				}
			}
		}
		if err := r.Close(); err != nil {
			b.Fatal(err)
		}
		if err := os.Rename(tmp, loc); err != nil {
			b.Fatal(err)
		}
	}
	r, err := repo.Open(ctx, loc)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close() })
	return r
}

// BenchmarkRealShowTree is what the repository window does when it opens
// or reloads on 390 real trials: read the listing with every trial's
// attributes and lay out the tree.
func BenchmarkRealShowTree(b *testing.B) {
	r := realRepo(b)
	b.ReportAllocs()
	for b.Loop() {
		l, err := Load(context.Background(), r, "")
		if err != nil {
			b.Fatal(err)
		}
		br := NewBrowser()
		br.SetListing(l)
		if len(br.Trials()) != realRounds*13 {
			b.Fatalf("%d trials", len(br.Trials()))
		}
	}
}

// BenchmarkRealFilter is one keystroke in the filter box: the listing of
// a filter read again and laid out.
func BenchmarkRealFilter(b *testing.B) {
	r := realRepo(b)
	br := NewBrowser()
	b.ReportAllocs()
	for b.Loop() {
		l, err := Load(context.Background(), r, "app = lulesh and procs >= 64 and compiler ~ 'gcc*'")
		if err != nil {
			b.Fatal(err)
		}
		br.SetListing(l)
		if len(br.Trials()) != realRounds/3 {
			b.Fatalf("%d trials", len(br.Trials()))
		}
	}
}

// BenchmarkRealSearch is the Search dialog's default question over every
// trial (exclusive time, at least 10 % of the run) with its hits as the
// window's rows.
func BenchmarkRealSearch(b *testing.B) {
	r := realRepo(b)
	q, err := SearchSpec{Metric: "time", ByShare: true, Threshold: "10%"}.Query()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		hits, err := r.Find(context.Background(), q)
		if err != nil {
			b.Fatal(err)
		}
		t := NewHitTable(q, hits, numfmt.Cube())
		if len(t.Rows) < realRounds {
			b.Fatalf("%d hits", len(t.Rows))
		}
	}
}
