// Package synth generates synthetic experiments of any size for tests and
// benchmarks: a metric tree with sum, min and max metrics, a random but
// reproducible call tree and a machine > node > process > thread system
// tree, with data for every metric.
package synth
