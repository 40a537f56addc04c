// Package snapshot holds the window-system-free parts of rendering a
// window into a PNG file (cubeview --snapshot): how long to wait, how to
// tell a capture that failed silently, and how to write the image.
package snapshot
