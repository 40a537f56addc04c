package snapshot

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"time"

	"cubeview/internal/atomicfile"
)

// Timeout bounds a whole snapshot: one for scripts and tests never hangs.
const Timeout = 2 * time.Minute

// Delay returns how long the window is given to lay out and paint before
// it is captured: $CUBEVIEW_SNAPSHOT_DELAY (a Go duration), else 1.5 s.
func Delay() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("CUBEVIEW_SNAPSHOT_DELAY")); err == nil {
		return d
	}
	return 1500 * time.Millisecond
}

// WritePNG writes the snapshot through a temporary file, so that an
// interrupted write leaves neither a half-written image nor the temporary
// file (internal/atomicfile). A nil img is a capture that failed.
func WritePNG(path string, img image.Image) error {
	if img == nil {
		return errors.New("snapshot: the window could not be captured")
	}
	if err := atomicfile.Write(path, func(w io.Writer) error { return png.Encode(w, img) }); err != nil {
		return fmt.Errorf("snapshot %s: %w", path, err)
	}
	return nil
}

// Uniform reports whether every pixel of img has the same colour: what an
// OpenGL driver that cannot read its front buffer back yields.
func Uniform(img image.Image) bool {
	b := img.Bounds()
	if b.Empty() {
		return true
	}
	first := img.At(b.Min.X, b.Min.Y)
	r0, g0, b0, a0 := first.RGBA()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, a := img.At(x, y).RGBA()
			if r != r0 || g != g0 || bb != b0 || a != a0 {
				return false
			}
		}
	}
	return true
}
