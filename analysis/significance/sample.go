package significance

import (
	"errors"
	"fmt"
	"math"
)

// Sample summarises one group of repeated measurements: its size, mean
// and sample variance (divided by n − 1).
type Sample struct {
	N    int
	Mean float64
	Var  float64
}

// Describe summarises x (Welford's update, stable for values of any
// magnitude). The variance of fewer than two values is NaN.
func Describe(x []float64) Sample {
	s := Sample{N: len(x)}
	if len(x) == 0 {
		s.Mean, s.Var = math.NaN(), math.NaN()
		return s
	}
	var m, m2 float64
	for i, v := range x {
		d := v - m
		m += d / float64(i+1)
		m2 += d * (v - m)
	}
	s.Mean = m
	if len(x) < 2 {
		s.Var = math.NaN()
	} else {
		s.Var = max(m2, 0) / float64(len(x)-1)
	}
	return s
}

// SD returns the sample standard deviation.
func (s Sample) SD() float64 { return math.Sqrt(s.Var) }

// CV returns the coefficient of variation, the sample standard deviation
// relative to the mean (0.05 is 5 %): how much repeated runs of one
// configuration scatter. NaN when the mean is 0 or fewer than two values
// were measured.
func (s Sample) CV() float64 {
	if s.N < 2 || s.Mean == 0 {
		return math.NaN()
	}
	return s.SD() / math.Abs(s.Mean)
}

// ErrTooFewRuns is returned when a group has fewer than two values: its
// variance, and so any test, is undefined.
var ErrTooFewRuns = errors.New("a group needs at least two runs to estimate its noise")

// checkValues refuses groups a test cannot use.
func checkValues(name string, x []float64) error {
	if len(x) < 2 {
		return fmt.Errorf("group %s has %d value(s): %w", name, len(x), ErrTooFewRuns)
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("group %s: value %d is %v, not a number a test can use", name, i+1, v)
		}
	}
	return nil
}
