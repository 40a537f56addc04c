package tau

import (
	"math"
	"strconv"
)

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseFloat parses a decimal number as strconv.ParseFloat does, with the
// same result to the last bit. Numbers of at most 15 significant digits
// whose decimal exponent lies within ±22 — what profile writers print —
// take a fast path without allocating: the mantissa and the power of ten
// are both exact, so one multiplication or division rounds correctly
// (Clinger's fast path). Everything else goes to strconv.
func parseFloat(b []byte) (float64, bool) {
	i, neg := 0, false
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		neg = b[i] == '-'
		i++
	}
	var mant uint64
	digits, exp, sawDigit := 0, 0, false
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		sawDigit = true
		if mant == 0 && b[i] == '0' {
			continue
		}
		mant = mant*10 + uint64(b[i]-'0')
		digits++
		if digits > 15 {
			return slowFloat(b)
		}
	}
	if i < len(b) && b[i] == '.' {
		for i++; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			sawDigit = true
			if mant == 0 && b[i] == '0' {
				exp--
				continue
			}
			mant = mant*10 + uint64(b[i]-'0')
			digits++
			exp--
			if digits > 15 {
				return slowFloat(b)
			}
		}
	}
	if !sawDigit {
		return slowFloat(b)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		eneg := false
		if i < len(b) && (b[i] == '-' || b[i] == '+') {
			eneg = b[i] == '-'
			i++
		}
		start, e := i, 0
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			if e > 1000 {
				return slowFloat(b)
			}
			e = e*10 + int(b[i]-'0')
		}
		if i == start {
			return slowFloat(b)
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i != len(b) {
		return slowFloat(b)
	}
	f := float64(mant)
	switch {
	case mant == 0:
	case exp == 0:
	case exp > 0 && exp <= 22:
		f *= pow10[exp]
	case exp < 0 && exp >= -22:
		f /= pow10[-exp]
	default:
		return slowFloat(b)
	}
	if neg {
		f = -f
	}
	return f, true
}

func slowFloat(b []byte) (float64, bool) {
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}
