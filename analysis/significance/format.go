package significance

import (
	"math"
	"strconv"
)

// FormatP prints a p- or q-value for people: 3 significant digits, "0"
// for zero and "<1e-16" below double precision's resolution of 1 − p;
// none where there is no value (NaN: no test was possible).
func FormatP(p float64, none string) string {
	switch {
	case math.IsNaN(p):
		return none
	case p == 0:
		return "0"
	case p < 1e-16:
		return "<1e-16"
	}
	return strconv.FormatFloat(p, 'g', 3, 64)
}
