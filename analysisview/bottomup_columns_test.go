package analysisview

import (
	"math"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/view"
)

// TestBottomUpColumns checks the metric columns of the bottom-up view: a
// column's value in each row, callers' rows too, is the row's inclusive
// value in the bottom-up view of that metric itself; a derived metric's
// column has no values (they do not add up along call paths).
func TestBottomUpColumns(t *testing.T) {
	for _, file := range [][]string{
		{"cube4", "time.p4.n2000.x1.r0", "profile.cubex"},
		{"cube4", "lulesh", "lulesh.p27.size25.r1.cubex"},
	} {
		base, err := format.Open(testkit.Data(t, file...))
		if err != nil {
			t.Fatal(err)
		}
		e, err := view.WithDerived(base, view.DerivedSpec{Name: "tpv", Expression: "time / visits"})
		if err != nil {
			t.Fatal(err)
		}
		vis := e.MetricByName("visits")
		v := view.NewView(e)
		v.Select(view.MetricPane, view.Node{Kind: view.MetricNode, Index: e.MetricByName("time")})
		v.Columns().SetAll([]int{vis, e.MetricByName("tpv")})
		view.Read(v.Values().Missing())
		mustUpdate(t, v)
		b := NewBottomUp(v)
		b.Sync()
		if cols := b.Columns(); len(cols) != len(BottomUpColumns)+2 || cols[len(BottomUpColumns)] != "Visits (occ)" {
			t.Fatalf("columns %q", cols)
		}
		ref := view.NewView(e)
		ref.Select(view.MetricPane, view.Node{Kind: view.MetricNode, Index: vis})
		view.Read(ref.Values().Missing())
		mustUpdate(t, ref)
		rb := NewBottomUp(ref)
		rb.Sync()
		none := v.Appearance().NumberFormat().Format(math.NaN(), false)
		compared := 0
		var walk func(id string, depth int)
		walk = func(id string, depth int) {
			rb.ChildIDs(id)
			for _, c := range b.ChildIDs(id) {
				cols := b.Row(c).Columns
				got, want := cols[len(BottomUpColumns)], rb.Row(c).Columns[0]
				if got != want || got == "" {
					t.Errorf("%s row %s: visits %q, bottom-up of visits says %q", file[1], c, got, want)
				}
				if cols[len(BottomUpColumns)+1] != none {
					t.Errorf("%s row %s: the derived column reads %q", file[1], c, cols[len(BottomUpColumns)+1])
				}
				compared++
				if depth < 2 {
					walk(c, depth+1)
				}
			}
		}
		walk("", 0)
		if compared < 20 {
			t.Errorf("%s: %d rows compared", file[1], compared)
		}
	}
}
