package model_test

import (
	"fmt"
	"testing"

	"cubeview/internal/synth"
	"cubeview/model"
)

var sizes = []synth.Config{
	{Cnodes: 1000, Locations: 64, Threads: 1, Nodes: 4, Metrics: 4, Seed: 1},
	{Cnodes: 10000, Locations: 1024, Threads: 4, Nodes: 16, Metrics: 4, Seed: 2},
}

// BenchmarkSelectMetric measures what a metric selection change costs the
// call pane: per-cnode values of a metric whose data are loaded but whose
// per-cnode sums are not yet cached, and their inclusive values.
func BenchmarkSelectMetric(b *testing.B) {
	for _, cfg := range sizes {
		b.Run(fmt.Sprintf("%dx%d", cfg.Cnodes, cfg.Locations), func(b *testing.B) {
			e := synth.Generate(cfg)
			b.ReportAllocs()
			for b.Loop() {
				excl, err := e.CallTreeValues(model.MetricSel{Metric: 0, Inclusive: false}, false)
				if err != nil {
					b.Fatal(err)
				}
				e.CallInclusive(excl, model.Sum)
			}
		})
	}
}

// BenchmarkSystemPane measures the system pane's recomputation for the
// worst call selection: the collapsed root, i.e. every row of the block.
func BenchmarkSystemPane(b *testing.B) {
	for _, cfg := range sizes {
		b.Run(fmt.Sprintf("%dx%d", cfg.Cnodes, cfg.Locations), func(b *testing.B) {
			e := synth.Generate(cfg)
			b.ReportAllocs()
			b.SetBytes(int64(cfg.Cnodes) * int64(cfg.Locations) * 8)
			for b.Loop() {
				cnodes := e.CnodeSubtree(model.CnodeSel{Cnode: e.CnodeRoots[0], Inclusive: true})
				if _, err := e.SystemTreeValues(model.MetricSel{Metric: 0, Inclusive: true}, cnodes); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFlatProfile measures the flat profile of one metric.
func BenchmarkFlatProfile(b *testing.B) {
	for _, cfg := range sizes {
		b.Run(fmt.Sprintf("%dx%d", cfg.Cnodes, cfg.Locations), func(b *testing.B) {
			e := synth.Generate(cfg)
			excl, _ := e.CallTreeValues(model.MetricSel{Metric: 0, Inclusive: true}, false)
			b.ReportAllocs()
			for b.Loop() {
				e.FlatProfile(excl, model.Sum)
			}
		})
	}
}
