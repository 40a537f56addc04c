// Package perf reads the samples of Linux perf — the text `perf script`
// prints — and folded stacks, the collapsed format of flame graphs that
// stackcollapse-perf.pl and many other tools write ("a;b;c 12"), into
// ordinary experiments, following DESIGN §7.
//
// Both record whole stacks, so every stack becomes a call path, outermost
// frame first, exactly; a sample's value sits on its innermost frame. A
// frame names its function (perf's "+0x…" offset removed) in its module
// (the DSO in parentheses); perf's "[unknown]" symbol becomes the module's
// base name in brackets, "[libc.so.6]", as flame graphs show it, and a
// sample without any frame the call path "[no stack]".
//
// Metrics: one per event perf recorded ("cycles", "cpu-clock:ppp"), in
// order of appearance. Where perf prints each sample's period, the metric
// sums the periods — nanoseconds for cpu-clock and task-clock, which
// become seconds — otherwise it counts samples; folded stacks give one
// metric "samples" summing the counts. System: a process per PID holding
// a thread per TID where the input gives both ("comm 4711/4712"); perf's
// default output gives the thread only, which then is a location of its
// own; folded stacks are one location, unless every stack starts with the
// process frame stackcollapse-perf.pl writes with --pid ("comm-4711") or
// --tid ("comm-4711/4712"), which then names the location.
package perf
