package snapshot

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWritePNGAtomic: the snapshot is a whole PNG and no temporary file
// stays next to it; a failed capture writes nothing.
func TestWritePNGAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "shot.png")
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	if err := WritePNG(path, img); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, err := png.Decode(f); err != nil || got.Bounds() != img.Bounds() {
		t.Errorf("decoded %v, %v", got, err)
	}
	if err := WritePNG(filepath.Join(dir, "none.png"), nil); err == nil {
		t.Error("no error for a failed capture")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("folder holds %d entries, want the snapshot only", len(entries))
	}
}

func TestUniform(t *testing.T) {
	img := image.NewRGBA(image.Rect(2, 3, 6, 7))
	if !Uniform(img) {
		t.Error("a blank image is not uniform")
	}
	if !Uniform(image.NewRGBA(image.Rectangle{})) {
		t.Error("an empty image is not uniform")
	}
	img.Set(5, 6, color.RGBA{R: 1, A: 255}) // the last pixel
	if Uniform(img) {
		t.Error("an image with one different pixel is uniform")
	}
}

func TestDelay(t *testing.T) {
	t.Setenv("CUBEVIEW_SNAPSHOT_DELAY", "250ms")
	if got := Delay(); got != 250*time.Millisecond {
		t.Errorf("Delay() = %v with 250ms set", got)
	}
	t.Setenv("CUBEVIEW_SNAPSHOT_DELAY", "soon")
	if got := Delay(); got != 1500*time.Millisecond {
		t.Errorf("Delay() = %v with a bad setting, want the default", got)
	}
}
