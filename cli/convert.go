package cli

import (
	"fmt"
	"os"
	"strings"

	"cubeview/format"
)

func init() {
	register(&Command{
		Name:    "convert",
		Summary: "convert an experiment to another file format",
		Usage: `usage: cubeview convert IN OUT

Reads IN in any supported format and writes it to OUT in the format named by
OUT's extension: .cubex (CUBE 4), .cube (CUBE 3 XML) or .cube.gz (CUBE 3 XML,
gzip-compressed). OUT is replaced if it exists; it must not be IN.`,
		Run: runConvert,
	})
}

// outputExtensions are the file name endings convert can write.
var outputExtensions = []string{".cubex", ".cube", ".cube.gz"}

func runConvert(env Env, args []string) error {
	pos, err := parseArgs(newFlagSet("convert"), args)
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
	// Metric data may be read lazily from IN while OUT is written.
	if si, err := os.Stat(in); err == nil {
		if so, err := os.Stat(out); err == nil && os.SameFile(si, so) {
			return fmt.Errorf("%s: input and output are the same file", out)
		}
	}
	e, err := openExperiment(in)
	if err != nil {
		return err
	}
	return format.Write(out, e) // a *format.Error naming the file
}

func hasOutputExtension(path string) bool {
	lower := strings.ToLower(path)
	for _, ext := range outputExtensions {
		if strings.HasSuffix(lower, ext) {
			return true
		}
	}
	return false
}
