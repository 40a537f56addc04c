package cli

import (
	"cubeview/internal/testkit"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConvertRoundTrip converts shared files to every output format and
// requires the dumps of the copies to equal the original's, value for value.
func TestConvertRoundTrip(t *testing.T) {
	data := testkit.DataDir(t)
	files := []string{
		filepath.Join(data, "cube4", "call_tree_test", "call_tree_test.cubex"),
		filepath.Join(data, "cube4", "time.p4.n2000.x1.r0", "profile.cubex"),
		filepath.Join(data, "cube3", "ctest-pomp.cube"),
	}
	dir := t.TempDir()
	for i, in := range files {
		want := map[string]string{}
		for _, mode := range []string{"--excl", "--incl"} {
			status, out, errOut := run("dump", mode, in)
			if status != 0 {
				t.Fatalf("dump %s %s: status %d: %s", mode, in, status, errOut)
			}
			want[mode] = out
		}
		for _, ext := range outputExtensions {
			out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))+string(rune('a'+i))+ext)
			if status, _, errOut := run("convert", in, out); status != 0 {
				t.Errorf("convert %s %s: status %d: %s", in, out, status, errOut)
				continue
			}
			for mode, w := range want {
				status, got, errOut := run("dump", mode, out)
				if status != 0 {
					t.Errorf("dump %s %s: status %d: %s", mode, out, status, errOut)
					continue
				}
				if got != w {
					t.Errorf("dump %s of %s differs from the original %s:\n%s", mode, out, in, testkit.Diff(w, got))
				}
			}
		}
	}
}

func TestConvertSameFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.cubex")
	if err := os.WriteFile(path, []byte("not a cube file"), 0o644); err != nil {
		t.Fatal(err)
	}
	status, _, errOut := run("convert", path, path)
	if status != 1 || !strings.Contains(errOut, "same file") {
		t.Errorf("convert to itself: status %d, stderr %q; want 1 and a message", status, errOut)
	}
	if data, _ := os.ReadFile(path); string(data) != "not a cube file" {
		t.Errorf("convert to itself changed the file")
	}
}
