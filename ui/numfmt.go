package ui

import (
	"math"
	"strconv"
	"strings"
)

// NumberFormat says how the panes print values, in the style of the CUBE
// browser: fixed decimals, scientific notation for large magnitudes with a
// short exponent (1.23e4), and tiny magnitudes shown as zero.
type NumberFormat struct {
	Decimals  int // digits after the decimal point
	SciFrom   int // magnitudes ≥ 10^SciFrom are printed in scientific notation
	ZeroBelow int // magnitudes < 10^−ZeroBelow are printed (and ranked) as zero
}

// DefaultNumberFormat returns 2 decimals, scientific from 1e4, zero below 1e-7.
func DefaultNumberFormat() NumberFormat {
	return NumberFormat{Decimals: 2, SciFrom: 4, ZeroBelow: 7}
}

// ZeroThreshold returns the magnitude below which a value counts as zero.
func (f NumberFormat) ZeroThreshold() float64 { return math.Pow(10, -float64(f.ZeroBelow)) }

// Format prints v. NaN (undefined) prints as "-". Integer values (integer
// metrics in absolute mode) print without decimals unless scientific.
func (f NumberFormat) Format(v float64, integer bool) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	dec := max(f.Decimals, 0)
	if math.Abs(v) < f.ZeroThreshold() {
		v = 0 // also turns −0 into 0
	}
	if math.Abs(v) >= math.Pow(10, float64(f.SciFrom)) {
		s := strconv.FormatFloat(v, 'e', dec, 64)
		mant, exp, _ := strings.Cut(s, "e")
		n, err := strconv.Atoi(exp)
		if err != nil {
			return s
		}
		return mant + "e" + strconv.Itoa(n)
	}
	if integer {
		r := math.Round(v)
		if r == 0 {
			r = 0 // no "-0"
		}
		return strconv.FormatFloat(r, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', dec, 64)
}
