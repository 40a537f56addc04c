package model

import (
	"bytes"
	"math"
	"os"
	"strings"
	"testing"

	"cubeview/internal/testkit"
)

// small builds a hand-made experiment whose expected query results are
// worked out by hand in the tests below.
//
//	metrics: time > mpi; visits; min_t (MINDOUBLE)
//	calls:   main > foo > foo > bar; main > bar
//	system:  cluster > node0 > {rank 0: 2 threads, rank 1: 1 thread}
func small() *Experiment {
	e := smallMeta()
	set := func(m int, rows map[int][]float64) {
		b := NewBlock(len(e.Cnodes), len(e.Locations))
		for c, r := range rows {
			b.SetRow(c, r)
		}
		e.SetBlock(m, b)
	}
	set(0, map[int][]float64{0: {1, 2, 3}, 1: {4, 0, 1}, 2: {2, 2, 2}, 3: {1, 1, 0}, 4: {0, 5, 1}})
	set(1, map[int][]float64{0: {0, 1, 0}, 3: {1, 0, 0}, 4: {0, 2, 1}})
	set(2, map[int][]float64{0: {1, 1, 1}, 1: {3, 0, 1}, 4: {0, 7, 2}})
	set(3, map[int][]float64{0: {0.5, 0.2, 0.9}, 2: {0.3, 0.4, 0.6}})
	return e
}

// smallMeta returns small's metadata without data.
func smallMeta() *Experiment {
	e := &Experiment{Attrs: []Attr{{"Creator", "hand"}}}
	e.Metrics = []Metric{
		{ID: 0, UniqName: "time", DispName: "Time", DataType: "DOUBLE", Unit: "sec", Parent: -1},
		{ID: 1, UniqName: "mpi", DispName: "MPI", DataType: "DOUBLE", Unit: "sec", Parent: 0},
		{ID: 2, UniqName: "visits", DispName: "Visits", DataType: "UINT64", Unit: "occ", Parent: -1},
		{ID: 3, UniqName: "min_t", DispName: "Min", DataType: "MINDOUBLE", Unit: "sec", Parent: -1, Aggregation: Min},
	}
	e.Regions = []Region{{ID: 0, Name: "main"}, {ID: 1, Name: "foo"}, {ID: 2, Name: "bar"}}
	e.Cnodes = []Cnode{
		{ID: 0, Region: 0, Parent: -1, CallLine: -1},
		{ID: 1, Region: 1, Parent: 0, CallLine: 10},
		{ID: 2, Region: 1, Parent: 1, CallLine: 20},
		{ID: 3, Region: 2, Parent: 2, CallLine: 30},
		{ID: 4, Region: 2, Parent: 0, CallLine: 11},
	}
	e.System = []SystemNode{
		{ID: 0, Kind: TreeNode, Class: "machine", Name: "cluster", Parent: -1},
		{ID: 1, Kind: TreeNode, Class: "node", Name: "node0", Parent: 0},
		{ID: 0, Kind: Group, Class: "process", Name: "rank 0", Rank: 0, Parent: 1},
		{ID: 0, Kind: Leaf, Class: "thread", Name: "t0", Rank: 0, Parent: 2},
		{ID: 1, Kind: Leaf, Class: "thread", Name: "t1", Rank: 1, Parent: 2},
		{ID: 1, Kind: Group, Class: "process", Name: "rank 1", Rank: 1, Parent: 1},
		{ID: 2, Kind: Leaf, Class: "thread", Name: "t0", Rank: 0, Parent: 5},
	}
	e.Link()
	e.NumberLocations()
	return e
}

func equal(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d values %v, want %d %v", what, len(got), got, len(want), want)
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("%s[%d] = %v, want %v (all: %v)", what, i, got[i], want[i], got)
		}
	}
}

func TestValidateSmall(t *testing.T) {
	if err := small().Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestCnodeValues(t *testing.T) {
	e := small()
	tests := []struct {
		name string
		sel  MetricSel
		excl []float64
		incl []float64
	}{
		{"time collapsed", MetricSel{0, true}, []float64{6, 5, 6, 2, 6}, []float64{25, 13, 8, 2, 6}},
		{"time expanded", MetricSel{0, false}, []float64{5, 5, 6, 1, 3}, []float64{20, 12, 7, 1, 3}},
		{"mpi", MetricSel{1, false}, []float64{1, 0, 0, 1, 3}, []float64{5, 1, 1, 1, 3}},
		{"visits", MetricSel{2, true}, []float64{3, 4, 0, 0, 9}, []float64{16, 4, 0, 0, 9}},
		// min over locations; an absent row is no value (CubeLib's
		// MinDoubleValue of a missing row is DBL_MAX, its neutral
		// element), shown 0 and passed over along the call tree.
		{"min", MetricSel{3, true}, []float64{0.2, 0, 0.3, 0, 0}, []float64{0.2, 0.3, 0.3, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			excl, err := e.stored().cnodeValues(tt.sel)
			if err != nil {
				t.Fatal(err)
			}
			equal(t, "exclusive", excl, tt.excl)
			incl, err := e.CallTreeValues(tt.sel, true)
			if err != nil {
				t.Fatal(err)
			}
			equal(t, "inclusive", incl, tt.incl)
		})
	}
}

func TestMetricTotal(t *testing.T) {
	e := small()
	tests := []struct {
		sel  MetricSel
		want float64
	}{
		{MetricSel{0, true}, 25},
		{MetricSel{0, false}, 20},
		{MetricSel{1, true}, 5},
		{MetricSel{2, false}, 16},
		// min over the call paths with values (main 0.2, foo 0.3);
		// the absent rows are no value, as in CubeLib
		{MetricSel{3, true}, 0.2},
	}
	for _, tt := range tests {
		got, err := e.MetricTotal(tt.sel)
		if err != nil || got != tt.want {
			t.Errorf("MetricTotal(%+v) = %v, %v; want %v", tt.sel, got, err, tt.want)
		}
	}
}

func TestLocationAndSystemValues(t *testing.T) {
	e := small()
	tests := []struct {
		name string
		ms   MetricSel
		cs   CnodeSel
		want []float64
	}{
		{"foo subtree", MetricSel{0, true}, CnodeSel{1, true}, []float64{7, 3, 3}},
		{"foo alone", MetricSel{0, true}, CnodeSel{1, false}, []float64{4, 0, 1}},
		{"foo subtree, time without mpi", MetricSel{0, false}, CnodeSel{1, true}, []float64{6, 3, 3}},
		{"everything", MetricSel{0, true}, AllCnodes, []float64{8, 10, 7}},
		{"min recursive foo alone", MetricSel{3, true}, CnodeSel{2, false}, []float64{0.3, 0.4, 0.6}},
		// the absent rows of the subtree are no value, not 0
		{"min main subtree", MetricSel{3, true}, CnodeSel{0, true}, []float64{0.3, 0.2, 0.6}},
		{"min main alone", MetricSel{3, true}, CnodeSel{0, false}, []float64{0.5, 0.2, 0.9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.LocationValues(tt.ms, tt.cs)
			if err != nil {
				t.Fatal(err)
			}
			equal(t, "locations", got, tt.want)
		})
	}
	loc, _ := e.LocationValues(MetricSel{0, true}, CnodeSel{1, true})
	// machine, node, rank 0, t0, t1, rank 1, t0
	equal(t, "system", systemValues(e, loc, Sum), []float64{13, 13, 10, 7, 3, 3, 3})
	minLoc, _ := e.LocationValues(MetricSel{3, true}, CnodeSel{0, false})
	equal(t, "system min", systemValues(e, minLoc, Min), []float64{0.2, 0.2, 0.2, 0.5, 0.2, 0.9, 0.9})
}

func TestFlatProfile(t *testing.T) {
	e := small()
	excl, _ := e.stored().cnodeValues(MetricSel{0, true})
	regExcl, regIncl := e.FlatProfile(excl, Sum)
	// foo is recursive (main/foo/foo): its inclusive value counts the
	// outer instance's subtree once, 13, not 13 + 8.
	equal(t, "exclusive", regExcl, []float64{6, 11, 8})
	equal(t, "inclusive", regIncl, []float64{25, 13, 8})
}

func TestThreadLevelHidden(t *testing.T) {
	e := small()
	if e.ThreadLevelHidden() {
		t.Error("rank 0 has two threads, level must be shown")
	}
	e.System = e.System[:4]
	e.System[2].Children = []int{3}
	e.System[1].Children = []int{2}
	if !e.ThreadLevelHidden() {
		t.Error("one thread per process, level must be hidden")
	}
}

func TestCallPath(t *testing.T) {
	e := small()
	if got := e.CallPath(3); got != "main/foo/foo/bar" {
		t.Errorf("CallPath(3) = %q", got)
	}
	if got := e.CnodeByPath("main/bar"); got != 4 {
		t.Errorf("CnodeByPath(main/bar) = %d, want 4", got)
	}
}

func TestValidateErrors(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(e *Experiment)
		want   string
	}{
		{"duplicate metric id", func(e *Experiment) { e.Metrics[1].ID = 0 }, "metric id 0 is not unique"},
		{"duplicate uniq name", func(e *Experiment) { e.Metrics[2].UniqName = "time" }, `unique name "time" is not unique`},
		{"duplicate cnode id", func(e *Experiment) { e.Cnodes[4].ID = 1 }, "cnode id 1 is not unique"},
		{"bad region", func(e *Experiment) { e.Cnodes[2].Region = 9 }, "refers to region index 9"},
		{"wrong parent", func(e *Experiment) { e.Cnodes[3].Parent = 0 }, "lists a child whose parent is different"},
		{"cycle", func(e *Experiment) { e.Cnodes[0].Children = append(e.Cnodes[0].Children, 0) }, "reached twice"},
		{"orphan", func(e *Experiment) { e.Cnodes[1].Children = nil }, "not reachable"},
		{"location column", func(e *Experiment) { e.System[4].Location = 0 }, "inconsistent data column"},
		{"block size", func(e *Experiment) { e.SetBlock(1, NewBlock(2, 3)) }, "data block is 2×3"},
		{"topology", func(e *Experiment) {
			e.Topologies = []Cart{{Name: "grid", Dims: []CartDim{{Size: 2}}, Coords: []CartCoord{{Node: 3, Coord: []int{5}}}}}
		}, "outside dimension"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := small()
			tt.break_(e)
			err := e.Validate()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Validate() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

type failingLoader struct{}

func (failingLoader) LoadBlock(m int) (*Block, error) { return nil, os.ErrNotExist }

type countingLoader struct {
	e     *Experiment
	calls []int
}

func (l *countingLoader) LoadBlock(m int) (*Block, error) {
	l.calls = append(l.calls, m)
	b := NewBlock(len(l.e.Cnodes), len(l.e.Locations))
	b.SetRow(0, []float64{float64(m), 0, 0})
	return b, nil
}

func TestLazyLoading(t *testing.T) {
	e := smallMeta()
	l := &countingLoader{e: e}
	e.SetLoader(l)
	if e.Loaded(2) {
		t.Fatal("metric loaded before use")
	}
	for i := 0; i < 3; i++ {
		if v, err := e.MetricTotal(MetricSel{2, true}); err != nil || v != 2 {
			t.Fatalf("MetricTotal = %v, %v", v, err)
		}
	}
	if len(l.calls) != 1 || l.calls[0] != 2 || !e.Loaded(2) || e.Loaded(0) {
		t.Errorf("loader calls %v, want exactly one for metric 2", l.calls)
	}

	f := smallMeta()
	f.SetLoader(failingLoader{})
	if _, err := f.stored().cnodeValues(MetricSel{0, true}); err == nil {
		t.Error("loader error not reported")
	}
	// Unavailable metrics are never loaded and read as zero.
	f.Metrics[2].Unavailable = "derived"
	if v, err := f.MetricTotal(MetricSel{2, true}); err != nil || v != 0 {
		t.Errorf("unavailable metric: %v, %v", v, err)
	}
}

func TestDumpGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := small().Dump(&buf); err != nil {
		t.Fatal(err)
	}
	testkit.Golden(t, "small.dump", buf.Bytes())
	var again bytes.Buffer
	small().Dump(&again)
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("Dump is not deterministic")
	}
}

func TestBlockClone(t *testing.T) {
	b := NewBlock(3, 2)
	b.SetRow(1, []float64{1, 2})
	b.SetRow(2, []float64{0, 0})
	c := b.Clone()
	c.MutableRow(1)[0] = 9
	if b.Value(1, 0) != 1 || c.Value(1, 0) != 9 {
		t.Error("Clone shares rows")
	}
	b.Compact()
	if b.StoredRows() != 1 || b.Bytes() != 16 {
		t.Errorf("Compact: %d rows, %d bytes", b.StoredRows(), b.Bytes())
	}
}
