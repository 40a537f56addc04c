package ui

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"

	"cubeview/internal/x11"
	"cubeview/view"
)

// x11Window returns the X11 window behind w, or 0 (other window systems).
func x11Window(w fyne.Window) uintptr {
	nw, ok := w.(driver.NativeWindow)
	if !ok {
		return 0
	}
	var handle uintptr
	nw.RunNative(func(ctx any) {
		if x, ok := ctx.(driver.X11WindowContext); ok {
			handle = x.WindowHandle
		}
	})
	return handle
}

// captureNative reads the window's pixels from the X server, for drivers
// whose OpenGL front buffer cannot be read back (software OpenGL on Xvfb).
func captureNative(w fyne.Window) (image.Image, error) { return x11.Capture(x11Window(w)) }

// screenSize returns the screen's size in w's units, or zero when unknown.
func screenSize(w fyne.Window) view.Size {
	pw, ph, ok := x11.ScreenSize()
	if !ok {
		return view.Size{}
	}
	scale := float64(w.Canvas().Scale())
	if scale <= 0 {
		scale = 1
	}
	return view.Size{Width: float64(pw) / scale, Height: float64(ph) / scale}
}

// windowPosition returns where w is on the screen.
func windowPosition(w fyne.Window) (x, y int, ok bool) { return x11.Origin(x11Window(w)) }

// moveWindow places w at x, y on the screen (see x11.Move).
func moveWindow(w fyne.Window, x, y int) { x11.Move(x11Window(w), x, y) }
