package model

import (
	"math"
	"strings"
	"testing"
)

// TestFormulaFunctions: sqrt and abs parse, render back in both syntaxes
// to the same formula, evaluate element-wise and keep units; other
// function names are refused with what is allowed.
func TestFormulaFunctions(t *testing.T) {
	f, err := ParseFormula(`sqrt(abs("e (sumsqr)" / n - (s / n) * (s / n)))`)
	if err != nil {
		t.Fatal(err)
	}
	// Values 1, 2, 3 and 6 (n 4, sum 12, sumsqr 50): σ = sqrt(50/4 − 9) =
	// sqrt(3.5); 2 and 2: σ = 0.
	vals := map[string][]float64{"e (sumsqr)": {50, 8}, "n": {4, 2}, "s": {12, 4}}
	got, err := f.Eval(2, func(name string) ([]float64, error) { return vals[name], nil })
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got[0]-math.Sqrt(3.5)) > 1e-12 || got[1] != 0 {
		t.Errorf("σ = %v, want [%g 0]", got, math.Sqrt(3.5))
	}
	if s := f.String(); s != `sqrt(abs("e (sumsqr)" / n - s / n * (s / n)))` {
		t.Errorf("String %q", s)
	}
	if s := f.CubePL(); s != "sqrt(abs(metric::e (sumsqr)() / metric::n() - metric::s() / metric::n() * (metric::s() / metric::n())))" {
		t.Errorf("CubePL %q", s)
	}
	again, err := ParseFormula(f.String())
	if err != nil || again.String() != f.String() {
		t.Errorf("round trip %q: %v", again, err)
	}
	if m := f.Metrics(); strings.Join(m, ",") != "e (sumsqr),n,s" {
		t.Errorf("metrics %v", m)
	}
	r := f.Replace(func(name string) *Formula {
		if name == "n" {
			return MetricRef("count")
		}
		return nil
	})
	if !strings.Contains(r.String(), "count") || strings.Contains(r.String(), " n") {
		t.Errorf("Replace: %s", r)
	}
	unit := func(u string) func(string) string { return func(string) string { return u } }
	if u := f.Unit(unit("")); u != "" {
		t.Errorf("unit %q", u)
	}
	g, _ := ParseFormula("abs(a) + abs(b)")
	if u := g.Unit(unit("bytes")); u != "bytes" {
		t.Errorf("abs keeps the unit: %q", u)
	}
	if v, _ := ParseFormula("sqrt(0 - 4)"); !math.IsNaN(mustScalar(t, v)) {
		t.Error("sqrt of a negative number is not NaN")
	}
	for _, bad := range []string{"log(a)", "sqrt a", "sqrt()", "metric::sqrt()(a)", "sqrt(a"} {
		if _, err := ParseFormula(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if _, err := ParseFormula("log(a)"); err == nil || !strings.Contains(err.Error(), "sqrt and abs") {
		t.Errorf("log(a): %v", err)
	}
}

func mustScalar(t *testing.T, f *Formula) float64 {
	t.Helper()
	x, err := f.EvalScalar(func(string) (float64, error) { return 0, nil })
	if err != nil {
		t.Fatal(err)
	}
	return x
}
