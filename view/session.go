package view

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"cubeview/assets"
	"cubeview/internal/prefs"
)

// Preference keys of the recent files.
const (
	recentKey     = "recentFiles"
	lastFolderKey = "lastFolder"
	// maxRecent is how many recent files are kept.
	maxRecent = 8
)

// OpenPrefs opens the user's preferences file (see internal/prefs), or
// one in the temporary folder when the configuration folder is unknown,
// and warns on stderr when the file does not parse. The first time, it
// takes over the string lists under keys (and the recent files) that
// earlier versions kept in the toolkit's preferences, which legacy reads
// and which a killed instance could leave empty.
func OpenPrefs(stderr io.Writer, legacy func(key string) []string, keys ...string) *prefs.Store {
	path, err := prefs.DefaultPath()
	if err != nil {
		path = filepath.Join(os.TempDir(), "cubeview-preferences.json")
	}
	p := prefs.Open(path)
	if err := p.Err(); err != nil {
		fmt.Fprintf(stderr, "cubeview: %v (starting with default settings; the file is kept as .broken on the next change)\n", err)
	}
	if !p.Exists() {
		for _, key := range append([]string{recentKey}, keys...) {
			if l := legacy(key); len(l) > 0 {
				p.SetStringList(key, l)
			}
		}
	}
	return p
}

// Recent returns the recently opened files in p, the latest first.
func Recent(p *prefs.Store) []string { return p.StringList(recentKey) }

// AddRecent puts path (made absolute) first in p's recent files, once,
// keeping at most maxRecent, and remembers its folder as the last one.
func AddRecent(p *prefs.Store, path string) error {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	p.SetString(lastFolderKey, filepath.Dir(path))
	_, err := p.UpdateStringList(recentKey, func(list []string) []string {
		list = slices.DeleteFunc(list, func(q string) bool { return q == path })
		list = append([]string{path}, list...)
		return list[:min(len(list), maxRecent)]
	})
	return err
}

// LastFolder returns the folder of the file opened last, or "".
func LastFolder(p *prefs.Store) string { return p.String(lastFolderKey) }

// ErrNoExample says that this build has no bundled example.
var ErrNoExample = errors.New("this build has no bundled example")

// WriteExample writes the bundled example (before and after) to the
// user's cache folder, next to its source files.
func WriteExample() (assets.Files, error) {
	if before, _ := assets.Example(); len(before) == 0 {
		return assets.Files{}, ErrNoExample
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return assets.WriteExample(filepath.Join(base, "cubeview", "example"))
}
