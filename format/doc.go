// Package format opens experiment files of any supported kind behind one
// entry point, Open, which recognises a file by its content, and writes
// them with Write, which picks the format from the file name.
package format
