package x11

import (
	"fmt"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func TestToNRGBA(t *testing.T) {
	rgb888 := pixelFormat{0xff0000, 0x00ff00, 0x0000ff}
	rgb565 := pixelFormat{0xf800, 0x07e0, 0x001f}
	for _, tc := range []struct {
		name string
		f    pixelFormat
		pix  uint32
		want color.NRGBA
	}{
		{"888 red", rgb888, 0xff0000, color.NRGBA{255, 0, 0, 255}},
		{"888 mixed", rgb888, 0x123456, color.NRGBA{0x12, 0x34, 0x56, 255}},
		{"888 ignores alpha bits", rgb888, 0xff000080, color.NRGBA{0, 0, 0x80, 255}},
		{"565 white", rgb565, 0xffff, color.NRGBA{255, 255, 255, 255}},
		{"565 green half", rgb565, 32 << 5, color.NRGBA{0, 129, 0, 255}},
		{"565 blue", rgb565, 0x1f, color.NRGBA{0, 0, 255, 255}},
		{"no masks", pixelFormat{}, 0xffffff, color.NRGBA{0, 0, 0, 255}},
	} {
		img := toNRGBA([]uint32{0, tc.pix}, 2, 1, tc.f)
		if got := img.NRGBAAt(1, 0); got != tc.want {
			t.Errorf("%s: pixel %#x = %v, want %v", tc.name, tc.pix, got, tc.want)
		}
		if got := img.NRGBAAt(0, 0); got != (color.NRGBA{0, 0, 0, 255}) {
			t.Errorf("%s: pixel 0 = %v, want opaque black", tc.name, got)
		}
	}
}

func TestNoWindow(t *testing.T) {
	if _, err := Capture(0); err == nil {
		t.Error("Capture(0) succeeded")
	}
	if _, _, ok := Origin(0); ok {
		t.Error("Origin(0) reported a position")
	}
	Move(0, 10, 10) // must not crash
}

func TestNoDisplay(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("X11 only on Linux")
	}
	t.Setenv("DISPLAY", ":no-such-display")
	if root := rootWindow(); root != 0 {
		t.Fatalf("rootWindow() = %#x without a display", root)
	}
	if _, err := Capture(1); err == nil || err.Error() != "reading the X11 window failed (step 1)" {
		t.Errorf("Capture without a display: err = %v, want step 1", err)
	}
	if _, _, ok := Origin(1); ok {
		t.Error("Origin without a display reported a position")
	}
}

// TestRootWindow captures the screen of a private Xvfb server.
func TestRootWindow(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("X11 only on Linux")
	}
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Skip("Xvfb is not installed (make test installs it)")
	}
	display := startXvfb(t, xvfb)
	t.Setenv("DISPLAY", display)
	root := rootWindow()
	if root == 0 {
		t.Fatal("no root window on the Xvfb server")
	}
	img, err := Capture(root)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 320 || b.Dy() != 200 {
		t.Errorf("captured %v, want the 320×200 screen", b)
	}
	if got := img.At(160, 100); got != (color.NRGBA{255, 255, 255, 255}) {
		t.Errorf("pixel of the white root window = %v, want opaque white", got)
	}
	if x, y, ok := Origin(root); !ok || x != 0 || y != 0 {
		t.Errorf("Origin(root) = %d, %d, %v; want 0, 0, true", x, y, ok)
	}
}

// startXvfb starts an X server with a 320×200 screen and a white root window on a free display
// and returns the display's name; the server stops with the test.
func startXvfb(t *testing.T, xvfb string) string {
	for n := 90 + os.Getpid()%500; ; n++ {
		socket := filepath.Join("/tmp/.X11-unix", fmt.Sprintf("X%d", n))
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n)); err == nil {
			continue
		}
		if _, err := os.Stat(socket); err == nil {
			continue
		}
		display := fmt.Sprintf(":%d", n)
		cmd := exec.Command(xvfb, display, "-screen", "0", "320x200x24", "-nolisten", "tcp", "-noreset", "-wr")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		})
		for i := 0; i < 100; i++ {
			if _, err := os.Stat(socket); err == nil {
				return display
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("Xvfb %s did not start", display)
	}
}
