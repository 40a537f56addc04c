package prefs

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"
)

func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "preferences.json")
	s := Open(path)
	if s.Err() != nil || s.StringList("recent") != nil || s.Float("hot", 0.5) != 0.5 {
		t.Fatalf("missing file: err %v, recent %v", s.Err(), s.StringList("recent"))
	}
	if err := s.SetStringList("recent", []string{"/a b/c.cubex", "ü"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetFloat("hot", 0.25); err != nil {
		t.Fatal(err)
	}
	if err := s.SetString("dir", "/tmp/x"); err != nil {
		t.Fatal(err)
	}
	r := Open(path)
	if got := r.StringList("recent"); !slices.Equal(got, []string{"/a b/c.cubex", "ü"}) {
		t.Errorf("recent = %q", got)
	}
	if got := r.Float("hot", 0.5); got != 0.25 {
		t.Errorf("hot = %v, want 0.25", got)
	}
	if got := r.String("dir"); got != "/tmp/x" {
		t.Errorf("dir = %q", got)
	}
	if got := r.Float("recent", 7); got != 7 {
		t.Errorf("a list read as a number = %v, want the default", got)
	}
}

// TestOtherInstance checks that a change saved by one instance does not
// drop what another saved meanwhile.
func TestOtherInstance(t *testing.T) {
	path := filepath.Join(t.TempDir(), "preferences.json")
	a, b := Open(path), Open(path)
	a.SetStringList("recent", []string{"x"})
	b.SetFloat("hot", 0.75)
	if _, err := b.UpdateStringList("recent", func(l []string) []string { return append([]string{"y"}, l...) }); err != nil {
		t.Fatal(err)
	}
	r := Open(path)
	if got := r.StringList("recent"); !slices.Equal(got, []string{"y", "x"}) {
		t.Errorf("recent = %q, want [y x]", got)
	}
	if got := r.Float("hot", 0); got != 0.75 {
		t.Errorf("hot = %v", got)
	}
}

// TestBrokenFile checks that a file that does not parse is reported, kept
// aside and replaced by a valid one on the next change.
func TestBrokenFile(t *testing.T) {
	for _, content := range []string{"", "{\"recent\": [\"a\"", "\x00\x01"} {
		dir := t.TempDir()
		path := filepath.Join(dir, "preferences.json")
		os.WriteFile(path, []byte(content), 0o644)
		s := Open(path)
		if s.Err() == nil {
			t.Errorf("%q: no error", content)
		}
		if err := s.SetStringList("recent", []string{"b"}); err != nil {
			t.Fatal(err)
		}
		if got := Open(path); got.Err() != nil || !slices.Equal(got.StringList("recent"), []string{"b"}) {
			t.Errorf("%q: after a change: err %v, recent %q", content, got.Err(), got.StringList("recent"))
		}
		if b, err := os.ReadFile(path + ".broken"); err != nil || string(b) != content {
			t.Errorf("%q: broken file not kept: %q, %v", content, b, err)
		}
	}
}

// TestKilledWriter kills a process that keeps saving preferences at
// random moments; the file must always read back with the list intact.
func TestKilledWriter(t *testing.T) {
	if os.Getenv("PREFS_TEST_WRITER") != "" {
		writer(os.Getenv("PREFS_TEST_WRITER"))
		return
	}
	if testing.Short() {
		t.Skip("starts processes")
	}
	path := filepath.Join(t.TempDir(), "preferences.json")
	s := Open(path)
	if err := s.SetStringList("recent", []string{"first"}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriter$")
		cmd.Env = append(os.Environ(), "PREFS_TEST_WRITER="+path)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(20+i*7) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		r := Open(path)
		if r.Err() != nil {
			t.Fatalf("after kill %d: %v", i, r.Err())
		}
		if l := r.StringList("recent"); len(l) == 0 || l[len(l)-1] != "first" {
			t.Fatalf("after kill %d: recent list %q lost its first entry", i, l)
		}
	}
}

// writer saves preferences in a loop until it is killed.
func writer(path string) {
	s := Open(path)
	for i := 0; ; i++ {
		s.UpdateStringList("recent", func(l []string) []string {
			l = append([]string{"/data/run" + strconv.Itoa(i) + ".cubex"}, l...)
			if len(l) > 200 {
				l = append(l[:199], l[len(l)-1])
			}
			return l
		})
		s.SetString("big", fmt.Sprintf("%0500d", i))
	}
}
