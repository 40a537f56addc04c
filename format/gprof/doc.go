// Package gprof reads gprof text reports — GNU's (also UTF-16 and -T
// layouts, reports of only the flat profile or only the call graph), BSD's
// and AIX's, and embedded targets' histograms of cycles — into ordinary
// experiments, following DESIGN §7.
//
// gprof records a call graph of caller → callee arcs, not call paths, so
// no call path is invented: every function (and every cycle "as a whole")
// is a root of a flat call forest holding its own values — metric "time"
// (self seconds; for a histogram of another dimension, that dimension,
// such as "cycles", in its unit) and "visits" (calls, as the flat profile
// counts them: recursive calls excluded) — and the experiment's call
// graph keeps the arcs with their calls and inclusive time, and each
// function's inclusive time as the call graph prints it, self + children.
// A function without a call-graph entry has the flat profile's total per
// call × calls (the only inclusive value the report gives), or its self
// time; one that appears only as a caller or callee of others (start-up
// code, static destructors not compiled with -pg) has what its arcs
// carry. gprof's per-call columns are means, which are not stored: the
// derived (POSTDERIVED) metric "s/call" = time / visits is evaluated
// after aggregation, so at a function its exclusive value is gprof's
// "self ms/call" and its inclusive value is the call graph's inclusive
// time per call (both ÷ 1000). <spontaneous> callers are arcs from an
// unknown caller. The flat profile's self values and calls win over the
// call graph's where both list a function. A report that lists no
// function at all is an error, not an empty experiment.
package gprof
