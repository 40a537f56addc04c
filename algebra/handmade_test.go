package algebra

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/model"
)

// Hand-made operands. A and B have the same rank layout on differently
// named nodes; B lacks bar and has qux, whose child baz stays apart from
// A's main/foo/baz because the parents differ.
func handA(t testing.TB) *model.Experiment {
	return build(t, spec{
		source:  "a",
		metrics: []string{"time sec DOUBLE", "mpi sec DOUBLE time", "visits occ UINT64", "minT sec MINDOUBLE"},
		cnodes:  []string{"main", "main/foo", "main/bar", "main/foo/baz"},
		system:  []string{"m/n1/0/0", "m/n1/0/1", "m/n2/1/0"},
		data: map[string]map[string][]float64{
			"time":   {"main": {1, 2, 3}, "main/foo": {4, 5, 6}, "main/foo/baz": {1, 1, 1}},
			"mpi":    {"main/foo": {2, 2, 2}},
			"visits": {"main": {1, 1, 1}, "main/foo": {10, 10, 10}},
			"minT":   {"main": {0.5, 0.25, 1}},
		},
	})
}

func handB(t testing.TB) *model.Experiment {
	return build(t, spec{
		source:  "b",
		metrics: []string{"time sec DOUBLE", "mpi sec DOUBLE time", "visits occ UINT64", "bytes bytes UINT64"},
		cnodes:  []string{"main", "main/foo", "main/qux", "main/qux/baz"},
		system:  []string{"x/h1/0/0", "x/h1/0/1", "x/h2/1/0"},
		data: map[string]map[string][]float64{
			"time":   {"main": {2, 2, 2}, "main/foo": {1, 1, 1}, "main/qux": {3, 3, 3}, "main/qux/baz": {1, 2, 3}},
			"visits": {"main": {1, 1, 1}},
			"bytes":  {"main/qux": {100, 200, 300}},
		},
	})
}

// handPairs returns the hand-made operands twice: built in code and read
// from testdata/a.cube and testdata/b.cube, which describe the same
// experiments in CUBE 3 XML.
func handPairs(t *testing.T) map[string][2]*model.Experiment {
	fa, err := format.Open(filepath.Join("testdata", "a.cube"))
	if err != nil {
		t.Fatal(err)
	}
	fb, err := format.Open(filepath.Join("testdata", "b.cube"))
	if err != nil {
		t.Fatal(err)
	}
	fa.Source, fb.Source = "a", "b"
	return map[string][2]*model.Experiment{
		"code":     {handA(t), handB(t)},
		"testdata": {fa, fb},
	}
}

// expect turns "metric call/path" → values per location (in the order of
// locs, "rank.thread") into flatten's keys, dropping zeros.
func expect(locs []string, vals map[string][]float64) map[string]float64 {
	out := map[string]float64{}
	for k, vs := range vals {
		metric, path, _ := strings.Cut(k, " ")
		parts := strings.Split(path, "/")
		for i := range parts {
			parts[i] += "@m.c"
		}
		for l, v := range vs {
			if v != 0 {
				out[vkey(metric, strings.Join(parts, "/"), locs[l])] = v
			}
		}
	}
	return out
}

var abLocs = []string{"0.0", "0.1", "1.0"}

func TestDiffHandMade(t *testing.T) {
	for name, p := range handPairs(t) {
		t.Run(name, func(t *testing.T) { testDiffHandMade(t, p[0], p[1]) })
	}
}

func testDiffHandMade(t *testing.T, a, b *model.Experiment) {
	d, err := Diff(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := expect(abLocs, map[string][]float64{
		"time main":         {-1, 0, 1},
		"time main/foo":     {3, 4, 5},
		"time main/foo/baz": {1, 1, 1},
		"time main/qux":     {-3, -3, -3},
		"time main/qux/baz": {-1, -2, -3},
		"mpi main/foo":      {2, 2, 2},
		"visits main/foo":   {10, 10, 10},
		"minT main":         {0.5, 0.25, 1},
		"bytes main/qux":    {-100, -200, -300},
	})
	compareValues(t, "diff(a,b)", flatten(t, d), want, 0)

	types := map[string]model.DataType{"time": "DOUBLE", "mpi": "DOUBLE", "visits": "INT64", "minT": "MINDOUBLE", "bytes": "INT64"}
	for _, m := range d.Metrics {
		if m.DataType != types[m.UniqName] {
			t.Errorf("metric %s: data type %s, want %s", m.UniqName, m.DataType, types[m.UniqName])
		}
		if m.Approximate != (m.UniqName == "minT") {
			t.Errorf("metric %s: approximate %v", m.UniqName, m.Approximate)
		}
		if m.Type != "EXCLUSIVE" {
			t.Errorf("metric %s: type %q, want EXCLUSIVE", m.UniqName, m.Type)
		}
	}
	if got, _ := d.Attr(AttrExpression); got != "diff(a, b)" {
		t.Errorf("expression %q", got)
	}
	if d.Source != "diff(a, b)" {
		t.Errorf("source %q", d.Source)
	}
}

func TestMeanHandMade(t *testing.T) {
	for name, p := range handPairs(t) {
		t.Run(name, func(t *testing.T) { testMeanHandMade(t, p[0], p[1]) })
	}
}

func testMeanHandMade(t *testing.T, a, b *model.Experiment) {
	m, err := Mean(Options{}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := expect(abLocs, map[string][]float64{
		"time main":         {1.5, 2, 2.5},
		"time main/foo":     {2.5, 3, 3.5},
		"time main/foo/baz": {0.5, 0.5, 0.5},
		"time main/qux":     {1.5, 1.5, 1.5},
		"time main/qux/baz": {0.5, 1, 1.5},
		"mpi main/foo":      {1, 1, 1},
		"visits main":       {1, 1, 1},
		"visits main/foo":   {5, 5, 5},
		"minT main":         {0.25, 0.125, 0.5},
		"bytes main/qux":    {50, 100, 150},
	})
	compareValues(t, "mean(a,b)", flatten(t, m), want, 0)
	for _, mt := range m.Metrics {
		want := model.Double
		if mt.UniqName == "minT" {
			want = "MINDOUBLE"
		}
		if mt.DataType != want {
			t.Errorf("metric %s: data type %s, want %s", mt.UniqName, mt.DataType, want)
		}
	}

	// Three operands: a value present in one of three is divided by 3.
	m3, err := Mean(Options{}, a, b, b)
	if err != nil {
		t.Fatal(err)
	}
	got := flatten(t, m3)
	if v, w := got[vkey("mpi", "main@m.c/foo@m.c", "0.0")], 2.0/3; v != w {
		t.Errorf("mean(a,b,b) mpi main/foo = %v, want %v", v, w)
	}
	if v := got[vkey("bytes", "main@m.c/qux@m.c", "1.0")]; v != 200 {
		t.Errorf("mean(a,b,b) bytes main/qux = %v, want 200", v)
	}
}

func TestMergeHandMade(t *testing.T) {
	for name, p := range handPairs(t) {
		t.Run(name, func(t *testing.T) { testMergeHandMade(t, p[0], p[1]) })
	}
}

func testMergeHandMade(t *testing.T, a, b *model.Experiment) {
	m, err := Merge(Options{}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	// time, mpi, visits and minT come from a alone (main/qux has no time,
	// b's values are not used); bytes exists only in b.
	want := expect(abLocs, map[string][]float64{
		"time main":         {1, 2, 3},
		"time main/foo":     {4, 5, 6},
		"time main/foo/baz": {1, 1, 1},
		"mpi main/foo":      {2, 2, 2},
		"visits main":       {1, 1, 1},
		"visits main/foo":   {10, 10, 10},
		"minT main":         {0.5, 0.25, 1},
		"bytes main/qux":    {100, 200, 300},
	})
	compareValues(t, "merge(a,b)", flatten(t, m), want, 0)
	for _, mt := range m.Metrics {
		if mt.Approximate {
			t.Errorf("merge: metric %s marked approximate", mt.UniqName)
		}
	}
	// The other order takes time from b.
	m2, err := Merge(Options{}, b, a)
	if err != nil {
		t.Fatal(err)
	}
	if v := flatten(t, m2)[vkey("time", "main@m.c/qux@m.c/baz@m.c", "1.0")]; v != 3 {
		t.Errorf("merge(b,a) time main/qux/baz at 1.0 = %v, want 3", v)
	}
}

func TestHandMadeStructure(t *testing.T) {
	a, b := handA(t), handB(t)
	ig, err := Integrate([]*model.Experiment{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := ig.Result
	present := map[string]model.Mask{
		"main": 0b11, "main/foo": 0b11, "main/bar": 0b01, "main/foo/baz": 0b01,
		"main/qux": 0b10, "main/qux/baz": 0b10,
	}
	if len(r.Cnodes) != len(present) {
		t.Errorf("%d cnodes, want %d", len(r.Cnodes), len(present))
	}
	for c := range r.Cnodes {
		p := r.CallPath(c)
		if want, ok := present[p]; !ok || r.Cnodes[c].Present != want {
			t.Errorf("cnode %s: present %b, want %b (listed %v)", p, r.Cnodes[c].Present, want, ok)
		}
		if r.Cnodes[c].ID != c {
			t.Errorf("cnode %s: id %d at index %d", p, r.Cnodes[c].ID, c)
		}
	}
	// Metric order: a's tree, then b's new metric.
	var names []string
	for _, m := range r.MetricOrder() {
		names = append(names, r.Metrics[m].UniqName)
	}
	if got := strings.Join(names, " "); got != "time mpi visits minT bytes" {
		t.Errorf("metric order %s", got)
	}
	if r.Metrics[r.MetricByName("mpi")].Parent != r.MetricByName("time") {
		t.Errorf("mpi is not below time")
	}
	// Per-operand maps: b's qux (index 2) maps to the result's main/qux.
	if got := r.CallPath(ig.Cnodes[1][2]); got != "main/qux" {
		t.Errorf("b's cnode 2 maps to %s", got)
	}
	if got := r.Metrics[ig.Metrics[1][3]].UniqName; got != "bytes" {
		t.Errorf("b's metric 3 maps to %s", got)
	}
	// Same rank layout on other node names: a's hierarchy is copied.
	if ig.SystemOutcome.Donor != 0 {
		t.Errorf("system outcome %v, want copied from operand 0", ig.SystemOutcome)
	}
	if got := systemText(r); got != "m[n1[0{0 1} ] n2[1{0} ] ]" {
		t.Errorf("system tree %s", got)
	}
	for l := range a.Locations {
		if ig.Locations[0][l] != l || ig.Locations[1][l] != l {
			t.Errorf("location maps %v %v, want identity", ig.Locations[0], ig.Locations[1])
			break
		}
	}
	// Operands are unchanged by integration.
	if dump(t, a) != dump(t, handA(t)) || dump(t, b) != dump(t, handB(t)) {
		t.Error("integration changed an operand")
	}
}

// systemText renders a system tree compactly: tree nodes as name[...],
// processes as rank{thread ranks}.
func systemText(e *model.Experiment) string {
	var sb strings.Builder
	var walk func(s int)
	walk = func(s int) {
		n := &e.System[s]
		switch n.Kind {
		case model.TreeNode:
			sb.WriteString(n.Name + "[")
			for _, c := range n.Children {
				walk(c)
			}
			sb.WriteString("] ")
		case model.Group:
			sb.WriteString(strconv.Itoa(n.Rank) + "{")
			for i, c := range n.Children {
				if i > 0 {
					sb.WriteString(" ")
				}
				sb.WriteString(strconv.Itoa(e.System[c].Rank))
			}
			sb.WriteString("} ")
		}
	}
	for _, r := range e.SystemRoots {
		walk(r)
	}
	return strings.TrimSpace(sb.String())
}
