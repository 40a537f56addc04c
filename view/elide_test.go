package view

import (
	"strings"
	"testing"
	"unicode/utf8"

	"cubeview/internal/synth"
)

// TestExplainDeepCallPath: the status line of a call path 20,000 deep
// names both ends of the path within maxStatusPath characters.
func TestExplainDeepCallPath(t *testing.T) {
	e := synth.Chain(20_000, 2)
	v := NewView(e)
	mustUpdate(t, v)
	end := Node{CnodeNode, 19_999}
	v.Select(CallPane, end)
	mustUpdate(t, v)
	got := v.Explain(CallPane)
	if !strings.Contains(got, "call path f0/f1/") || !strings.Contains(got, "/f19998/f19999") || !strings.Contains(got, "…") {
		t.Errorf("Explain does not name both ends of the path: %.200q", got)
	}
	if n := utf8.RuneCountInString(got); n > maxStatusPath+200 {
		t.Errorf("Explain is %d characters long", n)
	}
	short := Node{CnodeNode, 3}
	v.Select(CallPane, short)
	mustUpdate(t, v)
	if got := v.Explain(CallPane); !strings.Contains(got, "call path f0/f1/f2/f3 ") {
		t.Errorf("a short call path is elided: %q", got)
	}
}
