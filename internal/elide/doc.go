// Package elide shortens names to fit where they are shown: Middle
// replaces a name's middle with "…" (call paths and file names differ at
// either end), Path keeps a path's leaf whole and as much of its start
// as fits ("main/…/exchange"), and Distinct cuts what a set of names
// shares at the start and end, keeping the parts that tell them apart
// ("…baseline…", "…optimized…"). A fits function decides what fits, in
// characters or in pixels.
package elide
