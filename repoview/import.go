package repoview

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"cubeview/format"
	"cubeview/repo"
)

// ImportSpec is what the Import dialog asks for.
type ImportSpec struct {
	Paths           string // one file or folder per line
	App, Experiment string
	Name            string // only for a single path
	Attrs           string // one key=value per line
	Force           bool   // store content that is already stored again
}

// Plan checks the spec and returns the paths and the import options.
func (s ImportSpec) Plan() ([]string, repo.ImportOptions, error) {
	var paths []string
	for _, line := range strings.Split(s.Paths, "\n") {
		if p := strings.TrimSpace(line); p != "" {
			paths = append(paths, p)
		}
	}
	opt := repo.ImportOptions{App: strings.TrimSpace(s.App), Experiment: strings.TrimSpace(s.Experiment),
		Name: strings.TrimSpace(s.Name), Force: s.Force}
	if len(paths) == 0 {
		return nil, opt, errors.New("import: give a file or folder")
	}
	if opt.Name != "" && len(paths) > 1 {
		return nil, opt, errors.New("import: a name is for one file; leave it empty to name each trial after its file")
	}
	attrs, err := ParseAttrs(s.Attrs)
	if err != nil {
		return nil, opt, fmt.Errorf("import: %w", err)
	}
	opt.Attrs = attrs
	return paths, opt, nil
}

// ImportProgress says how far an import has come.
type ImportProgress struct {
	Path        string // the file or folder being imported
	File, Files int    // its 1-based number and the number of paths known so far
	Done, Total int    // metrics of the current path summarised so far, of Total
}

// Fraction returns the part of the import done, from 0 to 1.
func (p ImportProgress) Fraction() float64 {
	if p.Files == 0 {
		return 0
	}
	f := float64(p.File - 1)
	if p.Total > 0 {
		f += float64(p.Done) / float64(p.Total)
	}
	return min(1, f/float64(p.Files))
}

// Text describes the progress on one line.
func (p ImportProgress) Text() string {
	s := fmt.Sprintf("Importing %d of %d: %s", p.File, p.Files, filepath.Base(p.Path))
	if p.Total > 0 {
		s += fmt.Sprintf(" (metric %d of %d)", p.Done, p.Total)
	}
	return s
}

// ImportResult is the outcome for one path.
type ImportResult struct {
	Path  string
	Trial int64 // the new trial, 0 when none
	Err   error
	// Skipped marks a file found in a folder that is not an experiment
	// this program reads; it is passed over, not an error.
	Skipped bool
	// Duplicate is the trial that already holds the same content.
	Duplicate int64
}

// RunImport imports each path: a file, or a folder that is an experiment
// (a TAU profile folder), as one trial; any other folder by importing
// what it holds, passing over files that are not experiments. Each trial
// is its own transaction, so a failure or a cancelled ctx keeps the
// trials imported before. progress, if set, is called from this
// goroutine. Run it off the UI goroutine.
func RunImport(ctx context.Context, r *repo.Repo, paths []string, opt repo.ImportOptions, progress func(ImportProgress)) []ImportResult {
	type item struct {
		path  string
		inDir bool // found by looking into a folder
	}
	queue := make([]item, len(paths))
	for i, p := range paths {
		queue[i] = item{path: p}
	}
	var out []ImportResult
	done := 0
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if ctx.Err() != nil {
			out = append(out, ImportResult{Path: it.path, Err: fmt.Errorf("%s: not imported: %w", it.path, ctx.Err())})
			continue
		}
		done++
		at := ImportProgress{Path: it.path, File: done, Files: done + len(queue)}
		o := opt
		o.Progress = func(d, t int) {
			if progress != nil {
				p := at
				p.Done, p.Total = d, t
				progress(p)
			}
		}
		if progress != nil {
			progress(at)
		}
		id, err := r.Import(ctx, it.path, o)
		res := ImportResult{Path: it.path, Trial: id, Err: err}
		var dup *repo.DuplicateError
		switch {
		case err == nil:
		case errors.As(err, &dup):
			res.Duplicate = dup.Trial
		case errors.Is(err, format.ErrUnknownFormat) && isDir(it.path):
			entries, rerr := os.ReadDir(it.path)
			if rerr != nil {
				res.Err = rerr
				break
			}
			var inner []item
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), ".") || !(e.IsDir() || e.Type().IsRegular()) {
					continue
				}
				inner = append(inner, item{path: filepath.Join(it.path, e.Name()), inDir: true})
			}
			queue = append(inner, queue...)
			done-- // the folder itself is not a trial
			continue
		case errors.Is(err, format.ErrUnknownFormat) && it.inDir:
			res.Skipped = true
		}
		out = append(out, res)
	}
	return out
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// ImportSummary describes the results for people, one sentence a line.
func ImportSummary(results []ImportResult) string {
	var ids, skipped []string
	var dups, failed []string
	for _, r := range results {
		switch {
		case r.Err == nil:
			ids = append(ids, "#"+strconv.FormatInt(r.Trial, 10))
		case r.Skipped:
			skipped = append(skipped, filepath.Base(r.Path))
		case r.Duplicate != 0:
			dups = append(dups, fmt.Sprintf("%s (trial %d)", r.Path, r.Duplicate))
		default:
			failed = append(failed, r.Err.Error())
		}
	}
	var lines []string
	switch len(ids) {
	case 0:
		lines = append(lines, "No trial imported.")
	case 1:
		lines = append(lines, "Imported 1 trial: "+ids[0]+".")
	default:
		lines = append(lines, fmt.Sprintf("Imported %d trials: %s.", len(ids), strings.Join(ids, ", ")))
	}
	if len(dups) > 0 {
		lines = append(lines, "Already stored (check \"Store again\" to import anyway): "+strings.Join(dups, ", ")+".")
	}
	if len(skipped) > 0 {
		lines = append(lines, fmt.Sprintf("Passed over %s in the folders that %s not experiments: %s.",
			count(len(skipped), "file"), map[bool]string{true: "is", false: "are"}[len(skipped) == 1], strings.Join(skipped, ", ")))
	}
	for _, f := range failed {
		lines = append(lines, "Failed: "+f)
	}
	return strings.Join(lines, "\n")
}

// Imported returns the trials the results created.
func Imported(results []ImportResult) []int64 {
	var ids []int64
	for _, r := range results {
		if r.Err == nil && r.Trial != 0 {
			ids = append(ids, r.Trial)
		}
	}
	return ids
}
