// Package handmade builds a small experiment whose displayed values are
// worked out by hand, for the tests of the packages that show experiments:
// the experiment (Experiment), a difference of two such (Diff), the
// experiment as a recorded difference of two files (WithProvenance) and a
// large source file with an experiment calling into it (BigSource). It is
// imported only from _test.go files.
package handmade
