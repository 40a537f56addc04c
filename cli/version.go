package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Version is the program's version; the main package sets it from the
// application's metadata (FyneApp.toml).
var Version = "unknown"

func init() {
	register(&Command{
		Name:    "version",
		Summary: "print the version (also: cubeview --version)",
		Usage: `Usage: cubeview version

Prints the version, the source revision it was built from (when known)
and the Go version. Like every command it needs no display.`,
		Run: runVersion,
	})
}

func runVersion(env Env, args []string) error {
	fs := newFlagSet("version")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("version takes no arguments")
	}
	fmt.Fprintln(env.Stdout, versionLine())
	return nil
}

// versionLine is "cubeview 0.1.0 (revision 39335e7, 2026-11-23, modified;
// go1.24.1 linux/amd64)"; the revision is what the Go tool recorded.
func versionLine() string {
	var build []string
	if info, ok := debug.ReadBuildInfo(); ok {
		var rev, when, modified string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if rev != "" {
			if len(rev) > 12 {
				rev = rev[:12]
			}
			part := "revision " + rev
			if day, _, ok := strings.Cut(when, "T"); ok {
				part += ", " + day
			}
			if modified == "true" {
				part += ", modified"
			}
			build = append(build, part)
		}
	}
	build = append(build, runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH)
	return fmt.Sprintf("cubeview %s (%s)", Version, strings.Join(build, "; "))
}
