package analysisview

import (
	"math"
	"slices"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/testkit"
	"cubeview/model"
	"cubeview/view"
)

// TestBottomUpHidesSmallRows folds LULESH's bottom-up rows under 1 % of
// the time's total, at the top and among a region's callers: exactly the
// rows below the threshold (by the model's total) go into the last
// "(n hidden)" row, which holds their sums and opens to them; turning
// folding off brings them back.
func TestBottomUpHidesSmallRows(t *testing.T) {
	e, err := format.Open(testkit.Data(t, "cube4", "lulesh", "lulesh.p27.size25.r1.cubex"))
	if err != nil {
		t.Fatal(err)
	}
	tm := e.MetricByName("time")
	total, err := e.MetricTotal(model.MetricSel{Metric: tm, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	v := view.NewView(e)
	v.Select(view.MetricPane, view.Node{Kind: view.MetricNode, Index: tm})
	mustUpdate(t, v)
	b := NewBottomUp(v)
	b.Sync()
	all := slices.Clone(b.ChildIDs(""))
	v.SmallRows().SetThreshold(0.01)
	mustUpdate(t, v)
	if !b.Sync() {
		t.Fatal("Sync reports no change after the threshold changed")
	}
	checked := 0
	check := func(parent string, want []string) {
		t.Helper()
		var small, keep []string
		for _, id := range want {
			if in, _, _ := b.Values(id); math.Abs(in) < 0.01*total {
				small = append(small, id)
			} else {
				keep = append(keep, id)
			}
		}
		got := b.ChildIDs(parent)
		if len(small) < 2 {
			if !slices.Equal(got, want) {
				t.Errorf("below %q: %v, want %v unfolded", parent, got, want)
			}
			return
		}
		h := got[len(got)-1]
		if !slices.Equal(got[:len(got)-1], keep) || !b.IsBranch(h) || !slices.Equal(b.ChildIDs(h), small) {
			t.Fatalf("below %q: %v, want %v and a hidden row of %v", parent, got, keep, small)
		}
		var in, ex float64
		for _, id := range small {
			i, x, _ := b.Values(id)
			in, ex = in+i, ex+x
		}
		hin, hex, ok := b.Values(h)
		if !ok || math.Abs(hin-in) > 1e-9*math.Abs(in) || math.Abs(hex-ex) > 1e-9*math.Abs(ex) {
			t.Errorf("hidden row %q holds %g / %g, its rows sum to %g / %g", h, hin, hex, in, ex)
		}
		if r := b.Row(h); !strings.HasPrefix(r.Label, "(") || !strings.HasSuffix(r.Label, " hidden)") || r.Columns[0] != v.Appearance().NumberFormat().Format(in, false) {
			t.Errorf("hidden row reads %q %v", r.Label, r.Columns)
		}
		if n := b.Target(h); n.Valid() {
			t.Errorf("a hidden row selects %v", n)
		}
		checked += len(small)
	}
	check("", all)
	// Exported as shown: the hidden row with its sums.
	var csv strings.Builder
	if err := BottomUpCSV(b, b.ChildIDs(""), &csv); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(csv.String(), " hidden),,0,") {
		t.Errorf("CSV of the top rows lacks the hidden row:\n%s", csv.String())
	}
	// The callers of the largest region with several callers.
	for _, id := range all {
		if kids := b.childIDs(id); len(kids) > 2 {
			check(id, slices.Clone(kids))
		}
	}
	if checked == 0 {
		t.Fatal("nothing folded in LULESH's bottom-up view at 1 %")
	}
	t.Logf("%d bottom-up rows folded", checked)
	v.SmallRows().SetThreshold(0)
	mustUpdate(t, v)
	b.Sync()
	if got := b.ChildIDs(""); !slices.Equal(got, all) {
		t.Errorf("folding off: %d top rows, want %d", len(got), len(all))
	}
}
