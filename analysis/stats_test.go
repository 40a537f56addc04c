package analysis

import (
	"math"
	"path/filepath"
	"slices"
	"testing"

	"cubeview/format"
	"cubeview/internal/synth"
	"cubeview/model"
)

func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-12*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

func TestSummarize(t *testing.T) {
	tests := []struct {
		name string
		in   []float64
		want Summary
	}{
		{"empty", nil, Summary{ArgMin: -1, ArgMax: -1}},
		{"one", []float64{4}, Summary{Count: 1, Sum: 4, Min: 4, Max: 4, Mean: 4, Q1: 4, Median: 4, Q3: 4, LowWhisker: 4, HighWhisker: 4}},
		// sorted 1 2 3 4: h(¼) = 0.75 → 1.75, h(½) = 1.5 → 2.5, h(¾) = 2.25 → 3.25;
		// variance ((1.5²+0.5²)·2)/4 = 1.25
		{"four", []float64{3, 1, 4, 2}, Summary{Count: 4, Sum: 10, Min: 1, Max: 4, Mean: 2.5, Q1: 1.75, Median: 2.5, Q3: 3.25,
			StdDev: math.Sqrt(1.25), ArgMin: 1, ArgMax: 2, LowWhisker: 1, HighWhisker: 4}},
		// sorted 0 0 1 5 100: quartiles at h = 1, 2, 3 exactly; 100 is beyond
		// Q3 + 1.5·IQR = 12.5, so the high whisker ends at 5.
		{"outlier", []float64{5, 0, 100, 1, 0}, Summary{Count: 5, Sum: 106, Min: 0, Max: 100, Mean: 21.2, Q1: 0, Median: 1, Q3: 5,
			StdDev: math.Sqrt((16.2*16.2 + 21.2*21.2*2 + 20.2*20.2 + 78.8*78.8) / 5), ArgMin: 1, ArgMax: 2, LowWhisker: 0, HighWhisker: 5}},
		{"ties keep the first", []float64{2, 7, 2, 7}, Summary{Count: 4, Sum: 18, Min: 2, Max: 7, Mean: 4.5, Q1: 2, Median: 4.5, Q3: 7,
			StdDev: 2.5, ArgMin: 0, ArgMax: 1, LowWhisker: 2, HighWhisker: 7}},
	}
	for _, tt := range tests {
		in := append([]float64(nil), tt.in...)
		got := Summarize(in)
		g, w := got, tt.want
		same := g.Count == w.Count && g.ArgMin == w.ArgMin && g.ArgMax == w.ArgMax
		for _, p := range [][2]float64{{g.Sum, w.Sum}, {g.Min, w.Min}, {g.Max, w.Max}, {g.Mean, w.Mean}, {g.Q1, w.Q1},
			{g.Median, w.Median}, {g.Q3, w.Q3}, {g.StdDev, w.StdDev}, {g.LowWhisker, w.LowWhisker}, {g.HighWhisker, w.HighWhisker}} {
			same = same && near(p[0], p[1])
		}
		if !same {
			t.Errorf("%s: Summarize(%v) =\n %+v, want\n %+v", tt.name, tt.in, got, tt.want)
		}
		for i := range in {
			if in[i] != tt.in[i] {
				t.Errorf("%s: Summarize changed its input", tt.name)
			}
		}
	}
}

func TestQuantile(t *testing.T) {
	sorted := []float64{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}
	for p, want := range map[float64]float64{0: 10, 1: 100, 0.5: 55, 0.25: 32.5, 0.75: 77.5, 0.1: 19} {
		if got := Quantile(sorted, p); !near(got, want) {
			t.Errorf("Quantile(%v) = %v, want %v", p, got, want)
		}
	}
}

// statsInMemory is Statistics the simple way: the metric's whole block of
// point values in memory, each row summarised. A min or max has only the
// values of locations that visited the call path (inclusive: any call path
// of its subtree); the others are no value (NaN), not 0.
func statsInMemory(t *testing.T, e *model.Experiment, metric string, inclusive bool) []CallPathStats {
	t.Helper()
	m := e.MetricByName(metric)
	agg := e.Metrics[m].Aggregation
	if agg == model.Sum {
		b, err := e.PointValues(model.MetricSel{Metric: m, Inclusive: true}, inclusive)
		if err != nil {
			t.Fatal(err)
		}
		zero := make([]float64, e.NumLocations())
		var out []CallPathStats
		for _, c := range e.CnodeOrder() {
			row := b.Row(c)
			if row == nil {
				row = zero
			}
			out = append(out, CallPathStats{Cnode: c, Summary: Summarize(row)})
		}
		return out
	}
	b, err := e.PointValues(model.MetricSel{Metric: m, Inclusive: true}, false)
	if err != nil {
		t.Fatal(err)
	}
	counted, release, err := model.CountedValues(e, m)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	own := make([][]float64, len(e.Cnodes)) // counted values, ±Inf where none
	for c := range e.Cnodes {
		own[c] = make([]float64, e.NumLocations())
		row := b.Row(c)
		if row == nil {
			for l := range own[c] {
				own[c][l] = agg.Identity()
			}
			continue
		}
		v, err := counted(c, row)
		if err != nil {
			t.Fatal(err)
		}
		copy(own[c], v)
	}
	var out []CallPathStats
	for _, c := range e.CnodeOrder() {
		vals := slices.Clone(own[c])
		if inclusive {
			var walk func(int)
			walk = func(x int) {
				for l, v := range own[x] {
					vals[l] = agg.Combine(vals[l], v)
				}
				for _, ch := range e.Cnodes[x].Children {
					walk(ch)
				}
			}
			for _, ch := range e.Cnodes[c].Children {
				walk(ch)
			}
		}
		for l, v := range vals {
			if math.IsInf(v, 0) {
				vals[l] = math.NaN()
			}
		}
		out = append(out, CallPathStats{Cnode: c, Summary: Summarize(vals)})
	}
	return out
}

// TestStatisticsStreamedEqualsInMemory: statistics read row by row equal
// those of the whole block in memory, bit for bit, for sum, min, max and
// derived metrics, own and inclusive values, from memory and from a file.
func TestStatisticsStreamedEqualsInMemory(t *testing.T) {
	cfg := synth.Config{Cnodes: 200, Locations: 24, Threads: 4, Nodes: 3, Metrics: 5, MinMax: true, Seed: 4, Density: 0.6}
	e := synth.Generate(cfg)
	f, _ := model.ParseFormula("time_part1 / time")
	e, err := e.WithDerived(model.DerivedMetric{UniqName: "share", Formula: f})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.cubex")
	if err := format.Write(path, e); err != nil {
		t.Fatal(err)
	}
	fromFile := open(t, path)
	for _, metric := range []string{"time", "time_part2", "min_time", "max_time", "share"} {
		for _, inclusive := range []bool{false, true} {
			for _, x := range []*model.Experiment{e, open(t, path)} {
				got, err := Statistics(x, metric, nil, inclusive) // rows from the file, not loaded
				if err != nil {
					t.Fatal(err)
				}
				want := statsInMemory(t, x, metric, inclusive) // loads the block
				if !slices.Equal(got, want) {
					t.Errorf("%s %s inclusive %v: streamed statistics differ from the block's", x.Source, metric, inclusive)
				}
			}
		}
	}
	// A subset, in the order asked for.
	got, err := Statistics(fromFile, "time", []int{5, 2}, true)
	if err != nil || len(got) != 2 || got[0].Cnode != 5 || got[1].Cnode != 2 {
		t.Errorf("subset: %+v, %v", got, err)
	}
}

func TestSummarizeSkipsUndefined(t *testing.T) {
	s := Summarize([]float64{math.NaN(), 3, math.NaN(), 1})
	if s.Count != 2 || s.Sum != 4 || s.Min != 1 || s.ArgMin != 3 || s.ArgMax != 1 || s.Median != 2 {
		t.Errorf("%+v", s)
	}
	if s := Summarize([]float64{math.NaN()}); s.Count != 0 || s.ArgMin != -1 {
		t.Errorf("all undefined: %+v", s)
	}
}
