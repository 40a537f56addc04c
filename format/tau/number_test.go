package tau

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestParseFloatMatchesStrconv: the fast path gives strconv's result to
// the last bit, and rejects what strconv rejects.
func TestParseFloatMatchesStrconv(t *testing.T) {
	cases := []string{"0", "-0", "1", "+7", "1.0", "0.5", "4123.696476068348", "1.79507235841765E9",
		"6.37366608E9", "3.223369728E14", "565.4358974358975", "1e22", "1e23", "1.5e-22", "9e-23",
		"123456789012345", "1234567890123456", "0.000123", "00012.5000", ".5", "5.", "1e", "e5", "-", "",
		"1.7976931348623157e308", "1e400", "NaN", "inf", "0x10", "1_0", "12a", "4.2E+2", "4.2e-2", "999999999999999e22"}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 20000; i++ {
		v := rng.Float64() * math.Pow(10, float64(rng.IntN(30)-12))
		for _, f := range []byte{'g', 'e', 'f', 'G'} {
			cases = append(cases, strconv.FormatFloat(v, f, rng.IntN(17), 64))
		}
		cases = append(cases, strconv.FormatFloat(v, 'g', -1, 64), strconv.Itoa(rng.IntN(1e9)))
	}
	for _, s := range cases {
		got, ok := parseFloat([]byte(s))
		want, err := strconv.ParseFloat(s, 64)
		wantOK := err == nil && !math.IsNaN(want) && !math.IsInf(want, 0)
		if ok != wantOK || ok && math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("parseFloat(%q) = %v, %v; strconv: %v, %v", s, got, ok, want, err)
		}
	}
}
