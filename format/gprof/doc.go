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
// reports. gprof's per-call columns are means, which are not stored: the
// derived (POSTDERIVED) metric "s/call" = time / visits, in seconds, is
// evaluated after aggregation, so at a function its exclusive value is
// gprof's "self ms/call" and its inclusive value — over gprof's inclusive
// time — is "total ms/call" (both ÷ 1000). Where the call graph's
// inclusive time, printed to 0.01 s, is too coarse to give the flat
// profile's "total ms/call" column, the column × calls is taken as the
// inclusive time (it still rounds to the call graph's numbers).
// <spontaneous> callers are arcs from an unknown caller. The flat profile's self seconds and calls win over the
// call graph's where both list a function.
package gprof
