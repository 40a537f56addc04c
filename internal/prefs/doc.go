// Package prefs keeps the user's preferences in one JSON file that is
// never half written: every change re-reads the file, so that settings
// another running instance saved meanwhile survive, and replaces it
// through a temporary file and a rename (internal/atomicfile). A process
// killed at any moment leaves the old file or the new one.
//
// A file that does not parse (written by something else) is kept aside as
// NAME.broken the first time a change is saved, and the preferences start
// empty; Err reports it.
package prefs
