package ui

import (
	"strings"
	"testing"

	"cubeview/algebra"
	"cubeview/document"
)

// TestOperationFormRootsAndRenames: the algebra dialogs match single
// call-tree roots whatever their names unless told to keep them apart,
// take region renaming rules (a bad one is explained in the preview), and
// the result's properties say what was matched and renamed.
func TestOperationFormRootsAndRenames(t *testing.T) {
	a := newTestApp(t)
	bw, aw := openPair(t, a)
	before, after := bw.Document().Exp, aw.Document().Exp
	if len(before.CnodeRoots) != 1 || len(after.CnodeRoots) != 1 {
		t.Fatal("the example pair has more than one root")
	}
	// The second build names its root after its executable and one
	// function differently.
	root := &after.Regions[after.Cnodes[after.CnodeRoots[0]].Region]
	rootName := root.Name
	root.Name = rootName + "_optimized"
	callee := &after.Regions[after.Cnodes[after.Cnodes[after.CnodeRoots[0]].Children[0]].Region]
	calleeName := callee.Name
	callee.Name = calleeName + "_v2"

	f := bw.dialogs.newOperationForm(algebra.OpDiff)
	set(t, f.Form, f.Renames, "(unclosed=x")
	if _, err := f.Request(); err == nil || !strings.Contains(f.Preview.Text, "rename rule") {
		t.Errorf("bad rule: preview %q, error %v", f.Preview.Text, err)
	}
	set(t, f.Form, f.Renames, "\n"+calleeName+"_v2="+calleeName+"\n")
	r, err := f.Request()
	if err != nil || len(r.Options.Renames) != 1 || r.Options.StrictRoots {
		t.Fatalf("request %+v, %v", r.Options, err)
	}
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	res := lastWindow(t, a).Document()
	if n, want := len(res.Exp.Cnodes), len(before.Cnodes); n != want || len(res.Exp.CnodeRoots) != 1 {
		t.Errorf("difference has %d call paths in %d trees, want %d in one", n, len(res.Exp.CnodeRoots), want)
	}
	props := document.Properties(res)
	for _, want := range []string{"Roots:", rootName + "_optimized", "renamed to " + `"` + calleeName + `"`} {
		if !strings.Contains(props, want) {
			t.Errorf("properties lack %q:\n%s", want, props)
		}
	}

	f = bw.dialogs.newOperationForm(algebra.OpDiff)
	f.SetOn(f.StrictRoots, true)
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	res = lastWindow(t, a).Document()
	if len(res.Exp.CnodeRoots) != 2 {
		t.Errorf("with roots kept apart: %d roots, want 2", len(res.Exp.CnodeRoots))
	}
	if props := document.Properties(res); strings.Contains(props, "Roots:") || !strings.Contains(props, "kept apart") {
		t.Errorf("properties with roots kept apart:\n%s", props)
	}
}
