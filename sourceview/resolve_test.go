package sourceview_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cubeview/sourceview"
)

// tree creates the files (slash paths relative to a temporary directory)
// and returns that directory.
func tree(t *testing.T, files ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("int x;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestResolve(t *testing.T) {
	root := tree(t,
		"local/proj/src/solver.c",
		"local/proj/src/halo.c",
		"other/src/solver.c",
		"search/src/io.c",
		"flat/util.c",
		"rel/example-src/solver.c",
		"local/projx/only.c",
	)
	at := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	tests := []struct {
		name     string
		resolver sourceview.Resolver
		recorded string
		want     string // slash path below root; "" = not found
	}{
		{"as recorded", sourceview.Resolver{}, at("local/proj/src/solver.c"), "local/proj/src/solver.c"},
		{"missing without help", sourceview.Resolver{}, "/build/proj/src/solver.c", ""},
		{"mapping",
			sourceview.Resolver{Mappings: []sourceview.Mapping{{From: "/build/proj", To: at("local/proj")}}},
			"/build/proj/src/halo.c", "local/proj/src/halo.c"},
		{"mapping with trailing slash",
			sourceview.Resolver{Mappings: []sourceview.Mapping{{From: "/build/proj/", To: at("local/proj")}}},
			"/build/proj/src/halo.c", "local/proj/src/halo.c"},
		{"mapping only at a directory boundary",
			sourceview.Resolver{Mappings: []sourceview.Mapping{{From: "/build/pro", To: at("local/proj")}}},
			"/build/proj/src/halo.c", ""},
		{"first matching mapping wins",
			sourceview.Resolver{Mappings: []sourceview.Mapping{
				{From: "/build", To: at("other")},
				{From: "/build/proj", To: at("local/proj")},
			}},
			"/build/src/solver.c", "other/src/solver.c"},
		{"later mapping when the first gives no file",
			sourceview.Resolver{Mappings: []sourceview.Mapping{
				{From: "/build", To: at("other")},
				{From: "/build/proj", To: at("local/proj")},
			}},
			"/build/proj/src/halo.c", "local/proj/src/halo.c"},
		{"Windows path mapped",
			sourceview.Resolver{Mappings: []sourceview.Mapping{{From: `C:\work\proj`, To: at("local/proj")}}},
			`C:\work\proj\src\solver.c`, "local/proj/src/solver.c"},
		{"search dir keeps the longest tail",
			sourceview.Resolver{SearchDirs: []string{at("local/proj"), at("other")}},
			"/build/proj/src/solver.c", "local/proj/src/solver.c"},
		{"search dir with a tail",
			sourceview.Resolver{SearchDirs: []string{at("search")}},
			"/home/alice/code/src/io.c", "search/src/io.c"},
		{"search dir with the base name",
			sourceview.Resolver{SearchDirs: []string{at("flat")}},
			"/home/alice/code/lib/util.c", "flat/util.c"},
		{"relative path below a search dir",
			sourceview.Resolver{SearchDirs: []string{at("rel")}},
			"example-src/solver.c", "rel/example-src/solver.c"},
		{"mapping before search dirs",
			sourceview.Resolver{
				Mappings:   []sourceview.Mapping{{From: "/build", To: at("other")}},
				SearchDirs: []string{at("local/proj")},
			},
			"/build/src/solver.c", "other/src/solver.c"},
		{"relative path below the base",
			sourceview.Resolver{Base: at("rel")},
			"example-src/solver.c", "rel/example-src/solver.c"},
		{"base before search dirs",
			sourceview.Resolver{Base: at("other"), SearchDirs: []string{at("local/proj")}},
			"src/solver.c", "other/src/solver.c"},
		{"base ignored for an absolute path",
			sourceview.Resolver{Base: at("rel")},
			"/example-src/solver.c", ""},
		{"directory is not a file",
			sourceview.Resolver{SearchDirs: []string{at("local")}},
			"proj/src", ""},
		{"nothing recorded", sourceview.Resolver{SearchDirs: []string{at("flat")}}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.resolver.Resolve(tt.recorded)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("Resolve(%q) = %q, want an error", tt.recorded, got)
				}
				if !errors.Is(err, sourceview.ErrNotFound) {
					t.Errorf("Resolve(%q) error %v does not wrap ErrNotFound", tt.recorded, err)
				}
				if tt.recorded != "" && !strings.Contains(err.Error(), tt.recorded) {
					t.Errorf("error %q does not name %q", err, tt.recorded)
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.recorded, err)
			}
			if got != at(tt.want) {
				t.Errorf("Resolve(%q) = %q, want %q", tt.recorded, got, at(tt.want))
			}
		})
	}
}

func TestLearn(t *testing.T) {
	root := tree(t, "local/proj/src/solver.c", "local/proj/src/halo.c", "rel/example-src/solver.c", "rel/example-src/halo.c")
	at := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	tests := []struct {
		name              string
		recorded, located string
		learned           bool
		other             string // another recorded path the lesson must resolve
		otherWant         string
	}{
		{"absolute prefix", "/build/proj/src/solver.c", at("local/proj/src/solver.c"), true,
			"/build/proj/src/halo.c", "local/proj/src/halo.c"},
		{"relative path", "example-src/solver.c", at("rel/example-src/solver.c"), true,
			"example-src/halo.c", "rel/example-src/halo.c"},
		{"renamed file", "/build/proj/src/old.c", at("local/proj/src/solver.c"), false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r sourceview.Resolver
			if got := r.Learn(tt.recorded, tt.located); got != tt.learned {
				t.Fatalf("Learn(%q, %q) = %v, want %v (resolver %+v)", tt.recorded, tt.located, got, tt.learned, r)
			}
			if !tt.learned {
				return
			}
			if got, err := r.Resolve(tt.recorded); err != nil || got != tt.located {
				t.Errorf("after Learn, Resolve(%q) = %q, %v; want %q", tt.recorded, got, err, tt.located)
			}
			if got, err := r.Resolve(tt.other); err != nil || got != at(tt.otherWant) {
				t.Errorf("after Learn, Resolve(%q) = %q, %v; want %q", tt.other, got, err, at(tt.otherWant))
			}
			if r.Learn(tt.recorded, tt.located) {
				t.Errorf("learning the same lesson twice changed the resolver: %+v", r)
			}
		})
	}
}

func TestParseMapping(t *testing.T) {
	for _, m := range []sourceview.Mapping{
		{From: "/build/proj", To: "/home/me/proj"},
		{From: `C:\work`, To: "/mnt/c/work"},
		{From: "/a b/c", To: "/d e"},
	} {
		got, err := sourceview.ParseMapping(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMapping(%q) = %+v, %v; want %+v", m.String(), got, err, m)
		}
	}
	for _, bad := range []string{"", "/only/one", " => /to", "/from => "} {
		if m, err := sourceview.ParseMapping(bad); err == nil {
			t.Errorf("ParseMapping(%q) = %+v, want an error", bad, m)
		}
	}
}
