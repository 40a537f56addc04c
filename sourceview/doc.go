// Package sourceview turns the source file of a code region into lines a
// display can draw: it finds the file on this machine although the
// experiment may have recorded a path from another one (Resolver), reads
// it defensively (Read), highlights it with chroma into spans of a few
// token categories (Highlight), and attaches the selected metric's values
// to the lines holding call sites and region beginnings (Annotate).
//
// The package knows nothing about user interfaces: a Line is a line
// number, styled spans and annotations, ready for any renderer.
package sourceview
