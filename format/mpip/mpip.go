package mpip

import (
	"bytes"
	"io"

	"cubeview/format/importer"
	"cubeview/format/internal/build"
	"cubeview/model"
)

// maxSize bounds the report size read into memory.
const maxSize = 1 << 30

// Format is the mpiP report in the registry of formats.
var Format = importer.Format{
	Name:   "mpiP report",
	Tool:   "mpiP",
	Files:  "mpiP reports (`*.mpiP`)",
	Detect: Detect,
	Read:   Read,
}

// Detect recognises an mpiP report by its first line, "@ mpiP".
func Detect(head []byte, path string) importer.Confidence {
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	line, _, _ := bytes.Cut(head, []byte("\n"))
	if string(bytes.TrimSpace(line)) == "@ mpiP" {
		return importer.Certain
	}
	return importer.No
}

// Read reads the mpiP report in the file at path.
func Read(path string, _ importer.Options) (*model.Experiment, error) {
	f, err := importer.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads an mpiP report from r; name names it in error messages.
func Parse(r io.Reader, name string) (*model.Experiment, error) {
	data, err := build.ReadAll(r, name, maxSize)
	if err != nil {
		return nil, err
	}
	rep, err := parse(string(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))), name)
	if err != nil {
		return nil, err
	}
	if err := rep.check(name); err != nil {
		return nil, err
	}
	e, err := rep.experiment(name)
	if err == nil {
		build.Identify(e, "mpiP", identities)
	}
	return e, err
}
