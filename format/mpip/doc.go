// Package mpip reads mpiP text reports (mpiP 2.x and 3.x, documented in
// the mpiP User Guide) into ordinary experiments, following DESIGN §7.
//
//   - System: every task (MPI rank) is a process with one thread, under
//     the host the report's "MPI Task Assignment" names.
//   - Program: a root named after the command holds each task's AppTime
//     (metric "app_time"); below it each call site's stack as mpiP records
//     it, from its outermost frame (up to the stack depth, -k) to the
//     function that calls MPI, and below that the MPI operation
//     ("MPI_Allreduce"), which holds the call site's values: MPI time
//     belongs to the MPI function. Every cnode carries the file and line
//     (or the address, attribute "call address") of the call into it, as
//     its caller's row records; the operation's cnode also the call site's
//     id (attribute "mpiP call site"), so two call sites stay two call
//     paths even where their stacks look alike. Nothing beyond the
//     recorded frames is invented.
//   - Metrics per call site and task, from the callsite statistics:
//     "time" (Count × Mean, seconds), "visits" (Count), "min_time" and
//     "max_time" (min / max aggregation), and for the message-size and
//     MPI I/O sections the byte sums with their smallest and largest
//     sizes. Means are not stored: they are the sum over the count.
//   - The "@" header lines become attributes. The aggregate tables (top
//     twenty, the "*" rows) are mpiP's own sums of the per-task rows; a
//     report that lists only some tasks (a print threshold, a concise
//     report) is read with a warning saying which call sites lack tasks.
//   - A report cut short is an error naming what is missing, found with
//     the report's own totals: tasks of the Task Assignment missing from
//     the MPI Time section or its "*" row, announced call sites, call
//     sites without their aggregate row in the time statistics, sections
//     of byte statistics an aggregate table announces, a 3.x report's end
//     marker. Aggregate rows whose MPI% do not add up to 100 are a warning.
package mpip
