package sourceview_test

import (
	"context"
	"fmt"
	"strings"

	"cubeview/model"
	"cubeview/sourceview"
)

// A display resolves the selected region's file, highlights it, annotates
// it with the values it shows for the selected metric and scrolls to the
// region's first line.
func ExampleOpen() {
	e := newJacobiExperiment() // regions and call sites in /build/jacobi/jacobi.c
	excl, _ := e.CallTreeValues(model.MetricSel{Metric: 0, Inclusive: true}, false)
	values := sourceview.Values{Cnodes: e.CallInclusive(excl, model.Sum)}

	r := &sourceview.Resolver{}
	r.Mappings = append(r.Mappings, sourceview.Mapping{From: "/build/jacobi", To: "testdata"})
	region := e.Regions[0] // main
	src, err := sourceview.Open(context.Background(), r, region.Module)
	if err != nil {
		fmt.Println(err)
		return
	}
	src.Annotate(e, values)
	fmt.Println(src.Path, src.Lexer)
	for _, l := range src.Lines[region.Begin-1 : region.Begin+8] {
		out := fmt.Sprintf("%3d %s", l.Number, l.Text())
		for _, a := range l.Annotations {
			out += fmt.Sprintf("  <- %s %g", a.Name, a.Value)
		}
		fmt.Println(strings.TrimSpace(out))
	}
	// Output:
	// testdata/jacobi.c C
	// 17 int main(int argc, char **argv)
	// 18 {
	// 19     static double next[N + 2][N + 2];
	// 20     int rank;
	// 21
	// 22     MPI_Init(&argc, &argv);  <- MPI_Init 0.75
	// 23     MPI_Comm_rank(MPI_COMM_WORLD, &rank);  <- MPI_Comm_rank 0.03
	// 24     sweep(next);  <- sweep 7
	// 25     MPI_Barrier(MPI_COMM_WORLD);  <- MPI_Barrier 4
}
