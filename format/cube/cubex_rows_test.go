package cube

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/model"
)

// streamFixtures returns the .cubex files of the shared data and two
// generated ones, one stored call-tree exclusive and one inclusive.
func streamFixtures(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	e := synth.Generate(synth.Config{Cnodes: 300, Locations: 24, Threads: 3, Nodes: 2, Metrics: 5, Density: 0.6, MinMax: true, Seed: 9})
	var files []string
	for _, incl := range []bool{false, true} {
		opt := cubexWriteOptions{}
		name := "synth-excl.cubex"
		if incl {
			name = "synth-incl.cubex"
			opt.inclusive = func(m int) bool { return true }
		}
		var buf bytes.Buffer
		if err := writeCubex(&buf, e, opt); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	shared := filepath.Join("..", "..", "..", "shared", "data", "cube4")
	if _, err := os.Stat(shared); err == nil {
		filepath.WalkDir(shared, func(p string, d os.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".cubex") {
				files = append(files, p)
			}
			return nil
		})
	} else {
		t.Logf("shared data not available (%v): generated files only", err)
	}
	return files
}

// answers returns, for every metric with values, the call-tree values
// (own and with child metrics) and the per-location totals.
func answers(t *testing.T, e *model.Experiment) [][]float64 {
	t.Helper()
	var out [][]float64
	for m := range e.Metrics {
		if e.Metrics[m].Unavailable != "" {
			continue
		}
		for _, incl := range []bool{true, false} {
			ms := model.MetricSel{Metric: m, Inclusive: incl}
			v, err := e.CallTreeValues(ms, false)
			if err != nil {
				t.Fatal(err)
			}
			loc, err := e.LocationValues(ms, model.AllCnodes)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, v, loc)
		}
	}
	return out
}

func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// TestStreamedAggregatesMatchBlocks: call-tree values and location totals
// computed in one pass over the file, without a block, are bit for bit
// those computed from the loaded blocks, and no block is loaded for them.
// With a small keptRowsBytes, rows of inclusive sums are partly kept and
// partly read again.
func TestStreamedAggregatesMatchBlocks(t *testing.T) {
	files := streamFixtures(t)
	for _, keep := range []int{keptRowsBytes, 600, 0} {
		t.Run(fmt.Sprintf("keep=%d", keep), func(t *testing.T) {
			defer func(old int) { keptRowsBytes = old }(keptRowsBytes)
			keptRowsBytes = keep
			streamedMatchBlocks(t, files)
		})
	}
}

func streamedMatchBlocks(t *testing.T, files []string) {
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			streamed, err := OpenCubex(f)
			if err != nil {
				t.Fatal(err)
			}
			got := answers(t, streamed)
			for m := range streamed.Metrics {
				if streamed.Loaded(m) && streamed.Metrics[m].Unavailable == "" {
					if b, _ := streamed.Block(m); b.StoredRows() > 0 {
						t.Errorf("metric %q was loaded for its aggregates", streamed.Metrics[m].UniqName)
					}
				}
			}
			loaded, err := OpenCubex(f)
			if err != nil {
				t.Fatal(err)
			}
			for m := range loaded.Metrics {
				if _, err := loaded.Block(m); err != nil {
					t.Fatal(err)
				}
			}
			want := answers(t, loaded)
			for i := range want {
				if !sameBits(got[i], want[i]) {
					t.Fatalf("answer %d differs:\n got %v\nwant %v", i, got[i], want[i])
				}
			}
		})
	}
}

// TestOnDemandBlocksMatchLoaded: with a memory budget below every metric,
// blocks read their rows from the file on demand and give the same
// values, row by row, as blocks loaded whole.
func TestOnDemandBlocksMatchLoaded(t *testing.T) {
	for _, f := range streamFixtures(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			loaded, err := OpenCubex(f)
			if err != nil {
				t.Fatal(err)
			}
			var want strings.Builder
			if err := loaded.Dump(&want); err != nil {
				t.Fatal(err)
			}
			model.SetMemoryBudget(1)
			defer model.SetMemoryBudget(0)
			od, err := OpenCubex(f)
			if err != nil {
				t.Fatal(err)
			}
			onDemand := 0
			for m := range od.Metrics {
				b, err := od.Block(m)
				if err != nil {
					t.Fatal(err)
				}
				if b.OnDemand() {
					onDemand++
				}
			}
			var got strings.Builder
			if err := od.Dump(&got); err != nil {
				t.Fatal(err)
			}
			if d := testkit.Diff(want.String(), got.String()); d != "" {
				t.Fatalf("on-demand blocks differ:\n%s", d)
			}
			for m := range od.Metrics {
				b, _ := od.Block(m)
				if err := b.Err(); err != nil {
					t.Fatal(err)
				}
				lb, _ := loaded.Block(m)
				for _, cs := range []model.CnodeSel{{Cnode: 0, Inclusive: true}, {Cnode: len(od.Cnodes) - 1, Inclusive: false}} {
					ms := model.MetricSel{Metric: m, Inclusive: true}
					a, err1 := od.LocationValues(ms, cs)
					w, err2 := loaded.LocationValues(ms, cs)
					if err1 != nil || err2 != nil || !sameBits(a, w) {
						t.Fatalf("metric %d, %+v: %v (%v), want %v (%v)", m, cs, a, err1, w, err2)
					}
				}
				if lb.StoredRows() > 0 && b.StoredRows() == 0 {
					t.Errorf("metric %d: on-demand block has no rows", m)
				}
			}
			t.Logf("%d metrics read on demand", onDemand)
		})
	}
}
