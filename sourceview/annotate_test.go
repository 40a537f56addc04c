package sourceview_test

import (
	"context"
	"math"
	"testing"

	"cubeview/model"
	"cubeview/sourceview"
)

const (
	jacobiRecorded = "/build/jacobi/jacobi.c"
	relaxRecorded  = "/build/jacobi/relax.f"
)

// jacobiExperiment models a run of testdata/jacobi.c and relax.f with one
// metric, "time", on two locations. Region lines are those of the files.
func jacobiExperiment(t testing.TB) *model.Experiment {
	t.Helper()
	e := newJacobiExperiment()
	if err := e.Validate(); err != nil {
		t.Fatal(err)
	}
	return e
}

func newJacobiExperiment() *model.Experiment {
	e := &model.Experiment{Source: "jacobi test"}
	e.Metrics = []model.Metric{{ID: 0, UniqName: "time", DispName: "Time", DataType: "DOUBLE", Unit: "sec", Parent: -1}}
	e.Regions = []model.Region{
		{ID: 0, Name: "main", Module: jacobiRecorded, Begin: 17, End: 30},
		{ID: 1, Name: "sweep", Module: jacobiRecorded, Begin: 9, End: 15},
		{ID: 2, Name: "MPI_Init", Module: "MPI", Begin: -1, End: -1},
		{ID: 3, Name: "MPI_Comm_rank", Module: "MPI", Begin: -1, End: -1},
		{ID: 4, Name: "MPI_Barrier", Module: "MPI", Begin: -1, End: -1},
		{ID: 5, Name: "MPI_Finalize", Module: "MPI", Begin: -1, End: -1},
		{ID: 6, Name: "relax", Module: relaxRecorded, Begin: 2, End: 12},
		{ID: 7, Name: "MPI_BARRIER", Module: "MPI", Begin: -1, End: -1},
	}
	type cn struct {
		region, parent int
		file           string
		line           int
		own            [2]float64
	}
	cnodes := []cn{
		{0, -1, "", -1, [2]float64{1, 2}},
		{2, 0, jacobiRecorded, 22, [2]float64{0.5, 0.25}},
		{3, 0, jacobiRecorded, 23, [2]float64{0.01, 0.02}},
		{1, 0, jacobiRecorded, 24, [2]float64{3, 4}},
		{4, 0, jacobiRecorded, 25, [2]float64{1.5, 2.5}},
		{5, 0, jacobiRecorded, 28, [2]float64{0.125, 0.375}},
		{6, -1, "", -1, [2]float64{10, 20}}, // relax reached on two paths,
		{7, 6, relaxRecorded, 10, [2]float64{0.75, 0.25}},
		{6, -1, "", -1, [2]float64{5, 5}}, // so line 10 holds two call sites
		{7, 8, relaxRecorded, 10, [2]float64{2, 2}},
	}
	for i, c := range cnodes {
		e.Cnodes = append(e.Cnodes, model.Cnode{ID: i, Region: c.region, Parent: c.parent, CallFile: c.file, CallLine: c.line})
	}
	e.System = []model.SystemNode{
		{ID: 0, Kind: model.Group, Class: "process", Name: "rank 0", Parent: -1},
		{ID: 0, Kind: model.Leaf, Class: "thread", Name: "thread 0", Parent: 0},
		{ID: 1, Kind: model.Group, Class: "process", Name: "rank 1", Rank: 1, Parent: -1},
		{ID: 1, Kind: model.Leaf, Class: "thread", Name: "thread 0", Parent: 2},
	}
	e.Link()
	e.NumberLocations()
	b := model.NewBlock(len(cnodes), 2)
	for i, c := range cnodes {
		b.SetRow(i, []float64{c.own[0], c.own[1]})
	}
	e.SetBlock(0, b)
	return e
}

// modelValues returns the call-tree inclusive value per cnode and the
// flat-profile inclusive value per region of metric 0, as the display
// computes them from the model.
func modelValues(t testing.TB, e *model.Experiment) sourceview.Values {
	t.Helper()
	excl, err := e.CallTreeValues(model.MetricSel{Metric: 0, Inclusive: true}, false)
	if err != nil {
		t.Fatal(err)
	}
	_, regIncl := e.FlatProfile(excl, model.Sum)
	return sourceview.Values{Cnodes: e.CallInclusive(excl, model.Sum), Regions: regIncl}
}

type wantAnnotation struct {
	kind  sourceview.AnnotationKind
	index int
	name  string
	value float64 // summed by hand from the block above
}

func TestAnnotate(t *testing.T) {
	e := jacobiExperiment(t)
	v := modelValues(t, e)
	r := &sourceview.Resolver{Mappings: []sourceview.Mapping{{From: "/build/jacobi", To: "testdata"}}}
	tests := []struct {
		recorded string
		lines    map[int][]wantAnnotation
	}{
		{jacobiRecorded, map[int][]wantAnnotation{
			9:  {{sourceview.RegionBegin, 1, "sweep", 7}},
			17: {{sourceview.RegionBegin, 0, "main", 3 + 0.75 + 0.03 + 7 + 4 + 0.5}},
			22: {{sourceview.CallSite, 1, "MPI_Init", 0.75}},
			23: {{sourceview.CallSite, 2, "MPI_Comm_rank", 0.03}},
			24: {{sourceview.CallSite, 3, "sweep", 7}},
			25: {{sourceview.CallSite, 4, "MPI_Barrier", 4}},
			28: {{sourceview.CallSite, 5, "MPI_Finalize", 0.5}},
		}},
		{relaxRecorded, map[int][]wantAnnotation{
			2: {{sourceview.RegionBegin, 6, "relax", 30 + 1 + 10 + 4}},
			10: {
				{sourceview.CallSite, 7, "MPI_BARRIER", 1},
				{sourceview.CallSite, 9, "MPI_BARRIER", 4},
			},
		}},
	}
	for _, tt := range tests {
		src, err := sourceview.Open(context.Background(), r, tt.recorded)
		if err != nil {
			t.Fatal(err)
		}
		if dropped := src.Annotate(e, v); dropped != 0 {
			t.Errorf("%s: %d annotations dropped", tt.recorded, dropped)
		}
		for _, l := range src.Lines {
			want := tt.lines[l.Number]
			if len(l.Annotations) != len(want) {
				t.Errorf("%s:%d: annotations %v, want %v", tt.recorded, l.Number, l.Annotations, want)
				continue
			}
			for i, a := range l.Annotations {
				w := want[i]
				if a.Kind != w.kind || a.Index != w.index || a.Name != w.name || math.Abs(a.Value-w.value) > 1e-12 {
					t.Errorf("%s:%d: annotation %v, want %v", tt.recorded, l.Number, a, w)
				}
				// The value is the one the display shows for that node.
				shown := v.Cnodes
				if a.Kind == sourceview.RegionBegin {
					shown = v.Regions
				}
				if a.Value != shown[a.Index] {
					t.Errorf("%s:%d: annotation %v differs from the model's %g", tt.recorded, l.Number, a, shown[a.Index])
				}
			}
		}
	}
}

func TestAnnotateReplacesAndDrops(t *testing.T) {
	e := jacobiExperiment(t)
	r := &sourceview.Resolver{Mappings: []sourceview.Mapping{{From: "/build/jacobi", To: "testdata"}}}
	src, err := sourceview.Open(context.Background(), r, jacobiRecorded)
	if err != nil {
		t.Fatal(err)
	}
	src.Annotate(e, modelValues(t, e))
	// A new selection without region values: only call sites remain.
	cnodes := make([]float64, len(e.Cnodes))
	for i := range cnodes {
		cnodes[i] = float64(-i)
	}
	src.Annotate(e, sourceview.Values{Cnodes: cnodes})
	n := 0
	for _, l := range src.Lines {
		for _, a := range l.Annotations {
			n++
			if a.Kind != sourceview.CallSite || a.Value != cnodes[a.Index] {
				t.Errorf("line %d: stale annotation %v", l.Number, a)
			}
		}
	}
	if n != 5 {
		t.Errorf("%d call-site annotations, want 5", n)
	}
	// A region recorded beyond the end of the file is dropped and counted.
	e.Regions[1].Begin = 31
	if dropped := src.Annotate(e, modelValues(t, e)); dropped != 1 {
		t.Errorf("Annotate dropped %d annotations, want 1", dropped)
	}
}
