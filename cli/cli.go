package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"cubeview/format"
	safetext "cubeview/internal/printable"
	"cubeview/model"
)

// Env is what a subcommand sees of the process.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Command is one subcommand.
type Command struct {
	Name    string
	Summary string // one line for "cubeview help"
	Usage   string // full usage text
	Run     func(env Env, args []string) error
}

var commands = map[string]*Command{}

// register adds a subcommand; each command file calls it from init.
func register(c *Command) {
	if _, dup := commands[c.Name]; dup {
		panic("cli: duplicate command " + c.Name)
	}
	commands[c.Name] = c
}

// IsCommand reports whether name is a subcommand (including "help" and
// "--version").
func IsCommand(name string) bool {
	_, ok := commands[commandAlias(name)]
	return ok || isHelp(name)
}

func isHelp(name string) bool { return name == "help" || name == "-h" || name == "--help" }

// commandAlias maps the conventional --version flag to its command.
func commandAlias(name string) string {
	if name == "--version" || name == "-version" {
		return "version"
	}
	return name
}

// IsMistypedCommand reports whether word, the first word of the command
// line, names neither a command nor an existing file or folder nor a
// reference and does not look like a path either (no separator, no
// dot): a mistyped command, which Main reports, rather than a file to
// open in a window.
func IsMistypedCommand(word string) bool {
	if word == "" || strings.HasPrefix(word, "-") || IsCommand(word) || format.IsReference(word) {
		return false
	}
	if strings.ContainsAny(word, "./:"+string(filepath.Separator)) {
		return false
	}
	_, err := os.Lstat(word)
	return errors.Is(err, fs.ErrNotExist)
}

// usageError marks an error caused by wrong arguments (exit status 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// inputError marks a mistyped name or expression in an argument (exit
// status 2); its message says what is wrong, so no usage text follows.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

// Main runs the subcommand named by args[0] and returns the exit status:
// 0 on success, 1 on failure, 2 on a usage error.
func Main(args []string, env Env) int {
	if len(args) == 0 || isHelp(args[0]) {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				fmt.Fprintln(env.Stdout, c.Usage)
				return 0
			}
		}
		help(env.Stdout)
		return 0
	}
	c, ok := commands[commandAlias(args[0])]
	if !ok {
		if hint := didYouMean(suggest(args[0], commandNames())); hint != "" {
			fmt.Fprintf(env.Stderr, "cubeview: unknown command %q%s (\"cubeview help\" lists the commands)\n", safetext.String(args[0]), hint)
		} else {
			fmt.Fprintf(env.Stderr, "cubeview: unknown command %q, and no file or folder has that name; \"cubeview help\" lists the commands\n", safetext.String(args[0]))
		}
		return 2
	}
	takeWarnings()
	err := c.Run(env, args[1:])
	if c.Name != "info" { // info lists them in its report
		for _, w := range takeWarnings() {
			fmt.Fprintf(env.Stderr, "cubeview %s: warning: %s\n", c.Name, printableLines(w))
		}
	}
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(env.Stdout, c.Usage)
			return 0
		}
		fmt.Fprintf(env.Stderr, "cubeview %s: %s\n", c.Name, printableLines(tidyMessage(c.Name, err.Error())))
		if ue := (usageError{}); errors.As(err, &ue) {
			fmt.Fprintln(env.Stderr, c.Usage)
			return 2
		}
		if ie := (inputError{}); errors.As(err, &ie) {
			return 2
		}
		return 1
	}
	return 0
}

func help(w io.Writer) {
	fmt.Fprintln(w, `cubeview — browse CUBE performance experiments and compute their difference, merge and mean.

Usage:
  cubeview [FILE…]            open each file in a window (no file: the bundled example)
  cubeview --calc EXPR        open the result of an algebra expression in a window
  cubeview --repository [--repo LOC]
                              open the experiment repository's window (File › Repository…)
  cubeview --snapshot OUT.png [--size WxH] [--select-metric UNIQ] [--select-cnode PATH]
           [--expand-system] [--flat] [--hottest] [--source] [--system-mode MODE]
           [--select-cluster N] [FILE | --calc EXPR]
                              render a window to a PNG file and exit
  cubeview COMMAND [ARGS…]    run a command-line tool

A window needs a display ($DISPLAY); on a machine without one (an ssh
login node) the commands below work, and "ssh -X" or copying the files to
a desktop shows the windows.

Every form takes --mem SIZE (or $CUBEVIEW_MEM), e.g. --mem 512M: the memory one
metric's data may take; a larger metric of a .cubex file is read row by row
from the file (default `+model.DefaultBudgetRule+`).
In a window, File › Memory for one metric… sets it and keeps it for later sessions.

Commands:`)
	for _, n := range commandNames() {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].Summary)
	}
	fmt.Fprintln(w, "\nA FILE is a CUBE file or another tool's profile, read as an ordinary\nexperiment. Formats are recognised by content:")
	for _, f := range format.Formats() {
		fmt.Fprintf(w, "  %s\n", f.Name)
		line := "   "
		for _, word := range strings.Fields(strings.ReplaceAll(f.Files, "`", "")) {
			if len(line)+1+len(word) > 76 {
				fmt.Fprintln(w, line)
				line = "   "
			}
			line += " " + word
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w, "\n"+strings.TrimSpace(`
For a file in none of them the error says what it looks like (an OTF2
trace, HPCToolkit measurements, …).

Run "cubeview help COMMAND" for a command's options.`))
}

// commandNames lists the commands' names in order.
func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// tidyMessage removes what layers of wrapping repeated in an error
// message: the command's own name at its start, a run of ": "-separated
// parts repeated right after itself ("a.cubex: metric "t": a.cubex:
// metric "t": …"), and a metric or an operand's file named a second time.
func tidyMessage(cmd, msg string) string {
	msg = strings.TrimPrefix(msg, cmd+": ")
	parts := strings.Split(msg, ": ")
	for again := true; again; {
		again = false
		for k := len(parts) / 2; k >= 1 && !again; k-- {
			for i := 0; i+2*k <= len(parts); i++ {
				if slices.Equal(parts[i:i+k], parts[i+k:i+2*k]) {
					parts = slices.Delete(parts, i+k, i+2*k)
					again = true
					break
				}
			}
		}
	}
	seen := map[string]bool{}
	out := parts[:0]
	for _, p := range parts {
		if strings.HasPrefix(p, "metric \"") || seen["file "+p] {
			if seen[p] {
				continue
			}
			seen[p] = true
		}
		// "operand 0 (a.cubex)" names the file a later part repeats.
		if rest, ok := strings.CutPrefix(p, "operand "); ok {
			if i := strings.IndexByte(rest, '('); i > 0 && strings.HasSuffix(rest, ")") {
				seen["file "+rest[i+1:len(rest)-1]] = true
				seen[rest[i+1:len(rest)-1]] = true
			}
		}
		out = append(out, p)
	}
	return strings.Join(out, ": ")
}

// printableLines escapes what is not printable text in each line of a
// message (a syntax error shows the expression and a caret below it).
func printableLines(msg string) string {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		lines[i] = safetext.String(l)
	}
	return strings.Join(lines, "\n")
}
