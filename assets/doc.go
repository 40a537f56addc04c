// Package assets holds files bundled into the cubeview binary: the example
// experiments opened when cubeview starts without a file, and the source
// files their regions point at.
//
// The example is a pair of profiles of a 16-process MPI solver on 4 nodes,
// before and after an optimisation, computed from a cost model of the
// solver (see assets/internal/example for the story and the model). before.cubex and after.cubex are
// generated; run "go generate ./assets" after changing the generator.
package assets
