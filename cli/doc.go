// Package cli implements cubeview's command-line subcommands; Main runs
// the one its first argument names and returns the exit status (0, 1 for
// a failure, 2 for wrong arguments). "cubeview help" lists them:
//
//   - describe and print an experiment: info, tree, flat, dump, convert;
//   - the CUBE algebra: diff, merge, mean, cut and calc (an expression
//     over files), written to a file with -o or, for diff, the largest
//     changes printed;
//   - analyses: perfdiff (where two experiments differ), stat (a metric
//     across locations per call path), series (scaling over several
//     runs) and derive (derived metrics, saved with the experiment);
//   - repo, the experiment repository (import, ls, show, set, rm, find,
//     export, open; repo:ID references name trials wherever a file is
//     expected);
//   - version.
//
// Each command is a Command registered from its file's init, with its
// usage text; the commands are thin: they parse flags (flags and files
// may mix), call the packages that do the work (format, algebra,
// analysis, chart, repo) and print with numfmt's one number format.
// Metric names may be unique or display names in any case, and a
// misspelt one gets suggestions. TakeMemoryFlag reads the --mem budget
// every form takes (also $CUBEVIEW_MEM); WindowRequest and
// IsMistypedCommand tell the program's main function which command lines
// open windows instead.
package cli
