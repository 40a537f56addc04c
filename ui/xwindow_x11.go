//go:build linux && !android && !wayland && cgo

package ui

/*
#cgo LDFLAGS: -lX11
#include <X11/Xlib.h>

// windowOrigin returns the position of an X11 window on the screen.
static int windowOrigin(unsigned long win, int *x, int *y) {
	Display *d = XOpenDisplay(NULL);
	if (!d) return 0;
	Window child;
	int ok = XTranslateCoordinates(d, (Window)win, DefaultRootWindow(d), 0, 0, x, y, &child);
	XCloseDisplay(d);
	return ok;
}

// moveTo moves an X11 window, within the screen.
static void moveTo(unsigned long win, int x, int y) {
	Display *d = XOpenDisplay(NULL);
	if (!d) return;
	XWindowAttributes a;
	if (XGetWindowAttributes(d, (Window)win, &a)) {
		int sw = WidthOfScreen(a.screen), sh = HeightOfScreen(a.screen);
		if (x + a.width / 2 > sw) x = 0;
		if (y + a.height / 2 > sh) y = 0;
		XMoveWindow(d, (Window)win, x, y);
	}
	XCloseDisplay(d);
}
*/
import "C"

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
)

// x11Window returns the X11 window behind w, or 0.
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

// windowPosition returns where w is on the screen.
func windowPosition(w fyne.Window) (x, y int, ok bool) {
	h := x11Window(w)
	if h == 0 {
		return 0, 0, false
	}
	var cx, cy C.int
	if C.windowOrigin(C.ulong(h), &cx, &cy) == 0 {
		return 0, 0, false
	}
	return int(cx), int(cy), true
}

// moveWindow places w at x, y on the screen (back at the edge when that
// would put it half off the screen).
func moveWindow(w fyne.Window, x, y int) {
	if h := x11Window(w); h != 0 {
		C.moveTo(C.ulong(h), C.int(x), C.int(y))
	}
}
