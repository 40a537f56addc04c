package ui

import (
	"image/png"
	"os"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func TestDevShot(t *testing.T) {
	a := NewApp(test.NewTempApp(t))
	a.async = func(work, done func()) { work(); done() }
	w := a.Show(&Document{Exp: handDiff(), Name: "hand"})
	w.win.Resize(fyne.NewSize(1200, 700))
	w.ExpandHottest(CallPane)
	w.expandSubtree(SystemPane, sRoot, true)
	img := w.win.Canvas().Capture()
	f, _ := os.Create("/tmp/uidev/shot.png")
	png.Encode(f, img)
	f.Close()
}
