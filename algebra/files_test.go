package algebra

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestOperandFiles lists the files and folders of a nested result: the
// operands of a saved derived operand too, a folder operand while it
// exists, and each once.
func TestOperandFiles(t *testing.T) {
	dir := t.TempDir()
	pa, pb, pd := filepath.Join(dir, "a.cubex"), filepath.Join(dir, "b.cubex"), filepath.Join(dir, "d.cubex")
	folder := filepath.Join(dir, "tau-run")
	for _, p := range []string{pa, pb, pd} {
		if err := os.WriteFile(p, []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	a, b := handA(t), handB(t)
	a.Source, b.Source = pa, pb
	d, err := Diff(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := OperandFiles(d); !slices.Equal(got, []string{pa, pb}) {
		t.Errorf("files of a − b: %v", got)
	}
	// d saved as d.cubex and read back, merged with a folder operand and b.
	d.Source = pd
	f := handB(t)
	f.Source = folder
	m, err := Merge(Options{}, d, f, b)
	if err != nil {
		t.Fatal(err)
	}
	if got := OperandFiles(m); !slices.Equal(got, []string{pd, folder, pb, pa}) {
		t.Errorf("files of merge(d, folder, b): %v", got)
	}
	if err := os.Remove(folder); err != nil {
		t.Fatal(err)
	}
	if got := OperandFiles(m); slices.Contains(got, folder) {
		t.Errorf("a folder that is gone is listed: %v", got)
	}
	if got := OperandFiles(a); got != nil {
		t.Errorf("an original has operand files %v", got)
	}
}
