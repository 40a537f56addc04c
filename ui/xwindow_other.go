//go:build !linux || android || wayland || !cgo

package ui

import "fyne.io/fyne/v2"

// windowPosition is only available for X11 windows.
func windowPosition(fyne.Window) (x, y int, ok bool) { return 0, 0, false }

// moveWindow is only available for X11 windows.
func moveWindow(fyne.Window, int, int) {}
