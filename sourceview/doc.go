// Package sourceview turns the source file of a code region into lines a
// display can draw: it finds the file on this machine although the
// experiment may have recorded a path from another one (Resolver), reads
// it defensively (Read), highlights it with chroma into spans of a few
// token categories (Highlight), and attaches the selected metric's values
// to the lines holding call sites and region beginnings (Annotate).
//
// Highlighting costs time in proportion to the file's size (about 2–3 s
// for 50,000 lines of C). A display shows a large file at once as plain
// lines (SplitLines) with the lines around the selected region
// highlighted on their own (HighlightPart, milliseconds), and swaps in
// Highlight's result when it is ready.
//
// The package knows nothing about user interfaces: a Line is a line
// number, styled spans and annotations, ready for any renderer.
package sourceview
