package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"cubeview/algebra"
	"cubeview/sourceview"
)

// Preference keys of the source-path settings, shared by all windows.
const (
	prefSourceMappings = "sourceMappings"   // sourceview.Mapping.String per entry
	prefSourceDirs     = "sourceSearchDirs" // one directory per entry
)

// SourcePaths returns the user's source-path mappings and search folders
// as remembered in the preferences. Entries that do not parse are skipped.
func (a *App) SourcePaths() (mappings []sourceview.Mapping, dirs []string) {
	for _, s := range a.prefs.StringList(prefSourceMappings) {
		if m, err := sourceview.ParseMapping(s); err == nil {
			mappings = append(mappings, m)
		}
	}
	for _, d := range a.prefs.StringList(prefSourceDirs) {
		if d = strings.TrimSpace(d); d != "" {
			dirs = append(dirs, d)
		}
	}
	return mappings, dirs
}

// SetSourcePaths stores the source-path mappings and search folders in the
// preferences, and every open source panel looks for its file again.
func (a *App) SetSourcePaths(mappings []sourceview.Mapping, dirs []string) {
	ms := make([]string, len(mappings))
	for i, m := range mappings {
		ms[i] = m.String()
	}
	a.prefs.SetStringList(prefSourceMappings, ms)
	a.prefs.SetStringList(prefSourceDirs, dirs)
	for _, w := range a.windows {
		if w.source != nil {
			w.source.reload()
		}
	}
}

// sourceResolver returns the resolver for the source files of doc: a
// relative recorded path is taken relative to the experiment file's
// directory (for a derived experiment, its operand files' directories),
// then the user's mappings are tried, then those directories and the
// user's search folders.
func (a *App) sourceResolver(doc *Document) *sourceview.Resolver {
	mappings, dirs := a.SourcePaths()
	return a.resolverWith(doc, mappings, dirs)
}

// resolverWith is sourceResolver with the given user settings.
func (a *App) resolverWith(doc *Document, mappings []sourceview.Mapping, dirs []string) *sourceview.Resolver {
	r := &sourceview.Resolver{Mappings: mappings}
	expDirs := experimentDirs(doc)
	if len(expDirs) > 0 {
		r.Base = expDirs[0]
	}
	if doc != nil && doc.Path == "" {
		// A derived experiment not computed from files: its operands are
		// likely among the open experiments.
		for _, d := range a.docs {
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

// experimentDirs returns the directories of the files doc comes from: its
// own file's, or for a derived experiment those of the operand files its
// provenance records, nested operands included.
func experimentDirs(doc *Document) []string {
	if doc == nil {
		return nil
	}
	var paths []string
	if doc.Path != "" {
		paths = append(paths, doc.Path)
	} else if doc.Exp != nil {
		for _, attr := range doc.Exp.Attrs {
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

// LearnSourcePath remembers that the source file recorded as recorded in
// doc is located at located: the differing leading directories become a
// path mapping (or a search folder, see sourceview.Resolver.Learn), or,
// when that does not lead to located (the file was renamed, or another
// mapping wins), a mapping of the whole path. The lesson is stored in the
// preferences; the error says why located cannot be used.
func (a *App) LearnSourcePath(doc *Document, recorded, located string) error {
	if abs, err := filepath.Abs(located); err == nil {
		located = abs
	}
	if st, err := os.Stat(located); err != nil {
		return fmt.Errorf("locating %s: %w", recorded, err)
	} else if !st.Mode().IsRegular() {
		return fmt.Errorf("locating %s: %s is not a regular file", recorded, located)
	}
	mappings, dirs := a.SourcePaths()
	r := &sourceview.Resolver{Mappings: mappings, SearchDirs: dirs}
	r.Learn(recorded, located)
	if got, err := a.resolverWith(doc, r.Mappings, r.SearchDirs).Resolve(recorded); err != nil || got != located {
		r.Mappings = append([]sourceview.Mapping{{From: recorded, To: located}}, r.Mappings...)
	}
	if got, err := a.resolverWith(doc, r.Mappings, r.SearchDirs).Resolve(recorded); err != nil || got != located {
		if err == nil {
			err = fmt.Errorf("%s is found first", got)
		}
		return fmt.Errorf("locating %s at %s: %w", recorded, located, err)
	}
	a.SetSourcePaths(r.Mappings, r.SearchDirs)
	return nil
}

// AddSourceDir adds dir to the user's source search folders.
func (a *App) AddSourceDir(dir string) {
	mappings, dirs := a.SourcePaths()
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if !slices.Contains(dirs, dir) {
		dirs = append(dirs, dir)
	}
	a.SetSourcePaths(mappings, dirs)
}

// sourcePathsDialog lets the user edit the mappings and search folders
// as text, one entry per line.
func (w *Window) sourcePathsDialog() {
	mappings, dirs := w.app.SourcePaths()
	ms := make([]string, len(mappings))
	for i, m := range mappings {
		ms[i] = m.String()
	}
	mapEntry := widget.NewMultiLineEntry()
	mapEntry.SetText(strings.Join(ms, "\n"))
	mapEntry.SetPlaceHolder("/build/host/project => /home/me/project")
	mapEntry.SetMinRowsVisible(5)
	dirEntry := widget.NewMultiLineEntry()
	dirEntry.SetText(strings.Join(dirs, "\n"))
	dirEntry.SetPlaceHolder("/home/me/project/src")
	dirEntry.SetMinRowsVisible(4)
	items := []*widget.FormItem{
		widget.NewFormItem("Path mappings", mapEntry),
		widget.NewFormItem("Search folders", dirEntry),
	}
	items[0].HintText = "One per line: old prefix => new prefix"
	items[1].HintText = "One folder per line; a file's path and its tails are looked for below each"
	d := dialog.NewForm("Source paths", "Save", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		mappings, dirs, err := parseSourcePaths(mapEntry.Text, dirEntry.Text)
		if err != nil {
			w.showError(err)
			return
		}
		w.app.SetSourcePaths(mappings, dirs)
	}, w.win)
	d.Resize(fyne.NewSize(700, 420))
	d.Show()
}

// parseSourcePaths reads the text of the source-paths dialog: mappings
// and folders one per line, blank lines ignored.
func parseSourcePaths(mappingText, dirText string) ([]sourceview.Mapping, []string, error) {
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
