package algebra

import (
	"testing"

	"cubeview/internal/synth"
	"cubeview/model"
)

// memRows serves a block in memory as a model.RowSource.
type memRows struct{ b *model.Block }

func (m memRows) HasRow(c int) bool { return m.b.Row(c) != nil }
func (m memRows) ReadRow(c int, dst []float64) error {
	copy(dst, m.b.Row(c))
	return nil
}

// onDemandCopy returns e with every block read on demand.
func onDemandCopy(t *testing.T, e *model.Experiment) *model.Experiment {
	t.Helper()
	c := &model.Experiment{Source: e.Source, Format: e.Format, Attrs: e.Attrs, Mirrors: e.Mirrors,
		Metrics: e.Metrics, MetricRoots: e.MetricRoots, Regions: e.Regions, Cnodes: e.Cnodes, CnodeRoots: e.CnodeRoots,
		System: e.System, SystemRoots: e.SystemRoots, Locations: e.Locations, Topologies: e.Topologies}
	for m := range e.Metrics {
		b, err := e.Block(m)
		if err != nil {
			t.Fatal(err)
		}
		c.SetBlock(m, model.NewSourceBlock(b.NumCnodes(), b.NumLocations(), memRows{b}))
	}
	return c
}

// TestOnDemandOperands: diff, merge and mean of operands whose blocks are
// read on demand compute their results row by row, and those results are
// exactly the ones computed in memory.
func TestOnDemandOperands(t *testing.T) {
	a := generate(synth.Config{Cnodes: 120, Locations: 16, Threads: 2, Nodes: 2, Metrics: 5, Density: 0.7, MinMax: true, Seed: 1})
	b := generate(synth.Config{Cnodes: 150, Locations: 24, Threads: 3, Nodes: 2, Metrics: 5, Density: 0.5, MinMax: true, Seed: 2})
	ops := map[string]func(x, y *model.Experiment) (*model.Experiment, error){
		"diff":  func(x, y *model.Experiment) (*model.Experiment, error) { return Diff(x, y, Options{}) },
		"merge": func(x, y *model.Experiment) (*model.Experiment, error) { return Merge(Options{}, x, y) },
		"mean":  func(x, y *model.Experiment) (*model.Experiment, error) { return Mean(Options{}, x, y) },
	}
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			want, err := op(a, b)
			if err != nil {
				t.Fatal(err)
			}
			got, err := op(onDemandCopy(t, a), onDemandCopy(t, b))
			if err != nil {
				t.Fatal(err)
			}
			lazy := 0
			for m := range got.Metrics {
				if bl, _ := got.Block(m); bl != nil && bl.OnDemand() {
					lazy++
				}
			}
			if lazy == 0 {
				t.Error("no result metric is computed on demand")
			}
			if g, w := dump(t, got), dump(t, want); g != w {
				t.Errorf("results differ from the in-memory ones")
			}
		})
	}
}
