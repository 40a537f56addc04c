// Package pprof imports profiles of the pprof family — Go and C++ CPU,
// heap, contention and goroutine profiles in protobuf form (plain or
// gzip-compressed) and the legacy formats the pprof library reads — as
// experiments.
//
// Every sample type becomes a metric (time in seconds, bytes, counts);
// stacks become exact call paths, outermost frame first, with inlined
// frames as call-tree nodes of their own; functions become regions named
// as "pprof -top" names them (with file and start line for the source
// view). Samples labelled with a thread or goroutine (and a process id)
// are spread over locations by those labels; otherwise the profile has
// one location.
package pprof
