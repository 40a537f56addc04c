package hpctoolkit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"cubeview/format/importer"
	"cubeview/format/internal/build"
	"cubeview/model"
)

// Format is the HPCToolkit database in the registry of formats.
var Format = importer.Format{
	Name:   "HPCToolkit database",
	Tool:   "HPCToolkit",
	Files:  "HPCToolkit databases, the directory `hpcprof` writes (`experiment.xml` + `.metric-db`, or `meta.db` + `profile.db`), or a file in it",
	Detect: Detect,
	Read:   Read,
}

// Read reads the HPCToolkit database at path: its directory, or a file
// in it (experiment.xml, meta.db, profile.db, cct.db).
func Read(path string, opts importer.Options) (*model.Experiment, error) {
	dir := path
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if !st.IsDir() {
		dir = filepath.Dir(path)
	}
	open := func(dir string) (*model.Experiment, error) { return openXML(dir, opts) }
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

// Detect recognises an HPCToolkit database: a directory (head nil)
// holding meta.db or experiment.xml, or one of its files by its first
// bytes.
func Detect(head []byte, path string) importer.Confidence {
	if head == nil {
		if exists(filepath.Join(path, "meta.db")) || isExperimentXML(filepath.Join(path, "experiment.xml")) {
			return importer.Certain
		}
		return importer.No
	}
	if bytes.HasPrefix(head, []byte("HPCTOOLKIT")) ||
		bytes.Contains(head, []byte("<HPCToolkitExperiment")) || bytes.Contains(head, []byte("<!DOCTYPE HPCToolkitExperiment")) {
		return importer.Certain
	}
	return importer.No
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
