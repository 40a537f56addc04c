package model

import "testing"

// TestBottomUpRecursive checks the bottom-up tree of main → foo → foo →
// bar, main → bar (own values 5, 4, 6, 3, 7) by hand: the recursive foo
// counts its outer call path only towards inclusive values, and every
// row's callers split its values.
func TestBottomUpRecursive(t *testing.T) {
	e := recursive(Sum)
	excl, err := e.stored().cnodeValues(MetricSel{Metric: 0, Inclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	incl := e.CallInclusive(excl, Sum)
	top := BottomUp(e, excl, incl, Sum)
	type vals struct {
		region     string
		excl, incl float64
	}
	got := func(rows []CallerRow) []vals {
		var out []vals
		for _, r := range rows {
			out = append(out, vals{e.Regions[r.Region].Name, r.Excl, r.Incl})
		}
		return out
	}
	check := func(what string, rows []CallerRow, want []vals) {
		t.Helper()
		g := got(rows)
		if len(g) != len(want) {
			t.Fatalf("%s: %v, want %v", what, g, want)
		}
		for i := range g {
			if g[i] != want[i] {
				t.Errorf("%s row %d: %v, want %v", what, i, g[i], want[i])
			}
		}
	}
	check("top", top, []vals{{"main", 5, 25}, {"foo", 10, 13}, {"bar", 10, 10}})
	check("callers of main", Callers(e, top[0], excl, incl, Sum), nil)
	fooCallers := Callers(e, top[1], excl, incl, Sum)
	check("callers of foo", fooCallers, []vals{{"main", 4, 13}, {"foo", 6, 0}})
	check("callers of foo ← foo", Callers(e, fooCallers[1], excl, incl, Sum), []vals{{"main", 6, 0}})
	check("callers of bar", Callers(e, top[2], excl, incl, Sum), []vals{{"foo", 3, 3}, {"main", 7, 7}})
	if ex, in, n := top[0].Uncalled(e, excl, incl, Sum); ex != 5 || in != 25 || n != 1 {
		t.Errorf("main without a caller: %v %v %d, want 5 25 1", ex, in, n)
	}
	// The top rows are the flat profile, for every aggregation.
	for _, agg := range []Aggregation{Sum, Min, Max} {
		e := recursive(agg)
		excl, err := e.stored().cnodeValues(MetricSel{Metric: 0, Inclusive: true})
		if err != nil {
			t.Fatal(err)
		}
		f := flatParts(e, excl, agg)
		for _, r := range BottomUp(e, excl, e.CallInclusive(excl, agg), agg) {
			if r.Excl != f.Own[r.Region] || r.Incl != f.Whole[r.Region] {
				t.Errorf("%v region %s: %v/%v, flat profile %v/%v", agg, e.Regions[r.Region].Name, r.Excl, r.Incl, f.Own[r.Region], f.Whole[r.Region])
			}
		}
	}
}
