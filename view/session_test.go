package view

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cubeview/format"
	"cubeview/internal/prefs"
)

// TestRecentFiles keeps the latest first, without duplicates, bounded,
// and remembers the last folder.
func TestRecentFiles(t *testing.T) {
	p := prefs.Open(filepath.Join(t.TempDir(), "prefs.json"))
	for i := 0; i < maxRecent+3; i++ {
		if err := AddRecent(p, filepath.Join("/data", string(rune('a'+i))+".cube")); err != nil {
			t.Fatal(err)
		}
	}
	if err := AddRecent(p, "/data/c.cube"); err != nil {
		t.Fatal(err)
	}
	r := Recent(p)
	if len(r) != maxRecent || r[0] != "/data/c.cube" {
		t.Fatalf("recent = %v", r)
	}
	seen := map[string]bool{}
	for _, p := range r {
		if seen[p] {
			t.Errorf("duplicate %s in %v", p, r)
		}
		seen[p] = true
	}
	if err := AddRecent(p, filepath.Join("rel", "x.cubex")); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if got, want := Recent(p)[0], filepath.Join(wd, "rel", "x.cubex"); got != want {
		t.Errorf("relative path recorded as %s, want %s", got, want)
	}
	if got, want := LastFolder(p), filepath.Join(wd, "rel"); got != want {
		t.Errorf("last folder = %q, want %q", got, want)
	}
}

// TestOpenPrefs takes the lists over from the toolkit's preferences the
// first time only, and warns about a file that does not parse.
func TestOpenPrefs(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	legacy := func(key string) []string {
		switch key {
		case "recentFiles":
			return []string{"/old/a.cubex"}
		case "dirs":
			return []string{"/src"}
		}
		return nil
	}
	var stderr bytes.Buffer
	p := OpenPrefs(&stderr, legacy, "dirs")
	if got := Recent(p); !slices.Equal(got, []string{"/old/a.cubex"}) {
		t.Errorf("recent files taken over = %v", got)
	}
	if got := p.StringList("dirs"); !slices.Equal(got, []string{"/src"}) {
		t.Errorf("dirs taken over = %v", got)
	}
	if err := AddRecent(p, "/new/b.cubex"); err != nil {
		t.Fatal(err)
	}
	p = OpenPrefs(&stderr, legacy, "dirs")
	if got := Recent(p); len(got) != 2 || got[0] != "/new/b.cubex" {
		t.Errorf("second start: recent files = %v, want the file's own list", got)
	}
	if stderr.Len() != 0 {
		t.Errorf("unexpected warning %q", stderr.String())
	}
	if err := os.WriteFile(p.Path(), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	OpenPrefs(&stderr, legacy, "dirs")
	if !strings.Contains(stderr.String(), "starting with default settings") {
		t.Errorf("no warning about the broken file: %q", stderr.String())
	}
}

// TestWriteExample writes the bundled pair into the cache folder.
func TestWriteExample(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	files, err := WriteExample()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{files.Before, files.After} {
		if filepath.Dir(f) != filepath.Join(cache, "cubeview", "example") {
			t.Errorf("%s is not in the cache folder", f)
		}
		if _, err := format.Open(f); err != nil {
			t.Errorf("written example does not read back: %v", err)
		}
	}
}
