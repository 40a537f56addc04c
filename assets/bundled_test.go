package assets_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"cubeview/assets"
	"cubeview/assets/internal/example"
	"cubeview/format"
	"cubeview/model"
)

// bundled returns the experiments of the bundled files, written out with
// WriteExample and read back with format.Open.
func bundled(t *testing.T) []pair {
	t.Helper()
	files, err := assets.WriteExample(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return []pair{{"bundled", open(t, files.Before), open(t, files.After)}}
}

func open(t *testing.T, path string) *model.Experiment {
	t.Helper()
	e, err := format.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func dump(t *testing.T, e *model.Experiment) string {
	t.Helper()
	var b bytes.Buffer
	if err := e.Dump(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestBundledUpToDate regenerates the example and compares it with the
// bundled files, so that they cannot go stale; after changing the
// generator, run "go generate ./assets".
func TestBundledUpToDate(t *testing.T) {
	dir := t.TempDir()
	before, after, err := example.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	b := bundled(t)[0]
	for _, x := range []struct {
		bundled *model.Experiment
		fresh   string
	}{{b.before, before}, {b.after, after}} {
		if dump(t, x.bundled) != dump(t, open(t, x.fresh)) {
			t.Errorf("bundled %s differs from what the generator writes now; run go generate ./assets",
				filepath.Base(x.fresh))
		}
	}
}

func TestWriteExample(t *testing.T) {
	dir := t.TempDir()
	files, err := assets.WriteExample(dir)
	if err != nil {
		t.Fatal(err)
	}
	before, after := assets.Example()
	for _, x := range []struct {
		path string
		want []byte
	}{{files.Before, before}, {files.After, after}} {
		got, err := os.ReadFile(x.path)
		if err != nil {
			t.Fatal(err)
		}
		if len(x.want) == 0 || !bytes.Equal(got, x.want) {
			t.Errorf("%s: %d bytes written, want the %d bundled bytes", x.path, len(got), len(x.want))
		}
	}
	want := []string{"halo.c", "solver.c", "solver.h", "xsolve.f90"}
	if len(files.Sources) != len(want) {
		t.Fatalf("sources %q, want %q", files.Sources, want)
	}
	for i, name := range want {
		p := filepath.Join(dir, "example-src", name)
		if files.Sources[i] != p {
			t.Errorf("source %d = %q, want %q", i, files.Sources[i], p)
		}
		got, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		orig, err := fs.ReadFile(assets.Sources(), "example-src/"+name)
		if err != nil || !bytes.Equal(got, orig) {
			t.Errorf("%s differs from the bundled source (%v)", p, err)
		}
	}
	// Every region's module resolves relative to the directory written.
	e := open(t, files.Before)
	for _, r := range e.Regions {
		if r.Paradigm == "mpi" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(r.Module))); err != nil {
			t.Errorf("region %s: module %s not found below %s: %v", r.Name, r.Module, dir, err)
		}
	}
}
