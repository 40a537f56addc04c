// Package filesum computes a file's SHA-256 from the bytes a reader of
// the file reads anyway, so that a checksum of a large input costs no
// pass of its own.
//
// A File hashes every read that continues the hashed prefix of the file
// (ReadAt at any offset, Read in sequence), reads small gaps before a
// read itself (tar headers and padding between the members a reader
// reads), and leaves reads further ahead unhashed. Sum finishes the
// checksum by reading only what was never hashed, from the still open
// file or, after Close, from the same file opened again; a file that
// changed in between is an error, never a wrong sum.
package filesum
