package main

import (
	"os"
	"runtime"
)

// waylandBuild is set when the window system library was built for
// Wayland (build tag wayland); otherwise it speaks X11 only.
var waylandBuild = false

// haveDisplay reports whether a window can be expected to open: macOS and
// Windows always have one; elsewhere $DISPLAY (or, in a Wayland build,
// $WAYLAND_DISPLAY) must name one.
func haveDisplay() bool {
	switch runtime.GOOS {
	case "darwin", "windows", "android", "ios":
		return true
	}
	if os.Getenv("DISPLAY") != "" {
		return true
	}
	return waylandBuild && os.Getenv("WAYLAND_DISPLAY") != ""
}
