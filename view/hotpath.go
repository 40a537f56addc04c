package view

import (
	"fmt"
	"math"
)

// defaultHotThreshold is the share of a node's value a child must exceed
// for the hottest path to go on into it (hpcviewer's hot-path rule).
const defaultHotThreshold = 0.5

// HotPath follows the largest values down a pane's tree (View › Expand
// hottest path) and remembers why the last path stopped, which the
// status line (View.Explain) repeats while the path's end is selected.
type HotPath struct {
	v         *View
	threshold float64 // 0: defaultHotThreshold
	last      hotNote
}

// hotNote remembers why the last hottest path stopped.
type hotNote struct {
	d   Dim
	end Node
	why string
}

// Threshold returns the share (0 < t < 1) a child must exceed for the
// hottest path to descend into it.
func (h *HotPath) Threshold() float64 {
	if h.threshold <= 0 {
		return defaultHotThreshold
	}
	return h.threshold
}

// SetThreshold sets the share a child must exceed for the hottest path
// to descend into it; values outside (0, 1) restore the default.
func (h *HotPath) SetThreshold(t float64) {
	if !(t > 0 && t < 1) {
		t = 0
	}
	h.threshold = t
}

// Path returns the path from n that follows, at each level, the child
// with the largest inclusive magnitude (the first one on ties) for as
// long as that child holds more than Threshold of its parent's value;
// where no child does, the node's own code or the spread of its children
// dominates and the path stops. why says where and why it stopped.
// Expanding every node but the last shows where the value goes.
func (h *HotPath) path(d Dim, n Node) (path []Node, why string) {
	v := h.v
	path = []Node{n}
	thr := h.Threshold()
	for {
		kids := v.Children(d, n)
		for _, ch := range kids {
			if ch.Kind == MetricNode {
				v.values.metricValues(ch.Index) // children of a collapsed metric may not be computed yet
			}
		}
		var best Node
		bestVal := math.Inf(-1)
		for _, ch := range kids {
			x := math.Abs(v.values.Inclusive(d, ch))
			if math.IsNaN(x) {
				x = math.Inf(-1)
			}
			if !best.Valid() || x > bestVal {
				best, bestVal = ch, x
			}
		}
		if !best.Valid() {
			why = v.Label(n) + ": nothing below it"
			break
		}
		total := math.Abs(v.values.Inclusive(d, n))
		if total > 0 && bestVal > thr*total {
			path = append(path, best)
			n = best
			continue
		}
		why = h.stop(d, n, best, bestVal, total, thr)
		break
	}
	h.last = hotNote{d: d, end: n, why: "Hottest path stops at " + why}
	return path, h.last.why
}

// stop explains why the hottest path stops at n, whose largest child
// best holds bestVal of n's magnitude total, below the share thr.
func (h *HotPath) stop(d Dim, n, best Node, bestVal, total, thr float64) string {
	v := h.v
	unit := ""
	if m := v.values.unitMetric(d, n); m >= 0 {
		unit = " " + v.exp.Metrics[m].Unit
	}
	num := func(x float64) string { return v.look.format.Format(x, v.values.Integer(d, n)) + unit }
	incl := func(n Node) float64 { return v.values.Inclusive(d, n) }
	if !(total > 0) {
		return fmt.Sprintf("%s: its value is %s", v.Label(n), num(incl(n)))
	}
	s := fmt.Sprintf("%s (%s): no child holds more than %.0f %% of it; the largest, %s, holds %s (%.1f %%)",
		v.Label(n), num(incl(n)), 100*thr, v.Label(best), num(incl(best)), 100*bestVal/total)
	if own := kindOf(n).exclusive(v, n.Index); !math.IsNaN(own) {
		s += fmt.Sprintf("; its own value is %s (%.1f %%)", num(own), 100*math.Abs(own)/total)
	}
	return s
}

// note returns why the last hottest path stopped when it ended at row n
// of pane d, "" otherwise.
func (h *HotPath) note(d Dim, n Node) string {
	if h.last.why != "" && h.last.d == d && h.last.end == n {
		return h.last.why
	}
	return ""
}

// Needs returns the data Expand in pane d needs first: the path follows
// current values, below a metric its sub-metrics' too.
func (h *HotPath) Needs(d Dim) []BlockRef {
	need := h.v.values.Missing()
	if n := h.v.Selected(d); n.Kind == MetricNode {
		need = append(need, h.v.values.missingUnder(n.Index)...)
	}
	return need
}

// Expand expands, from the selected node of pane d, the path of largest
// inclusive values for as long as a child holds more than the threshold
// of its parent, and selects its end, which it returns (the status line,
// View.Explain, says why it stopped there). Call it once Needs is read;
// the error is Update's.
func (h *HotPath) Expand(d Dim) (Node, error) {
	v := h.v
	err := v.Update()
	path, _ := h.path(d, v.Selected(d))
	for _, p := range path[:len(path)-1] {
		v.SetExpanded(d, p, true)
	}
	last := path[len(path)-1]
	v.Select(d, last)
	return last, err
}
