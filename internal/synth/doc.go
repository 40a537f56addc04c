// Package synth generates synthetic experiments of any size for tests and
// benchmarks: a metric tree with sum, min and max metrics, a random but
// reproducible call tree and a machine > node > process > thread system
// tree, with data for every metric (Generate), a call chain of any depth
// (Chain), and repeated runs of one configuration that differ by noise,
// with a shift planted where a test wants a real difference (NoisyRun).
package synth
