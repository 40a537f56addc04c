package analysisview

import (
	"testing"

	"cubeview/view"
)

// BenchmarkStatsCompute computes what the statistics panel shows for the
// root call path of the generated 10,000 × 1,000 experiment, with the
// top call paths (analysis.Statistics over every call path) and the two
// box plots drawn at panel size.
func BenchmarkStatsCompute(b *testing.B) {
	v := view.NewView(big(b))
	mustUpdate(b, v)
	req, err := statsRequestOf(v, 10)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep, err := req.compute()
		if err != nil {
			b.Fatal(err)
		}
		sel, top, err := rep.charts()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := sel.Image(640, 200); err != nil {
			b.Fatal(err)
		}
		if _, err := top.Image(820, 460); err != nil {
			b.Fatal(err)
		}
	}
}
