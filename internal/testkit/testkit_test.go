package testkit

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDiff(t *testing.T) {
	for _, c := range []struct{ want, got, out string }{
		{"a\nb", "a\nb", ""},
		{"a\nb", "a\nc", "line 2:\n  want \"b\"\n  got  \"c\""},
		{"a", "a\nx", "line 2: want end of text\n  got  \"x\""},
		{"a\nx", "a", "line 2: want \"x\"\n  got  end of text"},
	} {
		if got := Diff(c.want, c.got); got != c.out {
			t.Errorf("Diff(%q, %q) = %q, want %q", c.want, c.got, got, c.out)
		}
	}
}

func TestDataDirOverride(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(DataEnv, dir)
	got, err := findData()
	if err != nil || got != dir {
		t.Fatalf("findData() = %q, %v; want %q", got, err, dir)
	}
	t.Setenv(DataEnv, filepath.Join(dir, "missing"))
	if _, err := findData(); err == nil {
		t.Fatal("findData() with a missing override folder succeeded")
	}
}
