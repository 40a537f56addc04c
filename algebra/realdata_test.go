package algebra

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
)

func openReal(t *testing.T, rel string) *model.Experiment {
	t.Helper()
	e, err := format.Open(filepath.Join(testkit.DataDir(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// keys with call sites: real call trees have siblings calling the same
// region from different lines.
func flatReal(t *testing.T, e *model.Experiment) map[string]float64 {
	t.Helper()
	return flattenLines(t, e, true)
}

// roundTrip writes e in both formats, reads each back and checks that
// nothing changed, and that the re-read experiment works as an operand.
func roundTrip(t *testing.T, e *model.Experiment) {
	t.Helper()
	want := dump(t, e)
	for _, ext := range []string{".cubex", ".cube"} {
		p := filepath.Join(t.TempDir(), "result"+ext)
		if err := format.Write(p, e); err != nil {
			t.Fatalf("write %s: %v", ext, err)
		}
		r, err := format.Open(p)
		if err != nil {
			t.Fatalf("re-read %s: %v", ext, err)
		}
		if got := dump(t, r); got != want {
			t.Errorf("%s round trip of %s changed the experiment:\n%s", ext, e.Source, testkit.Diff(want, got))
		}
		d, err := Diff(r, e, Options{})
		if err != nil {
			t.Fatalf("diff of re-read %s: %v", ext, err)
		}
		if f := flatReal(t, d); len(f) != 0 {
			t.Errorf("%s: re-read result differs from the result at %d values", ext, len(f))
		}
	}
}

func TestRealProperties(t *testing.T) {
	pairs := [][2]string{
		{"cube4/mm_sweep/mm.x10y1z1.r1.cubex", "cube4/mm_sweep/mm.x2000y1z1.r1.cubex"},
		{"cube4/lulesh/lulesh.p27.size25.r1.cubex", "cube4/lulesh/lulesh.p27.size30.r1.cubex"},
		{"cube4/hw_counter/L2_DCM_negative.cubex", "cube4/hw_counter/L3_DCA_negative.cubex"},
		{"cube4/cpi/profile.cubex", "cube4/time.p4.n2000.x1.r0/profile.cubex"},
		{"cube4/quirks/cube4.8_with_checksum_bug.cubex", "cube4/cpi/profile.cubex"},
		{"cube3/ctest-pomp.cube", "cube4/call_tree_test/call_tree_test.cubex"},
	}
	for _, p := range pairs {
		t.Run(filepath.Base(p[0])+"+"+filepath.Base(p[1]), func(t *testing.T) {
			a, b := openReal(t, p[0]), openReal(t, p[1])
			// Call paths are compared by name, so roots of different
			// programs stay apart here; TestMatchSingleRoots covers
			// matching them.
			propertyCheckKeys(t, a, b, Options{StrictRoots: true}, true, false)
		})
	}
}

func TestRealRoundTrip(t *testing.T) {
	a := openReal(t, "cube4/lulesh/lulesh.p27.size25.r1.cubex")
	b := openReal(t, "cube4/lulesh/lulesh.p64.size25.r1.cubex")
	c := openReal(t, "cube4/cpi/profile.cubex")
	d, err := Diff(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Mean(Options{System: SystemCollapse}, a, b, c)
	if err != nil {
		t.Fatal(err)
	}
	x, err := Cut(d, CutOptions{Prune: []string{"MPI_Allreduce"}})
	if err != nil {
		t.Fatal(err)
	}
	// Counters stored as UINT64 become INT64 in a difference.
	hw, err := Diff(openReal(t, "cube4/hw_counter/L2_DCM_negative.cubex"), openReal(t, "cube4/hw_counter/L3_DCA_negative.cubex"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if mt := hw.Metrics[hw.MetricByName("PAPI_L3_DCA")]; mt.DataType != "INT64" {
		t.Errorf("PAPI_L3_DCA: data type %s in the difference", mt.DataType)
	}
	for _, e := range []*model.Experiment{d, m, x, hw} {
		roundTrip(t, e)
	}
}

func TestRealMMSweep(t *testing.T) {
	names := []string{"mm.x10y1z1.r1.cubex", "mm.x25y1z1.r1.cubex", "mm.x50y1z1.r1.cubex", "mm.x2000y1z1.r1.cubex"}
	var ops []*model.Experiment
	for _, n := range names {
		ops = append(ops, openReal(t, "cube4/mm_sweep/"+n))
	}
	d, err := Diff(ops[3], ops[0], Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{}
	for k, v := range flatReal(t, ops[3]) {
		want[k] += v
	}
	for k, v := range flatReal(t, ops[0]) {
		want[k] -= v
	}
	compareValues(t, "diff(x2000, x10)", flatReal(t, d), want, 0)
	if len(want) == 0 {
		t.Fatal("the two runs have equal values; the test would prove nothing")
	}

	m, err := Mean(Options{}, ops...)
	if err != nil {
		t.Fatal(err)
	}
	want = map[string]float64{}
	for _, e := range ops {
		for k, v := range flatReal(t, e) {
			want[k] += v
		}
	}
	for k := range want {
		want[k] /= 4
	}
	compareValues(t, "mean of the sweep", flatReal(t, m), want, 1e-15)
	for _, mt := range m.Metrics {
		if mt.Unavailable == "" && mt.IsInteger() {
			t.Errorf("mean: metric %s keeps integer type %s", mt.UniqName, mt.DataType)
		}
	}
	roundTrip(t, m)
}

// TestRealHWMerge merges two runs that measured different hardware
// counters: the result has the union of the metrics, each with the values
// of the file it came from.
func TestRealHWMerge(t *testing.T) {
	a := openReal(t, "cube4/hw_counter/L2_DCM_negative.cubex")
	b := openReal(t, "cube4/hw_counter/L3_DCA_negative.cubex")
	m, err := Merge(Options{}, a, b)
	if err != nil {
		t.Fatal(err)
	}
	union := map[string]bool{}
	for _, e := range []*model.Experiment{a, b} {
		for _, mt := range e.Metrics {
			union[mt.UniqName] = true
		}
	}
	if len(m.Metrics) != len(union) {
		t.Errorf("%d metrics, want the union of %d", len(m.Metrics), len(union))
	}
	fa, fb, fm := flatReal(t, a), flatReal(t, b), flatReal(t, m)
	checked := 0
	for _, mt := range m.Metrics {
		src, fsrc := a, fa
		if a.MetricByName(mt.UniqName) < 0 {
			src, fsrc = b, fb
		}
		want, got := map[string]float64{}, map[string]float64{}
		for k, v := range fsrc {
			if metricOfKey(k) == mt.UniqName {
				want[k] = v
			}
		}
		for k, v := range fm {
			if metricOfKey(k) == mt.UniqName {
				got[k] = v
			}
		}
		compareValues(t, "merge, metric "+mt.UniqName+" from "+filepath.Base(src.Source), got, want, 0)
		checked += len(want)
		if mt.Present != presentIn(mt.UniqName, a, b) {
			t.Errorf("metric %s: present %b", mt.UniqName, mt.Present)
		}
	}
	if checked < 1000 {
		t.Errorf("only %d values compared", checked)
	}
	roundTrip(t, m)
}

func presentIn(uniq string, ops ...*model.Experiment) model.Mask {
	var m model.Mask
	for i, e := range ops {
		if e.MetricByName(uniq) >= 0 {
			m |= bit(i)
		}
	}
	return m
}

// TestRealLulesh diffs runs on 27 and 64 processes. The 27 ranks of the
// smaller run share one node, nid00465; the larger run puts ranks 0–31 on
// nid00626 and 32–63 on nid00627. Every node of the smaller run lies within
// a node of the larger one, so the larger run's hierarchy is copied: one
// machine, two nodes, 64 processes; ranks 27–63 exist only in the second
// operand and carry its negated values.
func TestRealLulesh(t *testing.T) {
	a := openReal(t, "cube4/lulesh/lulesh.p27.size25.r1.cubex")
	b := openReal(t, "cube4/lulesh/lulesh.p64.size25.r1.cubex")
	fa, fb := flatReal(t, a), flatReal(t, b)
	want := map[string]float64{}
	for k, v := range fa {
		want[k] += v
	}
	for k, v := range fb {
		want[k] -= v
	}
	for _, tc := range []struct {
		opt  Options
		tree string
	}{
		{Options{}, "machine daint[node nid00626[0-31] node nid00627[32-63]]"},
		{Options{System: SystemCollapse}, "Virtual machine[Virtual node[0-63]]"},
	} {
		t.Run(tc.opt.String(), func(t *testing.T) {
			d, err := Diff(a, b, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := rankRanges(d); got != tc.tree {
				t.Errorf("system tree %s, want %s", got, tc.tree)
			}
			compareValues(t, "diff(p27, p64)", flatReal(t, d), want, 0)
			for l := range d.Locations {
				n := d.Location(l)
				rank := d.System[n.Parent].Rank
				wantMask := model.Mask(0b11)
				if rank >= 27 {
					wantMask = 0b10
				}
				if n.Present != wantMask || d.System[n.Parent].Present != wantMask {
					t.Errorf("rank %d: present %b / %b, want %b", rank, d.System[n.Parent].Present, n.Present, wantMask)
				}
			}
			sys, _ := d.Attr(AttrSystem)
			if tc.opt.System == SystemAuto && !strings.HasPrefix(sys, "copied from operand 1") {
				t.Errorf("system outcome %q", sys)
			}
			roundTrip(t, d)
		})
	}
}

// rankRanges renders the tree nodes of a system tree with the range of
// process ranks below each node.
func rankRanges(e *model.Experiment) string {
	var walk func(s int) string
	walk = func(s int) string {
		n := &e.System[s]
		var parts []string
		lo, hi := -1, -1
		for _, c := range n.Children {
			ch := &e.System[c]
			if ch.Kind == model.Group {
				if lo < 0 || ch.Rank < lo {
					lo = ch.Rank
				}
				hi = max(hi, ch.Rank)
				continue
			}
			parts = append(parts, walk(c))
		}
		if lo >= 0 {
			parts = append(parts, strconv.Itoa(lo)+"-"+strconv.Itoa(hi))
		}
		return n.Name + "[" + strings.Join(parts, " ") + "]"
	}
	var out []string
	for _, r := range e.SystemRoots {
		out = append(out, walk(r))
	}
	return strings.Join(out, " ")
}

// TestRealOnlyInOne diffs two different programs: call paths of one
// operand keep their values, those of the other are negated, and each
// records where it came from.
func TestRealOnlyInOne(t *testing.T) {
	a := openReal(t, "cube4/cpi/profile.cubex")
	b := openReal(t, "cube4/time.p4.n2000.x1.r0/profile.cubex")
	d, err := Diff(a, b, Options{StrictRoots: true})
	if err != nil {
		t.Fatal(err)
	}
	only := map[model.Mask]int{}
	for c := range d.Cnodes {
		only[d.Cnodes[c].Present]++
	}
	if only[0b01] != len(a.Cnodes) || only[0b10] != len(b.Cnodes) {
		t.Errorf("cnodes by presence %v, want %d only in a and %d only in b", only, len(a.Cnodes), len(b.Cnodes))
	}
	fd := flatReal(t, d)
	for k, v := range flatReal(t, a) {
		if metricOfKey(k) != "time" {
			continue
		}
		if fd[k] != v {
			t.Fatalf("%s: %v, want a's %v", k, fd[k], v)
		}
	}
	n := 0
	for k, v := range flatReal(t, b) {
		if strings.HasPrefix(k, "time ") {
			n++
			if fd[k] != -v {
				t.Fatalf("%s: %v, want -%v", k, fd[k], v)
			}
		}
	}
	if n == 0 {
		t.Fatal("no time values in the second operand")
	}
}

func TestRealCut(t *testing.T) {
	e := openReal(t, "cube3/example3.cube")
	before := dump(t, e)
	checkPrune(t, e, "exact_solution_")
	checkPrune(t, e, "!$omp parallel @rhs.f:28")

	r, err := Cut(e, CutOptions{Reroot: []string{"adi_"}, Prune: []string{"compute_rhs_"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.CnodeRoots) != 1 || r.CnodeRegion(r.CnodeRoots[0]).Name != "adi_" {
		t.Fatalf("roots after reroot: %d, first %s", len(r.CnodeRoots), r.CnodeRegion(r.CnodeRoots[0]).Name)
	}
	// The new root's inclusive time is adi_'s inclusive time in e.
	adi := -1
	for c := range e.Cnodes {
		if e.CnodeRegion(c).Name == "adi_" {
			adi = c
		}
	}
	for m := range e.Metrics {
		sel := model.MetricSel{Metric: m, Inclusive: true}
		ex, _ := e.CallTreeValues(sel, false)
		want := e.CallInclusive(ex, e.Metrics[m].Aggregation)[adi]
		got, err := r.MetricTotal(sel)
		if err != nil {
			t.Fatal(err)
		}
		if d := got - want; d > 1e-9*max(1, want) || -d > 1e-9*max(1, want) {
			t.Errorf("metric %s: total after reroot %v, adi_ inclusive %v", e.Metrics[m].UniqName, got, want)
		}
	}
	for c := range r.Cnodes {
		if r.CnodeRegion(c).Name == "compute_rhs_" {
			t.Errorf("pruned region still at %s", r.CallPath(c))
		}
	}
	if dump(t, e) != before {
		t.Error("cut changed its operand")
	}
	roundTrip(t, r)
}
