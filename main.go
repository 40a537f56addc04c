// Command cubeview browses parallel performance experiments in the CUBE
// data model and computes their difference, merge and mean.
//
// With a subcommand (see "cubeview help") it works on the command line;
// otherwise it opens each FILE argument, or a bundled example, in a window.
package main

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"regexp"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"cubeview/cli"
	"cubeview/format"
	_ "cubeview/internal/cleanlocale"
	"cubeview/launch"
	"cubeview/ui"
)

// appMetadata is the application's metadata; its Version is the program's.
//
//go:embed FyneApp.toml
var appMetadata string

func main() {
	cli.Version = metadataVersion(appMetadata)
	args, err := cli.TakeMemoryFlag(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "cubeview:", err)
		os.Exit(2)
	}
	env := cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	if len(args) > 0 && cli.IsMistypedCommand(args[0]) {
		os.Exit(cli.Main(args, env)) // unknown command, did you mean …
	}
	if len(args) > 0 && cli.IsCommand(args[0]) {
		refs, status, windows := cli.WindowRequest(args, env) // repo open TRIAL…
		if !windows {
			os.Exit(cli.Main(args, env))
		}
		if status != 0 {
			os.Exit(status)
		}
		args = append([]string{"--"}, refs...)
		if loc := cli.ReferenceLocation(); loc != "" {
			args = append([]string{"--repo", loc}, args...)
		}
	}
	// From here on windows open; what can be checked without one is
	// checked first, so that a terminal gets one line, not a window.
	o, err := launch.Parse(args)
	if o.Help {
		fmt.Println(launch.Usage)
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "cubeview: %v\n%s\n", err, launch.Usage)
		os.Exit(2)
	}
	for _, f := range o.Files {
		if _, err := os.Stat(f); errors.Is(err, fs.ErrNotExist) && !format.IsReference(f) {
			fmt.Fprintf(os.Stderr, "cubeview: %s: no such file or folder\n", f)
			os.Exit(1)
		}
	}
	if !haveDisplay() {
		fmt.Fprintln(os.Stderr, noDisplay)
		os.Exit(1)
	}
	if err := loadWindowLibraries(); err != nil {
		fmt.Fprintf(os.Stderr, "cannot open a window: %v; the command line works without it — cubeview help\n", err)
		os.Exit(1)
	}
	defer exitIfDisplayFails()
	a := app.NewWithID("org.cubeview.app")
	skipThreadChecks(a)
	os.Exit(ui.Main(a, o))
}

// skipThreadChecks tells Fyne that the program calls it on the UI
// goroutine only (work off it reaches the UI through fyne.Do), as
// FyneApp.toml's [Migrations] fyneDo says for packaged builds: otherwise
// every refresh of a widget reads a goroutine's stack to check, a third of
// the work of a selection change.
func skipThreadChecks(a fyne.App) {
	m := a.Metadata()
	migrations := maps.Clone(m.Migrations)
	if migrations == nil {
		migrations = map[string]bool{}
	}
	migrations["fyneDo"] = true
	m.Migrations = migrations
	app.SetMetadata(m)
}

// noDisplay is the one line a window request without a display gets.
const noDisplay = "cannot open a window: no display; the command line works without one — cubeview help"

// exitIfDisplayFails turns the panic of the window system's library when
// the display is named but cannot be opened (a stale $DISPLAY after ssh
// -X, an X server that has gone) into one line and exit status 1; any
// other panic goes on.
func exitIfDisplayFails() {
	r := recover()
	if r == nil {
		return
	}
	if msg := fmt.Sprint(r); strings.Contains(msg, "NotInitialized") || strings.Contains(msg, "GLFW") {
		fmt.Fprintf(os.Stderr, "cannot open a window: the display %q cannot be opened; the command line works without one — cubeview help\n", os.Getenv("DISPLAY"))
		os.Exit(1)
	}
	panic(r)
}

// metadataVersion returns the Version of FyneApp.toml's [Details].
func metadataVersion(toml string) string {
	m := regexp.MustCompile(`(?m)^\s*Version\s*=\s*"([^"]*)"`).FindStringSubmatch(toml)
	if m == nil {
		return "unknown"
	}
	return m[1]
}
