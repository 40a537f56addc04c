package model

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestParseFormula(t *testing.T) {
	vals := map[string]float64{"a": 6, "b": 3, "c": 2, "PAPI_L2_DCM": 10, "x.y": 4}
	tests := []struct {
		in, str, cubepl string
		want            float64
	}{
		{"a / b", "a / b", "metric::a() / metric::b()", 2},
		{"a - b - c", "a - b - c", "metric::a() - metric::b() - metric::c()", 1},
		{"a - (b - c)", "a - (b - c)", "metric::a() - (metric::b() - metric::c())", 5},
		{"a / b / c", "a / b / c", "metric::a() / metric::b() / metric::c()", 1},
		{"a / (b * c)", "a / (b * c)", "metric::a() / (metric::b() * metric::c())", 1},
		{"a + b * c", "a + b * c", "metric::a() + metric::b() * metric::c()", 12},
		{"(a + b) * c", "(a + b) * c", "(metric::a() + metric::b()) * metric::c()", 18},
		{"a × b ÷ c − 1", "a * b / c - 1", "metric::a() * metric::b() / metric::c() - 1", 8},
		{"-a + 1", "0 - a + 1", "0 - metric::a() + 1", -5},
		{"-a * b", "(0 - a) * b", "(0 - metric::a()) * metric::b()", -18},
		{"b - -a", "b - (0 - a)", "metric::b() - (0 - metric::a())", 9},
		{"--a", "a", "metric::a()", 6},
		{"PAPI_L2_DCM / 1e3", "PAPI_L2_DCM / 1000", "metric::PAPI_L2_DCM() / 1000", 0.01},
		{"metric::a() / metric::b ( )", "a / b", "metric::a() / metric::b()", 2},
		{`"x.y" * .5`, "x.y * 0.5", "metric::x.y() * 0.5", 2},
		{"a / 0", "a / 0", "metric::a() / 0", math.NaN()},                    // CubePL: undefined
		{"(a - a) / 0", "(a - a) / 0", "(metric::a() - metric::a()) / 0", 0}, // CubePL: 0 over anything
		{"(a - a) / (b - b)", "(a - a) / (b - b)", "(metric::a() - metric::a()) / (metric::b() - metric::b())", 0},
		{"2.5e-1 * a", "0.25 * a", "0.25 * metric::a()", 1.5},
	}
	for _, tt := range tests {
		f, err := ParseFormula(tt.in)
		if err != nil {
			t.Errorf("ParseFormula(%q): %v", tt.in, err)
			continue
		}
		if got := f.String(); got != tt.str {
			t.Errorf("ParseFormula(%q).String() = %q, want %q", tt.in, got, tt.str)
		}
		if got := f.CubePL(); got != tt.cubepl {
			t.Errorf("ParseFormula(%q).CubePL() = %q, want %q", tt.in, got, tt.cubepl)
		}
		got, err := f.EvalScalar(func(name string) (float64, error) { return vals[name], nil })
		if err != nil || math.Abs(got-tt.want) > 1e-12 && !(math.IsNaN(got) && math.IsNaN(tt.want)) {
			t.Errorf("%q evaluates to %v, %v; want %v", tt.in, got, err, tt.want)
		}
		// Both renderings read back to the same formula.
		for _, text := range []string{f.String(), f.CubePL()} {
			g, err := ParseFormula(text)
			if err != nil || g.String() != f.String() {
				t.Errorf("%q re-read from %q: %v, %v", tt.in, text, g, err)
			}
		}
	}
}

func TestParseFormulaErrors(t *testing.T) {
	tests := []struct{ in, msg string }{
		{"", "want a number"},
		{"a +", "want a number"},
		{"(a + b", `want ")"`},
		{"a b", "unexpected"},
		{"a ^ b", "unexpected character"},
		{"log(a)", "the functions are sqrt and abs"},
		{"metric::a(i)", "flavour arguments are not supported"},
		{"metric::a", "want metric::NAME()"},
		{`"a`, "unterminated"},
		{"1e999", "bad number"},
		{strings.Repeat("(", 300) + "a" + strings.Repeat(")", 300), "nested too deeply"},
	}
	for _, tt := range tests {
		_, err := ParseFormula(tt.in)
		var fe *FormulaError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("ParseFormula(%.20q) = %v, want a FormulaError with %q", tt.in, err, tt.msg)
		}
	}
}

func TestParseDefinition(t *testing.T) {
	name, f, err := ParseDefinition(" ipc = PAPI_TOT_INS / PAPI_TOT_CYC ")
	if err != nil || name != "ipc" || f.String() != "PAPI_TOT_INS / PAPI_TOT_CYC" {
		t.Fatalf("got %q, %v, %v", name, f, err)
	}
	if got := f.Metrics(); !reflect.DeepEqual(got, []string{"PAPI_TOT_INS", "PAPI_TOT_CYC"}) {
		t.Errorf("Metrics() = %v", got)
	}
	for _, bad := range []string{"ipc", "1x = a", "= a", "r = a +"} {
		if _, _, err := ParseDefinition(bad); err == nil {
			t.Errorf("ParseDefinition(%q) accepted", bad)
		}
	}
}

func TestFormulaUnit(t *testing.T) {
	units := map[string]string{"time": "sec", "visits": "occ", "bytes": "bytes", "t2": "sec"}
	tests := map[string]string{
		"time / visits":       "sec/occ",
		"time / t2":           "",
		"bytes / time / 1e6":  "bytes/sec",
		"time + t2":           "sec",
		"2 * time":            "sec",
		"1 / time":            "1/sec",
		"bytes / (time * t2)": "bytes/(sec·sec)",
	}
	for in, want := range tests {
		f, err := ParseFormula(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Unit(func(n string) string { return units[n] }); got != want {
			t.Errorf("Unit(%q) = %q, want %q", in, got, want)
		}
	}
}

// withTPV adds tpv = time / visits to small().
func withTPV(t *testing.T) (*Experiment, int) {
	t.Helper()
	f, err := ParseFormula("time / visits")
	if err != nil {
		t.Fatal(err)
	}
	e, err := small().WithDerived(DerivedMetric{UniqName: "tpv", Formula: f})
	if err != nil {
		t.Fatal(err)
	}
	return e, e.MetricByName("tpv")
}

// The expected values below are worked out by hand from small()'s data:
// time per cnode (summed over locations) 6, 5, 6, 2, 6, inclusive 25, 13,
// 8, 2, 6; visits 3, 4, 0, 0, 9, inclusive 16, 4, 0, 0, 9.
func TestDerivedCallTree(t *testing.T) {
	e, m := withTPV(t)
	ms := MetricSel{Metric: m, Inclusive: true}
	incl, err := e.CallTreeValues(ms, true)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "inclusive", incl, []float64{25.0 / 16, 13.0 / 4, 0, 0, 6.0 / 9})
	excl, err := e.CallTreeValues(ms, false)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "exclusive", excl, []float64{2, 5.0 / 4, 0, 0, 6.0 / 9})
	// The internal summing query refuses a derived metric rather than add
	// ratios; LocationValues applies the formula per location instead.
	if _, err := e.stored().cnodeValues(MetricSel{Metric: m}); !errors.Is(err, ErrDerived) {
		t.Errorf("cnodeValues of a derived metric: %v, want ErrDerived", err)
	}
	loc, err := e.LocationValues(MetricSel{Metric: m}, AllCnodes)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "locations", loc, []float64{8.0 / 4, 10.0 / 8, 7.0 / 4})
	loc, err = e.LocationValues(MetricSel{Metric: m}, CnodeSel{Cnode: 1})
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "foo locations", loc, []float64{4.0 / 3, 0, 1})
	total, err := e.MetricTotal(ms)
	if err != nil || total != 25.0/16 {
		t.Errorf("MetricTotal = %v, %v; want 25/16", total, err)
	}
	// A stored metric still aggregates the usual way.
	tm, err := e.CallTreeValues(MetricSel{Metric: 0, Inclusive: true}, true)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "time inclusive", tm, []float64{25, 13, 8, 2, 6})
}

func TestDerivedSystem(t *testing.T) {
	e, m := withTPV(t)
	ms := MetricSel{Metric: m, Inclusive: true}
	sys, err := e.SystemTreeValues(ms, e.CnodeSubtree(AllCnodes))
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "locations", LocationsOf(e, sys), []float64{8.0 / 4, 10.0 / 8, 7.0 / 4})
	// cluster, node0, rank 0, t0, t1, rank 1, t0: a ratio of sums at every node.
	equal(t, "system", sys, []float64{25.0 / 16, 25.0 / 16, 18.0 / 12, 2, 1.25, 1.75, 1.75})
	// cnode foo (1) alone, exclusive: time 4,0,1 over visits 3,0,1.
	sys, err = e.SystemTreeValues(ms, e.CnodeSubtree(CnodeSel{Cnode: 1}))
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "foo locations", LocationsOf(e, sys), []float64{4.0 / 3, 0, 1})
}

func TestDerivedRegionsAndPoints(t *testing.T) {
	e, m := withTPV(t)
	ms := MetricSel{Metric: m, Inclusive: true}
	excl, incl, err := e.FlatProfileOf(ms)
	if err != nil {
		t.Fatal(err)
	}
	// main, foo, bar: time excl 6, 11, 8 / visits 3, 4, 9; inclusive time
	// 25, 13, 8 (bar's two paths) / visits 16, 4, 9.
	equal(t, "region excl", excl, []float64{2, 11.0 / 4, 8.0 / 9})
	equal(t, "region incl", incl, []float64{25.0 / 16, 13.0 / 4, 8.0 / 9})

	pts, err := e.PointValues(ms, true)
	if err != nil {
		t.Fatal(err)
	}
	ti, _ := e.PointValues(MetricSel{Metric: 0, Inclusive: true}, true)
	vi, _ := e.PointValues(MetricSel{Metric: 2, Inclusive: true}, true)
	for c := range e.Cnodes {
		for l := 0; l < e.NumLocations(); l++ {
			// CubePL: 0 over anything is 0, anything else over 0 undefined.
			want := 0.0
			switch n, d := ti.Value(c, l), vi.Value(c, l); {
			case n == 0:
			case d == 0:
				want = math.NaN()
			default:
				want = n / d
			}
			if got := pts.Value(c, l); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Errorf("point (%d,%d) = %v, want %v", c, l, got, want)
			}
		}
	}
	if _, err := e.Block(m); !errors.Is(err, ErrDerived) {
		t.Errorf("Block of a derived metric: %v, want ErrDerived", err)
	}
}

func TestPointValuesStored(t *testing.T) {
	e := small()
	// time exclusive along the metric tree: time − mpi per point.
	b, err := e.PointValues(MetricSel{Metric: 0}, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Value(1, 0); got != 4-0 {
		t.Errorf("time-mpi at (1,0) = %v", got)
	}
	if got := b.Value(4, 1); got != 5-2 {
		t.Errorf("time-mpi at (4,1) = %v, want 3", got)
	}
	incl, err := e.PointValues(MetricSel{Metric: 0, Inclusive: true}, true)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "root inclusive row", incl.Row(0), []float64{8, 10, 7})
	orig, _ := e.Block(0)
	if orig.Value(1, 0) != 4 {
		t.Error("PointValues changed the stored block")
	}
}

func TestWithDerivedErrors(t *testing.T) {
	f := func(s string) *Formula {
		x, err := ParseFormula(s)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	e := small()
	tests := []struct {
		d   DerivedMetric
		msg string
	}{
		{DerivedMetric{UniqName: "time", Formula: f("visits")}, "already has"},
		{DerivedMetric{UniqName: "r", Formula: f("time / nothing")}, `"nothing", which the experiment does not have`},
		{DerivedMetric{UniqName: "r", Formula: f("r + 1")}, "refers to itself"},
		{DerivedMetric{UniqName: "bad name", Formula: f("time")}, "must start with"},
		{DerivedMetric{UniqName: "r", Formula: f("time"), Thresholds: "good < x < bad"}, "not a number"},
		{DerivedMetric{UniqName: "r", Formula: f(`"ti me" + 1`)}, "cannot be written in CubePL"},
	}
	for _, tt := range tests {
		if _, err := e.WithDerived(tt.d); err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("WithDerived(%s): %v, want %q", tt.d.UniqName, err, tt.msg)
		}
	}
	if len(e.Metrics) != 4 {
		t.Error("WithDerived changed its input")
	}
}

func TestDerivedOfDerivedAndCycles(t *testing.T) {
	e, _ := withTPV(t)
	f, _ := ParseFormula("tpv * 2")
	e2, err := e.WithDerived(DerivedMetric{UniqName: "tpv2", Formula: f})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e2.MetricTotal(MetricSel{Metric: e2.MetricByName("tpv2"), Inclusive: true})
	if err != nil || got != 2*25.0/16 {
		t.Errorf("tpv2 total = %v, %v", got, err)
	}
	// A cycle built by hand is caught by Validate and dropped by BindFormulas.
	g, _ := ParseFormula("tpv2 + 1")
	e2.Metrics[e2.MetricByName("tpv")].Formula = g
	if err := e2.Validate(); err == nil || !strings.Contains(err.Error(), "refers back to itself") {
		t.Errorf("Validate with a cycle: %v", err)
	}
	e2.BindFormulas()
	for _, name := range []string{"tpv", "tpv2"} {
		m := &e2.Metrics[e2.MetricByName(name)]
		if m.IsDerived() || !strings.Contains(m.Unavailable, "derived metric") {
			t.Errorf("%s after BindFormulas: derived %v, unavailable %q", name, m.IsDerived(), m.Unavailable)
		}
	}
	if err := e2.Validate(); err != nil {
		t.Errorf("Validate after BindFormulas: %v", err)
	}
}

func TestShallowCopyCopiesEveryExportedField(t *testing.T) {
	e := small()
	e.Source, e.Format, e.Mirrors = "s", "f", []string{"m"}
	e.Topologies = []Cart{{Name: "t"}}
	e.CallGraph = &CallGraph{}
	n := shallowCopy(e)
	src, dst := reflect.ValueOf(e).Elem(), reflect.ValueOf(n).Elem()
	for i := 0; i < src.NumField(); i++ {
		if src.Type().Field(i).IsExported() && !reflect.DeepEqual(src.Field(i).Interface(), dst.Field(i).Interface()) {
			t.Errorf("field %s not copied", src.Type().Field(i).Name)
		}
	}
}

func TestWithDerivedSharesData(t *testing.T) {
	l := &countingLoader{e: small()}
	base := smallMeta()
	base.SetLoader(l)
	f, _ := ParseFormula("time / visits")
	e, err := base.WithDerived(DerivedMetric{UniqName: "tpv", Formula: f, Thresholds: "low < 1 < high"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.MetricTotal(MetricSel{Metric: e.MetricByName("tpv"), Inclusive: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := base.MetricTotal(MetricSel{Metric: 0, Inclusive: true}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(l.calls, []int{0, 2}) {
		t.Errorf("loads per metric %v: want time and visits read once for both experiments", l.calls)
	}
	m := &e.Metrics[e.MetricByName("tpv")]
	if m.Type != PostDerived || m.Expression != "metric::time() / metric::visits()" || m.Unit != "sec/occ" {
		t.Errorf("derived metric = %+v", *m)
	}
	th, err := m.Thresholds()
	if err != nil || th.Label(0.5) != "low" || th.Label(1) != "high" {
		t.Errorf("thresholds %v, %v", th, err)
	}
}

func TestThresholds(t *testing.T) {
	th, err := ParseThresholds("poor < 0.5 < average < 1 < good")
	if err != nil {
		t.Fatal(err)
	}
	for v, want := range map[float64]string{-1: "poor", 0.49: "poor", 0.5: "average", 0.99: "average", 1: "good", 7: "good"} {
		if got := th.Label(v); got != want {
			t.Errorf("Label(%v) = %q, want %q", v, got, want)
		}
	}
	if th.String() != "poor < 0.5 < average < 1 < good" {
		t.Errorf("String() = %q", th.String())
	}
	for _, bad := range []string{"", "good", "a < 1", "a < 2 < b < 1 < c", "a < 1 < ", "a < NaN < b"} {
		if _, err := ParseThresholds(bad); err == nil {
			t.Errorf("ParseThresholds(%q) accepted", bad)
		}
	}
	e, err := WithThresholds(small(), "time", "fast < 10 < slow")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := e.Metrics[0].Thresholds(); got == nil || got.Label(25) != "slow" {
		t.Errorf("WithThresholds: %v", got)
	}
	if got, _ := small().Metrics[0].Thresholds(); got != nil {
		t.Errorf("a metric without the attribute has thresholds %v", got)
	}
}

func FuzzParseFormula(f *testing.F) {
	for _, s := range []string{"a / b", "metric::x() * (1 - y)", "-(a+b)/-c", `"q q" ÷ 2`, "1e3", "sqrt(abs(a / n - (s / n) * (s / n)))"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, err := ParseFormula(s)
		if err != nil {
			return
		}
		texts := []string{x.String()}
		if x.CubePLNames() {
			texts = append(texts, x.CubePL())
		}
		for _, text := range texts {
			y, err := ParseFormula(text)
			if err != nil {
				t.Fatalf("%q rendered as %q does not parse: %v", s, text, err)
			}
			if y.String() != x.String() {
				t.Fatalf("%q: %q re-reads as %q", s, x.String(), y.String())
			}
		}
	})
}
