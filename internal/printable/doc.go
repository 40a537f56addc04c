// Package printable makes text from files safe to print: messages that
// quote a file's bytes must not carry terminal control sequences or
// invalid UTF-8 to the user's screen.
package printable
