package colormap

import (
	"image/color"
	"math"
	"testing"
)

func c(r, g, b uint8) color.NRGBA { return color.NRGBA{R: r, G: g, B: b, A: 255} }

// The expected colours are computed by hand from the definition: between
// two anchors one channel follows 255·ln(1 + f(e−1)) for the fraction f of
// the segment (exponential 2), truncated to an integer. For f = 0.5 that
// is 255·ln(1.859141) = 158.13 → 158; for f = 0.5/0.7 it is 204.21 → 204.
func TestColorDefault(t *testing.T) {
	s := Default()
	r := Range{Min: 0, Max: 10}
	tests := []struct {
		name string
		v    float64
		want color.NRGBA
	}{
		{"zero is white", 0, White},
		{"undefined is white", math.NaN(), White},
		{"above range is gray", 11, Gray},
		{"below negative range is gray", -11, Gray},
		{"max is red", 10, Red},
		{"negative max is red by magnitude", -10, Red},
		{"tiny positive is blue", 1e-12, Blue},
		{"half of blue-cyan", 0.5, c(0, 158, 255)},
		{"cyan anchor", 1, Cyan},
		{"half of cyan-green", 1.5, c(0, 255, 158)},
		{"green anchor", 2, Green},
		{"half of green-yellow", 2.5, c(158, 255, 0)},
		{"yellow anchor", 3, Yellow},
		{"middle of yellow-red", 5, c(255, 204, 0)},
		{"rounding above max still red", 10 * (1 + 1e-12), Red},
	}
	for _, tt := range tests {
		if got := s.Color(tt.v, r); got != tt.want {
			t.Errorf("%s: Color(%g) = %v, want %v", tt.name, tt.v, got, tt.want)
		}
	}
}

func TestColorMethods(t *testing.T) {
	r := Range{Max: 10}
	tests := []struct {
		method Interpolation
		v      float64
		want   color.NRGBA
	}{
		// f = 0.5 within blue-cyan: 127.5 → 127.
		{Linear, 0.5, c(0, 127, 255)},
		// f = 0.5/0.7 of yellow-red rising, green falls from 255: 255·(1−0.2857) = 182.14.
		{Linear, 5, c(255, 182, 0)},
		// 255·0.25 = 63.75.
		{Quadratic1, 0.5, c(0, 63, 255)},
		// 255·0.75 = 191.25.
		{Quadratic2, 0.5, c(0, 191, 255)},
		// 255·(e^0.5−1)/(e−1) = 255·0.377541 = 96.27.
		{Exponential1, 0.5, c(0, 96, 255)},
	}
	for _, tt := range tests {
		s := Default()
		s.Method = tt.method
		if got := s.Color(tt.v, r); got != tt.want {
			t.Errorf("%v: Color(%g) = %v, want %v", tt.method, tt.v, got, tt.want)
		}
	}
}

func TestUserRange(t *testing.T) {
	s := Default()
	tests := []struct {
		r    Range
		v    float64
		want color.NRGBA
	}{
		{Range{Min: 2, Max: 10}, 1, Gray},
		{Range{Min: 2, Max: 10}, -1, Gray},
		{Range{Min: 2, Max: 10}, 2, Blue},
		{Range{Min: 2, Max: 10}, 10, Red},
		{Range{Min: 2, Max: 10}, 0, White},
		{Range{}, 3, Gray},
		{Range{Min: 5, Max: 5}, 5, Red},
	}
	for _, tt := range tests {
		if got := s.Color(tt.v, tt.r); got != tt.want {
			t.Errorf("Color(%g, %+v) = %v, want %v", tt.v, tt.r, got, tt.want)
		}
	}
}

func TestAnchors(t *testing.T) {
	s := Default()
	// Only the yellow-red segment in use: the low end is yellow.
	s.Anchors = [5]float64{0, 0, 0, 0, 1}
	if got := s.At(0); got != Yellow {
		t.Errorf("At(0) with collapsed anchors = %v, want yellow", got)
	}
	if got := s.At(1); got != Red {
		t.Errorf("At(1) with collapsed anchors = %v, want red", got)
	}
	// A narrowed spectrum: position 0 maps to anchor 0.1 (cyan).
	s = Default()
	s.Anchors[0] = 0.1
	if got := s.At(0); got != Cyan {
		t.Errorf("At(0) with spectrum starting at cyan = %v, want cyan", got)
	}
}

func TestDiverging(t *testing.T) {
	s := Default()
	s.Diverging = true
	r := Range{Max: 10}
	tests := []struct {
		v    float64
		want color.NRGBA
	}{
		{0, White},
		{10, Red},
		{-10, Blue},
		// t = ln(1.859141) = 0.620115; 255 − 255·t = 96.87 → 96.
		{5, c(255, 96, 96)},
		{-5, c(96, 96, 255)},
		{20, Gray},
	}
	for _, tt := range tests {
		if got := s.Color(tt.v, r); got != tt.want {
			t.Errorf("diverging Color(%g) = %v, want %v", tt.v, got, tt.want)
		}
	}
}

func TestStops(t *testing.T) {
	s := Default()
	st := s.Stops(10)
	if len(st) != 11 || st[0].Color != Blue || st[10].Color != Red || st[0].Value != 0 || st[10].Value != 1 {
		t.Errorf("Stops(10) ends = %+v … %+v, want blue at 0 … red at 1", st[0], st[len(st)-1])
	}
	if st[1].Color != Cyan || st[2].Color != Green || st[3].Color != Yellow {
		t.Errorf("Stops(10) anchors = %v %v %v, want cyan, green, yellow", st[1].Color, st[2].Color, st[3].Color)
	}
	s.Diverging = true
	st = s.Stops(2)
	want := []Stop{{-1, Blue}, {0, White}, {1, Red}}
	for i := range want {
		if st[i] != want[i] {
			t.Errorf("diverging Stops(2)[%d] = %+v, want %+v", i, st[i], want[i])
		}
	}
	if n := len(Default().Stops(0)); n != 2 {
		t.Errorf("Stops(0) has %d stops, want 2", n)
	}
}

func TestReliefOf(t *testing.T) {
	tests := []struct {
		v, threshold float64
		want         Relief
	}{
		{1, 0, Raised},
		{-1, 0, Sunken},
		{0, 0, Flat},
		{1e-9, 1e-7, Flat},
		{-1e-9, 1e-7, Flat},
		{-1e-6, 1e-7, Sunken},
		{math.NaN(), 0, Flat},
	}
	for _, tt := range tests {
		if got := ReliefOf(tt.v, tt.threshold); got != tt.want {
			t.Errorf("ReliefOf(%g, %g) = %v, want %v", tt.v, tt.threshold, got, tt.want)
		}
	}
}
