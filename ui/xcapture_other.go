//go:build !linux || android || wayland || !cgo

package ui

import (
	"errors"
	"image"

	"fyne.io/fyne/v2"
)

// captureNative is only available for X11 windows.
func captureNative(fyne.Window) (image.Image, error) {
	return nil, errors.New("native window capture is not supported on this platform")
}
