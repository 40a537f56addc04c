// Package flagargs parses command lines in which flags and positional
// arguments mix, with the standard flag package: the one flag machinery of
// the command line's subcommands and of the GUI.
package flagargs
