// Package numfmt prints measured values for people and for programs, the
// one place where the command line and the GUI decide how a number looks.
//
// A Format combines a notation (fixed decimals with scientific notation
// from a threshold, significant digits, the exact round-trip form, or
// engineering notation) with the rules every notation shares: values of
// integer metrics print without decimals, magnitudes below a threshold
// print as zero, and integer parts may be grouped in thousands.
package numfmt
