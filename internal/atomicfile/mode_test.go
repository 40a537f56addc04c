//go:build unix

package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func writeText(t *testing.T, path, text string) {
	t.Helper()
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, text); return err }); err != nil {
		t.Fatal(err)
	}
}

func perm(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// TestWriteModes: a new file follows the umask (0600 under umask 077,
// 0644 under 022), a replaced file keeps its mode (0640, 0600, 0664).
func TestWriteModes(t *testing.T) {
	dir := t.TempDir()
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	for _, tt := range []struct {
		umask os.FileMode
		want  os.FileMode
	}{{0o077, 0o600}, {0o022, 0o644}, {0o002, 0o664}} {
		syscall.Umask(int(tt.umask))
		p := filepath.Join(dir, "new-"+tt.want.String()+".cubex")
		writeText(t, p, "x")
		if got := perm(t, p); got != tt.want {
			t.Errorf("new file under umask %03o: mode %v, want %v", tt.umask, got, tt.want)
		}
	}
	syscall.Umask(0o022)
	for _, mode := range []os.FileMode{0o640, 0o600, 0o664, 0o444} {
		p := filepath.Join(dir, "old-"+mode.String()+".cubex")
		if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		writeText(t, p, "new")
		if got := perm(t, p); got != mode {
			t.Errorf("replaced %v file: mode %v", mode, got)
		}
		if b, _ := os.ReadFile(p); string(b) != "new" {
			t.Errorf("replaced %v file holds %q", mode, b)
		}
	}
}

// TestWriteThroughSymlink: writing to a symbolic link (relative, absolute,
// a chain, one to a file not yet there) replaces the file it points to and
// leaves the link a link; the target keeps its mode.
func TestWriteThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "data")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(sub, "real.cubex")
	if err := os.WriteFile(target, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	os.Chmod(target, 0o640)
	links := map[string]string{
		"relative.cubex": filepath.Join("data", "real.cubex"),
		"absolute.cubex": target,
		"chain.cubex":    "relative.cubex",
	}
	for name, to := range links {
		if err := os.Symlink(to, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	for name := range links {
		link := filepath.Join(dir, name)
		writeText(t, link, "via "+name)
		fi, err := os.Lstat(link)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: no longer a symbolic link (%v)", name, err)
		}
		if b, _ := os.ReadFile(target); string(b) != "via "+name {
			t.Errorf("%s: the linked file holds %q", name, b)
		}
		if got := perm(t, target); got != 0o640 {
			t.Errorf("%s: the linked file's mode became %v", name, got)
		}
	}
	dangling := filepath.Join(dir, "dangling.cubex")
	if err := os.Symlink(filepath.Join("data", "later.cubex"), dangling); err != nil {
		t.Fatal(err)
	}
	writeText(t, dangling, "later")
	if b, _ := os.ReadFile(filepath.Join(sub, "later.cubex")); string(b) != "later" {
		t.Errorf("a link to a file not yet there: the file holds %q", b)
	}
	if left := tempFiles(t, dir); len(left) > 0 {
		t.Errorf("temporary files left: %q", left)
	}
}

// TestErrorsNameTheTarget: no error names the temporary file.
func TestErrorsNameTheTarget(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing", "x.png")
	err := Write(missing, func(w io.Writer) error { return nil })
	if err == nil || strings.Contains(err.Error(), ".tmp") || !strings.Contains(err.Error(), filepath.Dir(missing)) {
		t.Errorf("missing folder: %v", err)
	}
	full := filepath.Join(dir, "full.png")
	err = Write(full, func(w io.Writer) error {
		return &os.PathError{Op: "write", Path: tempName(t, dir), Err: syscall.ENOSPC}
	})
	if err == nil || strings.Contains(err.Error(), ".tmp") || !strings.Contains(err.Error(), "write "+full+": no space left") {
		t.Errorf("disk full: %v", err)
	}
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("disk full: %v does not wrap ENOSPC", err)
	}
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	err = Write(sub, func(w io.Writer) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a folder as the target: %v", err)
	}
}

// tempName returns the one temporary file in dir.
func tempName(t *testing.T, dir string) string {
	left := tempFiles(t, dir)
	if len(left) != 1 {
		t.Fatalf("temporary files %q, want one", left)
	}
	return filepath.Join(dir, left[0])
}
