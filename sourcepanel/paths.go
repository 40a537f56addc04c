package sourcepanel

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"cubeview/algebra"
	"cubeview/document"
	"cubeview/sourceview"
)

// experimentDirs returns the directories of the files o comes from: its
// own file's, or for a derived experiment those of the operand files its
// provenance records, nested operands included.
func experimentDirs(o *document.Doc) []string {
	var paths []string
	if o.Path != "" {
		paths = append(paths, o.Path)
	} else if o.Exp != nil {
		for _, attr := range o.Exp.Attrs {
			if !strings.HasPrefix(attr.Key, algebra.AttrOperand) {
				continue
			}
			// "size=N;sha256=HEX;path=PATH": the path comes last.
			if strings.HasPrefix(attr.Value, "expression=") {
				continue
			}
			if _, p, ok := strings.Cut(attr.Value, "path="); ok && p != "" {
				paths = append(paths, p)
			}
		}
	}
	var dirs []string
	for _, p := range paths {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		if d := filepath.Dir(p); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// resolver returns the resolver for the source files of o: a
// relative recorded path is taken relative to the experiment file's
// directory (for a derived experiment, its operand files' directories),
// then the user's mappings are tried, then those directories and the
// user's search folders. A derived experiment not computed from files
// also searches the directories of the open experiments read from files,
// among which its operands likely are.
func resolver(o *document.Doc, open []*document.Doc, mappings []sourceview.Mapping, dirs []string) *sourceview.Resolver {
	r := &sourceview.Resolver{Mappings: mappings}
	expDirs := experimentDirs(o)
	if len(expDirs) > 0 {
		r.Base = expDirs[0]
	}
	if o.Path == "" && o.Exp != nil {
		for _, d := range open {
			if d.Path != "" {
				expDirs = append(expDirs, experimentDirs(d)...)
			}
		}
	}
	for _, d := range append(expDirs, dirs...) {
		if !slices.Contains(r.SearchDirs, d) {
			r.SearchDirs = append(r.SearchDirs, d)
		}
	}
	return r
}

// learnPath returns the user's mappings and search folders with the
// lesson that the source file recorded as recorded in o is located at
// located: the differing leading directories become a path mapping (or a
// search folder, see sourceview.Resolver.Learn), or, when that does not
// lead to located (the file was renamed, or another mapping wins), a
// mapping of the whole path. The error says why located cannot be used.
func learnPath(o *document.Doc, open []*document.Doc, mappings []sourceview.Mapping, dirs []string, recorded, located string) ([]sourceview.Mapping, []string, error) {
	if abs, err := filepath.Abs(located); err == nil {
		located = abs
	}
	if st, err := os.Stat(located); err != nil {
		return nil, nil, fmt.Errorf("locating %s: %w", recorded, err)
	} else if !st.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("locating %s: %s is not a regular file", recorded, located)
	}
	r := &sourceview.Resolver{Mappings: mappings, SearchDirs: dirs}
	r.Learn(recorded, located)
	if got, err := resolver(o, open, r.Mappings, r.SearchDirs).Resolve(recorded); err != nil || got != located {
		r.Mappings = append([]sourceview.Mapping{{From: recorded, To: located}}, r.Mappings...)
	}
	if got, err := resolver(o, open, r.Mappings, r.SearchDirs).Resolve(recorded); err != nil || got != located {
		if err == nil {
			err = fmt.Errorf("%s is found first", got)
		}
		return nil, nil, fmt.Errorf("locating %s at %s: %w", recorded, located, err)
	}
	return r.Mappings, r.SearchDirs, nil
}

// addDir returns dirs with dir (made absolute) added unless it is
// there already.
func addDir(dirs []string, dir string) []string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if !slices.Contains(dirs, dir) {
		dirs = append(dirs, dir)
	}
	return dirs
}

// parsePaths reads the text of the source-paths dialog: mappings
// and folders one per line, blank lines ignored.
func parsePaths(mappingText, dirText string) ([]sourceview.Mapping, []string, error) {
	var mappings []sourceview.Mapping
	var errs []error
	for _, line := range strings.Split(mappingText, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		m, err := sourceview.ParseMapping(line)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		mappings = append(mappings, m)
	}
	var dirs []string
	for _, line := range strings.Split(dirText, "\n") {
		if d := strings.TrimSpace(line); d != "" && !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return mappings, dirs, errors.Join(errs...)
}

// storedPaths reads the source-path settings as stored, one mapping
// (Mapping.String) or folder per entry; entries that do not parse are
// skipped.
func storedPaths(mappings, dirs []string) ([]sourceview.Mapping, []string) {
	var ms []sourceview.Mapping
	for _, s := range mappings {
		if m, err := sourceview.ParseMapping(s); err == nil {
			ms = append(ms, m)
		}
	}
	var ds []string
	for _, d := range dirs {
		if d = strings.TrimSpace(d); d != "" {
			ds = append(ds, d)
		}
	}
	return ms, ds
}

// mappingStrings returns the mappings as stored and edited, one string each.
func mappingStrings(mappings []sourceview.Mapping) []string {
	ms := make([]string, len(mappings))
	for i, m := range mappings {
		ms[i] = m.String()
	}
	return ms
}
