package sourcepanel

import (
	"strings"

	"cubeview/document"
	"cubeview/form"
	"cubeview/sourceview"
)

// Preference keys of the source-path settings, shared by all windows.
const (
	PrefSourceMappings = "sourceMappings"   // sourceview.Mapping.String per entry
	PrefSourceDirs     = "sourceSearchDirs" // one directory per entry
)

// Prefs keeps the source-path settings: the user's preferences.
type Prefs interface {
	StringList(key string) []string
	SetStringList(key string, l []string) error
}

// Settings are the user's source-path mappings and search folders
// as remembered in the preferences.
type Settings struct {
	Prefs Prefs
	// Changed runs after every change, so that the source panels look
	// for their files again.
	Changed func()
}

// Paths returns the mappings and search folders; entries that do not
// parse are skipped.
func (s Settings) Paths() (mappings []sourceview.Mapping, dirs []string) {
	return storedPaths(s.Prefs.StringList(PrefSourceMappings), s.Prefs.StringList(PrefSourceDirs))
}

// Set stores the mappings and search folders.
func (s Settings) set(mappings []sourceview.Mapping, dirs []string) error {
	err := s.Prefs.SetStringList(PrefSourceMappings, mappingStrings(mappings))
	if derr := s.Prefs.SetStringList(PrefSourceDirs, dirs); err == nil {
		err = derr
	}
	s.Changed()
	return err
}

// sourceOrigin returns doc, or an empty document for none.
func sourceOrigin(doc *document.Doc) *document.Doc {
	if doc == nil {
		return &document.Doc{}
	}
	return doc
}

// Resolver returns the resolver for the source files of doc (nil: none)
// among the open documents (resolver).
func (s Settings) Resolver(doc *document.Doc, open []*document.Doc) *sourceview.Resolver {
	mappings, dirs := s.Paths()
	return resolver(sourceOrigin(doc), open, mappings, dirs)
}

// Learn remembers that the source file recorded as recorded in doc is
// located at located (learnPath); the error says why located cannot
// be used.
func (s Settings) Learn(doc *document.Doc, open []*document.Doc, recorded, located string) error {
	mappings, dirs := s.Paths()
	mappings, dirs, err := learnPath(sourceOrigin(doc), open, mappings, dirs, recorded, located)
	if err != nil {
		return err
	}
	return s.set(mappings, dirs)
}

// AddDir adds dir to the search folders.
func (s Settings) AddDir(dir string) error {
	mappings, dirs := s.Paths()
	return s.set(mappings, addDir(dirs, dir))
}

// Form is the source panel's Paths… dialog: the mappings and search
// folders as text, one entry per line.
func (s Settings) Form() *form.Form {
	mappings, dirs := s.Paths()
	m := &form.Field{Kind: form.TextField, Label: "Path mappings", Lines: 5, Width: 700,
		Text:        strings.Join(mappingStrings(mappings), "\n"),
		Placeholder: "/build/host/project => /home/me/project",
		Hint:        "One per line: old prefix => new prefix"}
	d := &form.Field{Kind: form.TextField, Label: "Search folders", Lines: 4,
		Text:        strings.Join(dirs, "\n"),
		Placeholder: "/home/me/project/src",
		Hint:        "One folder per line; a file's path and its tails are looked for below each"}
	f := &form.Form{Title: "Source paths", Confirm: "Save", Fields: []*form.Field{m, d}}
	f.Submit = func() error {
		mappings, dirs, err := parsePaths(m.Text, d.Text)
		if err != nil {
			return err
		}
		return s.set(mappings, dirs)
	}
	return f
}
