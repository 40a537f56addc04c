// Package x11 reads and places top-level windows of the X Window System by
// their window id, for the graphical interface: it captures a window's
// pixels where the OpenGL driver cannot read its front buffer back
// (software OpenGL on Xvfb), and places a new window down and right of
// the previous one.
//
// It knows no user-interface toolkit; the caller passes the window id its
// toolkit reports. On other platforms (and without cgo) every function
// reports that it is not supported.
package x11
