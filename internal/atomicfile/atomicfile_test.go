package atomicfile

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.cubex")
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "first"); return err }); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := Write(path, func(w io.Writer) error { io.WriteString(w, "partial"); return boom }); !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "first" {
		t.Errorf("after a failed write the file holds %q, %v; want the old content", got, err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
	if left := tempFiles(t, dir); len(left) > 0 {
		t.Errorf("temporary files left: %q", left)
	}
	if err := Write(filepath.Join(dir, "missing", "x.cubex"), func(io.Writer) error { return nil }); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("write into a missing folder: %v, want a not-exist error", err)
	}
}

// deadPID returns the id of a process that has ended.
func deadPID(t *testing.T) int {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestRemoveStale(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("process liveness is not judged on this system")
	}
	dir := t.TempDir()
	host := tag[len("cubeview-"):]
	host = host[:strings.IndexByte(host, '-')]
	dead, live := deadPID(t), os.Getppid()
	old := time.Now().Add(-2 * time.Hour)
	files := []struct {
		name  string
		old   bool
		stale bool
	}{
		{".a.cubex.cubeview-" + host + "-" + strconv.Itoa(dead) + "-0a1b2c.tmp", false, true},
		{".a.cubex.cubeview-" + host + "-" + strconv.Itoa(live) + "-0a1b2c.tmp", false, false},
		{".a.cubex.cubeview-otherhost-" + strconv.Itoa(dead) + "-0a1b2c.tmp", false, false},
		{".a.cubex.123456.tmp", true, true},
		{".plot.png.99.tmp", true, true},
		{".a.cubex.123456.tmp.keep", true, false},
		{".a.cubex.654321.tmp", false, false},
		{".notes.txt.123456.tmp", true, false},
		{"a.cubex", true, false},
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if f.old {
			os.Chtimes(p, old, old)
		}
	}
	if n := RemoveStale(dir); n != 3 {
		t.Errorf("removed %d files, want 3", n)
	}
	for _, f := range files {
		_, err := os.Stat(filepath.Join(dir, f.name))
		if gone := errors.Is(err, os.ErrNotExist); gone != f.stale {
			t.Errorf("%s: removed %v, want %v", f.name, gone, f.stale)
		}
	}
}

func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.cubex")
	b := filepath.Join(dir, "b.cubex")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sym := filepath.Join(dir, "sym.cubex")
	hard := filepath.Join(dir, "hard.cubex")
	if err := os.Symlink(a, sym); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := os.Link(a, hard); err != nil {
		t.Skip("no hard links:", err)
	}
	deep := filepath.Join(dir, "sub", "profile.0.0.0")
	if err := os.Mkdir(filepath.Dir(deep), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(deep, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	linkDir := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, linkDir); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, a)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		out    string
		inputs []string
		want   string
	}{
		{a, []string{b, a}, a},
		{filepath.Join(dir, ".", "x", "..", "a.cubex"), []string{a}, a},
		{rel, []string{a}, a},
		{sym, []string{b, a}, a},
		{hard, []string{a}, a},
		{a, []string{sym}, sym},
		{b, []string{a, sym, hard}, ""},
		{filepath.Join(dir, "new.cubex"), []string{a}, ""},
		// A folder input holds its files, also below sub-folders and
		// through a link to the folder.
		{a, []string{b, dir}, dir},
		{deep, []string{dir}, dir},
		{filepath.Join(linkDir, "sub", "profile.0.0.0"), []string{dir}, dir},
		{deep, []string{linkDir}, linkDir},
		{b, []string{filepath.Join(dir, "sub")}, ""},
		{filepath.Join(dir, "sub", "new.0.0.0"), []string{dir}, ""},
	}
	for _, tt := range tests {
		got, ok := SameFile(tt.out, tt.inputs)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("SameFile(%s, %q) = %q, %v; want %q", tt.out, tt.inputs, got, ok, tt.want)
		}
	}
}

// helperEnv makes the test binary a writer that blocks in the middle of a
// write into the folder it names, until it is killed.
const helperEnv = "CUBEVIEW_ATOMICFILE_HELPER"

func TestMain(m *testing.M) {
	if dir := os.Getenv(helperEnv); dir != "" {
		Write(filepath.Join(dir, "out.cubex"), func(w io.Writer) error {
			io.WriteString(w, strings.Repeat("data", 1<<18))
			select {} // blocked, as a long write would be
		})
		os.Exit(3)
	}
	os.Exit(m.Run())
}

// startWriter runs a writer child and waits until its temporary file exists.
func startWriter(t *testing.T, dir string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); len(tempFiles(t, dir)) == 0; {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the writer made no temporary file")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cmd
}

// TestKilledWriterLeavesNothing kills a writing child process: SIGINT and
// SIGTERM and SIGHUP remove its temporary file at once and end it by the signal; after
// SIGKILL the file stays until the next write into that folder.
func TestKilledWriterLeavesNothing(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("signals")
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			cmd := startWriter(t, dir)
			if sig == syscall.SIGHUP && signal.Ignored(syscall.SIGHUP) {
				// Started under nohup: the writer inherits SIGHUP ignored
				// and must keep writing through it.
				writerIgnoresHangup(t, cmd, dir)
				return
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("writer ended with %v, want the signal", err)
			}
			if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != sig {
				t.Errorf("writer ended with %v, want killed by %v", err, sig)
			}
			left := tempFiles(t, dir)
			if sig == syscall.SIGKILL {
				if len(left) != 1 {
					t.Fatalf("after SIGKILL: temporary files %q, want the one left behind", left)
				}
				if err := Write(filepath.Join(dir, "next.cubex"), func(w io.Writer) error { return nil }); err != nil {
					t.Fatal(err)
				}
				left = tempFiles(t, dir)
			}
			if len(left) > 0 {
				t.Errorf("temporary files left: %q", left)
			}
			if _, err := os.Stat(filepath.Join(dir, "out.cubex")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the interrupted write produced out.cubex: %v", err)
			}
		})
	}
}

// writerIgnoresHangup checks that a writer started with SIGHUP ignored
// goes on writing after SIGHUP, then ends it with SIGKILL.
func writerIgnoresHangup(t *testing.T, cmd *exec.Cmd, dir string) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		t.Fatalf("writer started under nohup ended on SIGHUP: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	if left := tempFiles(t, dir); len(left) != 1 {
		t.Errorf("after an ignored SIGHUP: temporary files %q, want the one being written", left)
	}
	cmd.Process.Kill()
	<-done
}
