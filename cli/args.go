package cli

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

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
// *format.Error) names the file. What the reader tolerated in the file
// (Experiment.Warnings) is noted for Main to print.
func openExperiment(path string) (*model.Experiment, error) {
	return openExperimentWith(path, format.Options{})
}

// openOperand is openExperiment of an operand of the algebra, whose
// checksum the result's provenance records: the reader computes it from
// the bytes it reads where it can (format.Options.HashContent).
func openOperand(path string) (*model.Experiment, error) {
	return openExperimentWith(path, format.Options{HashContent: true})
}

// openExperimentWith is openExperiment with the reader's options. A
// variable, so that tests can damage an input after it was opened.
var openExperimentWith = func(path string, opts format.Options) (*model.Experiment, error) {
	e, err := format.OpenWith(path, opts)
	if err == nil {
		noteWarnings(path, e.Warnings)
	}
	return e, err
}

// readerWarnings collects the warnings of the files the running command
// opened, each file once.
var readerWarnings struct {
	sync.Mutex
	files map[string]bool
	lines []string
}

func noteWarnings(path string, warnings []string) {
	readerWarnings.Lock()
	defer readerWarnings.Unlock()
	if len(warnings) == 0 || readerWarnings.files[path] {
		return
	}
	if readerWarnings.files == nil {
		readerWarnings.files = map[string]bool{}
	}
	readerWarnings.files[path] = true
	for _, w := range warnings {
		readerWarnings.lines = append(readerWarnings.lines, namedOnce(path, w))
	}
}

// namedOnce prefixes a reader's warning with the file's name unless the
// reader named it already (perf script, folded stacks, ParaProf and
// HPCToolkit warnings do).
func namedOnce(path, warning string) string {
	for _, p := range []string{path, filepath.Clean(path)} {
		if strings.HasPrefix(warning, p+": ") {
			return warning
		}
	}
	return path + ": " + warning
}

// takeWarnings returns the warnings noted since the last call and forgets them.
func takeWarnings() []string {
	readerWarnings.Lock()
	defer readerWarnings.Unlock()
	out := readerWarnings.lines
	readerWarnings.lines, readerWarnings.files = nil, nil
	return out
}

// metricIndex returns the index of the metric name names: its unique
// name, or else the unique or display name ignoring case ("TIME", "Time").
// Otherwise the error names the file and offers at most five metrics it
// may have meant, or points to "cubeview info".
func metricIndex(e *model.Experiment, path, name string) (int, error) {
	if m := e.MetricByName(name); m >= 0 {
		return m, nil
	}
	var byUniq, byDisp []int
	for _, m := range e.MetricOrder() {
		if strings.EqualFold(e.Metrics[m].UniqName, name) {
			byUniq = append(byUniq, m)
		}
		if strings.EqualFold(e.Metrics[m].DispName, name) {
			byDisp = append(byDisp, m)
		}
	}
	for _, found := range [][]int{byUniq, byDisp} {
		switch len(found) {
		case 0:
			continue
		case 1:
			return found[0], nil
		}
		names := make([]string, len(found))
		for i, m := range found {
			names[i] = e.Metrics[m].UniqName
		}
		return -1, fmt.Errorf("%s: metric %q is ambiguous: it names %s; give the unique name", path, name, strings.Join(names, ", "))
	}
	var uniq []string
	for _, m := range e.MetricOrder() {
		uniq = append(uniq, e.Metrics[m].UniqName)
	}
	candidates := slices.Clone(uniq)
	for _, m := range e.MetricOrder() {
		if d := e.Metrics[m].DispName; d != "" && !strings.EqualFold(d, e.Metrics[m].UniqName) {
			candidates = append(candidates, e.Metrics[m].DispName)
		}
	}
	if hint := didYouMean(uniqNames(e, suggest(name, candidates))); hint != "" {
		return -1, fmt.Errorf("%s has no metric %q%s", path, name, hint)
	}
	if len(uniq) > 0 && len(uniq) <= maxSuggestions {
		return -1, fmt.Errorf("%s has no metric %q (it has: %s)", path, name, strings.Join(uniq, ", "))
	}
	return -1, fmt.Errorf("%s has no metric %q (\"cubeview info %s\" lists its %d metrics)", path, name, path, len(e.Metrics))
}

// metricUniqName resolves name across experiments for a command that
// combines them: a unique name exactly so in any experiment wins ("TIME"
// of a TAU profile beside Score-P's "time"); otherwise each experiment
// resolves it as metricIndex does, and the unique name they agree on is
// returned. When they resolve it to different unique names, a canonical
// identity ("Time" for time) is returned as given, for the integration to
// resolve (algebra.Integration.MetricIndex), and any other name is
// ambiguous: the error lists the candidates. The error of a name no
// experiment knows is the first experiment's.
func metricUniqName(name string, paths []string, exps []*model.Experiment) (string, error) {
	for _, e := range exps {
		if e.MetricByName(name) >= 0 {
			return name, nil
		}
	}
	var first error
	var found []string
	var where []string
	for i, e := range exps {
		m, err := metricIndex(e, paths[i], name)
		if err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		u := e.Metrics[m].UniqName
		if !slices.Contains(found, u) {
			found = append(found, u)
			where = append(where, fmt.Sprintf("%s in %s", u, paths[i]))
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1 && model.CanonicalIdentity(name) != "":
		return name, nil
	case len(found) > 1:
		return "", fmt.Errorf("metric %q is ambiguous: it names %s; give the unique name", name, strings.Join(where, ", "))
	}
	return "", first
}

// uniqNames maps metric names (unique or display names) to unique names,
// dropping repeats: what a suggestion offers to type.
func uniqNames(e *model.Experiment, names []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		u := n
		if e.MetricByName(n) < 0 {
			for _, m := range e.MetricOrder() {
				if e.Metrics[m].DispName == n {
					u = e.Metrics[m].UniqName
					break
				}
			}
		}
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}
