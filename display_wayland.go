//go:build wayland

package main

func init() { waylandBuild = true }
