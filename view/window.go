package view

import (
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"cubeview/colormap"
	"cubeview/form"
	"cubeview/model"
	"cubeview/numfmt"
)

// What a window does with its View beyond showing it: the find bar's
// texts, expanding subtrees and the hottest path, reading the data a
// display needs, the colour range dialog and the hints of the status line.

// FindMiss returns the find bar's text after a search for pattern in pane
// d found nothing: nothing for an empty pattern.
func FindMiss(d Dim, pattern string) string {
	if pattern == "" {
		return ""
	}
	return "no match in the " + strings.ToLower(d.String())
}

// FindMove moves to the next (delta 1), previous (−1) or current (0)
// match of the search and returns it, its pane and the find bar's text;
// ok is false without matches.
func (v *View) FindMove(delta int) (d Dim, n Node, text string, ok bool) {
	d, _, _ = v.FindState()
	n, pos, total, ok := v.FindStep(delta)
	if !ok {
		return d, Node{}, "", false
	}
	return d, n, fmt.Sprintf("%d of %d in the %s", pos, total, strings.ToLower(d.String())), true
}

// ExternalHint is the status hint after External percent picked ref as the
// reference, or found none (nil) to pick.
func ExternalHint(ref *Doc) string {
	if ref == nil {
		return "External percent needs a second open experiment (View › External reference)."
	}
	return "External percent of " + ref.Name + " (View › Choose external reference… changes it)."
}

// PaneInfo is the line below pane d: its scale, and the external reference
// (named ref) in External percent.
func (v *View) PaneInfo(d Dim, ref string) string {
	s := v.ScaleInfo(d)
	if s != "" && v.Mode(d) == ExternalPercent {
		s += " · reference " + ref
	}
	return s
}

// MaxExpand bounds ExpandSubtree, so that a huge tree cannot stall the
// window.
const MaxExpand = 5000

// ExpandSubtree expands (open) or collapses n and the branches below it
// in pane d, at most MaxExpand of them.
func (v *View) ExpandSubtree(d Dim, n Node, open bool) {
	k := 0
	var walk func(n Node)
	walk = func(n Node) {
		if k >= MaxExpand || !v.IsBranch(d, n) {
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

// HottestNeeds returns the data ExpandHottest in pane d needs first: the
// path follows current values, below a metric its sub-metrics' too.
func (v *View) HottestNeeds(d Dim) []BlockRef {
	need := v.Missing()
	if n := v.Selected(d); n.Kind == MetricNode {
		need = append(need, v.MissingUnder(n.Index)...)
	}
	return need
}

// ExpandHottest expands, from the selected node of pane d, the path of
// largest inclusive values for as long as a child holds more than the
// hot-path threshold of its parent, and selects its end, which it
// returns (the status line, Explain, says why it stopped there). Call it
// once HottestNeeds is read; the error is Update's.
func (v *View) ExpandHottest(d Dim) (Node, error) {
	err := v.Update()
	path, _ := v.HottestPath(d, v.Selected(d))
	for _, p := range path[:len(path)-1] {
		v.SetExpanded(d, p, true)
	}
	last := path[len(path)-1]
	v.Select(d, last)
	return last, err
}

// Read reads the data refs name: one pass over the file per metric, as
// many at once as there are processors. Errors surface when a View uses
// the data. It takes long: call it off the UI goroutine.
func Read(refs []BlockRef) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for _, r := range refs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if r.Rows {
				_, _ = r.Exp.Block(r.Metric)
			}
			_, _ = r.Exp.MetricTotal(model.MetricSel{Metric: r.Metric, Inclusive: true})
		}()
	}
	wg.Wait()
}

// RangeForm is View › Colour range of the active pane…: the minimum and
// maximum of pane d's colour scale; an empty maximum restores the
// automatic range. Submitting sets the range in v and calls done.
func (v *View) RangeForm(d Dim, done func()) *form.Form {
	lo := &form.Field{Kind: form.TextField, Label: "Minimum", Placeholder: "0"}
	hi := &form.Field{Kind: form.TextField, Label: "Maximum", Placeholder: "automatic"}
	if r := v.UserRange(d); r != nil {
		lo.Text = strconv.FormatFloat(r.Min, 'g', -1, 64)
		hi.Text = strconv.FormatFloat(r.Max, 'g', -1, 64)
	}
	f := &form.Form{Title: "Colour range of the " + strings.ToLower(d.String()), Confirm: "Apply", Fields: []*form.Field{lo, hi}}
	f.Submit = func() error {
		if strings.TrimSpace(hi.Text) == "" {
			v.SetUserRange(d, nil)
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
		v.SetUserRange(d, &colormap.Range{Min: min, Max: max})
		done()
		return nil
	}
	return f
}

// SetDiverging switches diverging colours (blue below zero) on or off.
func (v *View) SetDiverging(on bool) {
	s := v.Scale()
	s.Diverging = on
	v.SetScale(s)
}

// SetExternalDoc makes d's experiment the external reference; nil for none.
func (v *View) SetExternalDoc(d *Doc) {
	if d == nil {
		v.SetExternal(nil)
	} else {
		v.SetExternal(d.Exp)
	}
}

// SetNumberStyle sets the number format to numfmt.Styles[i], keeping the
// decimals; an i out of range changes nothing.
func (v *View) SetNumberStyle(i int) {
	if i < 0 || i >= len(numfmt.Styles) {
		return
	}
	f := numfmt.Styles[i].Format()
	f.Decimals = v.NumberFormat().Decimals
	v.SetNumberFormat(f)
}

// SetDecimals sets the number of decimals shown.
func (v *View) SetDecimals(n int) {
	f := v.NumberFormat()
	f.Decimals = n
	v.SetNumberFormat(f)
}

// ReadRows reads the rows of the metrics refs name, ahead of their use
// (Prefetch); errors surface when a View uses the data. Call it off the
// UI goroutine.
func ReadRows(refs []BlockRef) {
	for _, r := range refs {
		_, _ = r.Exp.Block(r.Metric)
	}
}

// Title returns the title of pane d: the call pane's says whether it
// shows the call tree or the flat profile.
func (v *View) Title(d Dim) string {
	if d == CallPane && v.Flat() {
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

// Others returns the open documents but doc, in order: the external
// references a window of doc offers.
func Others(docs []*Doc, doc *Doc) []*Doc {
	var out []*Doc
	for _, d := range docs {
		if d != doc {
			out = append(out, d)
		}
	}
	return out
}
