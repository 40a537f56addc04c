package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"cubeview/internal/testkit"
)

var built struct {
	once     sync.Once
	dir, bin string
	err      error
	out      []byte
}

// TestMain removes the binary the tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// cubeviewBinary builds cubeview once for all tests of the package.
func cubeviewBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "cubeview-test-")
		if built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "cubeview")
		built.out, built.err = exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.bin
}

// withoutDisplay is the environment of an ssh session to a login node.
func withoutDisplay() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			env = append(env, kv)
		}
	}
	return append(env, "LANG=C.UTF-8")
}

// TestNoDisplay runs cubeview as on a login node: whatever needs a window
// says so in one line (exit 1), commands work, a mistyped command is
// reported as one (exit 2); nothing panics.
func TestNoDisplay(t *testing.T) {
	bin := cubeviewBinary(t)
	cpi := testkit.Data(t, "cube4", "cpi", "profile.cubex")
	dir := t.TempDir()
	const window = "cannot open a window: no display; the command line works without one — cubeview help\n"
	tests := []struct {
		args       []string
		env        []string // added to withoutDisplay()
		status     int
		stdout     string // prefix
		stderr     string // exact, unless stderrHas
		stderrHas  string
		stdoutLine bool // stdout is exactly one line
	}{
		{args: nil, status: 1, stderr: window},
		{args: []string{cpi}, status: 1, stderr: window},
		{args: []string{"--calc", "diff(" + cpi + "," + cpi + ")"}, status: 1, stderr: window},
		{args: []string{"--snapshot", filepath.Join(dir, "x.png"), cpi}, status: 1, stderr: window},
		{args: []string{"--mem", "64M", cpi}, status: 1, stderr: window},
		{args: []string{"version"}, status: 0, stdout: "cubeview 0.", stdoutLine: true},
		{args: []string{"--version"}, status: 0, stdout: "cubeview 0.", stdoutLine: true},
		{args: []string{"help"}, status: 0, stdout: "cubeview — "},
		{args: []string{"info", cpi}, status: 0, stdout: "Format:"},
		{args: []string{"frobnicate", "x"}, status: 2, stderrHas: `unknown command "frobnicate"`},
		{args: []string{"infor", cpi}, status: 2, stderrHas: `unknown command "infor"; did you mean info?`},
		{args: []string{filepath.Join(dir, "missing.cubex")}, status: 1, stderrHas: "missing.cubex: no such file"},
		// A display that is named but cannot be opened (a stale ssh -X).
		{args: []string{cpi}, env: []string{"DISPLAY=:" + freeDisplay(t)}, status: 1, stderrHas: "cannot open a window: the display"},
	}
	for _, tt := range tests {
		cmd := exec.Command(bin, tt.args...)
		cmd.Env = append(withoutDisplay(), tt.env...)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		status := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		name := strings.Join(append(tt.env, tt.args...), " ")
		if status != tt.status {
			t.Errorf("cubeview %s: exit status %d, want %d\nstdout: %s\nstderr: %s", name, status, tt.status, stdout.String(), stderr.String())
		}
		if strings.Contains(stderr.String(), "panic") || strings.Contains(stderr.String(), "goroutine") {
			t.Errorf("cubeview %s: panics:\n%s", name, stderr.String())
		}
		if !strings.HasPrefix(stdout.String(), tt.stdout) {
			t.Errorf("cubeview %s: stdout %q, want it to start with %q", name, stdout.String(), tt.stdout)
		}
		if tt.stdoutLine && strings.Count(stdout.String(), "\n") != 1 {
			t.Errorf("cubeview %s: stdout %q, want one line", name, stdout.String())
		}
		switch {
		case tt.stderrHas != "":
			if !strings.Contains(stderr.String(), tt.stderrHas) {
				t.Errorf("cubeview %s: stderr %q, want it to contain %q", name, stderr.String(), tt.stderrHas)
			}
		case stderr.String() != tt.stderr:
			t.Errorf("cubeview %s: stderr %q, want %q", name, stderr.String(), tt.stderr)
		}
	}
}

// freeDisplay returns the number of an X display no server listens on.
func freeDisplay(t *testing.T) string {
	for d := 4711; d < 4800; d++ {
		if !exists(fmt.Sprintf("/tmp/.X11-unix/X%d", d)) && !exists(fmt.Sprintf("/tmp/.X%d-lock", d)) {
			return strconv.Itoa(d)
		}
	}
	t.Fatal("no free X display number")
	return ""
}
