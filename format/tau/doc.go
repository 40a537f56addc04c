// Package tau reads TAU profile directories (profile.N.C.T files, and the
// MULTI__<metric> sub-directories of multi-metric runs) into ordinary
// experiments, following the importers' mapping rules of DESIGN §7.
//
//   - System: TAU node N becomes process rank N, each context/thread a
//     thread of it, grouped under the host the metadata names. Thread ids
//     must not skip.
//   - Metrics: each TAU metric keeps its name; time metrics (TIME,
//     GET_TIME_OF_DAY, …_TIMERS) are converted from microseconds to
//     seconds, counters stay counts. Calls become "visits". Time that
//     TAU's event-based sampling attributes to [SAMPLE] events is an
//     estimate beside the instrumented time, so it goes into a metric of
//     its own ("TIME (sampled)", with "samples" counts). Each atomic event
//     becomes five metrics — count, sum, min, max and sumsqr — since a
//     mean is stored as its sum and count; events with a call-path
//     context ("name : a => b") sit on that call path, others on the main
//     root (".TAU application").
//   - Program: call-path events ("a => b => c") become the call tree
//     exactly; a region's top-level calls (its own event minus its paths)
//     are a root. Without call paths every event is a root of a flat call
//     forest and the experiment's call graph keeps TAU's inclusive values;
//     paths cut at TAU_CALLPATH_DEPTH become caller → callee arcs of the
//     call graph instead of invented call paths. Region names are the
//     event names as TAU writes them; a source location "[{file}
//     {line,col}-{line,col}]" gives the region's file and lines, the
//     GROUP its paradigm and role.
//   - The metadata of the first thread become the experiment's
//     attributes; other threads keep the entries that differ.
package tau
