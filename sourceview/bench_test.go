package sourceview_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/model"
	"cubeview/sourceview"
)

const benchFunctions = 5000 // 10 lines each: a 50k-line file

// generatedC returns a C file of benchFunctions functions, function f
// starting at line 10f+1 and calling function f+1 on line 10f+7, and an
// experiment whose regions and call sites point at them.
func generatedC(path string) (string, *model.Experiment) {
	var sb strings.Builder
	for f := 0; f < benchFunctions; f++ {
		fmt.Fprintf(&sb, "/* kernel %d: scaled update */\n", f)
		fmt.Fprintf(&sb, "static double kernel_%d(double *a, const double *b, int n)\n", f)
		sb.WriteString("{\n")
		sb.WriteString("    double s = 0.0;\n")
		sb.WriteString("    for (int i = 0; i < n; i++)\n")
		fmt.Fprintf(&sb, "        s += a[i] * b[i] * %d.5e-3;\n", f)
		fmt.Fprintf(&sb, "    s += kernel_%d(a, b, n / 2);\n", f+1)
		sb.WriteString("#ifdef DEBUG\n")
		fmt.Fprintf(&sb, "    printf(\"%%s %%g\\n\", \"kernel_%d\", s); }\n", f)
		sb.WriteString("#endif\n")
	}
	e := &model.Experiment{Source: "bench"}
	e.Metrics = []model.Metric{{ID: 0, UniqName: "time", Parent: -1, DataType: "DOUBLE"}}
	for f := 0; f < benchFunctions; f++ {
		e.Regions = append(e.Regions, model.Region{ID: f, Name: fmt.Sprintf("kernel_%d", f), Module: path, Begin: 10*f + 2, End: 10*f + 9})
		parent, line := f-1, 10*(f-1)+7
		if f == 0 {
			line = -1
		}
		e.Cnodes = append(e.Cnodes, model.Cnode{ID: f, Region: f, Parent: parent, CallFile: path, CallLine: line})
	}
	e.System = []model.SystemNode{
		{ID: 0, Kind: model.Group, Class: "process", Parent: -1},
		{ID: 0, Kind: model.Leaf, Class: "thread", Parent: 0},
	}
	e.Link()
	e.NumberLocations()
	b := model.NewBlock(benchFunctions, 1)
	for c := 0; c < benchFunctions; c++ {
		b.SetRow(c, []float64{float64(c%97) + 0.5})
	}
	e.SetBlock(0, b)
	return sb.String(), e
}

// BenchmarkOpenAnnotate50k reads, highlights and annotates a 50k-line C file.
func BenchmarkOpenAnnotate50k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "kernels.c")
	text, e := generatedC(path)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	v := modelValues(b, e)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		src, err := sourceview.Open(context.Background(), nil, path)
		if err != nil {
			b.Fatal(err)
		}
		if len(src.Lines) != 10*benchFunctions {
			b.Fatalf("%d lines, want %d", len(src.Lines), 10*benchFunctions)
		}
		if dropped := src.Annotate(e, v); dropped != 0 {
			b.Fatalf("%d annotations dropped", dropped)
		}
	}
}

// BenchmarkAnnotate50k measures annotating alone, as on a metric change.
func BenchmarkAnnotate50k(b *testing.B) {
	path := "kernels.c"
	text, e := generatedC(path)
	lines, _, err := sourceview.Highlight(context.Background(), path, text)
	if err != nil {
		b.Fatal(err)
	}
	v := modelValues(b, e)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sourceview.Annotate(lines, e, path, v)
	}
}

// BenchmarkFirstView50k measures what a display needs before it shows a
// region deep in a 50k-line file: reading it, splitting it into plain
// lines, highlighting 300 lines from the region's first line and
// annotating; Highlight's full result follows in the background.
func BenchmarkFirstView50k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "kernels.c")
	text, e := generatedC(path)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	v := modelValues(b, e)
	begin := e.Regions[4000].Begin - 1 // the comment above kernel_4000
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		text, err := sourceview.Read(path, 0)
		if err != nil {
			b.Fatal(err)
		}
		lines := sourceview.SplitLines(text)
		part, _, err := sourceview.HighlightPart(context.Background(), path, text, begin, begin+299)
		if err != nil || len(part) != 300 {
			b.Fatalf("HighlightPart: %d lines, %v", len(part), err)
		}
		copy(lines[begin-1:], part)
		if dropped := sourceview.Annotate(lines, e, path, v); dropped != 0 {
			b.Fatalf("%d annotations dropped", dropped)
		}
	}
}
