// Package example builds the bundled example experiments: two profiles of
// a 16-process MPI solver on 4 nodes, measured before and after an
// optimisation that removes most barrier waiting while point-to-point
// (Late Sender) and all-to-all (Wait at NxN) waiting grow — waiting time
// migrates instead of disappearing.
//
// The numbers come from a small deterministic cost model, not from a
// measurement; the regions point at the real lines of the source files in
// assets/example-src.
package example
