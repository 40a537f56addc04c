package repo

import (
	"context"
	"fmt"
	"testing"

	"cubeview/internal/synth"
	"cubeview/model"
)

// TestChunksBounded: a metric is stored in chunks of whole rows of at most
// chunkValues values (one row when a row is longer), and read back row by
// row within a memory budget smaller than the metric, the same as in
// memory.
func TestChunksBounded(t *testing.T) {
	defer func(v int) { chunkValues = v }(chunkValues)
	chunkValues = 1000
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		for _, cfg := range []synth.Config{
			{Cnodes: 400, Locations: 64, Threads: 4, Metrics: 2, Seed: 1},  // 15 rows a chunk
			{Cnodes: 20, Locations: 1500, Threads: 4, Metrics: 1, Seed: 2}, // rows longer than a chunk
			{Cnodes: 300, Locations: 8, Metrics: 2, Density: 0.3, Seed: 3}, // sparse rows
		} {
			e := synth.Generate(cfg)
			want := dump(t, e)
			id, err := r.ImportExperiment(ctx, e, Source{Path: "big", SHA256: fmt.Sprint(cfg.Seed)}, ImportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			nl := e.NumLocations()
			chunks := 0
			err = r.rows(ctx, `SELECT nrows FROM chunk WHERE trial = ?`, []any{id}, func(s scanner) error {
				var n int
				if err := s.Scan(&n); err != nil {
					return err
				}
				if n*nl > chunkValues && n != 1 {
					t.Errorf("a chunk of %d rows × %d values", n, nl)
				}
				chunks++
				return nil
			})
			if err != nil || chunks < 2 {
				t.Fatalf("%d chunks, %v", chunks, err)
			}
			for _, budget := range []int64{1 << 10, 0} {
				model.SetMemoryBudget(budget)
				got, err := r.Open(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				b, err := got.Block(0)
				if err != nil {
					t.Fatal(err)
				}
				if b.OnDemand() != (budget > 0) {
					t.Errorf("budget %d: block on demand %v", budget, b.OnDemand())
				}
				if dump(t, got) != want {
					t.Fatalf("budget %d: %d×%d trial reads back differently", budget, len(e.Cnodes), nl)
				}
			}
			model.SetMemoryBudget(0)
		}
	})
}
