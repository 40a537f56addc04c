package sourcepanel

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"cubeview/algebra"
	"cubeview/document"
	"cubeview/model"
	"cubeview/sourceview"
)

func TestParseSourcePaths(t *testing.T) {
	ms, dirs, err := parsePaths("/build => /home/me\n\n C:\\src => /mnt/src \n", "/a\n\n/b\n/a\n")
	want := []sourceview.Mapping{{From: "/build", To: "/home/me"}, {From: `C:\src`, To: "/mnt/src"}}
	if err != nil || !slices.Equal(ms, want) || !slices.Equal(dirs, []string{"/a", "/b"}) {
		t.Errorf("parsePaths = %v, %v, %v; want %v, [/a /b], nil", ms, dirs, err, want)
	}
	if _, _, err := parsePaths("/only/one\n", ""); err == nil {
		t.Error("a mapping without \"=>\" parsed")
	}
}

func TestStoredSourcePaths(t *testing.T) {
	want := []sourceview.Mapping{{From: "/build", To: "/home/me"}}
	ms, dirs := storedPaths(append(mappingStrings(want), "no arrow"), []string{" /a ", "", "/b"})
	if !slices.Equal(ms, want) || !slices.Equal(dirs, []string{"/a", "/b"}) {
		t.Errorf("storedPaths = %v, %v", ms, dirs)
	}
	if got := addDir([]string{"/a"}, "/a"); !slices.Equal(got, []string{"/a"}) {
		t.Errorf("addDir added a folder twice: %v", got)
	}
	if got := addDir(nil, "rel"); len(got) != 1 || !filepath.IsAbs(got[0]) {
		t.Errorf("addDir(rel) = %v, want an absolute path", got)
	}
}

// derivedOf returns an experiment whose provenance names operand files
// at paths (and one derived operand without a file).
func derivedOf(paths ...string) *model.Experiment {
	e := &model.Experiment{}
	for i, p := range paths {
		e.Attrs = append(e.Attrs, model.Attr{Key: algebra.AttrOperand + string(rune('0'+i)), Value: "size=1;sha256=00;path=" + p})
	}
	e.Attrs = append(e.Attrs, model.Attr{Key: algebra.AttrOperand + "9", Value: "expression=a"})
	return e
}

func TestExperimentDirsAndResolver(t *testing.T) {
	if got := experimentDirs(&document.Doc{Path: "/runs/a/x.cubex"}); !slices.Equal(got, []string{"/runs/a"}) {
		t.Errorf("experimentDirs(file) = %v", got)
	}
	derived := &document.Doc{Exp: derivedOf("/runs/a/x.cubex", "/runs/b/y.cubex", "/runs/a/z.cubex")}
	if got := experimentDirs(derived); !slices.Equal(got, []string{"/runs/a", "/runs/b"}) {
		t.Errorf("experimentDirs(derived) = %v", got)
	}
	open := []*document.Doc{{Path: "/open/c.cubex"}, {Exp: derivedOf("/elsewhere/d.cubex")}}
	user := []sourceview.Mapping{{From: "/build", To: "/home"}}
	r := resolver(derived, open, user, []string{"/mine", "/runs/b"})
	if r.Base != "/runs/a" || !slices.Equal(r.Mappings, user) ||
		!slices.Equal(r.SearchDirs, []string{"/runs/a", "/runs/b", "/open", "/mine"}) {
		t.Errorf("resolver(derived) = %+v", r)
	}
	r = resolver(&document.Doc{Path: "/runs/a/x.cubex", Exp: &model.Experiment{}}, open, nil, nil)
	if r.Base != "/runs/a" || !slices.Equal(r.SearchDirs, []string{"/runs/a"}) {
		t.Errorf("resolver(file) = %+v, want only its own directory", r)
	}
}

func TestLearnSourcePath(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "home", "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	kernel := filepath.Join(src, "kernel.c")
	renamed := filepath.Join(src, "kernel2.c")
	for _, p := range []string{kernel, renamed} {
		if err := os.WriteFile(p, []byte("int x;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := &document.Doc{Path: filepath.Join(dir, "run", "x.cubex"), Exp: &model.Experiment{}}
	ms, dirs, err := learnPath(o, nil, nil, nil, "/build/src/kernel.c", kernel)
	if err != nil || !slices.Equal(ms, []sourceview.Mapping{{From: "/build", To: filepath.Join(dir, "home")}}) || len(dirs) != 0 {
		t.Errorf("learnPath = %v, %v, %v; want the leading directories mapped", ms, dirs, err)
	}
	ms, _, err = learnPath(o, nil, nil, nil, "/build/src/kernel.c", renamed)
	if err != nil || !slices.Contains(ms, sourceview.Mapping{From: "/build/src/kernel.c", To: renamed}) {
		t.Errorf("learnPath(renamed) = %v, %v; want the whole path mapped", ms, err)
	}
	if _, _, err := learnPath(o, nil, nil, nil, "/build/src/kernel.c", src); err == nil {
		t.Error("a folder was accepted as the source file")
	}
	if _, _, err := learnPath(o, nil, nil, nil, "/build/src/kernel.c", filepath.Join(src, "none.c")); err == nil {
		t.Error("a missing file was accepted")
	}
}
