// Package importer defines the one shape every reader of a profile format
// has, so that package format can keep them all in one registry: a
// Format names the format and holds its Detect and Read functions.
//
// Detect looks at a file's first bytes (decompressed when the file is
// gzip-compressed) or, for a directory, at its entries, and says how sure
// it is that the input is in its format (a Confidence). Read reads the
// experiment with Options. Open gives readers a file's content with gzip
// compression removed within the one decompression budget of every
// compressed input (Budget).
package importer
