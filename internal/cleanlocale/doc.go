// Package cleanlocale keeps the toolkit's locale detection quiet under the
// C locale. The GUI toolkit parses the language part of LANG as a BCP 47
// tag and logs an error for "C.UTF-8" or "POSIX" on every start, even for
// command-line subcommands. Importing this package for its side effect sets
// LANGUAGE=en in that one case, before the toolkit's packages initialise
// (package initialisation follows import-path order among independent
// packages, and "cubeview/…" sorts before "fyne.io/…").
package cleanlocale
