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
