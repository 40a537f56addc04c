package algebra

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"cubeview/internal/synth"
	"cubeview/model"
)

func cutOperand(t testing.TB) *model.Experiment {
	return build(t, spec{
		source:  "c",
		metrics: []string{"time sec DOUBLE", "minT sec MINDOUBLE"},
		cnodes:  []string{"main", "main/foo", "main/foo/bar", "main/foo/bar/mpi", "main/baz", "main/baz/foo", "main/baz/foo/bar"},
		system:  []string{"m/n/0/0", "m/n/1/0"},
		data: map[string]map[string][]float64{
			"time": {"main": {1, 1}, "main/foo": {2, 2}, "main/foo/bar": {3, 3}, "main/foo/bar/mpi": {4, 4},
				"main/baz": {5, 5}, "main/baz/foo": {6, 6}, "main/baz/foo/bar": {7, 0}},
			"minT": {"main": {5, 5}, "main/foo": {4, 6}, "main/foo/bar": {2, 7}, "main/foo/bar/mpi": {3, 1},
				"main/baz": {5, 5}, "main/baz/foo": {5, 5}, "main/baz/foo/bar": {5, 5}},
		},
	})
}

// cutRows lists, per result cnode in index order, its call path and rows.
func cutRows(t *testing.T, e *model.Experiment) []string {
	var out []string
	for c := range e.Cnodes {
		s := e.CallPath(c)
		for m := range e.Metrics {
			b, err := e.Block(m)
			if err != nil {
				t.Fatal(err)
			}
			s += " " + e.Metrics[m].UniqName + "="
			for l := range e.Locations {
				if l > 0 {
					s += ","
				}
				s += strconv.FormatFloat(b.Value(c, l), 'g', -1, 64)
			}
		}
		out = append(out, s)
	}
	return out
}

func TestCutHandMade(t *testing.T) {
	tests := []struct {
		name string
		opt  CutOptions
		want []string
	}{
		{
			name: "prune",
			opt:  CutOptions{Prune: []string{"bar"}},
			// main/foo: 2 + 3 + 4 = 9; min(4,2,3) = 2, min(6,7,1) = 1.
			// main/baz/foo: 6 + 7 = 13 and 6 + 0 = 6; min(5,5) = 5.
			want: []string{
				"main time=1,1 minT=5,5",
				"main/foo time=9,9 minT=2,1",
				"main/baz time=5,5 minT=5,5",
				"main/baz/foo time=13,6 minT=5,5",
			},
		},
		{
			name: "reroot",
			opt:  CutOptions{Reroot: []string{"foo"}},
			want: []string{
				"foo time=2,2 minT=4,6",
				"foo/bar time=3,3 minT=2,7",
				"foo/bar/mpi time=4,4 minT=3,1",
				"foo time=6,6 minT=5,5",
				"foo/bar time=7,0 minT=5,5",
			},
		},
		{
			name: "reroot and prune",
			opt:  CutOptions{Reroot: []string{"foo"}, Prune: []string{"mpi"}},
			want: []string{
				"foo time=2,2 minT=4,6",
				"foo/bar time=7,7 minT=2,1",
				"foo time=6,6 minT=5,5",
				"foo/bar time=7,0 minT=5,5",
			},
		},
		{
			name: "reroot at two names",
			opt:  CutOptions{Reroot: []string{"mpi", "baz"}},
			want: []string{
				"mpi time=4,4 minT=3,1",
				"baz time=5,5 minT=5,5",
				"baz/foo time=6,6 minT=5,5",
				"baz/foo/bar time=7,0 minT=5,5",
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := cutOperand(t)
			before := dump(t, e)
			r, err := Cut(e, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if dump(t, e) != before {
				t.Error("cut changed its operand")
			}
			got := cutRows(t, r)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			for c := range r.Cnodes {
				if r.Cnodes[c].ID != c || r.Cnodes[c].Present != 1 {
					t.Errorf("cnode %d: id %d, present %b", c, r.Cnodes[c].ID, r.Cnodes[c].Present)
				}
			}
			used := map[int]bool{}
			for _, c := range r.Cnodes {
				used[c.Region] = true
			}
			if len(used) != len(r.Regions) {
				t.Errorf("%d regions, %d used", len(r.Regions), len(used))
			}
		})
	}
}

func TestCutErrors(t *testing.T) {
	e := cutOperand(t)
	for _, tc := range []struct {
		opt  CutOptions
		want string
	}{
		{CutOptions{}, "no region"},
		{CutOptions{Reroot: []string{"foo"}, Prune: []string{"foo"}}, `"foo" cannot be both`},
		{CutOptions{Reroot: []string{"nothing"}}, `region "nothing" to reroot`},
		{CutOptions{Prune: []string{"nothing"}}, `region "nothing" to prune`},
		{CutOptions{Reroot: []string{"main", "bar"}}, `"main" and "main/foo/bar"`},
		{CutOptions{Prune: []string{"main"}}, `cannot prune root call path "main"`},
		{CutOptions{Reroot: []string{"bar"}, Prune: []string{"bar2", "bar"}}, "both"},
	} {
		if _, err := Cut(e, tc.opt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("cut %+v: error %v, want one mentioning %s", tc.opt, err, tc.want)
		}
	}
}

// checkPrune verifies on any experiment that pruning region name keeps
// every metric total and grows each surviving parent's exclusive value by
// the inclusive values of its pruned children.
func checkPrune(t *testing.T, e *model.Experiment, name string) {
	r, err := Cut(e, CutOptions{Prune: []string{name}})
	if err != nil {
		t.Fatal(err)
	}
	for m := range e.Metrics {
		if e.Metrics[m].Unavailable != "" {
			continue
		}
		agg := e.Metrics[m].Aggregation
		sel := model.MetricSel{Metric: m, Inclusive: true}
		before, err := e.MetricTotal(sel)
		if err != nil {
			t.Fatal(err)
		}
		after, err := r.MetricTotal(sel)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(before-after) > 1e-9*math.Max(1, math.Abs(before)) {
			t.Errorf("metric %s: total %v after prune, %v before", e.Metrics[m].UniqName, after, before)
		}
		excl, _ := e.CallTreeValues(sel, false)
		incl := e.CallInclusive(excl, agg)
		rexcl, _ := r.CallTreeValues(sel, false)
		// Result cnodes keep the depth-first order of the kept operand cnodes.
		rc := 0
		for _, c := range e.CnodeOrder() {
			if e.CnodeRegion(c).Name == name || prunedAbove(e, c, name) {
				continue
			}
			want := excl[c]
			set := []int{c}
			for _, ch := range e.Cnodes[c].Children {
				if e.CnodeRegion(ch).Name == name {
					want = agg.Combine(want, incl[ch])
					set = append(set, e.CnodeSubtree(model.CnodeSel{Cnode: ch, Inclusive: true})...)
				}
			}
			if agg != model.Sum {
				// Only values that count (see model): c's and its pruned
				// subtrees' over all locations, as the system pane has it.
				want = systemTotal(t, e, sel, set)
			}
			if math.Abs(rexcl[rc]-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("metric %s, %s: exclusive %v after prune, want %v", e.Metrics[m].UniqName, e.CallPath(c), rexcl[rc], want)
			}
			rc++
		}
		if rc != len(r.Cnodes) {
			t.Fatalf("%d cnodes kept, result has %d", rc, len(r.Cnodes))
		}
	}
}

// systemTotal returns the selected metric over the cnodes and over every
// location, the system tree's roots combined.
func systemTotal(t *testing.T, e *model.Experiment, sel model.MetricSel, cnodes []int) float64 {
	t.Helper()
	v, err := e.SystemTreeValues(sel, cnodes)
	if err != nil {
		t.Fatal(err)
	}
	agg := e.Metrics[sel.Metric].Aggregation
	total, roots := agg.Identity(), 0
	for s := range e.System {
		if e.System[s].Parent < 0 {
			total = agg.Combine(total, v[s])
			roots++
		}
	}
	if roots != 1 {
		t.Fatalf("%d system roots, want 1", roots)
	}
	return total
}

func prunedAbove(e *model.Experiment, c int, name string) bool {
	for p := e.Cnodes[c].Parent; p >= 0; p = e.Cnodes[p].Parent {
		if e.CnodeRegion(p).Name == name {
			return true
		}
	}
	return false
}

func TestCutPruneSynthetic(t *testing.T) {
	e := synth.Generate(synth.Config{Cnodes: 200, Locations: 6, Threads: 3, Metrics: 6, MinMax: true, Regions: 12, Density: 0.8, Seed: 7})
	// Prune a region that occurs below the root, at several depths.
	name := ""
	for _, c := range e.CnodeOrder() {
		if e.Cnodes[c].Parent >= 0 && len(e.Cnodes[c].Children) > 0 && e.CnodeRegion(c).Name != e.CnodeRegion(e.CnodeRoots[0]).Name {
			name = e.CnodeRegion(c).Name
			break
		}
	}
	checkPrune(t, e, name)
}
