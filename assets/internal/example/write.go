package example

import (
	"fmt"
	"path/filepath"

	"cubeview/format"
)

// Write builds both runs and writes them as before.cubex and after.cubex
// into dir, returning the two paths.
func Write(dir string) (before, after string, err error) {
	paths := make([]string, 2)
	for i, r := range []Run{Before, After} {
		e := Build(r)
		if err := e.Validate(); err != nil {
			return "", "", fmt.Errorf("example %s: %w", r.Name, err)
		}
		paths[i] = filepath.Join(dir, r.Name+".cubex")
		if err := format.Write(paths[i], e); err != nil {
			return "", "", fmt.Errorf("example %s: %w", r.Name, err)
		}
	}
	return paths[0], paths[1], nil
}
