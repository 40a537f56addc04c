// Package tau reads TAU's profiles into ordinary experiments, following
// the importers' mapping rules of DESIGN §7. Three formats are read into
// one model (registered as Format, Packed and XML):
//
//   - profile directories: profile.N.C.T files, and the MULTI__<metric>
//     sub-directories of multi-metric runs;
//   - ParaProf packed profiles (.ppk), what paraprof --pack and TAUdb
//     export (functions ParaProf derived from others are left out);
//   - XML profiles: tauprofile.xml (TAU_PROFILE_FORMAT=merged) and the
//     snapshot.N.C.T files of TAU and of Score-P's TAU snapshot writer;
//     each thread's last snapshot holds its values.
//
// Each is a source of one profile per thread and metric; the reader
// applies them in thread order and builds the experiment through
// format/internal/build.
//
//   - System: TAU node N becomes process rank N, each context/thread a
//     thread of it, grouped under the host the metadata names.
//   - Metrics: each TAU metric keeps its name; time metrics (TIME,
//     GET_TIME_OF_DAY, …_TIMERS) are converted from microseconds to
//     seconds, counters stay counts. Calls become "visits". Time that
//     TAU's event-based sampling attributes to [SAMPLE] (and [UNWIND])
//     events is an estimate beside the instrumented time, so it goes into
//     a metric of its own ("TIME (sampled)", with "samples" counts). Each
//     atomic event becomes one metric, as ParaProf shows a user event: its
//     mean, derived as total / count (a mean is stored as its sum and
//     count), with the count, minimum, maximum, standard deviation
//     (derived, as ParaProf computes it), total and sum of squares as its
//     children; events with a call-path context ("name : a => b") sit on
//     that call path, others on the main root (".TAU application").
//   - Program: instrumented call-path events ("a => b => c") become the
//     call tree exactly; a region's top-level calls (its own event minus
//     its paths) are a root. Without instrumented call paths every
//     instrumented event is a root of a flat call forest and the
//     experiment's call graph keeps TAU's inclusive values — also when
//     sample paths exist, which then hang below the root of the event that
//     holds them ("main → [CONTEXT] main → [SAMPLE] f"). Paths cut at
//     TAU_CALLPATH_DEPTH become caller → callee arcs of the call graph
//     instead of invented call paths. Region names are the event names as
//     TAU writes them; a source location "[{file} {line,col}-{line,col}]"
//     gives the region's file and lines, the GROUP its paradigm and role.
//   - The metadata of the first thread become the experiment's
//     attributes; other threads keep the entries that differ.
//
// A damaged or missing thread file does not lose the run: the thread is
// left out and the experiment's Warnings name the file, line and problem;
// text after a complete profile is ignored with a warning. A strict read
// (importer.Options.Strict) refuses both.
package tau
