package dialogform

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cubeview/document"
)

func TestReferenceForm(t *testing.T) {
	before, after := namedDoc("/r/before.cubex"), namedDoc("/r/after.cubex")
	diff := &document.Doc{Exp: handDiff(), Name: "before − after", Expression: "before − after"}
	var ref *document.Doc
	var switched bool
	apply := func(r *document.Doc, s bool) { ref, switched = r, s }
	if f := ReferenceForm(diff, []*document.Doc{diff}, nil, false, apply); f != nil {
		t.Error("a form without another experiment")
	}
	f := ReferenceForm(diff, []*document.Doc{before, after, diff}, before.Exp, false, apply)
	choice, show := f.Field("Reference"), f.Field("Show the call tree in External percent")
	if !slices.Equal(choice.Options, []string{"None", "before.cubex", "after.cubex"}) || choice.Text != "before.cubex" || !show.On {
		t.Fatalf("offers %q, chosen %q, switch %v", choice.Options, choice.Text, show.On)
	}
	if f.Title != "External reference of before − after" || f.Confirm != "Apply" {
		t.Errorf("title %q, button %q", f.Title, f.Confirm)
	}
	if err := f.Set(choice, "after.cubex"); err != nil {
		t.Fatal(err)
	}
	if err := f.Confirmed(); err != nil || ref != after || !switched {
		t.Errorf("apply: %v, %v, switch %v", err, ref, switched)
	}
	_ = f.Set(choice, "None")
	if err := f.Confirmed(); err != nil || ref != nil || switched {
		t.Errorf("none: %v, %v, switch %v", err, ref, switched)
	}
	// Already in External percent: no switch offered.
	if g := ReferenceForm(diff, []*document.Doc{before, diff}, nil, true, apply); g.Field("Reference").Text != "None" || g.Fields[2].On {
		t.Errorf("in External percent already: %q, switch %v", g.Field("Reference").Text, g.Fields[2].On)
	}
}

func TestSaveForm(t *testing.T) {
	dir := t.TempDir()
	doc := &document.Doc{Exp: handMade(), Name: "profile.cubex", Path: filepath.Join(dir, "profile.cubex")}
	var saved []string
	f := SaveForm(doc, "/elsewhere", func(then func(string)) { then("/other") }, func(p string) { saved = append(saved, p) })
	path := f.Focus
	if f.Title != "Save profile.cubex as" || path.Text != filepath.Join(dir, "profile.cubex") {
		t.Fatalf("%q proposes %s", f.Title, path.Text)
	}
	if !strings.HasPrefix(f.Fields[1].Text, "The ending chooses the format") {
		t.Errorf("help %q", f.Fields[1].Text)
	}
	path.Action() // the folder chooser keeps the name
	if path.Text != "/other/profile.cubex" {
		t.Errorf("after choosing a folder: %s", path.Text)
	}
	if err := f.Confirmed(); err != nil || !slices.Equal(saved, []string{"/other/profile.cubex"}) {
		t.Errorf("save: %v, %q", err, saved)
	}
}

func TestOpenForm(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.cubex")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var opened, browsed []string
	var pick string
	f := OpenForm(dir, func(p string) { opened = append(opened, p) }, func(d string, picked func(string)) {
		browsed = append(browsed, d)
		if pick != "" {
			picked(pick)
		}
	})
	path := f.Focus
	if path.Text != dir+"/" || f.Title != "Open experiment" || f.Confirm != "Open" {
		t.Fatalf("%q starts at %q", f.Title, path.Text)
	}
	// A missing file is a problem of the field, until the path changes.
	missing := filepath.Join(dir, "missing.cubex")
	_ = f.Set(path, missing)
	if err := f.Confirmed(); err == nil || path.Problem != missing+": no such file or folder" || opened != nil {
		t.Errorf("missing: %v, problem %q, opened %q", err, path.Problem, opened)
	}
	_ = f.Set(path, file)
	if path.Problem != "" {
		t.Errorf("problem %q after typing", path.Problem)
	}
	if err := f.Confirmed(); err != nil || !slices.Equal(opened, []string{file}) {
		t.Errorf("file: %v, opened %q", err, opened)
	}
	// A folder of files is browsed, and so is the typed path's folder.
	_ = f.Set(path, dir)
	if err := f.Confirmed(); err != nil || !slices.Equal(browsed, []string{dir}) || len(opened) != 1 {
		t.Errorf("folder: %v, browsed %q, opened %q", err, browsed, opened)
	}
	pick = file
	_ = f.Set(path, missing)
	path.Action()
	if !slices.Equal(browsed, []string{dir, dir}) || !slices.Equal(opened, []string{file, file}) || path.Text != file {
		t.Errorf("Browse…: browsed %q, opened %q, path %q", browsed, opened, path.Text)
	}
}
