package view

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"cubeview/colormap"
	"cubeview/form"
)

// What a window does with its View beyond showing it: expanding
// subtrees, the colour range dialog, the panes' titles and the hints of
// the status line.

// maxExpand bounds ExpandSubtree, so that a huge tree cannot stall the
// window.
const maxExpand = 5000

// ExpandSubtree expands (open) or collapses n and the branches below it
// in pane d of v, at most maxExpand of them.
func ExpandSubtree(v *View, d Dim, n Node, open bool) {
	k := 0
	var walk func(n Node)
	walk = func(n Node) {
		if k >= maxExpand || !v.IsBranch(d, n) {
			return
		}
		k++
		v.SetExpanded(d, n, open)
		for _, c := range v.Children(d, n) {
			walk(c)
		}
	}
	walk(n)
}

// RangeForm is View › Colour range of the active pane…: the minimum and
// maximum of pane d's colour scale; an empty maximum restores the
// automatic range. Submitting sets the range in v and calls done.
func RangeForm(v *View, d Dim, done func()) *form.Form {
	lo := &form.Field{Kind: form.TextField, Label: "Minimum", Placeholder: "0"}
	hi := &form.Field{Kind: form.TextField, Label: "Maximum", Placeholder: "automatic"}
	if r := v.UserRange(d); r != nil {
		lo.Text = strconv.FormatFloat(r.Min, 'g', -1, 64)
		hi.Text = strconv.FormatFloat(r.Max, 'g', -1, 64)
	}
	f := &form.Form{Title: "Colour range of the " + strings.ToLower(d.String()), Confirm: "Apply", Fields: []*form.Field{lo, hi}}
	f.Submit = func() error {
		if strings.TrimSpace(hi.Text) == "" {
			v.setUserRange(d, nil)
			done()
			return nil
		}
		low := strings.TrimSpace(lo.Text)
		if low == "" {
			low = "0"
		}
		min, err1 := strconv.ParseFloat(low, 64)
		max, err2 := strconv.ParseFloat(strings.TrimSpace(hi.Text), 64)
		if err := errors.Join(err1, err2); err != nil || min > max || min < 0 {
			return fmt.Errorf("colour range: want 0 ≤ minimum ≤ maximum, got %q and %q", lo.Text, hi.Text)
		}
		v.setUserRange(d, &colormap.Range{Min: min, Max: max})
		done()
		return nil
	}
	return f
}

// PaneTitle returns the title of pane d: the call pane's says whether it
// shows the call tree (flat false) or the flat profile.
func PaneTitle(d Dim, flat bool) string {
	if d == CallPane && flat {
		return "Flat profile"
	}
	return d.String()
}

// ModeNames returns the names of the value modes of pane d, as a mode
// selector offers them (ParseMode reads them back).
func ModeNames(d Dim) []string {
	var names []string
	for _, m := range Modes(d) {
		names = append(names, m.String())
	}
	return names
}
