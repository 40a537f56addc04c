package handmade

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/model"
)

// BigSource writes a C file of n functions of 10 lines each, function f
// (kernel_f) at lines 10f+2 to 10f+9, and returns an experiment whose
// call path main/kernel_f calls it from main at line 10f+7 of the file.
func BigSource(t testing.TB, n int) (string, *model.Experiment) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kernels.c")
	var sb strings.Builder
	for f := 0; f < n; f++ {
		fmt.Fprintf(&sb, "/* kernel %d: scaled update */\n", f)
		fmt.Fprintf(&sb, "static double kernel_%d(double *a, const double *b, int n)\n", f)
		sb.WriteString("{\n    double s = 0.0;\n    for (int i = 0; i < n; i++)\n")
		fmt.Fprintf(&sb, "        s += a[i] * b[i] * %d.5e-3;\n", f)
		fmt.Fprintf(&sb, "    s += helper(a, b, n / 2);\n#ifdef DEBUG\n    printf(\"%%g\\n\", s); }\n#endif\n")
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	e := &model.Experiment{Source: "big"}
	e.Metrics = []model.Metric{{ID: 0, UniqName: "time", DispName: "Time", Parent: -1, DataType: "DOUBLE", Unit: "sec"}}
	e.Regions = []model.Region{{ID: 0, Name: "main", Module: "MPI", Begin: -1, End: -1}}
	e.Cnodes = []model.Cnode{{ID: 0, Region: 0, Parent: -1, CallLine: -1}}
	for f := 0; f < n; f++ {
		e.Regions = append(e.Regions, model.Region{ID: f + 1, Name: fmt.Sprintf("kernel_%d", f), Module: path, Begin: 10*f + 2, End: 10*f + 9})
		e.Cnodes = append(e.Cnodes, model.Cnode{ID: f + 1, Region: f + 1, Parent: 0, CallFile: path, CallLine: 10*f + 7})
	}
	e.System = []model.SystemNode{
		{ID: 0, Kind: model.Group, Class: "process", Name: "rank 0", Parent: -1},
		{ID: 0, Kind: model.Leaf, Class: "thread", Name: "t0", Parent: 0},
	}
	e.Link()
	e.NumberLocations()
	b := model.NewBlock(len(e.Cnodes), 1)
	for c := range e.Cnodes {
		b.SetRow(c, []float64{float64(c%7) + 0.5})
	}
	e.SetBlock(0, b)
	return path, e
}
