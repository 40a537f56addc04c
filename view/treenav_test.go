package view

import (
	"testing"

	"cubeview/internal/synth"
)

// TestNavigate checks what each key does in the call pane of the
// hand-made experiment: main with the children foo and bar.
func TestNavigate(t *testing.T) {
	shown := []Node{cMain, cFoo, cBar} // main open
	for _, tc := range []struct {
		name     string
		selected Node
		open     []Node
		rows     []Node
		key      TreeKey
		want     TreeAction
	}{
		{"Right opens a closed branch", cMain, nil, []Node{cMain}, KeyRight, TreeAction{Open: cMain}},
		{"+ opens a closed branch", cMain, nil, []Node{cMain}, KeyPlus, TreeAction{Open: cMain}},
		{"Right on an open branch goes to its first child", cMain, []Node{cMain}, shown, KeyRight, TreeAction{Select: cFoo}},
		{"+ on an open branch does nothing", cMain, []Node{cMain}, shown, KeyPlus, TreeAction{}},
		{"Right on a leaf does nothing", cBar, []Node{cMain}, shown, KeyRight, TreeAction{}},
		{"Left closes an open branch", cMain, []Node{cMain}, shown, KeyLeft, TreeAction{Close: cMain}},
		{"− closes an open branch", cMain, []Node{cMain}, shown, KeyMinus, TreeAction{Close: cMain}},
		{"Left on a closed node goes to its parent", cFoo, []Node{cMain}, shown, KeyLeft, TreeAction{Select: cMain}},
		{"− on a closed node does nothing", cFoo, []Node{cMain}, shown, KeyMinus, TreeAction{}},
		{"Left on a closed root does nothing", cMain, nil, []Node{cMain}, KeyLeft, TreeAction{}},
		{"Down", cFoo, []Node{cMain}, shown, KeyDown, TreeAction{Select: cBar}},
		{"Up", cFoo, []Node{cMain}, shown, KeyUp, TreeAction{Select: cMain}},
		{"Down stops at the end", cBar, []Node{cMain}, shown, KeyDown, TreeAction{Select: cBar}},
		{"Up stops at the top", cMain, []Node{cMain}, shown, KeyUp, TreeAction{Select: cMain}},
		{"Home", cBar, []Node{cMain}, shown, KeyHome, TreeAction{Select: cMain}},
		{"End", cMain, []Node{cMain}, shown, KeyEnd, TreeAction{Select: cBar}},
		{"Page Down stops at the end", cMain, []Node{cMain}, shown, KeyPageDown, TreeAction{Select: cBar}},
		{"Page Up stops at the top", cBar, []Node{cMain}, shown, KeyPageUp, TreeAction{Select: cMain}},
		{"a hidden selection moves from the first row", cFoo2, []Node{cMain}, shown, KeyDown, TreeAction{Select: cFoo}},
		{"no rows", cMain, nil, nil, KeyDown, TreeAction{}},
	} {
		v := NewView(handMade())
		mustUpdate(t, v)
		v.Select(CallPane, tc.selected)
		open := func(n Node) bool {
			for _, o := range tc.open {
				if o == n {
					return true
				}
			}
			return false
		}
		if got := Navigate(v, CallPane, tc.rows, open, tc.key); got != tc.want {
			t.Errorf("%s: Navigate = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestNavigatePages moves by whole pages through a long list of rows.
func TestNavigatePages(t *testing.T) {
	v := NewView(synth.Generate(synth.Config{Cnodes: 60, Locations: 2, Threads: 1, Nodes: 1, Metrics: 1, Seed: 1}))
	mustUpdate(t, v)
	rows := make([]Node, 50)
	for i := range rows {
		rows[i] = Node{CnodeNode, i}
	}
	v.Select(CallPane, rows[5])
	never := func(Node) bool { return false }
	if got := Navigate(v, CallPane, rows, never, KeyPageDown).Select; got != rows[25] {
		t.Errorf("Page Down from row 5 selected %v, want row 25", got)
	}
	v.Select(CallPane, rows[30])
	if got := Navigate(v, CallPane, rows, never, KeyPageUp).Select; got != rows[10] {
		t.Errorf("Page Up from row 30 selected %v, want row 10", got)
	}
}

// TestSelectNodes selects nodes of two panes, revealing them collapsed.
func TestSelectNodes(t *testing.T) {
	v := NewView(handMade())
	mustUpdate(t, v)
	v.SetExpanded(CallPane, cFoo2, true)
	got := SelectNodes(v, cFoo2, Node{}, sRank0)
	if len(got) != 2 || got[0] != cFoo2 || got[1] != sRank0 {
		t.Errorf("selected %v, want foo2 and rank 0", got)
	}
	if v.Selected(CallPane) != cFoo2 || v.Selected(SystemPane) != sRank0 {
		t.Errorf("selection %v, %v; want foo2, rank 0", v.Selected(CallPane), v.Selected(SystemPane))
	}
	for _, n := range []Node{cMain, cFoo} {
		if !v.Expanded(CallPane, n) {
			t.Errorf("ancestor %v of foo2 not expanded", n)
		}
	}
	if v.Expanded(CallPane, cFoo2) {
		t.Error("foo2 still expanded; a selected node shows its inclusive value")
	}
	for _, n := range []Node{sRoot, sNode0} {
		if !v.Expanded(SystemPane, n) {
			t.Errorf("ancestor %v of rank 0 not expanded", n)
		}
	}
}
