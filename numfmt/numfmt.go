package numfmt

import (
	"bytes"
	"math"
	"strconv"
	"strings"
)

// Notation selects how a Format writes a finite value.
type Notation uint8

const (
	// Fixed writes Decimals digits after the point, and scientific
	// notation with a short exponent (1.23e4) for magnitudes ≥ 10^SciFrom;
	// the CUBE browser's default.
	Fixed Notation = iota
	// Significant writes Digits significant digits (as %g), without
	// trailing zeros.
	Significant
	// Exact writes the shortest text that reads back as the same float64;
	// integral values in plain digits.
	Exact
	// Engineering writes a mantissa between 1 and 999 with Decimals digits
	// after the point and an exponent that is a multiple of 3 (30.81e3);
	// magnitudes below 10^SciFrom are written as Fixed.
	Engineering
	// Rounded writes at least Digits significant digits (≤ 0 means 4),
	// and every digit before the point, so that no value hides behind an
	// exponent (30,807.79 → 30808, 5.05564 → 5.056, 8.7 → 8.700); only
	// magnitudes below 10^−4 or from 10^15 on are written in scientific
	// notation.
	Rounded
)

// String returns the notation's name as offered to users.
func (n Notation) String() string {
	switch n {
	case Significant:
		return "significant digits"
	case Exact:
		return "exact"
	case Engineering:
		return "engineering"
	case Rounded:
		return "rounded"
	}
	return "fixed"
}

// Format says how values are printed. The zero Format prints fixed
// notation with no decimals, never scientific, never rounding to zero.
type Format struct {
	Notation Notation
	// Decimals is the number of digits after the point (Fixed, Engineering).
	Decimals int
	// Digits is the number of significant digits (Significant); ≤ 0 means 6.
	Digits int
	// SciFrom: magnitudes ≥ 10^SciFrom print in scientific (Fixed) or
	// engineering notation (Engineering); ≤ 0 means never.
	SciFrom int
	// ZeroBelow: magnitudes < 10^−ZeroBelow print, and count, as zero;
	// ≤ 0 means never.
	ZeroBelow int
	// MinDigits, when positive, keeps at least this many significant
	// digits of every value (SignificantDecimals): a value that Decimals
	// decimals would show with fewer gets more (at most 12, without
	// trailing zeros), so that 0.0000026 does not read 0.00 and 2.7213
	// not 2.72. Values of integer metrics and scientific forms are not
	// affected.
	MinDigits int
	// Thousands groups the digits before the point in threes with commas
	// (30,807.79) wherever a number is not in scientific form.
	Thousands bool
	// NaN is the text of a NaN; empty means "-", a display's undefined
	// value. The command line prints "NaN": there a NaN is a value a file
	// holds.
	NaN string
}

// KeptDigits is how many significant digits every value keeps, in the
// browser's formats and in the command line's tables (Brief): one rule
// for every place a value is shown.
const KeptDigits = 4

// Cube returns the CUBE browser's format: 2 decimals, scientific from 1e4,
// zero below 1e-7, with KeptDigits significant digits kept.
func Cube() Format {
	return Format{Notation: Fixed, Decimals: 2, SciFrom: 4, ZeroBelow: 7, MinDigits: KeptDigits}
}

// Grouped returns the browser's default: 2 decimals and thousands
// separators at any magnitude (30,807.79), more decimals where a value
// needs them to keep KeptDigits significant digits (2.721, 0.00002013);
// zero below 1e-7.
func Grouped() Format {
	return Format{Notation: Fixed, Decimals: 2, ZeroBelow: 7, MinDigits: KeptDigits, Thousands: true}
}

// Engineer returns engineering notation from 1000 on (30.81e3) with 2
// decimals, KeptDigits significant digits below; zero below 1e-7.
func Engineer() Format {
	return Format{Notation: Engineering, Decimals: 2, SciFrom: 3, ZeroBelow: 7, MinDigits: KeptDigits}
}

// Style is a number format offered to people (View › Numbers), under a
// name; the number of decimals is chosen apart from it.
type Style struct {
	Name   string
	Format func() Format
}

// Styles are the number formats the browser offers.
var Styles = []Style{
	{"Thousands separators", Grouped},
	{"Engineering notation", Engineer},
	{"Cube's format: scientific from 10⁴", Cube},
}

// MaxDecimals is the most decimals the browser offers.
const MaxDecimals = 6

// StyleOf returns the index in Styles of f's style, whatever its
// decimals, or -1 when f is none of them.
func StyleOf(f Format) int {
	for i, s := range Styles {
		g := s.Format()
		g.Decimals = f.Decimals
		if f == g {
			return i
		}
	}
	return -1
}

// StyleFormat returns Styles[style] with decimals decimals, as remembered
// in preferences: a style out of range means the first one, decimals out
// of 0…MaxDecimals the style's own.
func StyleFormat(style, decimals int) Format {
	if style < 0 || style >= len(Styles) {
		style = 0
	}
	f := Styles[style].Format()
	if decimals >= 0 && decimals <= MaxDecimals {
		f.Decimals = decimals
	}
	return f
}

// Precise returns 12 significant digits: what the command line prints for
// people.
func Precise() Format { return Format{Notation: Significant, Digits: 12, NaN: "NaN"} }

// Brief returns KeptDigits significant digits without an exponent for
// ordinary magnitudes and with thousands separators (30,808; 5.056;
// 0.01235): what the command line's tables print unless asked to be
// exact.
func Brief() Format {
	return Format{Notation: Rounded, Digits: KeptDigits, Thousands: true, NaN: "NaN"}
}

// RoundTrip returns the exact form: the text reads back as the same float64.
func RoundTrip() Format { return Format{Notation: Exact} }

// SignificantDecimals returns how many decimals show a value of
// magnitude a with at least digits significant digits (none for
// magnitudes of digits or more digits before the point, at most 12): the
// one rule by which every format that keeps digits (MinDigits, Rounded)
// widens a value.
func SignificantDecimals(a float64, digits int) int {
	a = math.Abs(a)
	if a == 0 || math.IsNaN(a) || math.IsInf(a, 0) || digits <= 0 {
		return 0
	}
	// The first significant digit of a is at decimal place −⌊log10 a⌋.
	return min(max(digits-1-int(math.Floor(math.Log10(a))), 0), 12)
}

// decimals returns the decimals of fixed notation for v: Decimals, or
// more to keep MinDigits significant digits.
func (f Format) decimals(v float64) int {
	return max(f.Decimals, SignificantDecimals(v, f.MinDigits), 0)
}

// ZeroThreshold returns the magnitude below which a value counts as zero
// (0 when no value does).
func (f Format) ZeroThreshold() float64 {
	if f.ZeroBelow <= 0 {
		return 0
	}
	return math.Pow(10, -float64(f.ZeroBelow))
}

// IsZero reports whether v prints, and counts, as zero.
func (f Format) IsZero(v float64) bool { return v == 0 || math.Abs(v) < f.ZeroThreshold() }

// Format prints v. NaN (undefined) prints as f.NaN or "-", infinities as "inf" and
// "-inf", except in Exact notation, which writes NaN, +Inf and -Inf so that
// they read back. Values of integer metrics (integer true) print without decimals
// wherever they are integral after rounding, except in scientific form.
func (f Format) Format(v float64, integer bool) string {
	var buf [32]byte
	return string(f.AppendFormat(buf[:0], v, integer))
}

// AppendFormat appends v as Format prints it to dst and returns the
// extended buffer; with room in dst it allocates nothing (scientific and
// engineering forms aside), for writers of many numbers such as dump.
func (f Format) AppendFormat(dst []byte, v float64, integer bool) []byte {
	if f.Notation == Exact && (math.IsNaN(v) || math.IsInf(v, 0)) {
		return strconv.AppendFloat(dst, v, 'g', -1, 64) // NaN, +Inf, -Inf read back
	}
	switch {
	case math.IsNaN(v) && f.NaN != "":
		return append(dst, f.NaN...)
	case math.IsNaN(v):
		return append(dst, '-')
	case math.IsInf(v, 1):
		return append(dst, "inf"...)
	case math.IsInf(v, -1):
		return append(dst, "-inf"...)
	}
	if f.IsZero(v) {
		v = 0 // also turns −0 into 0
	}
	switch f.Notation {
	case Significant:
		return f.significant(dst, v, integer)
	case Exact:
		return f.exact(dst, v)
	case Rounded:
		return f.rounded(dst, v, integer)
	case Engineering:
		if f.sci(v) {
			return append(dst, engineering(v, max(f.Decimals, 0))...)
		}
	default:
		if f.sci(v) {
			return append(dst, scientific(v, max(f.Decimals, 0))...)
		}
	}
	if integer {
		r := math.Round(v)
		if r == 0 {
			r = 0 // no "-0"
		}
		return f.group(dst, strconv.AppendFloat(dst, r, 'f', 0, 64))
	}
	least := max(f.Decimals, 0)
	out := appendKept(dst, v, f.decimals(v), least, f.MinDigits)
	return f.group(dst, trimZeros(dst, out, least))
}

// trimZeros drops the zeros that end the number after dst in out beyond
// its first least decimals: the decimals kept for significance say
// nothing when they are zeros (0.5 is 0.50, not 0.5000).
func trimZeros(dst, out []byte, least int) []byte {
	num := out[len(dst):]
	dot := bytes.IndexByte(num, '.')
	if dot < 0 {
		return out
	}
	end := len(num)
	for end > dot+1+least && num[end-1] == '0' {
		end--
	}
	if end == dot+1 {
		end = dot // no decimals left: no point either
	}
	return out[:len(dst)+end]
}

// appendKept appends v with dec decimals, chosen to keep digits
// significant digits; where rounding carries into a new digit (9.9996 →
// 10.000) one decimal fewer, but not fewer than least, keeps that many.
func appendKept(dst []byte, v float64, dec, least, digits int) []byte {
	out := strconv.AppendFloat(dst, v, 'f', dec, 64)
	if dec > least && digits > 0 && countDigits(out[len(dst):]) > digits {
		out = strconv.AppendFloat(dst, v, 'f', dec-1, 64)
	}
	return out
}

func (f Format) sci(v float64) bool {
	return f.SciFrom > 0 && math.Abs(v) >= math.Pow(10, float64(f.SciFrom))
}

func (f Format) significant(dst []byte, v float64, integer bool) []byte {
	if v == 0 {
		return append(dst, '0')
	}
	if integer && v == math.Trunc(v) && math.Abs(v) < 1e21 {
		return f.group(dst, strconv.AppendFloat(dst, v, 'f', 0, 64))
	}
	d := f.Digits
	if d <= 0 {
		d = 6
	}
	out := strconv.AppendFloat(dst, v, 'g', d, 64)
	if bytes.IndexByte(out[len(dst):], 'e') >= 0 {
		return out
	}
	return f.group(dst, out)
}

func (f Format) rounded(dst []byte, v float64, integer bool) []byte {
	if v == 0 {
		return append(dst, '0')
	}
	d := f.Digits
	if d <= 0 {
		d = 4
	}
	a := math.Abs(v)
	if a < 1e-4 || a >= 1e15 {
		return append(dst, scientific(v, d-1)...)
	}
	if integer && v == math.Trunc(v) {
		return f.group(dst, strconv.AppendFloat(dst, v, 'f', 0, 64))
	}
	return f.group(dst, appendKept(dst, v, SignificantDecimals(a, d), 0, d))
}

// countDigits counts the digits of a plain decimal number after its leading
// zeros (and sign).
func countDigits(s []byte) int {
	n, lead := 0, true
	for _, c := range s {
		switch {
		case c == '-' || c == '.':
		case lead && c == '0':
		default:
			lead = false
			n++
		}
	}
	return n
}

// Percent writes part as a percentage of whole with one decimal ("12.3"),
// "-" when whole is zero or either is not a number.
func Percent(part, whole float64) string {
	p := 100 * part / whole
	if whole == 0 || math.IsNaN(p) || math.IsInf(p, 0) {
		return "-"
	}
	s := strconv.FormatFloat(p, 'f', 1, 64)
	if s == "-0.0" {
		s = "0.0"
	}
	return s
}

func (f Format) exact(dst []byte, v float64) []byte {
	if v == 0 {
		return append(dst, '0')
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e21 {
		return f.group(dst, strconv.AppendFloat(dst, v, 'f', 0, 64))
	}
	out := strconv.AppendFloat(dst, v, 'g', -1, 64)
	if bytes.IndexByte(out[len(dst):], 'e') >= 0 {
		return out
	}
	return f.group(dst, out)
}

// scientific writes v with dec decimals and a short exponent: 1.23e4.
func scientific(v float64, dec int) string {
	s := strconv.FormatFloat(v, 'e', dec, 64)
	mant, exp, _ := strings.Cut(s, "e")
	n, err := strconv.Atoi(exp)
	if err != nil {
		return s
	}
	return mant + "e" + strconv.Itoa(n)
}

// engineering writes v as a mantissa in [1, 1000) with dec decimals and an
// exponent that is a multiple of 3: 30.81e3.
func engineering(v float64, dec int) string {
	if v == 0 {
		return strconv.FormatFloat(0, 'f', dec, 64)
	}
	exp := int(math.Floor(math.Log10(math.Abs(v))))
	exp -= ((exp % 3) + 3) % 3
	mant := v / math.Pow(10, float64(exp))
	s := strconv.FormatFloat(mant, 'f', dec, 64)
	// Rounding may carry the mantissa to 1000: move to the next exponent.
	if m, err := strconv.ParseFloat(s, 64); err == nil && math.Abs(m) >= 1000 {
		exp += 3
		s = strconv.FormatFloat(mant/1000, 'f', dec, 64)
	}
	return s + "e" + strconv.Itoa(exp)
}

// group inserts thousands separators into the integer part of the plain
// decimal number that out holds after dst when f.Thousands is set.
func (f Format) group(dst, out []byte) []byte {
	if !f.Thousands {
		return out
	}
	num := out[len(dst):]
	neg := len(num) > 0 && num[0] == '-'
	if neg {
		num = num[1:]
	}
	intLen := bytes.IndexByte(num, '.')
	if intLen < 0 {
		intLen = len(num)
	}
	if intLen <= 3 {
		return out
	}
	commas := (intLen - 1) / 3
	out = append(out, make([]byte, commas)...) // room, without a new array when there is capacity
	num = out[len(out)-commas-len(num) : len(out)-commas]
	// Move from the end: fraction, then groups of three digits.
	w := len(out)
	r := len(num)
	for r > intLen {
		r--
		w--
		out[w] = num[r]
	}
	for k := 0; r > 0; k++ {
		if k > 0 && k%3 == 0 {
			w--
			out[w] = ','
		}
		r--
		w--
		out[w] = num[r]
	}
	return out
}
