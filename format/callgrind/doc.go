// Package callgrind imports valgrind's callgrind and cachegrind profiles
// as experiments.
//
// Every event (Ir, Dr, Cycles, …, and events defined from others) becomes
// a metric, the calls become a visits metric. A function is what
// callgrind_annotate calls one: a name in a source file (code inlined from
// another file, after fi= or fe=, counts for that file). Callgrind records
// a call graph, not call paths, so the call tree is flat — one root per
// function with its exclusive cost — and the call arcs with their call
// counts and inclusive costs, and each function's inclusive cost as
// callgrind_annotate computes it, are the experiment's CallGraph. Each part
// (dump) of the file is a location of its process.
package callgrind
