// Package mpip reads mpiP text reports (mpiP 2.x and 3.x, documented in
// the mpiP User Guide) into ordinary experiments, following DESIGN §7.
//
//   - System: every task (MPI rank) is a process with one thread, under
//     the host the report's "MPI Task Assignment" names.
//   - Program: a root named after the command holds each task's AppTime
//     (metric "app_time"); under it one node per MPI operation
//     ("MPI_Allreduce"), and under each operation the stacks of its call
//     sites as mpiP records them, innermost frame first — the call site's
//     function with its file and line, then its callers up to the stack
//     depth (-k). Nothing beyond the recorded frames is invented. A call
//     site's values sit on its last frame.
//   - Metrics per call site and task, from the callsite statistics:
//     "time" (Count × Mean, seconds), "visits" (Count), "min_time" and
//     "max_time" (min / max aggregation), and for the message-size and
//     MPI I/O sections the byte sums with their smallest and largest
//     sizes. Means are not stored: they are the sum over the count.
//   - The "@" header lines become attributes. The aggregate tables (top
//     twenty, the "*" rows) are mpiP's own sums of the per-task rows; a
//     report that lists only some tasks (a print threshold, a concise
//     report) is read with a warning saying which call sites lack tasks.
package mpip
