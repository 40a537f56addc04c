package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"cubeview/sourceview"
	"cubeview/view"
)

// Preference keys of the source-path settings, shared by all windows.
const (
	prefSourceMappings = "sourceMappings"   // sourceview.Mapping.String per entry
	prefSourceDirs     = "sourceSearchDirs" // one directory per entry
)

// SourcePaths returns the user's source-path mappings and search folders
// as remembered in the preferences. Entries that do not parse are skipped.
func (a *App) SourcePaths() (mappings []sourceview.Mapping, dirs []string) {
	return view.StoredSourcePaths(a.prefs.StringList(prefSourceMappings), a.prefs.StringList(prefSourceDirs))
}

// SetSourcePaths stores the source-path mappings and search folders in the
// preferences, and every open source panel looks for its file again.
func (a *App) SetSourcePaths(mappings []sourceview.Mapping, dirs []string) {
	a.prefs.SetStringList(prefSourceMappings, view.MappingStrings(mappings))
	a.prefs.SetStringList(prefSourceDirs, dirs)
	for _, w := range a.windows {
		if w.source != nil {
			w.source.m.Reload()
		}
	}
}

// sourceOrigin returns doc, or an empty document for none.
func sourceOrigin(doc *view.Doc) *view.Doc {
	if doc == nil {
		return &view.Doc{}
	}
	return doc
}

// sourceResolver returns the resolver for the source files of doc
// (view.SourceResolver) with the user's settings.
func (a *App) sourceResolver(doc *view.Doc) *sourceview.Resolver {
	mappings, dirs := a.SourcePaths()
	return view.SourceResolver(sourceOrigin(doc), a.docs, mappings, dirs)
}

// LearnSourcePath remembers in the preferences that the source file
// recorded as recorded in doc is located at located (see
// view.LearnSourcePath); the error says why located cannot be used.
func (a *App) LearnSourcePath(doc *view.Doc, recorded, located string) error {
	mappings, dirs := a.SourcePaths()
	mappings, dirs, err := view.LearnSourcePath(sourceOrigin(doc), a.docs, mappings, dirs, recorded, located)
	if err != nil {
		return err
	}
	a.SetSourcePaths(mappings, dirs)
	return nil
}

// AddSourceDir adds dir to the user's source search folders.
func (a *App) AddSourceDir(dir string) {
	mappings, dirs := a.SourcePaths()
	a.SetSourcePaths(mappings, view.AddSourceDir(dirs, dir))
}

// sourcePathsDialog lets the user edit the mappings and search folders
// as text, one entry per line.
func (w *Window) sourcePathsDialog() {
	mappings, dirs := w.app.SourcePaths()
	mapEntry := widget.NewMultiLineEntry()
	mapEntry.SetText(strings.Join(view.MappingStrings(mappings), "\n"))
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
		mappings, dirs, err := view.ParseSourcePaths(mapEntry.Text, dirEntry.Text)
		if err != nil {
			w.showError(err)
			return
		}
		w.app.SetSourcePaths(mappings, dirs)
	}, w.win)
	d.Resize(fyne.NewSize(700, 420))
	d.Show()
}
