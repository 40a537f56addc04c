package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"cubeview/document"
	"cubeview/internal/synth"
	"cubeview/internal/testkit"
	"cubeview/view"
)

// BenchmarkExpandHottestDeep expands the hottest path of call chains
// 3,125 and 25,000 deep from the root in a window (View › Expand hottest
// path: the view follows the path, the pane opens every branch on it and
// scrolls to its end) and reports the CPU time per expansion. Its bound:
// eight times the depth may take at most 20 times the CPU time (linear:
// about 8; quadratic: 64).
func BenchmarkExpandHottestDeep(b *testing.B) {
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	perOp := map[int]float64{}
	for _, n := range []int{3_125, 25_000} {
		doc := &document.Doc{Exp: synth.Chain(n, 4), Name: fmt.Sprintf("chain%d", n)}
		b.Run(fmt.Sprintf("depth=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var cpu float64
			for b.Loop() {
				b.StopTimer()
				a := NewApp(test.NewTempApp(b))
				a.async = func(work, done func()) { work(); done() }
				w := a.Show(doc)
				w.win.Resize(fyne.NewSize(1280, 800))
				root := view.Node{Kind: view.CnodeNode, Index: 0}
				w.Pane(view.CallPane).Select(root.ID())
				w.view.SetExpanded(view.CallPane, root, false)
				w.panes[view.CallPane].Sync()
				before := testkit.CPUTime()
				b.StartTimer()
				w.ExpandHottest(view.CallPane)
				b.StopTimer()
				cpu += float64(testkit.CPUTime() - before)
				if got := w.view.Selected(view.CallPane); got != (view.Node{Kind: view.CnodeNode, Index: n - 1}) {
					b.Fatalf("selected %v, want the chain's end %d", got, n-1)
				}
				w.win.Close()
				b.StartTimer()
			}
			perOp[n] = cpu / float64(b.N)
			b.ReportMetric(cpu/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
	if small, big := perOp[3_125], perOp[25_000]; small > 0 && big/small > 20 {
		b.Errorf("depth 25,000 takes %.0f× the CPU time of depth 3,125: not linear", big/small)
	}
}
