package algebra

import (
	"testing"

	"cubeview/model"
)

// TestResultKeepsCallTreeAggregation: a result of operands whose roots
// overlap (CUBE_CT_AGGR MAX, tau2cube) declares MAX too, so its totals
// are not sums of overlapping roots; a mix keeps the default.
func TestResultKeepsCallTreeAggregation(t *testing.T) {
	withMax := func(src string) *model.Experiment {
		e := build(t, spec{
			source:  src,
			metrics: []string{"time sec DOUBLE"},
			cnodes:  []string{"main", "solve"},
			system:  []string{"m/n/0/0"},
			data:    map[string]map[string][]float64{"time": {"main": {10}, "solve": {8}}},
		})
		e.Attrs = append(e.Attrs, model.Attr{Key: model.CallTreeAggrKey, Value: "MAX"})
		return e
	}
	plain := handA(t)
	tests := []struct {
		name      string
		operands  []*model.Experiment
		wantMax   bool
		wantTotal float64
	}{
		{"both MAX", []*model.Experiment{withMax("a"), withMax("b")}, true, 10},
		{"mixed", []*model.Experiment{withMax("a"), plain}, false, -1},
	}
	for _, tt := range tests {
		res, err := Mean(Options{}, tt.operands...)
		if err != nil {
			t.Fatal(err)
		}
		if model.ForestMax(res) != tt.wantMax {
			t.Errorf("%s: ForestMax %v, want %v", tt.name, model.ForestMax(res), tt.wantMax)
		}
		if tt.wantTotal >= 0 {
			total, err := res.MetricTotal(model.MetricSel{Metric: res.MetricByName("time"), Inclusive: true})
			if err != nil {
				t.Fatal(err)
			}
			if total != tt.wantTotal {
				t.Errorf("%s: total %v, want %v (the larger root, not 10 + 8)", tt.name, total, tt.wantTotal)
			}
		}
	}
}
