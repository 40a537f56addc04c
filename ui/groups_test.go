package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"cubeview/analysisview"
	"cubeview/format"
	"cubeview/internal/synth"
	"cubeview/view"
)

// TestCompareGroupsFromMenu opens three runs of each of two
// configurations, the second with one call path 50 % slower, compares
// them through Algebra › Compare groups of runs…, and checks the list:
// only that call path is marked and drawn in the text's colour, the
// others muted; the check box hides them; a click selects the call path.
func TestCompareGroupsFromMenu(t *testing.T) {
	a := newTestApp(t)
	dir := t.TempDir()
	const planted = 7
	var wins []*Window
	var plantedPath string
	for g, shift := range []float64{0.5, 0} {
		for i := range 3 {
			e := synth.NoisyRun(synth.Config{Cnodes: 30, Locations: 4, Metrics: 1, Seed: 7}, uint64(g), i, synth.Sigma(0.02), synth.ShiftAt(planted, shift))
			plantedPath = e.CallPath(planted)
			p := filepath.Join(dir, fmt.Sprintf("%c%d.cubex", 'a'+g, i+1))
			if err := format.Write(p, e); err != nil {
				t.Fatal(err)
			}
			wins = append(wins, openWindow(t, a, p))
		}
	}
	w := wins[0]
	if it := menuItem(w, "Algebra", "Compare groups of runs…"); it == nil || it.Disabled {
		t.Fatalf("Algebra › Compare groups of runs… missing or disabled: %+v", it)
	}
	f := w.dialogs.newGroupsForm()
	if f.A.Button != "Open file…" || f.B.Button != "Open file…" || f.B.Action == nil {
		t.Errorf("no Open file… beside the groups: %q, %q", f.A.Button, f.B.Button)
	}
	for i := range 6 {
		f.SetChecked(f.A, i, i < 3)
		f.SetChecked(f.B, i, i >= 3)
	}
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	p := w.panels.groups
	if p == nil {
		t.Fatal("no result list")
	}
	rep := p.rep
	if rep.Len() != 30 || !strings.Contains(rep.Headline, "1 of 30 call paths differ significantly") {
		t.Fatalf("%d rows: %s", rep.Len(), rep.Headline)
	}
	cell := func(row int) *elidedCell {
		c := newElidedCell(nil)
		p.sorted.table.UpdateCell(widget.TableCellID{Row: row, Col: analysisview.GroupsCallPath}, c)
		return c
	}
	marked := 0
	for i := range rep.Len() {
		c := cell(i)
		sig := c.Text() == plantedPath
		if sig {
			marked++
		}
		if c.Muted() == sig {
			t.Errorf("row %d %s: muted %v", i, c.Text(), c.Muted())
		}
	}
	if marked != 1 {
		t.Fatalf("planted call path in %d rows", marked)
	}
	p.hide.SetChecked(true)
	if rows, _ := p.sorted.table.Length(); rows != 1 || cell(0).Text() != plantedPath {
		t.Fatalf("only significant: %d rows", rows)
	}
	p.sorted.table.Select(widget.TableCellID{Row: 0, Col: analysisview.GroupsCallPath})
	if n := w.view.Selected(view.CallPane); n.Kind != view.CnodeNode || w.Document().Exp.CallPath(n.Index) != plantedPath {
		t.Errorf("selected %+v, want %s", n, plantedPath)
	}
}
