package colormap

import (
	"image/color"
	"math"
)

// Interpolation is how a colour channel runs from 0 to 255 between two
// neighbouring anchors of the spectrum.
type Interpolation uint8

const (
	// Exponential2 rises quickly at first, like a logarithm:
	// ln(1 + x(e−1)). It is the default, so that small values already
	// move visibly away from blue.
	Exponential2 Interpolation = iota
	// Linear rises in proportion: x.
	Linear
	// Quadratic1 starts slowly: x².
	Quadratic1
	// Quadratic2 starts quickly: 1 − (1−x)².
	Quadratic2
	// Exponential1 starts slowly: (eˣ − 1)/(e − 1).
	Exponential1
)

// String returns the name of the interpolation.
func (m Interpolation) String() string {
	switch m {
	case Linear:
		return "linear"
	case Quadratic1:
		return "quadratic 1"
	case Quadratic2:
		return "quadratic 2"
	case Exponential1:
		return "exponential 1"
	}
	return "exponential 2"
}

// ramp maps x in [0,1] to a channel intensity in [0,255].
func (m Interpolation) ramp(x float64) float64 {
	var y float64
	switch m {
	case Linear:
		y = x
	case Quadratic1:
		y = x * x
	case Quadratic2:
		y = 1 - (1-x)*(1-x)
	case Exponential1:
		y = (math.Exp(x) - 1) / (math.E - 1)
	default:
		y = math.Log(1 + x*(math.E-1))
	}
	return 255 * y
}

// The fixed colours of the scale.
var (
	// White marks exact zero and undefined values.
	White = color.NRGBA{R: 255, G: 255, B: 255, A: 255}
	// Gray marks values outside the scale's range.
	Gray = color.NRGBA{R: 160, G: 160, B: 164, A: 255}
	// Blue, Cyan, Green, Yellow and Red are the anchors of the spectrum.
	Blue   = color.NRGBA{B: 255, A: 255}
	Cyan   = color.NRGBA{G: 255, B: 255, A: 255}
	Green  = color.NRGBA{G: 255, A: 255}
	Yellow = color.NRGBA{R: 255, G: 255, A: 255}
	Red    = color.NRGBA{R: 255, A: 255}
)

// Scale ranks values by colour. The zero Scale is not useful; start from
// Default.
type Scale struct {
	// Anchors are the positions in [0,1], non-decreasing, of blue, cyan,
	// green, yellow and red on the spectrum. Anchors[0] and Anchors[4]
	// bound the part of the spectrum in use.
	Anchors [5]float64
	// Method shapes each channel between two anchors.
	Method Interpolation
	// Diverging ranks negative values from white to blue and positive
	// values from white to red, symmetrically around zero, instead of
	// ranking magnitudes on the spectrum.
	Diverging bool
}

// Default returns the CUBE default scale: anchors at 0, 0.1, 0.2, 0.3 and 1
// with exponential-2 interpolation.
func Default() Scale {
	return Scale{Anchors: [5]float64{0, 0.1, 0.2, 0.3, 1}, Method: Exponential2}
}

// Range is the interval of magnitudes a scale spans: Min maps to the
// blue end, Max to the red end.
type Range struct {
	Min, Max float64
}

// Contains reports whether the magnitude a lies within r, allowing for
// floating-point rounding of values computed as sums.
func (r Range) Contains(a float64) bool {
	tol := 1e-9*math.Max(math.Abs(r.Min), math.Abs(r.Max)) + 1e-12
	return a >= r.Min-tol && a <= r.Max+tol
}

// Position returns where the magnitude a lies in r, clamped to [0,1]. An
// empty range puts every non-zero magnitude at 1.
func (r Range) Position(a float64) float64 {
	if r.Max == r.Min {
		if a == 0 {
			return 0
		}
		return 1
	}
	return clamp((a - r.Min) / (r.Max - r.Min))
}

// Color returns the colour of value v on the scale spanning r: white for
// zero or an undefined (NaN) value, gray when |v| lies outside r, else
// the spectrum colour of |v|'s position in r (or, for a diverging scale,
// a shade of blue or red by the sign of v).
func (s Scale) Color(v float64, r Range) color.NRGBA {
	if math.IsNaN(v) || v == 0 {
		return White
	}
	a := math.Abs(v)
	if !r.Contains(a) {
		return Gray
	}
	x := r.Position(a)
	if s.Diverging {
		if v < 0 {
			return s.shade(Blue, x)
		}
		return s.shade(Red, x)
	}
	return s.At(x)
}

// At returns the spectrum colour at position x in [0,1] (clamped).
func (s Scale) At(x float64) color.NRGBA {
	a := s.Anchors
	x = a[0] + clamp(x)*(a[4]-a[0])
	// Empty segments (equal neighbouring anchors) are skipped.
	switch {
	case x <= a[1] && a[0] < a[1]:
		return rgb(0, s.incr(a[0], a[1], x), 255)
	case x <= a[2] && a[1] < a[2]:
		return rgb(0, 255, s.decr(a[1], a[2], x))
	case x <= a[3] && a[2] < a[3]:
		return rgb(s.incr(a[2], a[3], x), 255, 0)
	default:
		return rgb(255, s.decr(a[3], a[4], x), 0)
	}
}

// incr rises from 0 at lo to 255 at hi.
func (s Scale) incr(lo, hi, x float64) float64 {
	if lo >= hi {
		return 255
	}
	return s.Method.ramp(clamp((x - lo) / (hi - lo)))
}

// decr falls from 255 at lo to 0 at hi, the mirror image of incr.
func (s Scale) decr(lo, hi, x float64) float64 {
	if lo >= hi {
		return 0
	}
	return s.Method.ramp(clamp((hi - x) / (hi - lo)))
}

// shade moves from white towards full at position x.
func (s Scale) shade(full color.NRGBA, x float64) color.NRGBA {
	t := s.Method.ramp(clamp(x)) / 255
	mix := func(c uint8) float64 { return 255 + (float64(c)-255)*t }
	return rgb(mix(full.R), mix(full.G), mix(full.B))
}

// LegendColor returns the colour at fraction t in [0,1] across a legend
// bar: the spectrum from its low to its high end or, for a diverging
// scale, from full blue (most negative) through white to full red.
func (s Scale) LegendColor(t float64) color.NRGBA {
	t = clamp(t)
	if !s.Diverging {
		return s.At(t)
	}
	if t < 0.5 {
		return s.shade(Blue, 1-2*t)
	}
	if t == 0.5 {
		return White
	}
	return s.shade(Red, 2*t-1)
}

// Stop is one colour of a legend at a fraction of the scale maximum:
// Value in [0,1], or in [−1,1] for a diverging scale.
type Stop struct {
	Value float64
	Color color.NRGBA
}

// Stops returns n+1 evenly spaced legend stops from the low to the high
// end of the scale (n < 1 is taken as 1).
func (s Scale) Stops(n int) []Stop {
	if n < 1 {
		n = 1
	}
	out := make([]Stop, n+1)
	for i := range out {
		t := float64(i) / float64(n)
		v := t
		if s.Diverging {
			v = 2*t - 1
		}
		out[i] = Stop{Value: v, Color: s.LegendColor(t)}
	}
	return out
}

// Relief is how a colour square is drawn to show the sign of its value.
type Relief uint8

const (
	// Flat is for zero (within the threshold) and undefined values.
	Flat Relief = iota
	// Raised is for positive values.
	Raised
	// Sunken is for negative values.
	Sunken
)

// String returns "flat", "raised" or "sunken".
func (r Relief) String() string {
	switch r {
	case Raised:
		return "raised"
	case Sunken:
		return "sunken"
	}
	return "flat"
}

// ReliefOf returns the relief for v: Raised above +threshold, Sunken
// below −threshold, Flat otherwise (also for NaN).
func ReliefOf(v, threshold float64) Relief {
	switch {
	case v > threshold:
		return Raised
	case v < -threshold:
		return Sunken
	}
	return Flat
}

func rgb(r, g, b float64) color.NRGBA {
	return color.NRGBA{R: channel(r), G: channel(g), B: channel(b), A: 255}
}

// channel truncates like the original browser, so that hand-computed
// colours match.
func channel(v float64) uint8 {
	switch {
	case v <= 0 || math.IsNaN(v):
		return 0
	case v >= 255:
		return 255
	}
	return uint8(v)
}

func clamp(x float64) float64 {
	switch {
	case x < 0 || math.IsNaN(x):
		return 0
	case x > 1:
		return 1
	}
	return x
}
