package ui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"cubeview/analysisview"
	"cubeview/internal/testkit/testrepo"
	"cubeview/repoview"
	"cubeview/view"
)

// buttonsIn returns the buttons drawn in o (a dialog, a window's
// content), depth first.
func buttonsIn(o fyne.CanvasObject) []*widget.Button {
	switch x := o.(type) {
	case *widget.Button:
		return []*widget.Button{x}
	case *fyne.Container:
		var out []*widget.Button
		for _, c := range x.Objects {
			out = append(out, buttonsIn(c)...)
		}
		return out
	case fyne.Widget:
		var out []*widget.Button
		for _, c := range test.WidgetRenderer(x).Objects() {
			out = append(out, buttonsIn(c)...)
		}
		return out
	}
	return nil
}

// TestRepositoryCompareGroups marks two experiments of repeated runs in
// the repository window, the slower one first, and presses Compare
// groups… and the dialog's Compare: the window of the slower
// experiment's first trial lists the call paths, only the planted one
// marked significant and drawn in the text's colour, the others muted;
// the check box hides them.
func TestRepositoryCompareGroups(t *testing.T) {
	r, _, slower, planted := testrepo.Groups(t, 3, 7, 0.5)
	a := newTestApp(t)
	a.repoLocation = r.Location()
	menuItem(a.newWindow(), "File", "Repository…").Action()
	rw := a.repository
	if rw == nil {
		t.Fatal("no repository window")
	}
	rw.win.Resize(fyne.NewSize(1400, 2000))
	for _, exp := range []string{"slower", "base"} {
		i := slices.IndexFunc(rw.b.Rows(), func(r repoview.Row) bool {
			return r.Kind == repoview.ExperimentRow && strings.Contains(r.TreeText(), exp)
		})
		_, check := cellText(rw, i, 0)
		if check == nil {
			t.Fatalf("experiment %s: no check box", exp)
		}
		check.SetChecked(true)
	}
	if got := rw.b.Marked(); len(got) != 6 || got[0] != slower[0] {
		t.Fatalf("marked %v, want the 3 slower runs first", got)
	}
	b := rw.buttons[repoview.CompareGroups]
	if b == nil || b.Disabled() {
		t.Fatal("Compare groups… missing or disabled")
	}
	test.Tap(b)
	dlg := rw.win.Canvas().Overlays().Top()
	if dlg == nil {
		t.Fatal("Compare groups… shows no dialog")
	}
	var compare *widget.Button
	adds := 0
	for _, x := range buttonsIn(dlg) {
		switch x.Text {
		case "Compare":
			compare = x
		case "Add file…":
			adds++
		}
	}
	if compare == nil || adds != 2 {
		t.Fatalf("dialog: Compare %v, %d Add file… buttons (want one per group)", compare, adds)
	}
	test.Tap(compare)
	var w *Window
	for _, x := range a.Windows() {
		if d := x.Document(); d != nil && d.Path == repoview.TrialRef(slower[0]) {
			w = x
		}
	}
	if w == nil || w.panels.groups == nil {
		t.Fatalf("no window of trial %d with the comparison", slower[0])
	}
	p := w.panels.groups
	if !strings.Contains(p.rep.Headline, "3 runs (A) against 3 (B): 1 of 30 call paths differ significantly") {
		t.Errorf("headline %q", p.rep.Headline)
	}
	cell := func(row int) *elidedCell {
		c := newElidedCell(nil)
		p.sorted.table.UpdateCell(widget.TableCellID{Row: row, Col: analysisview.GroupsCallPath}, c)
		return c
	}
	for i := range p.rep.Len() {
		if c := cell(i); c.Muted() == (c.Text() == planted) {
			t.Errorf("row %d %s: muted %v", i, c.Text(), c.Muted())
		}
	}
	p.hide.SetChecked(true)
	if rows, _ := p.sorted.table.Length(); rows != 1 || cell(0).Text() != planted {
		t.Fatalf("only significant: %d rows", rows)
	}
	p.sorted.table.Select(widget.TableCellID{Row: 0, Col: analysisview.GroupsCallPath})
	if n := w.view.Selected(view.CallPane); n.Kind != view.CnodeNode || w.Document().Exp.CallPath(n.Index) != planted {
		t.Errorf("selected %+v, want %s", n, planted)
	}
	if !strings.HasPrefix(rw.status.Text, "Compared 3 runs with 3: 1 of 30") {
		t.Errorf("status %q", rw.status.Text)
	}
}
