//go:build !(linux && amd64 && cgo && !wayland)

package main

// loadWindowLibraries has nothing to load: the program links the window
// system's libraries.
func loadWindowLibraries() error { return nil }
