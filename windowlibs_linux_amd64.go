//go:build cgo && !wayland

package main

/*
#cgo LDFLAGS: -ldl
const char *cv_load_window_libs(void);
*/
import "C"

import "errors"

// loadWindowLibraries loads the libraries windows need (libX11, libGL),
// which the program does not link, so that the commands start without
// them (see windowlibs_linux_amd64.c). Call it before the first window.
func loadWindowLibraries() error {
	if msg := C.cv_load_window_libs(); msg != nil {
		return errors.New(C.GoString(msg))
	}
	return nil
}
