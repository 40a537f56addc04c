package analysis

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// MinModelPoints is the number of trials from which a series fits a
// performance model per call path.
const MinModelPoints = 4

// Term is one term x^(Num/Den)·log₂(x)^Log of the performance-model
// normal form.
type Term struct {
	Num, Den, Log int
}

// Exponent returns Num/Den.
func (t Term) Exponent() float64 { return float64(t.Num) / float64(t.Den) }

// Eval returns the term at x.
func (t Term) Eval(x float64) float64 {
	v := 1.0
	if t.Num != 0 {
		v = math.Pow(x, t.Exponent())
	}
	if t.Log != 0 {
		v *= math.Pow(math.Log2(x), float64(t.Log))
	}
	return v
}

// Format writes the term over the parameter p: "p^(1/3)·log2(p)^2".
func (t Term) Format(p string) string {
	var parts []string
	switch {
	case t.Num == 0:
	case t.Den == 1 && t.Num == 1:
		parts = append(parts, p)
	case t.Den == 1 && t.Num > 0:
		parts = append(parts, p+"^"+strconv.Itoa(t.Num))
	case t.Den == 1:
		parts = append(parts, fmt.Sprintf("%s^(%d)", p, t.Num))
	default:
		parts = append(parts, fmt.Sprintf("%s^(%d/%d)", p, t.Num, t.Den))
	}
	switch t.Log {
	case 0:
	case 1:
		parts = append(parts, "log2("+p+")")
	case 2:
		parts = append(parts, fmt.Sprintf("log2(%s)^2", p))
	default:
		parts = append(parts, fmt.Sprintf("log2(%s)^(%d)", p, t.Log))
	}
	return strings.Join(parts, "·")
}

// ModelTerms are the terms a single-parameter model is chosen from:
// Extra-P's default search space, the exponents i of {0, 1/4, 1/3, 1/2,
// 2/3, 3/4, 4/5, 1, 5/4, 4/3, 3/2, 5/3, 7/4, 2, 9/4, 7/3, 5/2, 8/3, 11/4,
// 3} with the logarithm's exponents j of {0, 1, 2} that Extra-P pairs
// with them.
var ModelTerms = []Term{
	{0, 1, 1}, {0, 1, 2}, {1, 4, 0}, {1, 3, 0}, {1, 4, 1}, {1, 3, 1}, {1, 4, 2}, {1, 3, 2},
	{1, 2, 0}, {1, 2, 1}, {1, 2, 2}, {2, 3, 0}, {3, 4, 0}, {2, 3, 1}, {3, 4, 1}, {4, 5, 0},
	{2, 3, 2}, {3, 4, 2}, {1, 1, 0}, {1, 1, 1}, {1, 1, 2}, {5, 4, 0}, {5, 4, 1}, {4, 3, 0},
	{4, 3, 1}, {3, 2, 0}, {3, 2, 1}, {3, 2, 2}, {5, 3, 0}, {7, 4, 0}, {2, 1, 0}, {2, 1, 1},
	{2, 1, 2}, {9, 4, 0}, {7, 3, 0}, {5, 2, 0}, {5, 2, 1}, {5, 2, 2}, {8, 3, 0}, {11, 4, 0},
	{3, 1, 0}, {3, 1, 1},
}

// NegativeModelTerms are the terms Extra-P adds for strong scaling, where
// values fall as x grows: x^-i·log₂(x)^-j.
var NegativeModelTerms = []Term{
	{0, 1, -1}, {0, 1, -2}, {-1, 4, -1}, {-1, 3, -1}, {-1, 4, -2}, {-1, 3, -2}, {-1, 2, -1}, {-1, 2, -2},
	{-2, 3, -1}, {-3, 4, -1}, {-2, 3, -2}, {-3, 4, -2}, {-1, 1, -1}, {-1, 1, -2}, {-5, 4, -1}, {-4, 3, -1},
	{-3, 2, -1}, {-3, 2, -2}, {-2, 1, -1}, {-2, 1, -2}, {-5, 2, -1}, {-5, 2, -2}, {-3, 1, -1},
	{-1, 4, 0}, {-1, 3, 0}, {-1, 2, 0}, {-2, 3, 0}, {-3, 4, 0}, {-4, 5, 0}, {-1, 1, 0}, {-5, 4, 0},
	{-4, 3, 0}, {-3, 2, 0}, {-5, 3, 0}, {-7, 4, 0}, {-2, 1, 0}, {-9, 4, 0}, {-7, 3, 0}, {-5, 2, 0},
	{-8, 3, 0}, {-11, 4, 0}, {-3, 1, 0},
}

// Model is a fitted performance model f(x) = C0 + C1·Term(x), or the
// constant C0 when Constant.
type Model struct {
	C0, C1   float64
	Term     Term
	Constant bool
	// AdjR2 and SMAPE (in percent) measure the fit over all points;
	// CVSMAPE is the leave-one-out SMAPE by which the model was chosen.
	AdjR2, SMAPE, CVSMAPE float64
}

// Eval returns the model's value at x.
func (m *Model) Eval(x float64) float64 {
	if m.Constant {
		return m.C0
	}
	return m.C0 + m.C1*m.Term.Eval(x)
}

// Format writes the model over the parameter p with 4 significant
// digits: "0.512 + 1.07·p^(1/3)".
func (m *Model) Format(p string) string {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }
	if m.Constant {
		return g(m.C0)
	}
	t := g(m.C1) + "·" + m.Term.Format(p)
	if m.C0 == 0 {
		return t
	}
	if m.C1 < 0 {
		return g(m.C0) + " − " + g(-m.C1) + "·" + m.Term.Format(p)
	}
	return g(m.C0) + " + " + t
}

// Constants of the model search, as in Extra-P: a constant coefficient
// this small relative to the smallest value is taken as 0 during the
// cross-validation, and a term that nowhere contributes this share of
// the value is not taken.
const (
	cleanConstant   = 0.0005
	minContribution = 0.0005
)

// FitModel fits the one-parameter performance-model normal form
// c₀ + c₁·x^i·log₂(x)^j to the points (xs, ys) as Extra-P's basic
// modeler does: starting from the constant mean, every term of
// ModelTerms is fitted by least squares and scored by leave-one-out
// cross-validation; the one with the smallest symmetric mean absolute
// percentage error (SMAPE) wins if it beats the constant's. With
// negative (strong scaling, where values fall as x grows) the terms of
// NegativeModelTerms are tried too. Logarithmic terms are left out when
// an x is below 1 (with negative: not above 1). It wants at least
// MinModelPoints points with positive, finite x and finite y.
func FitModel(xs, ys []float64, negative bool) (Model, error) {
	m, err := NewModeler(xs, negative)
	if err != nil {
		return Model{}, err
	}
	return m.Fit(ys)
}

// Modeler fits models over one set of x values (FitModel's search), with
// the terms' values worked out once for the many call paths of a series.
type Modeler struct {
	xs    []float64
	terms []Term
	tvals [][]float64 // per term, its value at each x
}

// NewModeler returns the modeler over xs (at least MinModelPoints
// positive, finite values), with strong scaling's negative terms when
// negative.
func NewModeler(xs []float64, negative bool) (*Modeler, error) {
	if len(xs) < MinModelPoints {
		return nil, fmt.Errorf("model: %d points; want at least %d", len(xs), MinModelPoints)
	}
	logOK := true
	for _, x := range xs {
		if !(x > 0) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("model: x = %v: want a positive, finite x", x)
		}
		logOK = logOK && (x > 1 || !negative && x == 1)
	}
	terms := ModelTerms
	if negative {
		terms = append(slices.Clip(terms), NegativeModelTerms...)
	}
	m := &Modeler{xs: slices.Clone(xs)}
	for _, term := range terms {
		if term.Log != 0 && !logOK {
			continue
		}
		ts := make([]float64, len(xs))
		for i, x := range xs {
			ts[i] = term.Eval(x)
		}
		m.terms = append(m.terms, term)
		m.tvals = append(m.tvals, ts)
	}
	return m, nil
}

// Fit returns the model of the values ys, one per x of the modeler.
func (m *Modeler) Fit(ys []float64) (Model, error) {
	n := len(m.xs)
	if n != len(ys) {
		return Model{}, fmt.Errorf("model: %d x values for %d values", n, len(ys))
	}
	for i, y := range ys {
		if math.IsNaN(y) || math.IsInf(y, 0) {
			return Model{}, fmt.Errorf("model: point (%v, %v): want a finite value", m.xs[i], y)
		}
	}
	mean := 0.0
	for _, y := range ys {
		mean += y
	}
	mean /= float64(n)
	tss := 0.0
	for _, y := range ys {
		tss += (y - mean) * (y - mean)
	}
	best := Model{C0: mean, Constant: true, SMAPE: smape(ys, func(int) float64 { return mean })}
	best.CVSMAPE = best.SMAPE
	if tss == 0 {
		best.AdjR2 = 1
		return best, nil
	}
	var ts []float64
	for k, term := range m.terms {
		tk := m.tvals[k]
		cv, ok := crossValidate(tk, ys)
		if !ok {
			continue
		}
		c0, c1, ok := leastSquares(tk, ys, -1)
		if !ok || c1 == 0 || !contributes(c1, tk, ys) {
			continue
		}
		if cv < best.CVSMAPE {
			best = Model{C0: c0, C1: c1, Term: term, CVSMAPE: cv}
			ts = tk
		}
	}
	pred := func(i int) float64 { return best.C0 + best.C1*ts[i] }
	if best.Constant {
		pred = func(int) float64 { return best.C0 }
	}
	best.SMAPE = smape(ys, pred)
	rss := 0.0
	for i, y := range ys {
		d := pred(i) - y
		rss += d * d
	}
	params := 1.0 // terms besides the constant
	if best.Constant {
		params = 0
	}
	best.AdjR2 = 1 - rss/tss*float64(n-1)/(float64(n)-params-1)
	return best, nil
}

// crossValidate returns the leave-one-out SMAPE of c₀ + c₁·t; ok false
// when a fit is not defined or not finite.
func crossValidate(ts, ys []float64) (float64, bool) {
	n := len(ts)
	sum, rss := 0.0, 0.0
	for k := range n {
		c0, c1, ok := leastSquares(ts, ys, k)
		if !ok {
			return 0, false
		}
		lo := math.Inf(1)
		for i, y := range ys {
			if i != k {
				lo = math.Min(lo, y)
			}
		}
		if lo == 0 && math.Abs(c0) < cleanConstant || lo != 0 && math.Abs(c0/lo) < cleanConstant {
			c0 = 0
		}
		p := c0 + c1*ts[k]
		d := p - ys[k]
		rss += d * d
		if s := math.Abs(ys[k]) + math.Abs(p); s != 0 {
			sum += 2 * math.Abs(d) / s
		}
	}
	if math.IsNaN(rss) || math.IsInf(rss, 0) {
		return 0, false
	}
	return sum / float64(n) * 100, true
}

// leastSquares fits y = c₀ + c₁·t to the points except the one at skip
// (none when skip < 0); ok false when the t values do not vary.
func leastSquares(ts, ys []float64, skip int) (c0, c1 float64, ok bool) {
	var mt, my, m float64
	for i := range ts {
		if i != skip {
			mt += ts[i]
			my += ys[i]
			m++
		}
	}
	mt /= m
	my /= m
	var stt, sty float64
	for i := range ts {
		if i != skip {
			dt := ts[i] - mt
			stt += dt * dt
			sty += dt * (ys[i] - my)
		}
	}
	if stt == 0 || math.IsInf(stt, 0) || math.IsNaN(stt) {
		return 0, 0, false
	}
	c1 = sty / stt
	c0 = my - c1*mt
	return c0, c1, !math.IsNaN(c0) && !math.IsInf(c0, 0) && !math.IsNaN(c1) && !math.IsInf(c1, 0)
}

// contributes reports whether the term c₁·t reaches minContribution of
// the value somewhere.
func contributes(c1 float64, ts, ys []float64) bool {
	for i := range ts {
		if ys[i] == 0 {
			if c1*ts[i] != 0 {
				return true
			}
			continue
		}
		if math.Abs(c1*ts[i]/ys[i]) >= minContribution {
			return true
		}
	}
	return false
}

// smape returns the symmetric mean absolute percentage error of the
// predictions pred(i) of ys, in percent; points where both are 0 count
// as exact.
func smape(ys []float64, pred func(int) float64) float64 {
	sum := 0.0
	for i, y := range ys {
		p := pred(i)
		if s := math.Abs(y) + math.Abs(p); s != 0 {
			sum += 2 * math.Abs(p-y) / s
		}
	}
	return sum / float64(len(ys)) * 100
}

var errNoName = errors.New("no number in the name")

// XFromName returns the number the first group of re captures in the
// nearest component of path that matches it (the file name, then its
// directories outwards), as Extra-P reads mm.x25y1z1 for x = 25.
func XFromName(re *regexp.Regexp, path string) (float64, error) {
	comps := strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '\\' })
	for i := len(comps) - 1; i >= 0; i-- {
		m := re.FindStringSubmatch(comps[i])
		if m == nil {
			continue
		}
		s := m[0]
		if len(m) > 1 {
			s = m[1]
		}
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || !(x > 0) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%s: %q is not a positive number", path, s)
		}
		return x, nil
	}
	return 0, fmt.Errorf("%s: %w", path, errNoName)
}
