package hpctoolkit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"cubeview/format/internal/build"
	"cubeview/model"
)

// Open reads the HPCToolkit database at path: its directory, or a file
// in it (experiment.xml, meta.db, profile.db, cct.db).
func Open(path string) (*model.Experiment, error) {
	dir := path
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if !st.IsDir() {
		dir = filepath.Dir(path)
	}
	open := openXML
	switch {
	case exists(filepath.Join(dir, "meta.db")):
		open = openSparse
	case !exists(filepath.Join(dir, "experiment.xml")):
		return nil, fmt.Errorf("%s: neither meta.db nor experiment.xml: not an HPCToolkit database", dir)
	}
	e, err := open(dir)
	if err == nil {
		build.Identify(e, "HPCToolkit", identities)
	}
	return e, err
}

func exists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

// Detect reports whether path is an HPCToolkit database: a directory
// holding meta.db or experiment.xml, or one of those files (head holds a
// file's first bytes).
func Detect(path string, dir bool, head []byte) bool {
	if dir {
		return exists(filepath.Join(path, "meta.db")) || isExperimentXML(filepath.Join(path, "experiment.xml"))
	}
	if bytes.HasPrefix(head, []byte("HPCTOOLKIT")) {
		return true
	}
	return bytes.Contains(head, []byte("<HPCToolkitExperiment")) || bytes.Contains(head, []byte("<!DOCTYPE HPCToolkitExperiment"))
}

// isExperimentXML reports whether the file at path starts like an
// HPCToolkit experiment.xml.
func isExperimentXML(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := f.Read(head)
	return bytes.Contains(head[:n], []byte("HPCToolkitExperiment"))
}
