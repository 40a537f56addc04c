package view

import (
	"errors"
	"math"
	"strings"
	"testing"

	"cubeview/model"
)

// withTPV returns the hand-made experiment plus tpv = time / visits with
// thresholds, and tpv's node.
func withTPV(t *testing.T) (*model.Experiment, Node) {
	t.Helper()
	e, err := WithDerived(handMade(), DerivedSpec{Name: "tpv", Expression: "time / visits", Thresholds: "poor < 2 < good"})
	if err != nil {
		t.Fatal(err)
	}
	return e, Node{MetricNode, e.MetricByName("tpv")}
}

// TestDerivedMetricInPanes checks a derived metric's values in every pane
// against the hand computation from handMade's comment: time and visits
// aggregated first, then divided.
func TestDerivedMetricInPanes(t *testing.T) {
	e, tpv := withTPV(t)
	tests := []struct {
		name  string
		steps []step
		d     Dim
		n     Node
		want  float64
	}{
		{"metric total", nil, MetricPane, tpv, 25.0 / 16},
		{"call root inclusive", nil, CallPane, cMain, 25.0 / 16},
		{"call root exclusive", []step{open(CallPane, cMain)}, CallPane, cMain, 6.0 / 3},
		{"call inner inclusive", []step{open(CallPane, cMain)}, CallPane, cFoo, 13.0 / 4},
		{"time over no visits is undefined, as in CubePL", []step{open(CallPane, cMain), open(CallPane, cFoo)}, CallPane, cFoo2, math.NaN()},
		{"call leaf", []step{open(CallPane, cMain)}, CallPane, cBar, 6.0 / 9},
		{"system rank over a subtree", []step{sel(CallPane, cFoo)}, SystemPane, sRank0, 10.0 / 3},
		{"system node over a subtree", []step{sel(CallPane, cFoo)}, SystemPane, sNode0, 13.0 / 4},
		{"system over an expanded call path", []step{open(CallPane, cMain), sel(CallPane, cMain)}, SystemPane, sNode0, 6.0 / 3},
		{"flat region inclusive", []step{flat()}, CallPane, rFoo, 13.0 / 4},
		{"flat region exclusive", []step{flat(), open(CallPane, rFoo)}, CallPane, rFoo, 11.0 / 4},
		{"flat leaf region", []step{flat()}, CallPane, rBar, 8.0 / 9},
		{"system follows flat region", []step{flat(), sel(CallPane, rBar)}, SystemPane, sNode0, 8.0 / 9},
		{"percent of own root", []step{mode(CallPane, OwnRootPercent)}, CallPane, cMain, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := NewView(e)
			v.Select(MetricPane, tpv)
			for _, s := range tt.steps {
				s(v)
			}
			mustUpdate(t, v)
			if got := v.Values().Value(tt.d, tt.n); !near(got, tt.want) {
				t.Errorf("%s: got %v, want %v", v.Label(tt.n), got, tt.want)
			}
		})
	}
}

// TestDerivedMatchesModel checks every call-pane row against the model's
// after-aggregation query.
func TestDerivedMatchesModel(t *testing.T) {
	e, tpv := withTPV(t)
	v := NewView(e)
	v.Select(MetricPane, tpv)
	mustUpdate(t, v)
	want, err := e.CallTreeValues(model.MetricSel{Metric: tpv.Index, Inclusive: true}, true)
	if err != nil {
		t.Fatal(err)
	}
	for c := range e.Cnodes {
		if got := v.Values().Inclusive(CallPane, Node{CnodeNode, c}); !near(got, want[c]) {
			t.Errorf("cnode %d: got %v, want %v", c, got, want[c])
		}
	}
}

func TestThresholdLabels(t *testing.T) {
	e, tpv := withTPV(t)
	v := NewView(e)
	v.Select(MetricPane, tpv)
	v.SetExpanded(CallPane, cMain, true)
	mustUpdate(t, v)
	for _, c := range []struct {
		d    Dim
		n    Node
		want string
	}{
		{MetricPane, tpv, "tpv [poor]"},       // 1.5625
		{CallPane, cMain, "main [good]"},      // expanded: 6/3 = 2
		{CallPane, cFoo, "foo [good]"},        // 3.25
		{CallPane, cBar, "bar [poor]"},        // 0.67
		{MetricPane, mTime, "Time"},           // no thresholds
		{SystemPane, sRoot, "cluster [good]"}, // main exclusive over all locations: 2
	} {
		if got := v.Row(c.d, c.n).Label; got != c.want {
			t.Errorf("%v: label %q, want %q", c.n, got, c.want)
		}
	}
	// Percent modes keep the label of the absolute value.
	v.SetMode(CallPane, OwnRootPercent)
	mustUpdate(t, v)
	if got := v.Row(CallPane, cFoo).Label; got != "foo [good]" {
		t.Errorf("percent mode: label %q", got)
	}
	// Search and sort by name see the plain label.
	if found := v.Finder().Find(CallPane, "^foo$"); len(found) != 2 {
		t.Errorf("find ^foo$: %v", found)
	}
}

func TestDerivedSortsAndFinds(t *testing.T) {
	e, tpv := withTPV(t)
	v := NewView(e)
	v.SetOrder(ByValue)
	v.Select(MetricPane, tpv)
	v.SetExpanded(CallPane, cMain, true)
	mustUpdate(t, v)
	// main's children by tpv: foo 3.25 before bar 0.67.
	if got := v.Children(CallPane, cMain); len(got) != 2 || got[0] != cFoo || got[1] != cBar {
		t.Errorf("children by value: %v", got)
	}
	if found := v.Finder().Find(MetricPane, "tpv"); len(found) != 1 || found[0] != tpv {
		t.Errorf("find tpv: %v", found)
	}
}

// TestMissingOfDerived: a derived metric has no data of its own; the data
// to load are its operands', and once they are loaded nothing is missing.
func TestMissingOfDerived(t *testing.T) {
	e, tpv := withTPV(t)
	v := NewView(e)
	v.Select(MetricPane, tpv)
	miss := v.Values().Missing()
	if len(miss) == 0 {
		t.Fatal("nothing missing before the first load")
	}
	for _, r := range miss {
		if r.Exp.Metrics[r.Metric].IsDerived() {
			t.Errorf("Missing lists derived metric %s", r.Exp.Metrics[r.Metric].UniqName)
		}
		if _, err := r.Exp.Block(r.Metric); err != nil {
			t.Fatal(err)
		}
	}
	if again := v.Values().Missing(); len(again) != 0 {
		t.Errorf("still missing after loading: %v", again)
	}
	if under := v.Values().missingUnder(tpv.Index); len(under) != 0 {
		t.Errorf("MissingUnder(tpv) = %v", under)
	}
	mustUpdate(t, v)
}

func TestSetExperimentKeepsState(t *testing.T) {
	e := handMade()
	v := NewView(e)
	v.SetExpanded(CallPane, cMain, true)
	v.Select(CallPane, cFoo)
	v.Select(SystemPane, sNode0)
	mustUpdate(t, v)
	before := v.Values().Value(SystemPane, sNode0)
	e2, tpv := withTPV(t)
	if err := v.SetExperiment(e2); err != nil {
		t.Fatal(err)
	}
	if v.Selected(CallPane) != cFoo || !v.Expanded(CallPane, cMain) || v.Selected(SystemPane) != sNode0 {
		t.Error("selection or expansion lost")
	}
	mustUpdate(t, v)
	if got := v.Values().Value(SystemPane, sNode0); got != before {
		t.Errorf("time at node0: %v, was %v", got, before)
	}
	roots := v.Roots(MetricPane)
	if roots[len(roots)-1] != tpv {
		t.Errorf("metric roots %v: want tpv last", roots)
	}
	v.Select(MetricPane, tpv)
	mustUpdate(t, v)
	if got := v.Values().Value(SystemPane, sNode0); !near(got, 13.0/4) {
		t.Errorf("tpv at node0 over foo: %v", got)
	}
	other := handMade()
	other.Cnodes = other.Cnodes[:4]
	if err := v.SetExperiment(other); err == nil {
		t.Error("an experiment with another call tree was accepted")
	}
}

func TestWithDerivedErrors(t *testing.T) {
	e := handMade()
	for _, c := range []struct {
		spec DerivedSpec
		want string
	}{
		{DerivedSpec{Name: "", Expression: "time"}, "name: empty"},
		{DerivedSpec{Name: "x", Expression: ""}, "expression: empty"},
		{DerivedSpec{Name: "x", Expression: "time / (visits"}, "column 15"},
		{DerivedSpec{Name: "x", Expression: "time * * visits"}, "column 8"},
		{DerivedSpec{Name: "x", Expression: "time / cycles"}, `no metric "cycles"`},
		{DerivedSpec{Name: "time", Expression: "visits"}, "already has a metric"},
		{DerivedSpec{Name: "x", Expression: "time", Thresholds: "good < x < bad"}, "not a number"},
	} {
		_, err := WithDerived(e, c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.spec, err, c.want)
		}
	}
	_, err := WithDerived(e, DerivedSpec{Name: "x", Expression: "time +"})
	var fe *model.FormulaError
	if !errors.As(err, &fe) {
		t.Errorf("syntax error %v is not a FormulaError", err)
	}
}
