package view

import (
	"fmt"
	"testing"

	"cubeview/internal/synth"
)

// BenchmarkExpandHottestDeep expands the hottest path of call chains
// 12,500 and 100,000 deep from the root (View › Expand hottest path),
// then formats the rows a window shows at the path's end. Its bound:
// eight times the depth may take at most 20 times the time (linear:
// about 8; quadratic: 64).
func BenchmarkExpandHottestDeep(b *testing.B) {
	perOp := map[int]float64{}
	for _, n := range []int{12_500, 100_000} {
		e := synth.Chain(n, 4)
		b.Run(fmt.Sprintf("depth=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				v := NewView(e)
				mustUpdate(b, v)
				v.Select(CallPane, Node{CnodeNode, 0})
				b.StartTimer()
				last, err := v.HotPath().Expand(CallPane)
				if err != nil {
					b.Fatal(err)
				}
				if last != (Node{CnodeNode, n - 1}) {
					b.Fatalf("path ends at %v, want cnode %d", last, n-1)
				}
				mustUpdate(b, v)
				_ = v.Row(CallPane, last)
			}
			perOp[n] = float64(b.Elapsed()) / float64(b.N)
		})
	}
	if small, big := perOp[12_500], perOp[100_000]; small > 0 && big/small > 20 {
		b.Errorf("depth 100,000 takes %.0f× the time of depth 12,500: not linear", big/small)
	}
}
