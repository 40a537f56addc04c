package sourceview_test

import (
	"context"
	"testing"

	"cubeview/assets"
	"cubeview/format"
	"cubeview/model"
	"cubeview/sourceview"
)

// TestBundledExample opens the bundled example the way the display does:
// the experiment's directory is a search directory, and each annotation
// of the selected metric matches the model's value for its node.
func TestBundledExample(t *testing.T) {
	files, err := assets.WriteExample(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e, err := format.Open(files.Before)
	if err != nil {
		t.Fatal(err)
	}
	wait := e.MetricByName("mpi_barrier_wait")
	excl, err := e.CallTreeValues(model.MetricSel{Metric: wait, Inclusive: true}, false)
	if err != nil {
		t.Fatal(err)
	}
	_, regions := e.FlatProfile(excl, model.Sum)
	v := sourceview.Values{Cnodes: e.CallInclusive(excl, model.Sum), Regions: regions}
	r := &sourceview.Resolver{SearchDirs: []string{files.Dir}}

	seen := map[[2]int]bool{} // (kind, index) annotated
	for _, module := range []string{"example-src/solver.c", "example-src/halo.c", "example-src/xsolve.f90"} {
		src, err := sourceview.Open(context.Background(), r, module)
		if err != nil {
			t.Fatal(err)
		}
		if dropped := src.Annotate(e, v); dropped != 0 {
			t.Errorf("%s: %d annotations dropped", module, dropped)
		}
		for _, l := range src.Lines {
			for _, a := range l.Annotations {
				seen[[2]int{int(a.Kind), a.Index}] = true
				switch a.Kind {
				case sourceview.CallSite:
					c := &e.Cnodes[a.Index]
					if c.CallFile != module || c.CallLine != l.Number || a.Value != v.Cnodes[a.Index] {
						t.Errorf("%s:%d: %v, cnode %s called at %s:%d with value %g",
							module, l.Number, a, e.CallPath(a.Index), c.CallFile, c.CallLine, v.Cnodes[a.Index])
					}
				case sourceview.RegionBegin:
					reg := &e.Regions[a.Index]
					if reg.Module != module || reg.Begin != l.Number || a.Value != v.Regions[a.Index] {
						t.Errorf("%s:%d: %v, region %s at %s:%d with value %g",
							module, l.Number, a, reg.Name, reg.Module, reg.Begin, v.Regions[a.Index])
					}
				}
			}
		}
	}
	for c := range e.Cnodes {
		if e.Cnodes[c].CallLine > 0 && !seen[[2]int{int(sourceview.CallSite), c}] {
			t.Errorf("call site of %s not annotated", e.CallPath(c))
		}
	}
	for i, reg := range e.Regions {
		if reg.Begin > 0 && !seen[[2]int{int(sourceview.RegionBegin), i}] {
			t.Errorf("region %s not annotated", reg.Name)
		}
	}
	// The story's hot spot: all barrier waiting is at the MPI_Barrier call.
	barrier := e.CnodeByPath("main/solver_iterate/MPI_Barrier")
	total, err := e.MetricTotal(model.MetricSel{Metric: wait, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	if total <= 0 || v.Cnodes[barrier] != total {
		t.Errorf("Wait at Barrier at the MPI_Barrier call = %g, want the metric's total %g > 0", v.Cnodes[barrier], total)
	}
}
