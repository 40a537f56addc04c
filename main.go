// Command cubeview browses parallel performance experiments in the CUBE
// data model and computes their difference, merge and mean.
//
// With a subcommand (see "cubeview help") it works on the command line;
// otherwise it opens each FILE argument, or a bundled example, in a window.
package main

import (
	"fmt"
	"os"

	"fyne.io/fyne/v2/app"

	"cubeview/cli"
	_ "cubeview/internal/cleanlocale"
	"cubeview/ui"
)

func main() {
	args, err := cli.TakeMemoryFlag(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "cubeview:", err)
		os.Exit(2)
	}
	if len(args) > 0 && cli.IsCommand(args[0]) {
		env := cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
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
	os.Exit(ui.Main(app.NewWithID("org.cubeview.app"), args))
}
