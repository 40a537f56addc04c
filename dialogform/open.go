package dialogform

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"cubeview/format"
)

// Experiments come as files (CUBE, gprof, mpiP, pprof, callgrind reports)
// or as folders (TAU profile directories, HPCToolkit databases):
// format.Open recognises either by its content, so every way into the
// application — File › Open…, File › Open folder…, the operand pickers of
// the algebra dialogs and drag and drop — accepts both, and no file
// picker filters by ending.

// StartFolder returns where File › Open and the folder choosers start:
// last (the folder used last) while it is a folder, else the current
// directory.
func StartFolder(last string) string {
	if last != "" {
		if st, err := os.Stat(last); err == nil && st.IsDir() {
			return last
		}
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return "."
}

// expandPath returns a path as typed or pasted made absolute: relative
// to the current directory, ~ for the home folder.
func expandPath(text string) string {
	p := strings.TrimSpace(text)
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[1:])
		}
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return p
}

// checkOpenPath says what File › Open does with path (absolute): a file
// or an experiment folder (a TAU profile directory, an HPCToolkit
// database) opens; another folder is browsed; a path that is neither is
// an error. Whether a file is an experiment is format.Open's to say.
func checkOpenPath(path string) (browse bool, err error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return false, fmt.Errorf("%s: no such file or folder", path)
	case st.IsDir() && !format.IsExperimentFolder(path):
		return true, nil
	}
	return false, nil
}

// browseFolder returns the folder the file picker starts in for a typed
// path (absolute): the path when it is a folder, else its folder; start
// when neither is a folder.
func browseFolder(path, start string) string {
	dir := path
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = start
	}
	return dir
}
