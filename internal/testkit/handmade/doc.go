// Package handmade builds a small experiment whose displayed values are
// worked out by hand, for the tests of the packages that show experiments.
// It is imported only from _test.go files.
package handmade
