package main

import (
	"context"
	"cubeview/internal/testkit"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSnapshotInRealWindow builds cubeview, starts Xvfb on a free display
// and renders real experiments with --snapshot: each PNG must have the
// requested size, must not be blank and must show the colour scale.
func TestSnapshotInRealWindow(t *testing.T) {
	data, dir, bin, display := realWindowSetup(t)

	tests := []struct {
		file string
		args []string
	}{
		{"cube3/ctest-pomp.cube", []string{"--select-metric", "2MPI", "--select-cnode", "main"}},
		{"cube4/cpi/profile.cubex", []string{"--select-metric", "time", "--expand-system"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tt.file, "/", "_")+".png")
			args := append([]string{"--snapshot", out, "--size", "1100x700"}, tt.args...)
			args = append(args, filepath.Join(data, tt.file))
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, args...)
			cmd.Env = append(os.Environ(), "DISPLAY="+display, "FYNE_SCALE=1", "LANG=en_US.UTF-8")
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("cubeview %s: %v\n%s", strings.Join(args, " "), err, msg)
			}
			f, err := os.Open(out)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatalf("snapshot is not a PNG: %v", err)
			}
			if b := img.Bounds(); b.Dx() != 1100 || b.Dy() != 700 {
				t.Errorf("snapshot is %dx%d, want 1100x700", b.Dx(), b.Dy())
			}
			colours, red := census(img)
			if colours < 20 {
				t.Errorf("snapshot has %d distinct colours, want a drawn window", colours)
			}
			// The largest value of each pane is ranked pure red.
			if red < 3*14*14 {
				t.Errorf("snapshot has %d pure red pixels, want at least three colour squares", red)
			}
		})
	}
}

// TestSnapshotErrors checks that a snapshot that cannot be made fails
// with a message instead of hanging.
func TestSnapshotErrors(t *testing.T) {
	data, dir, bin, display := realWindowSetup(t)
	cpi := filepath.Join(data, "cube4", "cpi", "profile.cubex")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{filepath.Join(dir, "missing.cube")}, "missing.cube"},
		{[]string{"--select-metric", "no_such_metric", cpi}, "no_such_metric"},
		{[]string{"--select-cnode", "cpi/nowhere", cpi}, "cpi/nowhere"},
	}
	for _, tt := range tests {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		args := append([]string{"--snapshot", filepath.Join(dir, "x.png")}, tt.args...)
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = append(os.Environ(), "DISPLAY="+display, "LANG=en_US.UTF-8")
		out, err := cmd.CombinedOutput()
		cancel()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Errorf("cubeview %s: %v, want exit status 1", strings.Join(args, " "), err)
		}
		if !strings.Contains(string(out), tt.want) {
			t.Errorf("cubeview %s: message %q does not name %q", strings.Join(args, " "), out, tt.want)
		}
	}
}

// realWindowSetup skips without the shared data, builds the binary into a
// temporary folder and starts an X server; it returns the data folder, the
// temporary folder, the binary and the display.
func realWindowSetup(t *testing.T) (data, dir, bin, display string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary and starts an X server")
	}
	data = testkit.DataDir(t)
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Fatal("Xvfb is not installed; make test (deps-test) installs it")
	}
	return data, t.TempDir(), cubeviewBinary(t), startXvfb(t, xvfb)
}

// census counts distinct colours and pure red pixels.
func census(img image.Image) (colours, red int) {
	seen := map[[3]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
			if r>>8 == 255 && g>>8 == 0 && bl>>8 == 0 {
				red++
			}
		}
	}
	return len(seen), red
}

// startXvfb starts an X server on a free display and stops it after the test.
func startXvfb(t *testing.T, xvfb string) string {
	t.Helper()
	for d := 90; d < 200; d++ {
		sock := fmt.Sprintf("/tmp/.X11-unix/X%d", d)
		if exists(sock) || exists(fmt.Sprintf("/tmp/.X%d-lock", d)) {
			continue
		}
		cmd := exec.Command(xvfb, fmt.Sprintf(":%d", d), "-screen", "0", "1600x1000x24", "-nolisten", "tcp")
		if err := cmd.Start(); err != nil {
			t.Fatalf("starting Xvfb: %v", err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		if waitForSocket(sock, exited) {
			t.Cleanup(func() { stopXvfb(cmd, exited) })
			return fmt.Sprintf(":%d", d)
		}
		// The display was taken meanwhile, or the server did not come up.
		stopXvfb(cmd, exited)
	}
	t.Fatal("no free X display for Xvfb")
	return ""
}

// stopXvfb ends an X server so that it removes its lock file and socket
// (a killed one leaves them, and the displays run out): SIGTERM first,
// SIGKILL when it is still there after 5 s.
func stopXvfb(cmd *exec.Cmd, exited <-chan struct{}) {
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-exited
	}
}

// waitForSocket waits up to 5 s for the X server's socket, giving up
// early when the server exits.
func waitForSocket(sock string, exited <-chan struct{}) bool {
	for i := 0; i < 100; i++ {
		if exists(sock) {
			return true
		}
		select {
		case <-exited:
			return false
		case <-time.After(50 * time.Millisecond):
		}
	}
	return false
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
