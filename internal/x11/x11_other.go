//go:build !linux || android || wayland || !cgo

package x11

import (
	"errors"
	"image"
)

// Capture is only available for X11 windows.
func Capture(uintptr) (image.Image, error) {
	return nil, errors.New("native window capture is not supported on this platform")
}

// Origin is only available for X11 windows.
func Origin(uintptr) (x, y int, ok bool) { return 0, 0, false }

// Move is only available for X11 windows.
func Move(uintptr, int, int) {}

// rootWindow is only available with X11.
func rootWindow() uintptr { return 0 }

// ScreenSize reports no screen: this build has no X11.
func ScreenSize() (w, h int, ok bool) { return 0, 0, false }
