package ui

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"cubeview/algebra"
	"cubeview/format"
	"cubeview/model"
)

// renamedCopy writes a copy of the lulesh run whose root region (the
// executable) and one function are renamed, as a new build would name
// them, and returns its path with the old and new function names.
func renamedCopy(t *testing.T, path string) (copyPath, oldFn, newFn string) {
	t.Helper()
	e, err := format.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.CnodeRoots) != 1 {
		t.Fatalf("%s has %d roots", path, len(e.CnodeRoots))
	}
	root := e.Cnodes[e.CnodeRoots[0]]
	e.Regions[root.Region].Name += "_optimized"
	r := slices.IndexFunc(e.Regions, func(r model.Region) bool { return strings.HasPrefix(r.Name, "void TimeIncrement(") })
	if r < 0 {
		t.Fatalf("%s has no TimeIncrement", path)
	}
	fn := &e.Regions[r]
	oldFn = fn.Name
	fn.Name += "_v2"
	copyPath = filepath.Join(t.TempDir(), "lulesh_optimized.cubex")
	if err := format.Write(copyPath, e); err != nil {
		t.Fatal(err)
	}
	return copyPath, oldFn, fn.Name
}

// onlyIn counts the result's call paths that not every operand had.
func onlyIn(e *model.Experiment) int {
	n := 0
	for _, c := range e.Cnodes {
		if c.Present != 0b11 {
			n++
		}
	}
	return n
}

// TestAlgebraDialogMatchingOptions differs a run and a renamed build of it
// from the dialog: by default the single roots match and only the renamed
// function's call paths differ; a renaming rule matches those too; strict
// root matching keeps the whole trees apart. Each result records its
// options as the command line does.
func TestAlgebraDialogMatchingOptions(t *testing.T) {
	a := newTestApp(t)
	orig := dataFile(t, "cube4/lulesh/lulesh.p27.size25.r1.cubex")
	renamed, oldFn, newFn := renamedCopy(t, orig)
	w := openWindow(t, a, orig)
	openWindow(t, a, renamed)

	diff := func(strictRoots bool, rules string) (*Window, algebra.Provenance) {
		t.Helper()
		f := w.dialogs.newOperationForm(algebra.OpDiff)
		f.SetOn(f.StrictRoots, strictRoots)
		set(t, f.Form, f.Renames, rules)
		d := submit(t, a, f)
		p, ok, err := algebra.ReadProvenance(d.Document().Exp)
		if !ok || err != nil {
			t.Fatalf("provenance: %v %v", ok, err)
		}
		return d, p
	}
	e, err := format.Open(orig)
	if err != nil {
		t.Fatal(err)
	}
	d, p := diff(false, "")
	below := 0 // call paths at or below the renamed function
	for c := range e.Cnodes {
		if strings.Contains("/"+e.CallPath(c)+"/", "/"+oldFn+"/") {
			below++
		}
	}
	if got := onlyIn(d.Document().Exp); got != 2*below || below == 0 {
		t.Errorf("default: %d call paths not in both operands, want the renamed function's %d twice", got, below)
	}
	if p.Roots == "" || !strings.Contains(d.note.Text, "matched whatever their names") || !strings.Contains(d.note.Text, "_optimized") || !d.note.Visible() {
		t.Errorf("roots record %q, window note %q", p.Roots, d.note.Text)
	}
	if p.Options != "system=auto;strict-lines=false" {
		t.Errorf("options recorded %q", p.Options)
	}

	rule := regexp.QuoteMeta(newFn) + "=" + oldFn
	d, p = diff(false, "\n"+rule+"\n")
	if got := onlyIn(d.Document().Exp); got != 0 {
		t.Errorf("with the renaming rule %d call paths not in both operands", got)
	}
	if len(p.Opts.Renames) != 1 || p.Opts.Renames[0].String() != rule || !strings.Contains(p.Options, `rename="`) {
		t.Errorf("renames recorded as %q", p.Options)
	}

	d, p = diff(true, "")
	if got, all := onlyIn(d.Document().Exp), len(d.Document().Exp.Cnodes); got != all || all != 2*len(e.Cnodes) {
		t.Errorf("strict roots: %d of %d call paths in one operand, want all of 2×%d", got, all, len(e.Cnodes))
	}
	// Nothing is matched, and the window says that neither operand's
	// values are compared.
	if !p.Opts.StrictRoots || p.Roots != "" || strings.Contains(d.note.Text, "matched whatever their names") ||
		!strings.Contains(d.note.Text, "shares no call path with the other operands") {
		t.Errorf("strict roots recorded %q, roots %q, note %q", p.Options, p.Roots, d.note.Text)
	}

	// A rule that is no regular expression stops the dialog with a
	// message naming the line.
	f := w.dialogs.newOperationForm(algebra.OpMean)
	set(t, f.Form, f.Renames, "main=main\nsolve(=x")
	if err := f.Confirmed(); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad rule: %v", err)
	}
	if !strings.Contains(f.Preview.Text, "line 2") {
		t.Errorf("preview %q", f.Preview.Text)
	}
}
