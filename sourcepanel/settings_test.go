package sourcepanel

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"cubeview/document"
	"cubeview/model"
	"cubeview/sourceview"
)

// memPrefs keeps preferences in memory; fail makes every write fail.
type memPrefs struct {
	lists map[string][]string
	fail  bool
}

func (p *memPrefs) StringList(key string) []string { return p.lists[key] }

func (p *memPrefs) SetStringList(key string, l []string) error {
	if p.fail {
		return errors.New("read-only")
	}
	p.lists[key] = slices.Clone(l)
	return nil
}

func TestSourceSettings(t *testing.T) {
	prefs := &memPrefs{lists: map[string][]string{
		PrefSourceMappings: {"/old => /new", "no arrow"},
		PrefSourceDirs:     {" /src "},
	}}
	changes := 0
	s := Settings{Prefs: prefs, Changed: func() { changes++ }}
	ms, dirs := s.Paths()
	if !slices.Equal(ms, []sourceview.Mapping{{From: "/old", To: "/new"}}) || !slices.Equal(dirs, []string{"/src"}) {
		t.Fatalf("Paths() = %v, %q", ms, dirs)
	}
	if err := s.AddDir("/more"); err != nil || changes != 1 {
		t.Fatalf("AddDir: %v, %d changes", err, changes)
	}
	if _, dirs := s.Paths(); !slices.Equal(dirs, []string{"/src", "/more"}) {
		t.Errorf("after AddDir: %q", dirs)
	}
	if r := s.Resolver(nil, nil); !slices.Equal(r.SearchDirs, []string{"/src", "/more"}) || len(r.Mappings) != 1 {
		t.Errorf("resolver %+v", r)
	}

	// Learning where a file is stores a mapping.
	dir := t.TempDir()
	kernel := filepath.Join(dir, "home", "src", "kernel.c")
	if err := os.MkdirAll(filepath.Dir(kernel), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kernel, []byte("int x;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := &document.Doc{Path: filepath.Join(dir, "run", "x.cubex"), Exp: &model.Experiment{}}
	if err := s.Learn(o, nil, "/build/src/kernel.c", kernel); err != nil || changes != 2 {
		t.Fatalf("Learn: %v, %d changes", err, changes)
	}
	if ms, _ := s.Paths(); !slices.Contains(ms, sourceview.Mapping{From: "/build", To: filepath.Join(dir, "home")}) {
		t.Errorf("learnt %v", ms)
	}

	// The Paths… dialog edits both lists as text.
	f := s.Form()
	mappings, folders := f.Field("Path mappings"), f.Field("Search folders")
	if mappings.Lines != 5 || mappings.Hint == "" || folders.Text != "/src\n/more" {
		t.Fatalf("fields %+v, %+v", mappings, folders)
	}
	_ = f.Set(mappings, "/a => /b\nbroken")
	if err := f.Confirmed(); err == nil || changes != 2 {
		t.Errorf("a bad mapping was saved (%v, %d changes)", err, changes)
	}
	_ = f.Set(mappings, "/a => /b\n\n")
	_ = f.Set(folders, "")
	if err := f.Confirmed(); err != nil {
		t.Fatal(err)
	}
	if ms, dirs := s.Paths(); !slices.Equal(ms, []sourceview.Mapping{{From: "/a", To: "/b"}}) || len(dirs) != 0 {
		t.Errorf("saved %v, %q", ms, dirs)
	}
	prefs.fail = true
	if err := s.AddDir("/x"); err == nil {
		t.Error("a failed write is not reported")
	}
}
