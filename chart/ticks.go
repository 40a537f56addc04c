package chart

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// distinctTicks are gonum's default ticks labelled with as few
// significant digits as tell neighbouring labels apart (its own labels
// can all read "1e+02" on a narrow range such as 100.42 to 100.50).
type distinctTicks struct{}

func (distinctTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for digits := 1; digits <= 15; digits++ {
		labels := make([]string, len(ticks))
		seen := map[string]bool{}
		distinct := true
		for i, t := range ticks {
			if t.Label == "" {
				continue
			}
			labels[i] = formatDigits(t.Value, digits)
			if seen[labels[i]] {
				distinct = false
				break
			}
			seen[labels[i]] = true
		}
		if distinct {
			for i := range ticks {
				ticks[i].Label = labels[i]
			}
			break
		}
	}
	return ticks
}

// formatDigits writes v with the given significant digits, in plain
// notation from 0.001 to a million, without trailing zeros.
func formatDigits(v float64, digits int) string {
	a := math.Abs(v)
	if v == 0 || a < 1e-3 || a >= 1e6 {
		return strconv.FormatFloat(v, 'g', digits, 64)
	}
	decimals := max(0, digits-1-int(math.Floor(math.Log10(a))))
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if decimals > 0 {
		for s[len(s)-1] == '0' {
			s = s[:len(s)-1]
		}
		if s[len(s)-1] == '.' {
			s = s[:len(s)-1]
		}
	}
	return s
}
