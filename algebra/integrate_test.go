package algebra

import (
	"strings"
	"testing"

	"cubeview/model"
)

// sysOperand builds a one-metric, one-cnode experiment on the given
// locations ("machine/node/rank/thread"), with time = 10·rank + thread + 1
// at every location.
func sysOperand(t testing.TB, source string, locs ...string) *model.Experiment {
	vals := make([]float64, len(locs))
	for i, l := range locs {
		f := strings.Split(l, "/")
		vals[i] = float64(10*atoi(f[2]) + atoi(f[3]) + 1)
	}
	return build(t, spec{
		source:  source,
		metrics: []string{"time sec DOUBLE"},
		cnodes:  []string{"main"},
		system:  locs,
		data:    map[string]map[string][]float64{"time": {"main": vals}},
	})
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = 10*n + int(c-'0')
	}
	return n
}

func TestSystemIntegration(t *testing.T) {
	tests := []struct {
		name  string
		ops   [][]string
		mode  SystemMode
		donor int
		tree  string
		// reason must contain this
		reason string
	}{
		{
			name:  "same layout, other node names",
			ops:   [][]string{{"m/n1/0/0", "m/n1/1/0", "m/n2/2/0"}, {"x/h7/0/0", "x/h7/1/0", "x/h9/2/0"}},
			donor: 0,
			tree:  "m[n1[0{0} 1{0} ] n2[2{0} ] ]",
		},
		{
			name:  "smaller run inside the larger run's first node",
			ops:   [][]string{{"m/a/0/0", "m/a/1/0"}, {"m/b/0/0", "m/b/1/0", "m/b/2/0", "m/c/3/0"}},
			donor: 1,
			tree:  "m[b[0{0} 1{0} 2{0} ] c[3{0} ] ]",
		},
		{
			name:  "one node covers the other's two nodes",
			ops:   [][]string{{"m/n1/0/0", "m/n2/1/0"}, {"big/all/0/0", "big/all/1/0", "big/all/2/0"}},
			donor: 1,
			tree:  "big[all[0{0} 1{0} 2{0} ] ]",
		},
		{
			name:   "partitions cross",
			ops:    [][]string{{"m/p/0/0", "m/p/1/0", "m/q/2/0"}, {"m/r/0/0", "m/s/1/0", "m/s/2/0"}},
			donor:  -1,
			tree:   "Virtual machine[Virtual node[0{0} 1{0} 2{0} ] ]",
			reason: "rank 1 and 2 share a node in operand 1",
		},
		{
			name:   "no operand holds all processes",
			ops:    [][]string{{"m/n/0/0", "m/n/1/0"}, {"m/n/2/0", "m/n/3/0"}},
			donor:  -1,
			tree:   "Virtual machine[Virtual node[0{0} 1{0} 2{0} 3{0} ] ]",
			reason: "no operand holds all 4 processes",
		},
		{
			name:  "copy forced without a complete operand",
			ops:   [][]string{{"m/n/0/0", "m/n/1/0"}, {"m/n/2/0", "m/n/3/0", "m/k/4/0"}},
			mode:  SystemCopy,
			donor: 1,
			tree:  "m[n[2{0} 3{0} ] k[4{0} ] ] Other processes[Other processes[0{0} 1{0} ] ]",
		},
		{
			name:  "copy forced on crossing partitions",
			ops:   [][]string{{"m/p/0/0", "m/p/1/0", "m/q/2/0"}, {"m/r/0/0", "m/s/1/0", "m/s/2/0"}},
			mode:  SystemCopy,
			donor: 0,
			tree:  "m[p[0{0} 1{0} ] q[2{0} ] ]",
		},
		{
			name:   "collapse forced",
			ops:    [][]string{{"m/n1/0/0", "m/n1/1/0"}, {"m/n1/0/0", "m/n1/1/0"}},
			mode:   SystemCollapse,
			donor:  -1,
			tree:   "Virtual machine[Virtual node[0{0} 1{0} ] ]",
			reason: "as requested",
		},
		{
			name:  "threads: union by rank within the process",
			ops:   [][]string{{"m/n/0/0", "m/n/0/1", "m/n/1/0"}, {"m/n/0/0", "m/n/0/2", "m/n/1/0", "m/n/1/1"}},
			donor: 0,
			tree:  "m[n[0{0 1 2} 1{0 1} ] ]",
		},
		{
			name:  "collapse orders processes by rank",
			ops:   [][]string{{"m/n/3/0", "m/n/1/0"}, {"m/k/0/0", "m/n/2/0"}},
			donor: -1,
			tree:  "Virtual machine[Virtual node[0{0} 1{0} 2{0} 3{0} ] ]",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ops []*model.Experiment
			for i, locs := range tc.ops {
				ops = append(ops, sysOperand(t, string(rune('a'+i)), locs...))
			}
			ig, err := Integrate(ops, Options{System: tc.mode})
			if err != nil {
				t.Fatal(err)
			}
			if ig.SystemOutcome.Donor != tc.donor {
				t.Errorf("donor %d, want %d (%s)", ig.SystemOutcome.Donor, tc.donor, ig.SystemOutcome)
			}
			if !strings.Contains(ig.SystemOutcome.Reason, tc.reason) {
				t.Errorf("reason %q does not say %q", ig.SystemOutcome.Reason, tc.reason)
			}
			if got := systemText(ig.Result); got != tc.tree {
				t.Errorf("system tree\n got %s\nwant %s", got, tc.tree)
			}
			// Every operand location lands on the result location of the
			// same process and thread rank, and its provenance bit is set.
			for i, e := range ops {
				for l := range e.Locations {
					r := ig.Locations[i][l]
					if r < 0 {
						t.Fatalf("operand %d location %s dropped", i, locKey(e, l))
					}
					if locKey(ig.Result, r) != locKey(e, l) {
						t.Errorf("operand %d location %s maps to %s", i, locKey(e, l), locKey(ig.Result, r))
					}
					if !ig.Result.Location(r).Present.Has(i) {
						t.Errorf("location %s lacks operand %d in its present mask", locKey(e, l), i)
					}
				}
			}
			// The values follow the locations: a mean of the operands is
			// the operands' values, halved where only one has them.
			m, err := Arithmetic(ig, OpMean)
			if err != nil {
				t.Fatal(err)
			}
			got := flatten(t, m)
			for l := range m.Locations {
				k := vkey("time", "main@m.c", locKey(m, l))
				sum := 0.0
				for _, e := range ops {
					sum += flatten(t, e)[k]
				}
				if want := sum / float64(len(ops)); got[k] != want {
					t.Errorf("mean at %s = %v, want %v", locKey(m, l), got[k], want)
				}
			}
			// Diff and merge place values on the same locations.
			d, err := Arithmetic(ig, OpDiff)
			if err != nil {
				t.Fatal(err)
			}
			mg, err := Arithmetic(ig, OpMerge)
			if err != nil {
				t.Fatal(err)
			}
			fd, fm := flatten(t, d), flatten(t, mg)
			f0, f1 := flatten(t, ops[0]), flatten(t, ops[1])
			for l := range m.Locations {
				k := vkey("time", "main@m.c", locKey(m, l))
				if fd[k] != f0[k]-f1[k] {
					t.Errorf("diff at %s = %v, want %v", locKey(m, l), fd[k], f0[k]-f1[k])
				}
				if fm[k] != f0[k] {
					t.Errorf("merge at %s = %v, want operand 0's %v", locKey(m, l), fm[k], f0[k])
				}
			}
		})
	}
}

func TestMetricMismatch(t *testing.T) {
	a := build(t, spec{source: "a.cubex", metrics: []string{"time sec DOUBLE", "bytes bytes UINT64"}, cnodes: []string{"main"}, system: []string{"m/n/0/0"}})
	b := build(t, spec{source: "b.cubex", metrics: []string{"time usec DOUBLE"}, cnodes: []string{"main"}, system: []string{"m/n/0/0"}})
	c := build(t, spec{source: "c.cubex", metrics: []string{"time sec MAXDOUBLE"}, cnodes: []string{"main"}, system: []string{"m/n/0/0"}})
	for _, tc := range []struct {
		x, y *model.Experiment
		want []string
	}{
		{a, b, []string{`metric "time"`, `"usec"`, `"sec"`, "b.cubex", "a.cubex"}},
		{a, c, []string{`metric "time"`, "max", "sum", "c.cubex"}},
	} {
		_, err := Diff(tc.x, tc.y, Options{})
		if err == nil {
			t.Fatalf("diff(%s, %s) succeeded", tc.x.Source, tc.y.Source)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q does not mention %s", err, w)
			}
		}
	}
}

func TestOperandErrors(t *testing.T) {
	a := sysOperand(t, "a", "m/n/0/0")
	if _, err := Merge(Options{}); err == nil || !strings.Contains(err.Error(), "no operands") {
		t.Errorf("merge of nothing: %v", err)
	}
	if _, err := Mean(Options{}, a, nil); err == nil {
		t.Errorf("mean with a missing operand succeeded")
	}
	many := make([]*model.Experiment, MaxOperands+1)
	for i := range many {
		many[i] = a
	}
	if _, err := Mean(Options{}, many...); err == nil || !strings.Contains(err.Error(), "at most 64") {
		t.Errorf("mean of 65 operands: %v", err)
	}
	if _, err := Mean(Options{}, many[:MaxOperands]...); err != nil {
		t.Errorf("mean of 64 operands: %v", err)
	}
	ig, err := Integrate([]*model.Experiment{a, a, a}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Arithmetic(ig, OpDiff); err == nil || !strings.Contains(err.Error(), "2 operands") {
		t.Errorf("diff of 3 operands: %v", err)
	}
	loose := &model.Experiment{Source: "loose"}
	loose.Metrics = []model.Metric{{UniqName: "time", Parent: -1}}
	loose.System = []model.SystemNode{{Kind: model.Leaf, Name: "orphan", Parent: -1}}
	loose.Link()
	loose.NumberLocations()
	if _, err := Merge(Options{}, loose); err == nil || !strings.Contains(err.Error(), "not inside a location group") {
		t.Errorf("location outside a group: %v", err)
	}
}

func TestCallTreeMatching(t *testing.T) {
	regions := func(begin int) []model.Region {
		return []model.Region{
			{Name: "main", Module: "m.c", Begin: 1, End: 100},
			{ID: 1, Name: "foo", Module: "m.c", Begin: begin, End: begin + 5},
		}
	}
	a := build(t, spec{source: "a", metrics: []string{"time sec DOUBLE"}, regions: regions(10),
		cnodes: []string{"main", "main/foo@10", "main/foo@20", "main/foo@20/main"}, system: []string{"m/n/0/0"},
		data: map[string]map[string][]float64{"time": {"main/foo@10": {1}, "main/foo@20": {2}, "main/foo@20/main": {4}}}})
	b := build(t, spec{source: "b", metrics: []string{"time sec DOUBLE"}, regions: regions(12),
		cnodes: []string{"main", "main/foo@20", "main/foo@30", "main/foo@20/main"}, system: []string{"m/n/0/0"},
		data: map[string]map[string][]float64{"time": {"main/foo@20": {20}, "main/foo@30": {30}, "main/foo@20/main": {40}}}})

	t.Run("default", func(t *testing.T) {
		d, err := Diff(a, b, Options{})
		if err != nil {
			t.Fatal(err)
		}
		// Regions match by name and module although foo moved by 2 lines.
		if len(d.Regions) != 2 {
			t.Errorf("%d regions, want 2", len(d.Regions))
		}
		// foo@20 matches foo@20 (same call site), foo@30 takes the
		// remaining foo@10.
		got := map[int]float64{}
		b0, _ := d.Block(0)
		for c := range d.Cnodes {
			got[d.Cnodes[c].CallLine] += b0.Value(c, 0)
		}
		// main/foo@20/main (call line -1) matches too.
		if len(d.Cnodes) != 4 || got[10] != 1-30 || got[20] != 2-20 || got[-1] != 4-40 {
			t.Errorf("%d cnodes, values by call line %v; want 4 cnodes, line 10: -29, line 20: -18, line -1: -36", len(d.Cnodes), got)
		}
	})
	t.Run("strict lines", func(t *testing.T) {
		d, err := Diff(a, b, Options{StrictLines: true})
		if err != nil {
			t.Fatal(err)
		}
		// foo's lines differ, so the regions and every foo call path stay
		// apart: main, a's 2 foo subtrees (3 nodes), b's (3 nodes).
		if len(d.Regions) != 3 || len(d.Cnodes) != 7 {
			t.Errorf("%d regions, %d cnodes; want 3 and 7", len(d.Regions), len(d.Cnodes))
		}
	})
	t.Run("strict call sites only", func(t *testing.T) {
		b2 := build(t, spec{source: "b", metrics: []string{"time sec DOUBLE"}, regions: regions(10),
			cnodes: []string{"main", "main/foo@20", "main/foo@30", "main/foo@20/main"}, system: []string{"m/n/0/0"}})
		ig, err := Integrate([]*model.Experiment{a, b2}, Options{StrictLines: true})
		if err != nil {
			t.Fatal(err)
		}
		// main, foo@10, foo@20 (+ child), foo@30.
		if n := len(ig.Result.Cnodes); n != 5 {
			t.Errorf("%d cnodes, want 5", n)
		}
	})
}

func TestDefinitionsFromFirstOperand(t *testing.T) {
	a := sysOperand(t, "a", "m/n/0/0")
	b := sysOperand(t, "b", "m/n/0/0")
	b.Metrics[0].DispName = "Other name"
	b.Regions[0].Descr = "b's description"
	ig, err := Integrate([]*model.Experiment{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := ig.Result.Metrics[0].DispName; got != "TIME" {
		t.Errorf("display name %q, want a's", got)
	}
	if got := ig.Result.Regions[0].Descr; got != "" {
		t.Errorf("region description %q, want a's", got)
	}
}

func TestDerivedMetricKeepsDefinition(t *testing.T) {
	a := sysOperand(t, "a", "m/n/0/0")
	a.Metrics = append(a.Metrics, model.Metric{ID: 1, UniqName: "ratio", Unit: "", DataType: "DOUBLE",
		Type: "POSTDERIVED", Expression: "metric::time()/2", Parent: -1})
	a.Link()
	d, err := Diff(a, a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := &d.Metrics[d.MetricByName("ratio")]
	if m.Type != "POSTDERIVED" || m.Expression != "metric::time()/2" || m.Unavailable == "" {
		t.Errorf("derived metric became %+v", *m)
	}
	if b, _ := d.Block(d.MetricByName("ratio")); b.StoredRows() != 0 {
		t.Errorf("derived metric has data")
	}
}

func TestTopologies(t *testing.T) {
	a := sysOperand(t, "a", "m/n/0/0", "m/n/1/0")
	a.Topologies = []model.Cart{{Name: "line", Dims: []model.CartDim{{Name: "x", Size: 2}},
		Coords: []model.CartCoord{{Node: a.Locations[0], Coord: []int{0}}, {Node: a.Locations[1], Coord: []int{1}}}}}
	b := sysOperand(t, "b", "m/n/1/0", "m/n/0/0")
	ig, err := Integrate([]*model.Experiment{b, a, a}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := ig.Result
	if len(r.Topologies) != 1 {
		t.Fatalf("%d topologies, want 1 (duplicates dropped)", len(r.Topologies))
	}
	for _, c := range r.Topologies[0].Coords {
		if n := &r.System[c.Node]; n.Kind != model.Leaf || r.System[n.Parent].Rank != c.Coord[0] {
			t.Errorf("coordinate %v on %s of rank %d", c.Coord, n.Kind, r.System[n.Parent].Rank)
		}
	}
}
