package view

import (
	"math"
	"strconv"

	"cubeview/internal/prefs"
	"cubeview/numfmt"
)

// Preference keys of a window's settings, shared by all windows.
const (
	hotThresholdKey = "hotPathThreshold" // share, 0 < t < 1
	numberStyleKey  = "numberStyle"      // index into numfmt.Styles
	decimalsKey     = "decimals"
	paneSplitKey    = "paneSplit" // offsets of the two splits, as text
)

// NumberFormatPref returns the remembered number format (View › Numbers).
func NumberFormatPref(p *prefs.Store) numfmt.Format {
	return numfmt.StyleFormat(int(p.Float(numberStyleKey, 0)), int(p.Float(decimalsKey, -1)))
}

// SaveNumberFormat remembers f's style and decimals.
func SaveNumberFormat(p *prefs.Store, f numfmt.Format) {
	if i := numfmt.StyleOf(f); i >= 0 {
		p.SetFloat(numberStyleKey, float64(i))
	}
	p.SetFloat(decimalsKey, float64(f.Decimals))
}

// HotThresholdPref returns the remembered hottest-path threshold, 0 for
// the default.
func HotThresholdPref(p *prefs.Store) float64 { return p.Float(hotThresholdKey, 0) }

// SaveHotThreshold remembers the hottest-path threshold t.
func SaveHotThreshold(p *prefs.Store, t float64) { p.SetFloat(hotThresholdKey, t) }

// Split divides a window's width between its three panes: Outer is the
// metric pane's share of the width, Inner the call pane's share of the
// rest.
type Split struct{ Outer, Inner float64 }

// SplitPref returns the split the user chose last, if any.
func SplitPref(p *prefs.Store) (Split, bool) {
	l := p.StringList(paneSplitKey)
	if len(l) != 2 {
		return Split{}, false
	}
	a, err1 := strconv.ParseFloat(l[0], 64)
	b, err2 := strconv.ParseFloat(l[1], 64)
	if err1 != nil || err2 != nil || a <= 0.05 || a >= 0.9 || b <= 0.05 || b >= 0.95 {
		return Split{}, false
	}
	return Split{a, b}, true
}

// HasSplitPref reports whether the user chose a split (even one out of
// bounds): fitting the panes to their rows then stops.
func HasSplitPref(p *prefs.Store) bool { return len(p.StringList(paneSplitKey)) == 2 }

// SaveSplit remembers s as the user's choice.
func SaveSplit(p *prefs.Store, s Split) {
	p.SetStringList(paneSplitKey, []string{strconv.FormatFloat(s.Outer, 'f', 4, 64), strconv.FormatFloat(s.Inner, 'f', 4, 64)})
}

// FitSplit divides a window total wide (below 400: 1280) so that the
// metric and system panes get the widths their rows need, metric and
// system, each within 15 % and 35 % of the total, and the call pane the
// rest.
func FitSplit(total, metric, system float64) Split {
	if total < 400 {
		total = 1280
	}
	bounded := func(x float64) float64 { return min(max(x, 0.15*total), 0.35*total) }
	m, s := bounded(metric), bounded(system)
	return Split{m / total, (total - m - s) / (total - m)}
}

// Near reports whether s and t differ by less than a thousandth in both
// offsets: whether the user left a split alone.
func (s Split) Near(t Split) bool {
	return math.Abs(s.Outer-t.Outer) < 1e-3 && math.Abs(s.Inner-t.Inner) < 1e-3
}

// Size is a window's size in the toolkit's units.
type Size struct{ Width, Height float64 }

// defaultWindowSize is the size a window opens at when the user never
// resized one.
var defaultWindowSize = Size{1280, 800}

// screenMargin is what a window leaves of the screen's size for the
// window system's panels and title bar.
const screenMargin = 48

// WindowSize returns the size a new window opens at: want (zero: the
// default), no larger than the screen less a margin for the window
// system's panels when the screen's size is known (non-zero), and never
// below 400 × 300.
func WindowSize(want, screen Size) Size {
	if want.Width <= 0 || want.Height <= 0 {
		want = defaultWindowSize
	}
	if screen.Width > 0 {
		want.Width = min(want.Width, screen.Width-screenMargin)
	}
	if screen.Height > 0 {
		want.Height = min(want.Height, screen.Height-2*screenMargin)
	}
	return Size{max(want.Width, 400), max(want.Height, 300)}
}
