package repoview

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"cubeview/internal/testkit/testrepo"
	"cubeview/model"
	"cubeview/numfmt"
	"cubeview/repo"
	"cubeview/view"
)

func TestSearchSpec(t *testing.T) {
	tpv, err := model.ParseFormula("time / visits")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		spec SearchSpec
		want repo.Query
	}{
		{SearchSpec{Metric: " time ", ByShare: true, Threshold: "10 %"},
			repo.Query{Metric: "time", Share: true, MinShare: 0.1}},
		{SearchSpec{Metric: "time", Inclusive: true, Threshold: "1e3", Kind: "mpi", Ranks: "0-3, 8", Threads: "1", Where: "procs >= 64", Flat: true},
			repo.Query{Metric: "time", Inclusive: true, MinValue: 1000, Kind: "mpi", Ranks: []repo.Range{{Lo: 0, Hi: 3}, {Lo: 8, Hi: 8}}, Threads: []repo.Range{{Lo: 1, Hi: 1}}, Where: "procs >= 64", Flat: true}},
		{SearchSpec{Metric: "visits", ByShare: true, Threshold: "ignored", Constraint: " time >= 10% and not visits < 3 ", Region: "MPI_*", Host: "node0*"},
			repo.Query{Metric: "visits", Constraint: "time >= 10% and not visits < 3", Region: "MPI_*", Host: "node0*"}},
		{SearchSpec{Constraint: "incl(time) > 2"}, repo.Query{Constraint: "incl(time) > 2"}},
		{SearchSpec{Metric: "tpv", ByShare: true, Threshold: "0.5", Derived: "\ntpv = time / visits\n"},
			repo.Query{Metric: "tpv", Share: true, MinShare: 0.5, Derived: []model.DerivedMetric{{UniqName: "tpv", Formula: tpv}}}},
	} {
		got, err := c.spec.Query()
		if err != nil {
			t.Errorf("%+v: %v", c.spec, err)
			continue
		}
		if len(got.Derived) == 1 && len(c.want.Derived) == 1 && got.Derived[0].Formula.String() == c.want.Derived[0].Formula.String() {
			got.Derived[0].Formula = c.want.Derived[0].Formula
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v:\n got %+v\nwant %+v", c.spec, got, c.want)
		}
	}
	for _, s := range []SearchSpec{
		{Threshold: "1"},
		{Metric: "time", Threshold: "many"},
		{Metric: "time", ByShare: true, Threshold: "half"},
		{Metric: "time", Threshold: "NaN"},
		{Metric: "time", Threshold: "1", Ranks: "3-1"},
		{Metric: "time", Threshold: "1", Threads: "x"},
		{Metric: "time", Threshold: "1", Derived: "tpv = time /"},
		{Constraint: "time >> 1"},
		{Constraint: "incl(time > 1"},
	} {
		if _, err := s.Query(); err == nil {
			t.Errorf("%+v: no error", s)
		}
	}
}

// TestHitTable: the rows are repo.Find's hits, in its order; a hit
// selects its metric and call path (or region) in the opened trial.
func TestHitTable(t *testing.T) {
	r, _ := testrepo.Filled(t, testrepo.Standard)
	ctx := context.Background()
	for _, spec := range []SearchSpec{
		{Metric: "time", ByShare: true, Threshold: "5%"},
		{Metric: "time", Inclusive: true, ByShare: true, Threshold: "50%", Where: "app = lulesh"},
		{Metric: "time", ByShare: true, Threshold: "2%", Kind: "mpi", Flat: true},
		{Metric: "visits", Threshold: "1000", Ranks: "0-1"},
	} {
		q, err := spec.Query()
		if err != nil {
			t.Fatal(err)
		}
		want, err := r.Find(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 {
			t.Fatalf("%s: no hits; the test needs some", Describe(q))
		}
		tab := NewHitTable(q, want, numfmt.Cube())
		if len(tab.Rows) != len(want) || !strings.HasSuffix(tab.Title, ": "+count(len(want), tab.Columns[4])) {
			t.Fatalf("%d rows for %d hits, title %q", len(tab.Rows), len(want), tab.Title)
		}
		for i, h := range want {
			row := tab.Rows[i]
			if row[0] != strconv.FormatInt(h.Trial, 10) || row[4] != h.Path || row[2] != numfmt.Cube().Format(h.Value, false) ||
				row[3] != strconv.FormatFloat(100*h.Share, 'f', 2, 64)+" %" {
				t.Fatalf("row %d %q for hit %+v", i, row, h)
			}
		}
		// The first and the last hit select what they name.
		for _, i := range []int{0, len(want) - 1} {
			e, err := r.Open(ctx, want[i].Trial)
			if err != nil {
				t.Fatal(err)
			}
			sel, err := tab.Selection(i, e)
			if err != nil {
				t.Fatal(err)
			}
			if len(sel.Nodes) != 2 || sel.Nodes[0] != (view.Node{Kind: view.MetricNode, Index: e.MetricByName(q.Metric)}) {
				t.Fatalf("selection %+v", sel)
			}
			n := sel.Nodes[1]
			switch {
			case q.Flat && (n.Kind != view.RegionNode || e.Regions[n.Index].Name != want[i].Path):
				t.Errorf("flat hit %q selects %+v", want[i].Path, n)
			case !q.Flat && (n.Kind != view.CnodeNode || e.CnodeByPath(want[i].Path) != n.Index):
				t.Errorf("hit %q selects %+v", want[i].Path, n)
			}
		}
	}
}
