package view

import (
	"slices"
	"testing"
)

func ids(ns ...Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.ID()
	}
	return out
}

// TestPaneRows walks the call pane of the hand-made experiment: main with
// foo (which calls foo, which calls bar) and bar.
func TestPaneRows(t *testing.T) {
	v := NewView(handMade())
	mustUpdate(t, v)
	r := NewPaneRows(v, CallPane)
	if got := r.ChildIDs(""); !slices.Equal(got, ids(cMain)) {
		t.Errorf("roots = %v, want main", got)
	}
	if got := r.ChildIDs(cMain.ID()); !slices.Equal(got, ids(cFoo, cBar)) {
		t.Errorf("children of main = %v, want foo, bar", got)
	}
	open := map[string]bool{cMain.ID(): true, cFoo.ID(): true}
	isOpen := func(id string) bool { return open[id] }
	if got := r.Visible(isOpen); !slices.Equal(got, []Node{cMain, cFoo, cFoo2, cBar}) {
		t.Errorf("visible = %v, want main, foo, foo2, bar", got)
	}
	v.SetExpanded(CallPane, cMain, true)
	var walked []string
	var expanded []string
	r.WalkExpanded(func(id string, exp bool) {
		walked = append(walked, id)
		if exp {
			expanded = append(expanded, id)
		}
	})
	if !slices.Equal(walked, ids(cMain, cFoo, cBar)) || !slices.Equal(expanded, ids(cMain)) {
		t.Errorf("walked %v with %v expanded, want main, foo, bar with main", walked, expanded)
	}
	if got := NewPaneRows(nil, CallPane).Visible(isOpen); len(got) != 0 {
		t.Errorf("rows without a view: %v", got)
	}
}

// TestPaneRowsCache keeps the children's order until Reset.
func TestPaneRowsCache(t *testing.T) {
	v := NewView(handMade())
	mustUpdate(t, v)
	r := NewPaneRows(v, CallPane)
	before := r.ChildIDs(cMain.ID())
	v.SetOrder(ByName) // bar before foo
	if got := r.ChildIDs(cMain.ID()); !slices.Equal(got, before) {
		t.Errorf("cached children changed before Reset: %v, want %v", got, before)
	}
	r.Reset()
	if got, want := r.ChildIDs(cMain.ID()), ids(v.Children(CallPane, cMain)...); !slices.Equal(got, want) || slices.Equal(got, before) {
		t.Errorf("children after Reset = %v, want %v (not %v)", got, want, before)
	}
}
