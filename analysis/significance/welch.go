package significance

import "math"

// DefaultAlpha is the false-discovery rate below which a q-value is
// called significant, and DefaultLevel the confidence level of the
// intervals.
const (
	DefaultAlpha = 0.05
	DefaultLevel = 0.95
)

// Test names a two-sample test.
type Test int

const (
	// Welch is Welch's unequal-variance t-test (the default).
	Welch Test = iota
	// MannWhitney is the Mann–Whitney U (Wilcoxon rank-sum) test, which
	// assumes no normal distribution; for a few runs with outliers.
	MannWhitney
)

func (t Test) String() string {
	if t == MannWhitney {
		return "Mann–Whitney U"
	}
	return "Welch's t"
}

// Comparison is the comparison of group A with group B.
type Comparison struct {
	Test   Test
	A, B   Sample
	Diff   float64 // mean(A) − mean(B)
	Stat   float64 // Welch: t; Mann–Whitney: U of A
	DF     float64 // Welch–Satterthwaite degrees of freedom (of the interval for Mann–Whitney too)
	P      float64 // two-sided p-value
	Exact  bool    // Mann–Whitney: p from the exact distribution of U
	CILow  float64 // confidence interval of Diff (Welch), at the Level asked for
	CIHigh float64
	Effect float64 // Hedges' g: Diff in pooled standard deviations, small-sample corrected
}

// WelchTest compares two summarised groups with Welch's t-test: t =
// (mean A − mean B) / √(s²A/nA + s²B/nB), with the Welch–Satterthwaite
// degrees of freedom, and the confidence interval Diff ± t(1−(1−level)/2,
// df)·SE (level 0 means DefaultLevel). Each group needs N ≥ 2.
//
// When neither group varies at all (every run measured the same value, as
// visit counts often are), the difference is certain: P is 0 when the
// means differ and 1 when they are equal, the interval is the difference
// itself.
func WelchTest(a, b Sample, level float64) Comparison {
	if level <= 0 || level >= 1 {
		level = DefaultLevel
	}
	c := Comparison{Test: Welch, A: a, B: b, Diff: a.Mean - b.Mean, Effect: HedgesG(a, b)}
	if a.N < 2 || b.N < 2 {
		c.Stat, c.DF, c.P, c.CILow, c.CIHigh = math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()
		return c
	}
	va, vb := a.Var/float64(a.N), b.Var/float64(b.N)
	se := math.Sqrt(va + vb)
	if se == 0 {
		c.DF = float64(a.N + b.N - 2)
		c.CILow, c.CIHigh = c.Diff, c.Diff
		if c.Diff == 0 {
			c.Stat, c.P = 0, 1
		} else {
			c.Stat, c.P = math.Copysign(math.Inf(1), c.Diff), 0
		}
		return c
	}
	c.Stat = c.Diff / se
	c.DF = (va + vb) * (va + vb) / (va*va/float64(a.N-1) + vb*vb/float64(b.N-1))
	c.P = studentTTwoSided(c.Stat, c.DF)
	half := StudentTQuantile(1-(1-level)/2, c.DF) * se
	c.CILow, c.CIHigh = c.Diff-half, c.Diff+half
	return c
}

// Options choose the test and the confidence level of Compare.
type Options struct {
	Test  Test
	Level float64 // of the interval; 0 means DefaultLevel
	// Method of the Mann–Whitney p-value (Auto: exact for fewer than 50
	// runs per group without ties, as R's wilcox.test).
	Method Method
}

// Compare compares the values of group a with those of group b with the
// test of opt. The interval and the effect size always come from the
// means and variances (as Welch's test takes them); the Mann–Whitney test
// replaces the statistic and the p-value only. Groups need at least two
// finite values each.
func Compare(a, b []float64, opt Options) (Comparison, error) {
	if err := checkValues("A", a); err != nil {
		return Comparison{}, err
	}
	if err := checkValues("B", b); err != nil {
		return Comparison{}, err
	}
	c := WelchTest(Describe(a), Describe(b), opt.Level)
	if opt.Test == MannWhitney {
		u, p, exact := MannWhitneyU(a, b, opt.Method)
		c.Test, c.Stat, c.P, c.Exact = MannWhitney, u, p, exact
	}
	return c, nil
}

// CohenD returns Cohen's d, (mean A − mean B) / s_pooled with s²_pooled =
// ((nA−1)s²A + (nB−1)s²B) / (nA+nB−2). ±Inf when the means differ and
// neither group varies; 0 when the means are equal.
func CohenD(a, b Sample) float64 {
	diff := a.Mean - b.Mean
	if diff == 0 {
		return 0
	}
	dfa, dfb := float64(a.N-1), float64(b.N-1)
	if dfa+dfb <= 0 {
		return math.NaN()
	}
	va, vb := a.Var, b.Var
	if a.N < 2 {
		va = 0
	}
	if b.N < 2 {
		vb = 0
	}
	sp := math.Sqrt((dfa*va + dfb*vb) / (dfa + dfb))
	if sp == 0 {
		return math.Copysign(math.Inf(1), diff)
	}
	return diff / sp
}

// HedgesG returns Hedges' g: Cohen's d times the small-sample correction
// J = Γ(m/2) / (√(m/2) Γ((m−1)/2)), m = nA+nB−2 (about 1 − 3/(4m−1)),
// which removes d's upward bias for a few runs.
func HedgesG(a, b Sample) float64 {
	d := CohenD(a, b)
	m := float64(a.N + b.N - 2)
	if m < 2 || math.IsInf(d, 0) || math.IsNaN(d) {
		return d
	}
	l1, _ := math.Lgamma(m / 2)
	l2, _ := math.Lgamma((m - 1) / 2)
	return d * math.Exp(l1-l2) / math.Sqrt(m/2)
}
