package significance

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// R's documentation example of t.test (the sleep data, Welch's test):
//
//	t.test(extra ~ group, data = sleep)
//	t = -1.8608, df = 17.776, p-value = 0.07939
//	95 percent confidence interval: -3.3654832  0.2054832
//	mean in group 1 0.75, mean in group 2 2.33
var sleep1 = []float64{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0}
var sleep2 = []float64{1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4}

func TestWelchSleep(t *testing.T) {
	c, err := Compare(sleep1, sleep2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"mean A", c.A.Mean, 0.75, 1e-12},
		{"mean B", c.B.Mean, 2.33, 1e-12},
		{"t", c.Stat, -1.8608, 1e-4},
		{"df", c.DF, 17.776, 1e-4},
		{"p", c.P, 0.07939, 1e-4},
		{"ci low", c.CILow, -3.3654832, 1e-7},
		{"ci high", c.CIHigh, 0.2054832, 1e-7},
		// Hedges' g by hand from R's sd(): sd1 = 1.789010, sd2 = 2.002249;
		// s_pooled = √((1.789010² + 2.002249²)/2) = 1.898626;
		// d = (0.75 − 2.33)/1.898626 = −0.832182;
		// J = Γ(9)/(√9·Γ(8.5)) = 40320/(3·14034.41) = 0.957647; g = −0.796937.
		{"effect", c.Effect, -0.796937, 1e-5},
		{"cohen d", CohenD(c.A, c.B), -0.832182, 1e-5},
	}
	for _, ch := range checks {
		if !near(ch.got, ch.want, ch.tol) {
			t.Errorf("%s = %.8g, want %.8g", ch.name, ch.got, ch.want)
		}
	}
	// Swapping the groups negates t, the difference and the interval.
	r, _ := Compare(sleep2, sleep1, Options{})
	if !near(r.Stat, -c.Stat, 1e-12) || !near(r.P, c.P, 1e-12) || !near(r.CILow, -c.CIHigh, 1e-12) {
		t.Errorf("swapped: t %g p %g ci [%g, %g]", r.Stat, r.P, r.CILow, r.CIHigh)
	}
}

// Student's t quantiles from printed tables (e.g. any statistics
// textbook's appendix: t(0.975, 10) = 2.228, t(0.975, 1) = 12.706,
// t(0.995, 5) = 4.032, t(0.95, 30) = 1.697, t(0.975, ∞) = 1.960).
func TestStudentT(t *testing.T) {
	tests := []struct{ p, df, t float64 }{
		{0.975, 10, 2.228}, {0.975, 1, 12.706}, {0.995, 5, 4.032}, {0.95, 30, 1.697},
		{0.975, 1e7, 1.960}, {0.975, math.Inf(1), 1.960}, {0.025, 10, -2.228},
	}
	for _, tt := range tests {
		if q := StudentTQuantile(tt.p, tt.df); !near(q, tt.t, 5e-4) {
			t.Errorf("quantile(%g, %g) = %g, want %g", tt.p, tt.df, q, tt.t)
		}
		if p := StudentTCDF(tt.t, tt.df); math.Abs(p-tt.p) > 2e-4 {
			t.Errorf("cdf(%g, %g) = %g, want %g", tt.t, tt.df, p, tt.p)
		}
	}
	// df = 1 is the Cauchy distribution: P(T ≤ 1) = 3/4 exactly.
	if p := StudentTCDF(1, 1); !near(p, 0.75, 1e-14) {
		t.Errorf("cdf(1, 1) = %.17g, want 0.75", p)
	}
	// df = 2 has the closed form P(T ≤ t) = ½ + t/(2√(t²+2)).
	for _, x := range []float64{-5, -0.3, 0.7, 3, 40} {
		want := 0.5 + x/(2*math.Sqrt(x*x+2))
		if p := StudentTCDF(x, 2); !near(p, want, 1e-13) {
			t.Errorf("cdf(%g, 2) = %.17g, want %.17g", x, p, want)
		}
	}
	// A tiny two-sided p-value keeps its precision: for df = 2 it is
	// 1 − t/√(t²+2), i.e. about 2/(2t²) = 1e-12 at t = 1e6.
	if p := studentTTwoSided(1e6, 2); !near(p, 1e-12, 1e-5) {
		t.Errorf("two-sided(1e6, 2) = %g, want 1e-12", p)
	}
}

func TestMannWhitney(t *testing.T) {
	// scipy's documentation example of mannwhitneyu (ages of male and
	// female employees): U1 = 17.0, p = 0.1111111111111111 (exact), and
	// with method="asymptotic" p = 0.11134688653314041.
	male := []float64{19, 22, 16, 29, 24}
	female := []float64{20, 11, 17, 12}
	u, p, exact := MannWhitneyU(male, female, Auto)
	if u != 17 || !exact || !near(p, 0.1111111111111111, 1e-12) {
		t.Errorf("exact: U %g p %.17g exact %v, want 17, 0.1111111111111111, true", u, p, exact)
	}
	u, p, exact = MannWhitneyU(male, female, Asymptotic)
	if u != 17 || exact || !near(p, 0.11134688653314041, 1e-12) {
		t.Errorf("asymptotic: U %g p %.17g exact %v, want 17, 0.11134688653314041, false", u, p, exact)
	}
	// R's documentation example of wilcox.test (Hollander & Wolfe):
	// wilcox.test(x, y, alternative = "g") gives W = 35, p-value = 0.1272,
	// so the two-sided exact p-value is 2·0.1272 = 0.2544.
	x := []float64{0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46}
	y := []float64{1.15, 0.88, 0.90, 0.74, 1.21}
	u, p, exact = MannWhitneyU(x, y, Auto)
	if u != 35 || !exact || math.Abs(p-0.2544) > 1e-4 {
		t.Errorf("wilcox: U %g p %g exact %v, want 35, 0.2544, true", u, p, exact)
	}
	// By hand: {1,2} against {3,4}: of the C(4,2) = 6 equally likely
	// arrangements one has U = 0 and one U = 4, so p = 2·1/6.
	if u, p, _ := MannWhitneyU([]float64{1, 2}, []float64{3, 4}, Exact); u != 0 || !near(p, 1.0/3, 1e-14) {
		t.Errorf("by hand: U %g p %g, want 0, 1/3", u, p)
	}
	// NAG's example of g08ahf (tied values, groups of 16 and 23): U = 86,
	// normal statistic z = −2.8039 (NAG's z carries the continuity
	// correction and the tie-corrected variance), approximate one-tailed
	// probability 0.0025; two-sided p = erfc(2.8039/√2) = 0.00505.
	g1 := []float64{13, 6, 12, 7, 12, 7, 10, 7, 10, 7, 16, 7, 10, 8, 9, 8}
	g2 := []float64{17, 6, 10, 8, 15, 8, 15, 10, 15, 10, 14, 10, 14, 11, 14, 11, 13, 12, 13, 12, 13, 12, 12}
	u, p, exact = MannWhitneyU(g1, g2, Auto)
	if want := math.Erfc(2.8039 / math.Sqrt2); u != 86 || exact || !near(p, want, 1e-4) {
		t.Errorf("NAG: U %g p %g exact %v, want 86, %g, false", u, p, exact, want)
	}
}

// TestBenjaminiHochberg uses the 15 p-values of Benjamini & Hochberg's
// 1995 paper, where the procedure at q = 0.05 rejects the four smallest.
// The q-values by hand, p(i)·15/i then the running minimum from the top:
// 0.0015, 0.003, 0.0095, 0.035625, 0.0603, min(0.0695, 0.0638571) =
// 0.0638571, 0.0638571 (0.0298·15/7), 0.0645, 0.0765, 0.486, 0.5811818,
// 0.714875, 0.7532308, 0.8132143, 1.
func TestBenjaminiHochberg(t *testing.T) {
	p := []float64{0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000}
	want := []float64{0.0015, 0.003, 0.0095, 0.035625, 0.0603, 0.0638571, 0.0638571, 0.0645, 0.0765, 0.486, 0.5811818, 0.714875, 0.7532308, 0.8132143, 1}
	// Shuffled input: the q-values follow their p-values.
	perm := []int{7, 3, 14, 0, 9, 12, 1, 5, 11, 2, 13, 6, 10, 4, 8}
	in := make([]float64, len(p))
	for i, j := range perm {
		in[i] = p[j]
	}
	in = append(in, math.NaN())
	q := BenjaminiHochberg(in)
	rejected := 0
	for i, j := range perm {
		if !near(q[i], want[j], 1e-6) {
			t.Errorf("q of p = %g: %g, want %g", p[j], q[i], want[j])
		}
		if Significant(q[i], 0) {
			rejected++
		}
	}
	if rejected != 4 {
		t.Errorf("%d significant at 0.05, want 4", rejected)
	}
	if !math.IsNaN(q[len(q)-1]) || Significant(q[len(q)-1], 0) {
		t.Errorf("NaN p-value: q %g", q[len(q)-1])
	}
}

func TestDescribe(t *testing.T) {
	// 2, 4, 4, 4, 5, 5, 7, 9: mean 5, Σ(x−5)² = 32, sample variance 32/7.
	s := Describe([]float64{2, 4, 4, 4, 5, 5, 7, 9})
	if s.N != 8 || s.Mean != 5 || !near(s.Var, 32.0/7, 1e-14) {
		t.Errorf("Describe = %+v", s)
	}
	// 9, 10, 11: sd 1, mean 10: CV 0.1. Large offsets keep their variance.
	if cv := Describe([]float64{9, 10, 11}).CV(); !near(cv, 0.1, 1e-14) {
		t.Errorf("CV = %g, want 0.1", cv)
	}
	if v := Describe([]float64{1e9 + 9, 1e9 + 10, 1e9 + 11}).Var; !near(v, 1, 1e-9) {
		t.Errorf("variance with offset 1e9 = %g, want 1", v)
	}
	if cv := Describe([]float64{3}).CV(); !math.IsNaN(cv) {
		t.Errorf("CV of one value = %g, want NaN", cv)
	}
}

func TestDegenerate(t *testing.T) {
	if _, err := Compare([]float64{1}, []float64{1, 2}, Options{}); !errors.Is(err, ErrTooFewRuns) {
		t.Errorf("one run: %v", err)
	}
	if _, err := Compare([]float64{1, math.NaN()}, []float64{1, 2}, Options{}); err == nil {
		t.Error("NaN accepted")
	}
	// No noise at all: a difference is certain, an equality is no difference.
	c, _ := Compare([]float64{5, 5, 5}, []float64{3, 3}, Options{})
	if c.P != 0 || c.CILow != 2 || c.CIHigh != 2 || !math.IsInf(c.Effect, 1) {
		t.Errorf("constant groups that differ: %+v", c)
	}
	c, _ = Compare([]float64{5, 5, 5}, []float64{5, 5}, Options{})
	if c.P != 1 || c.Effect != 0 {
		t.Errorf("constant equal groups: %+v", c)
	}
	// One constant group: the degrees of freedom are the other's n − 1.
	c, _ = Compare([]float64{5, 5, 5}, []float64{1, 2, 3, 4}, Options{})
	if !near(c.DF, 3, 1e-12) {
		t.Errorf("df with one constant group = %g, want 3", c.DF)
	}
}

// TestFalsePositiveRate: for groups drawn from one normal distribution
// the p-values are uniform, so 5 % of them fall below 0.05 (binomial
// standard error over 4,000 tests: 0.34 %), and the exact Mann–Whitney
// test (discrete) at most 5 %.
func TestFalsePositiveRate(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 4000
	var welch, mw int
	a, b := make([]float64, 5), make([]float64, 6)
	for range n {
		for i := range a {
			a[i] = 10 + r.NormFloat64()
		}
		for i := range b {
			b[i] = 10 + 3*r.NormFloat64() // unequal variances: Welch's case
		}
		c, _ := Compare(a, b, Options{})
		if c.P < 0.05 {
			welch++
		}
		if _, p, _ := MannWhitneyU(a, b, Auto); p < 0.05 {
			mw++
		}
	}
	if rate := float64(welch) / n; rate < 0.04 || rate > 0.06 {
		t.Errorf("Welch: %.2f %% below 0.05, want 5 %%", 100*rate)
	}
	if rate := float64(mw) / n; rate > 0.065 {
		t.Errorf("Mann–Whitney: %.2f %% below 0.05, want ≤ 5 %%", 100*rate)
	}
}

func BenchmarkCompare(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x, y := make([]float64, 5), make([]float64, 5)
	for i := range x {
		x[i], y[i] = r.Float64(), r.Float64()+0.5
	}
	b.ReportAllocs()
	for b.Loop() {
		Compare(x, y, Options{})
	}
}

func BenchmarkMannWhitneyExact(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x, y := make([]float64, 30), make([]float64, 30)
	for i := range x {
		x[i], y[i] = r.Float64(), r.Float64()+0.2
	}
	b.ReportAllocs()
	for b.Loop() {
		MannWhitneyU(x, y, Auto)
	}
}

// TestQuantileInvertsCDF over degrees of freedom from below 1 to large,
// fractional ones included (Welch's are).
func TestQuantileInvertsCDF(t *testing.T) {
	for _, df := range []float64{0.5, 1, 1.7, 2, 3, 4.25, 17.776, 100, 1e4} {
		for _, p := range []float64{0.5005, 0.6, 0.9, 0.975, 0.995, 0.9999999, 0.001} {
			q := StudentTQuantile(p, df)
			if got := StudentTCDF(q, df); math.Abs(got-p) > 1e-12 {
				t.Errorf("CDF(quantile(%g, %g) = %g) = %.15g", p, df, q, got)
			}
		}
	}
}

// TestMannWhitneySymmetric: swapping the groups gives U' = n1·n2 − U and
// the same two-sided p-value, exact and asymptotic.
func TestMannWhitneySymmetric(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range [][2]int{{3, 7}, {12, 9}, {40, 45}, {60, 55}} {
		a, b := make([]float64, n[0]), make([]float64, n[1])
		for i := range a {
			a[i] = r.Float64()
		}
		for i := range b {
			b[i] = r.Float64() + 0.1
		}
		u1, p1, e1 := MannWhitneyU(a, b, Auto)
		u2, p2, e2 := MannWhitneyU(b, a, Auto)
		if u1+u2 != float64(n[0]*n[1]) || !near(p1, p2, 1e-12) || e1 != e2 || e1 != (n[0] < 50 && n[1] < 50) {
			t.Errorf("%v: U %g + %g, p %g vs %g, exact %v %v", n, u1, u2, p1, p2, e1, e2)
		}
	}
}

func TestFormatP(t *testing.T) {
	for _, tt := range []struct {
		p    float64
		want string
	}{
		{math.NaN(), "–"}, {0, "0"}, {1e-17, "<1e-16"}, {1e-16, "1e-16"}, {0.012345, "0.0123"}, {1, "1"},
	} {
		if got := FormatP(tt.p, "–"); got != tt.want {
			t.Errorf("FormatP(%g) = %q, want %q", tt.p, got, tt.want)
		}
	}
}
