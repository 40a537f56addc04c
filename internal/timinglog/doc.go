// Package timinglog writes the log of the GUI timing harness
// (scripts/gui-timing.sh): when a window first shows values and how long
// each selection change takes, one line per event with a wall-clock time.
package timinglog
