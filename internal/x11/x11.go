//go:build linux && !android && !wayland && cgo

package x11

/*
#cgo LDFLAGS: -lX11
#include <stdlib.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

// captureWindow reads the pixels of an X11 window and the masks of its
// colour channels.
static unsigned int *captureWindow(unsigned long win, int *w, int *h, unsigned long masks[3], int *err) {
	Display *d = XOpenDisplay(NULL);
	if (!d) { *err = 1; return NULL; }
	XWindowAttributes a;
	if (!XGetWindowAttributes(d, (Window)win, &a)) { XCloseDisplay(d); *err = 2; return NULL; }
	XImage *img = XGetImage(d, (Window)win, 0, 0, a.width, a.height, AllPlanes, ZPixmap);
	if (!img) { XCloseDisplay(d); *err = 3; return NULL; }
	unsigned int *buf = malloc((size_t)a.width * a.height * sizeof(unsigned int));
	if (!buf) { XDestroyImage(img); XCloseDisplay(d); *err = 4; return NULL; }
	for (int y = 0; y < a.height; y++) {
		for (int x = 0; x < a.width; x++) {
			buf[(size_t)y * a.width + x] = (unsigned int)XGetPixel(img, x, y);
		}
	}
	masks[0] = img->red_mask;
	masks[1] = img->green_mask;
	masks[2] = img->blue_mask;
	*w = a.width;
	*h = a.height;
	XDestroyImage(img);
	XCloseDisplay(d);
	return buf;
}

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

// screenSize returns the size of the default screen in pixels.
static int screenSize(int *w, int *h) {
	Display *d = XOpenDisplay(NULL);
	if (!d) return 0;
	Screen *s = DefaultScreenOfDisplay(d);
	*w = WidthOfScreen(s);
	*h = HeightOfScreen(s);
	XCloseDisplay(d);
	return 1;
}

// rootWindow returns the root window of the default screen, or 0.
static unsigned long rootWindow(void) {
	Display *d = XOpenDisplay(NULL);
	if (!d) return 0;
	unsigned long root = DefaultRootWindow(d);
	XCloseDisplay(d);
	return root;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"image"
	"unsafe"
)

// Capture reads the pixels of the X11 window win from the X server.
func Capture(win uintptr) (image.Image, error) {
	if win == 0 {
		return nil, errors.New("not an X11 window")
	}
	var cw, ch, cerr C.int
	var masks [3]C.ulong
	buf := C.captureWindow(C.ulong(win), &cw, &ch, &masks[0], &cerr)
	if buf == nil {
		return nil, fmt.Errorf("reading the X11 window failed (step %d)", int(cerr))
	}
	defer C.free(unsafe.Pointer(buf))
	w, h := int(cw), int(ch)
	pix := unsafe.Slice((*uint32)(unsafe.Pointer(buf)), w*h)
	return toNRGBA(pix, w, h, pixelFormat{uint32(masks[0]), uint32(masks[1]), uint32(masks[2])}), nil
}

// Origin returns where the X11 window win is on the screen.
func Origin(win uintptr) (x, y int, ok bool) {
	if win == 0 {
		return 0, 0, false
	}
	var cx, cy C.int
	if C.windowOrigin(C.ulong(win), &cx, &cy) == 0 {
		return 0, 0, false
	}
	return int(cx), int(cy), true
}

// Move places the X11 window win at x, y on the screen (back at the edge
// when that would put it half off the screen).
func Move(win uintptr, x, y int) {
	if win != 0 {
		C.moveTo(C.ulong(win), C.int(x), C.int(y))
	}
}

// ScreenSize returns the size of the default screen in pixels; ok is
// false when there is no X server to ask.
func ScreenSize() (w, h int, ok bool) {
	var cw, ch C.int
	if C.screenSize(&cw, &ch) == 0 {
		return 0, 0, false
	}
	return int(cw), int(ch), true
}

// rootWindow returns the root window of the default screen, or 0 when
// there is no X server to talk to.
func rootWindow() uintptr { return uintptr(C.rootWindow()) }
