// Package format opens experiment files of any supported kind behind one
// entry point, Open, and writes them with Write, which picks the format
// from the file name.
//
// Open asks every reader of its registry (Formats; each a package with an
// importer.Format) how sure it is that it reads the input, from the
// input's first bytes or, for a folder, its entries, and reads the input
// with the surest. Input that no reader recognises gets an error saying
// what it looks like when that can be told cheaply (a trace, a gmon.out,
// an archive). The help text, the open dialog's list and the README's
// table of formats come from the same registry.
package format
