//go:build linux && !android && !wayland && cgo

package ui

/*
#cgo LDFLAGS: -lX11
#include <stdlib.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

static int shiftOf(unsigned long mask) {
	int s = 0;
	if (mask == 0) return 0;
	while ((mask & 1) == 0) { mask >>= 1; s++; }
	return s;
}

// captureWindow reads the pixels of an X11 window as 8-bit RGBA.
static unsigned char *captureWindow(unsigned long win, int *w, int *h, int *err) {
	Display *d = XOpenDisplay(NULL);
	if (!d) { *err = 1; return NULL; }
	XWindowAttributes a;
	if (!XGetWindowAttributes(d, (Window)win, &a)) { XCloseDisplay(d); *err = 2; return NULL; }
	XImage *img = XGetImage(d, (Window)win, 0, 0, a.width, a.height, AllPlanes, ZPixmap);
	if (!img) { XCloseDisplay(d); *err = 3; return NULL; }
	unsigned char *buf = malloc((size_t)a.width * a.height * 4);
	if (!buf) { XDestroyImage(img); XCloseDisplay(d); *err = 4; return NULL; }
	int rs = shiftOf(img->red_mask), gs = shiftOf(img->green_mask), bs = shiftOf(img->blue_mask);
	unsigned long rm = img->red_mask >> rs, gm = img->green_mask >> gs, bm = img->blue_mask >> bs;
	for (int y = 0; y < a.height; y++) {
		for (int x = 0; x < a.width; x++) {
			unsigned long p = XGetPixel(img, x, y);
			unsigned char *o = buf + ((size_t)y * a.width + x) * 4;
			o[0] = rm ? ((p >> rs) & rm) * 255 / rm : 0;
			o[1] = gm ? ((p >> gs) & gm) * 255 / gm : 0;
			o[2] = bm ? ((p >> bs) & bm) * 255 / bm : 0;
			o[3] = 255;
		}
	}
	*w = a.width;
	*h = a.height;
	XDestroyImage(img);
	XCloseDisplay(d);
	return buf;
}
*/
import "C"

import (
	"fmt"
	"image"
	"unsafe"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
)

// captureNative reads the window's pixels from the X server, for drivers
// whose OpenGL front buffer cannot be read back (software OpenGL on Xvfb).
func captureNative(w fyne.Window) (image.Image, error) {
	nw, ok := w.(driver.NativeWindow)
	if !ok {
		return nil, fmt.Errorf("no native window")
	}
	var handle uintptr
	nw.RunNative(func(ctx any) {
		if x, ok := ctx.(driver.X11WindowContext); ok {
			handle = x.WindowHandle
		}
	})
	if handle == 0 {
		return nil, fmt.Errorf("not an X11 window")
	}
	var cw, ch, cerr C.int
	buf := C.captureWindow(C.ulong(handle), &cw, &ch, &cerr)
	if buf == nil {
		return nil, fmt.Errorf("reading the X11 window failed (step %d)", int(cerr))
	}
	defer C.free(unsafe.Pointer(buf))
	img := image.NewNRGBA(image.Rect(0, 0, int(cw), int(ch)))
	copy(img.Pix, unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(cw)*int(ch)*4))
	return img, nil
}
