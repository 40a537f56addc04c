package numfmt

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestCube(t *testing.T) {
	f := Cube()
	tests := []struct {
		v       float64
		integer bool
		want    string
	}{
		{0, false, "0.00"},
		{1.234, false, "1.234"}, // KeptDigits significant digits
		{12.345, false, "12.35"},
		{1.235e-8, false, "0.00"},
		{-1e-9, false, "0.00"},
		{math.Copysign(0, -1), false, "0.00"},
		{-2.5, false, "-2.50"},
		{9999.994, false, "9999.99"},
		{12345.678, false, "1.23e4"},
		{-12345.678, false, "-1.23e4"},
		{99999.9, false, "1.00e5"},
		{3.52e10, true, "3.52e10"},
		{2576, true, "2576"},
		{-0.4, true, "0"},
		{16, true, "16"},
		{math.NaN(), false, "-"},
		{math.NaN(), true, "-"},
		{math.Inf(1), false, "inf"},
		{math.Inf(-1), false, "-inf"},
	}
	for _, tt := range tests {
		if got := f.Format(tt.v, tt.integer); got != tt.want {
			t.Errorf("Format(%v, %v) = %q, want %q", tt.v, tt.integer, got, tt.want)
		}
	}
	f.Decimals = 0
	if got := f.Format(2600.4, false); got != "2600" {
		t.Errorf("0 decimals: %q", got)
	}
	if got := f.Format(2.6, false); got != "2.6" {
		t.Errorf("0 decimals, digits kept: %q", got)
	}
	f.Decimals, f.SciFrom = 3, 2
	if got := f.Format(123.4567, false); got != "1.235e2" {
		t.Errorf("scientific from 1e2 with 3 decimals: %q", got)
	}
}

func TestExact(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{72, "72"},
		{-3, "-3"},
		{12800000, "12800000"},
		{18446744073709549568, "18446744073709549568"},
		{0.5, "0.5"},
		{3.5713e-05, "3.5713e-05"},
		{74.0505352523, "74.0505352523"},
		{1e300, "1e+300"},
		{math.NaN(), "NaN"},
		{math.Inf(-1), "-Inf"},
	}
	for _, tt := range tests {
		if got := RoundTrip().Format(tt.v, false); got != tt.want {
			t.Errorf("RoundTrip().Format(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

// TestExactReadsBack checks the promise of Exact on awkward values.
func TestExactReadsBack(t *testing.T) {
	for _, v := range []float64{0.1 + 0.2, math.Pi * 1e-300, math.MaxFloat64, -math.SmallestNonzeroFloat64, 1e21, 123456789.125, 2.5e-7} {
		s := RoundTrip().Format(v, false)
		back, err := strconv.ParseFloat(s, 64)
		if err != nil || back != v {
			t.Errorf("Format(%v) = %q reads back as %v, %v", v, s, back, err)
		}
	}
}

func TestSignificant(t *testing.T) {
	tests := []struct {
		f       Format
		v       float64
		integer bool
		want    string
	}{
		{Precise(), 0, false, "0"},
		{Precise(), 74.0505352523, false, "74.0505352523"},
		{Precise(), 1.0 / 3, false, "0.333333333333"},
		{Precise(), 22600, true, "22600"},
		{Precise(), 22600.5, true, "22600.5"},
		{Precise(), 3.52e10, false, "35200000000"},
		{Precise(), 1e300, false, "1e+300"},
		{Format{Notation: Significant, Digits: 4}, 30807.79, false, "3.081e+04"},
		{Format{Notation: Significant, Digits: 4}, 250.4137, false, "250.4"},
		{Format{Notation: Significant, Digits: 4}, 0.000123456, false, "0.0001235"},
		{Format{Notation: Significant, Digits: 4}, 1440, true, "1440"},
		{Format{Notation: Significant, Digits: 4, Thousands: true}, 1234567, true, "1,234,567"},
		{Format{Notation: Significant}, 1.23456789, false, "1.23457"},
	}
	for _, tt := range tests {
		if got := tt.f.Format(tt.v, tt.integer); got != tt.want {
			t.Errorf("%+v.Format(%v, %v) = %q, want %q", tt.f, tt.v, tt.integer, got, tt.want)
		}
	}
}

func TestThousands(t *testing.T) {
	f := Format{Decimals: 2, Thousands: true}
	tests := []struct {
		v       float64
		integer bool
		want    string
	}{
		{30807.79, false, "30,807.79"},
		{-30807.79, false, "-30,807.79"},
		{999.5, false, "999.50"},
		{1000, false, "1,000.00"},
		{1234567.891, false, "1,234,567.89"},
		{22600, true, "22,600"},
		{-1234567, true, "-1,234,567"},
		{12, true, "12"},
	}
	for _, tt := range tests {
		if got := f.Format(tt.v, tt.integer); got != tt.want {
			t.Errorf("Format(%v, %v) = %q, want %q", tt.v, tt.integer, got, tt.want)
		}
	}
	f.SciFrom = 9
	if got := f.Format(3.52e10, true); got != "3.52e10" {
		t.Errorf("scientific numbers are not grouped: %q", got)
	}
}

func TestEngineering(t *testing.T) {
	f := Format{Notation: Engineering, Decimals: 2, SciFrom: 4}
	tests := []struct {
		v       float64
		integer bool
		want    string
	}{
		{30807.79, false, "30.81e3"},
		{-30807.79, false, "-30.81e3"},
		{3.52e10, true, "35.20e9"},
		{999999, false, "1.00e6"}, // rounding carries into the next exponent
		{123456, false, "123.46e3"},
		{9999.5, false, "9999.50"},
		{1440, true, "1440"},
	}
	for _, tt := range tests {
		if got := f.Format(tt.v, tt.integer); got != tt.want {
			t.Errorf("Format(%v, %v) = %q, want %q", tt.v, tt.integer, got, tt.want)
		}
	}
}

func TestZeroThreshold(t *testing.T) {
	if z := Cube().ZeroThreshold(); math.Abs(z-1e-7) > 1e-20 {
		t.Errorf("Cube zero threshold %v", z)
	}
	if z := RoundTrip().ZeroThreshold(); z != 0 {
		t.Errorf("RoundTrip rounds %v to zero", z)
	}
	if !Cube().IsZero(-5e-8) || Cube().IsZero(2e-7) || RoundTrip().IsZero(1e-300) {
		t.Error("IsZero disagrees with ZeroThreshold")
	}
}

// TestNaNText: a display shows NaN as undefined, the command line as the
// value a file holds.
func TestNaNText(t *testing.T) {
	if got := Cube().Format(math.NaN(), false); got != "-" {
		t.Errorf("Cube: %q", got)
	}
	if got := Precise().Format(math.NaN(), false); got != "NaN" {
		t.Errorf("Precise: %q", got)
	}
}

// TestPresets checks the browser's formats on the values of issue reports:
// one form per column, no 5586.29 above 8.35e4.
func TestPresets(t *testing.T) {
	tests := []struct {
		f       Format
		v       float64
		integer bool
		want    string
	}{
		{Grouped(), 5586.29, false, "5,586.29"},
		{Grouped(), 83512.4, false, "83,512.40"},
		{Grouped(), 30807.79, false, "30,807.79"},
		{Grouped(), 3.52e10, true, "35,200,000,000"},
		{Grouped(), -4e-9, false, "0.00"},
		{Grouped(), 0.5, false, "0.50"},
		{Engineer(), 30807.79, false, "30.81e3"},
		{Engineer(), 5586.29, false, "5.59e3"},
		{Engineer(), 512, false, "512.00"},
		{Engineer(), 3.52e10, true, "35.20e9"},
		{Cube(), 30807.79, false, "3.08e4"},
	}
	for _, tt := range tests {
		if got := tt.f.Format(tt.v, tt.integer); got != tt.want {
			t.Errorf("%+v.Format(%v) = %q, want %q", tt.f, tt.v, got, tt.want)
		}
	}
}

func TestBrief(t *testing.T) {
	f := Brief()
	tests := []struct {
		v       float64
		integer bool
		want    string
	}{
		{0, false, "0"},
		{math.Copysign(0, -1), false, "0"},
		{30807.79, false, "30,808"},
		{5.05563708047, false, "5.056"},
		{-5.05563708047, false, "-5.056"},
		{0.0123456, false, "0.01235"},
		{123.456, false, "123.5"},
		{1000.04, false, "1,000"},
		{9.99996, false, "10.00"},
		{99.99996, false, "100.0"},
		{0.099996, false, "0.1000"},
		{-0.0000999996, false, "-1.000e-4"},
		{2.5, false, "2.500"},
		{8.7, false, "8.700"},
		{1200973, true, "1,200,973"},
		{0.00001234, false, "1.234e-5"},
		{-0.00004, false, "-4.000e-5"},
		{1e15, false, "1.000e15"},
		{math.NaN(), false, "NaN"},
		{math.Inf(-1), false, "-inf"},
	}
	for _, tt := range tests {
		if got := f.Format(tt.v, tt.integer); got != tt.want {
			t.Errorf("Brief().Format(%v, %v) = %q, want %q", tt.v, tt.integer, got, tt.want)
		}
	}
}

func TestPercent(t *testing.T) {
	tests := []struct {
		part, whole float64
		want        string
	}{
		{1, 4, "25.0"},
		{-1, 3, "-33.3"},
		{20.2225079823, 20.2225079823, "100.0"},
		{-1e-9, 5, "0.0"},
		{1, 0, "-"},
		{math.NaN(), 1, "-"},
		{1, math.Inf(1), "0.0"},
	}
	for _, tt := range tests {
		if got := Percent(tt.part, tt.whole); got != tt.want {
			t.Errorf("Percent(%v, %v) = %q, want %q", tt.part, tt.whole, got, tt.want)
		}
	}
}

// TestKeptDigits checks the one rule of every format that keeps digits:
// a value shows at least KeptDigits significant digits, whatever its
// neighbours (the statistics' 2.72/2.73/2.74 and a standard deviation of
// 0.01 hid an imbalance of 2.716/2.728/2.741 and 0.005615; a status line
// read 0.00 where the pane read 0.000020).
func TestKeptDigits(t *testing.T) {
	tests := []struct {
		f    Format
		v    float64
		want string
	}{
		{Grouped(), 2.6e-6, "0.0000026"}, // no trailing zeros beyond Decimals
		{Grouped(), 0.5, "0.50"},
		{Grouped(), 2.0134e-5, "0.00002013"},
		{Grouped(), 0.0056153, "0.005615"},
		{Grouped(), -0.0042, "-0.0042"},
		{Grouped(), 2.71634, "2.716"},
		{Grouped(), 12.3456, "12.35"},
		{Grouped(), 268.54, "268.54"}, // Decimals is the least
		{Grouped(), 30807.79, "30,807.79"},
		{Grouped(), 9.99996, "10.00"}, // the carry keeps 4 digits
		{Grouped(), 0.099999, "0.10"}, // … and 4 digits after it, trailing zeros dropped
		{Grouped(), 1e-9, "0.00"},     // below the zero threshold
		{Grouped(), 1e-15, "0.00"},
		{Cube(), 2.6e-6, "0.0000026"},
		{Cube(), 2.71634, "2.716"},
		{Cube(), 30807.79, "3.08e4"}, // scientific forms keep their decimals
		{Engineer(), 2.6e-6, "0.0000026"},
		{Engineer(), 30807.79, "30.81e3"},
		{Format{Decimals: 2, MinDigits: 4}, 1.23456e-12, "0.000000000001"}, // at most 12 decimals
		{Brief(), 2.71634, "2.716"},
		{Brief(), 0.0056153, "0.005615"},
		{Brief(), 30807.79, "30,808"},
	}
	for _, tt := range tests {
		if got := tt.f.Format(tt.v, false); got != tt.want {
			t.Errorf("%+v.Format(%g) = %q, want %q", tt.f, tt.v, got, tt.want)
		}
	}
	// Integer metrics print their integers.
	if got := Grouped().Format(3, true); got != "3" {
		t.Errorf("integer 3 = %q", got)
	}
}

func TestSignificantDecimals(t *testing.T) {
	tests := []struct {
		a      float64
		digits int
		want   int
	}{
		{2.7, 4, 3}, {27, 4, 2}, {2700, 4, 0}, {0.0027, 4, 6}, {-0.0027, 4, 6},
		{0, 4, 0}, {math.NaN(), 4, 0}, {math.Inf(1), 4, 0}, {1e-20, 4, 12}, {2.7, 0, 0},
	}
	for _, tt := range tests {
		if got := SignificantDecimals(tt.a, tt.digits); got != tt.want {
			t.Errorf("SignificantDecimals(%g, %d) = %d, want %d", tt.a, tt.digits, got, tt.want)
		}
	}
}

func TestStyles(t *testing.T) {
	for i, s := range Styles {
		f := s.Format()
		f.Decimals = 5
		if got := StyleOf(f); got != i {
			t.Errorf("StyleOf(%s with 5 decimals) = %d, want %d", s.Name, got, i)
		}
	}
	if got := StyleOf(Precise()); got != -1 {
		t.Errorf("StyleOf(Precise()) = %d, want -1", got)
	}
	tests := []struct {
		style, decimals int
		want            Format
	}{
		{1, 4, func() Format { f := Engineer(); f.Decimals = 4; return f }()},
		{2, -1, Cube()}, // no remembered decimals: the style's
		{9, 0, func() Format { f := Grouped(); f.Decimals = 0; return f }()}, // unknown style: the first
		{0, MaxDecimals + 1, Grouped()},                                      // too many decimals: the style's
	}
	for _, tt := range tests {
		if got := StyleFormat(tt.style, tt.decimals); got != tt.want {
			t.Errorf("StyleFormat(%d, %d) = %+v, want %+v", tt.style, tt.decimals, got, tt.want)
		}
	}
}

// TestAppendFormatAllocatesNothing: writers of many numbers (dump) format
// into their own buffer without an allocation per number, and get what
// Format returns.
func TestAppendFormatAllocatesNothing(t *testing.T) {
	values := []float64{0, 1, -1, 0.1, 1234567.891, -98765432.1, 3.14159e-9, 6.02e23, 42, 1e21, -0.5}
	for _, f := range []Format{RoundTrip(), Cube(), Precise(), Brief(), Grouped(), {Notation: Exact, Thousands: true}} {
		buf := make([]byte, 0, 64)
		for _, v := range values {
			for _, integer := range []bool{false, true} {
				if got, want := string(f.AppendFormat(buf[:0], v, integer)), f.Format(v, integer); got != want {
					t.Errorf("%+v: AppendFormat(%v) = %q, Format %q", f, v, got, want)
				}
			}
		}
		if f.Notation == Fixed && f.SciFrom > 0 || f.Notation == Rounded {
			continue // scientific forms may allocate
		}
		allocs := testing.AllocsPerRun(100, func() {
			for _, v := range values[:5] {
				buf = f.AppendFormat(buf[:0], v, false)
			}
		})
		if allocs != 0 {
			t.Errorf("%+v: %v allocations per 5 numbers", f, allocs)
		}
	}
	if got := string(Grouped().AppendFormat([]byte("x="), -1234567.5, false)); !strings.HasPrefix(got, "x=-1,234,567") {
		t.Errorf("grouping after a prefix: %q", got)
	}
}
