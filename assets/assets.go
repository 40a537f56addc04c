package assets

//go:generate go run ./internal/genexample -out .

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed before.cubex
var beforeCubex []byte

//go:embed after.cubex
var afterCubex []byte

//go:embed example-src
var sources embed.FS

// Example returns the bundled experiments, before and after the
// optimisation, as .cubex file contents. The slices must not be modified.
func Example() (before, after []byte) { return beforeCubex, afterCubex }

// Sources returns the example's source files. Their paths, such as
// "example-src/solver.c", are the module paths the example's regions and
// call sites record, relative to the experiment files.
func Sources() fs.FS { return sources }

// Files names the files written by WriteExample.
type Files struct {
	Dir     string   // the directory written into
	Before  string   // before.cubex
	After   string   // after.cubex
	Sources []string // the source files, below Dir/example-src
}

// WriteExample writes the example experiments and their source files into
// dir, creating it when needed, laid out so that the regions' module
// paths resolve relative to dir.
func WriteExample(dir string) (Files, error) {
	f := Files{Dir: dir, Before: filepath.Join(dir, "before.cubex"), After: filepath.Join(dir, "after.cubex")}
	for _, x := range []struct {
		path string
		data []byte
	}{{f.Before, beforeCubex}, {f.After, afterCubex}} {
		if err := writeFile(x.path, x.data); err != nil {
			return Files{}, err
		}
	}
	err := fs.WalkDir(sources, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(sources, p)
		if err != nil {
			return err
		}
		path := filepath.Join(dir, filepath.FromSlash(p))
		if err := writeFile(path, data); err != nil {
			return err
		}
		f.Sources = append(f.Sources, path)
		return nil
	})
	if err != nil {
		return Files{}, fmt.Errorf("writing example sources: %w", err)
	}
	return f, nil
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("writing example: %w", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("writing example: %w", err)
	}
	return nil
}
