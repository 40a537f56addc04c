package cli

import (
	"strings"

	"cubeview/format"
)

func init() {
	register(&Command{
		Name:    "convert",
		Summary: "convert an experiment to another file format",
		Usage: `usage: cubeview convert IN OUT [--force]

Reads IN in any supported format and writes it to OUT in the format named by
OUT's extension: .cubex (CUBE 4), .cube (CUBE 3 XML) or .cube.gz (CUBE 3 XML,
gzip-compressed). OUT is replaced if it exists; it must not be IN (the
same file, also through another path or a link) unless --force is given.`,
		Run: runConvert,
	})
}

// outputExtensions are the file name endings convert can write.
var outputExtensions = format.OutputExtensions

func runConvert(env Env, args []string) error {
	fs := newFlagSet("convert")
	force := fs.Bool("force", false, "replace OUT even when it is IN")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("want IN and OUT, got %d arguments", len(pos))
	}
	in, out := pos[0], pos[1]
	if !hasOutputExtension(out) {
		return usagef("%s: unknown output format; the name must end in %s", out, strings.Join(outputExtensions, ", "))
	}
	if err := checkOutput(out, []string{in}, *force); err != nil {
		return err
	}
	e, err := openExperiment(in)
	if err != nil {
		return err
	}
	return format.Write(out, e) // a *format.Error naming the file
}

func hasOutputExtension(path string) bool { return format.CanWrite(path) }
