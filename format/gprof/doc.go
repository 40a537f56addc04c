// Package gprof reads GNU gprof text reports — the flat profile and the
// call graph, also UTF-16 reports and reports of only one of the two —
// into ordinary experiments, following DESIGN §7.
//
// gprof records a call graph of caller → callee arcs, not call paths, so
// no call path is invented: every function (and every cycle "as a whole")
// is a root of a flat call forest holding its own values — metric "time"
// (self seconds) and "visits" (calls, as the flat profile counts them:
// recursive calls excluded) — and the experiment's call graph keeps the
// arcs with their calls and inclusive time and each function's inclusive
// time (self + children) as gprof computed it, which the flat profile
// reports. gprof's per-call columns (self and total ms/call) are means,
// which are not stored: they are the sum over the count, time or the
// inclusive time over visits. <spontaneous> callers are arcs from an
// unknown caller. The flat profile's self seconds and calls win over the
// call graph's where both list a function.
package gprof
