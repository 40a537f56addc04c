package significance

import "math"

// StudentTCDF returns P(T ≤ t) for Student's t distribution with df
// degrees of freedom (df > 0; +Inf is the standard normal).
func StudentTCDF(t, df float64) float64 {
	switch {
	case math.IsNaN(t) || math.IsNaN(df) || df <= 0:
		return math.NaN()
	case math.IsInf(df, 1):
		return NormalCDF(t)
	case math.IsInf(t, 1):
		return 1
	case math.IsInf(t, -1):
		return 0
	}
	// P(|T| > |t|) = I_{df/(df+t²)}(df/2, 1/2)
	tail := 0.5 * tTail(t, df)
	if t < 0 {
		return tail
	}
	return 1 - tail
}

// studentTTwoSided returns P(|T| ≥ |t|), computed directly so that tiny
// p-values keep their precision.
func studentTTwoSided(t, df float64) float64 {
	switch {
	case math.IsNaN(t) || math.IsNaN(df) || df <= 0:
		return math.NaN()
	case math.IsInf(t, 0):
		return 0
	case math.IsInf(df, 1):
		return math.Erfc(math.Abs(t) / math.Sqrt2)
	}
	return tTail(t, df)
}

// tTail returns P(|T| ≥ |t|) = I_x(df/2, ½) with x = df/(df+t²), and
// 1 − x = t²/(df+t²) computed as such, not by a subtraction that would
// lose the digits of a small t.
func tTail(t, df float64) float64 {
	return regIncBeta(df/(df+t*t), t*t/(df+t*t), df/2, 0.5)
}

// StudentTQuantile returns t with StudentTCDF(t, df) = p, 0 < p < 1:
// closed forms for df = 1 and 2, else Newton's method from the
// Cornish–Fisher expansion around the normal quantile. For t > 0 the CDF
// is concave, so every Newton step after the first lands at or below the
// root and the steps then rise to it.
func StudentTQuantile(p, df float64) float64 {
	if math.IsNaN(p) || p <= 0 || p >= 1 || math.IsNaN(df) || df <= 0 {
		return math.NaN()
	}
	switch {
	case p == 0.5:
		return 0
	case p < 0.5:
		return -StudentTQuantile(1-p, df)
	case df == 1:
		return math.Tan(math.Pi * (p - 0.5))
	case df == 2:
		return (2*p - 1) * math.Sqrt(2/(4*p*(1-p)))
	}
	z := math.Sqrt2 * math.Erfinv(2*p-1)
	if math.IsInf(df, 1) {
		return z
	}
	z3, z5 := z*z*z, z*z*z*z*z
	t := z + (z3+z)/(4*df) + (5*z5+16*z3+3*z)/(96*df*df)
	lc, _ := math.Lgamma((df + 1) / 2)
	ld, _ := math.Lgamma(df / 2)
	logNorm := lc - ld - 0.5*math.Log(df*math.Pi)
	for range 100 {
		pdf := math.Exp(logNorm - (df+1)/2*math.Log1p(t*t/df))
		step := (StudentTCDF(t, df) - p) / pdf
		if math.IsNaN(step) || math.IsInf(step, 0) {
			break
		}
		next := t - step
		if next <= 0 {
			next = t / 2 // a first step past 0 from far above
		}
		if math.Abs(next-t) <= 1e-14*math.Abs(t) {
			return next
		}
		t = next
	}
	return t
}

// NormalCDF returns P(Z ≤ z) for the standard normal distribution.
func NormalCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// regIncBeta returns the regularised incomplete beta function I_x(a, b)
// by its continued fraction (modified Lentz), on the side of x where it
// converges fast; y is 1 − x.
func regIncBeta(x, y, a, b float64) float64 {
	switch {
	case x <= 0:
		return 0
	case y <= 0:
		return 1
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(lab - la - lb + a*math.Log(x) + b*math.Log(y))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(x, a, b) / a
	}
	return 1 - front*betaCF(y, b, a)/b
}

func betaCF(x, a, b float64) float64 {
	const tiny = 1e-300
	const eps = 1e-16
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 10000; m++ {
		fm := float64(m)
		m2 := 2 * fm
		aa := fm * (b - fm) * x / ((qam + m2) * (a + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		h *= d * c
		aa = -(a + fm) * (qab + fm) * x / ((a + m2) * (qap + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}
