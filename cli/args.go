package cli

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"cubeview/format"
	"cubeview/internal/atomicfile"
	"cubeview/internal/flagargs"
	"cubeview/model"
)

// newFlagSet returns a flag set that reports errors through the returned
// error only, so that Main decides what reaches the user.
func newFlagSet(name string) *flag.FlagSet { return flagargs.New(name) }

// parseArgs parses args with fs, allowing flags before, between and after
// the positional arguments, which it returns in order. Everything after a
// "--" argument is positional. A flag error is a usage error; -h and
// -help yield flag.ErrHelp.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	pos, err := flagargs.Parse(fs, args)
	if err != nil && !flagargs.IsHelp(err) {
		return nil, usagef("%v", err)
	}
	return pos, err
}

// stringList is a flag that may be repeated, collecting every value.
type stringList []string

func (s *stringList) String() string { return strings.Join(*s, ",") }

func (s *stringList) Set(v string) error {
	*s = append(*s, v)
	return nil
}

// checkOutput refuses an output path that cannot or must not be written
// before any work is done: a folder that does not exist, or one of the
// inputs (the same file, also through another path or a link) unless
// force is set.
func checkOutput(out string, inputs []string, force bool) error {
	dir := filepath.Dir(out)
	if fi, err := os.Stat(dir); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: the folder %s does not exist", out, dir)
		}
		return fmt.Errorf("%s: %w", out, err)
	} else if !fi.IsDir() {
		return fmt.Errorf("%s: %s is not a folder", out, dir)
	}
	if force {
		return nil
	}
	if in, ok := atomicfile.SameFile(out, inputs); ok {
		return fmt.Errorf("%s: the output is the same file as the input %s, which would be overwritten (give --force to replace it anyway)", out, in)
	}
	return nil
}

// openExperiment reads the experiment at path; the error (a
// *format.Error) names the file.
func openExperiment(path string) (*model.Experiment, error) { return format.Open(path) }

// metricIndex returns the index of the metric with the given uniq_name,
// or an error naming the file and listing the metrics it has.
func metricIndex(e *model.Experiment, path, uniq string) (int, error) {
	if m := e.MetricByName(uniq); m >= 0 {
		return m, nil
	}
	names := make([]string, 0, len(e.Metrics))
	for _, m := range e.MetricOrder() {
		names = append(names, e.Metrics[m].UniqName)
	}
	return -1, fmt.Errorf("%s has no metric %q (it has: %s)", path, uniq, strings.Join(names, ", "))
}
