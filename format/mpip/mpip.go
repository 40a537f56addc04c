package mpip

import (
	"bytes"
	"io"
	"os"

	"cubeview/format/internal/build"
	"cubeview/model"
)

// maxSize bounds the report size read into memory.
const maxSize = 1 << 30

// Detect reports whether head, the first bytes of a file, begin an mpiP
// report ("@ mpiP").
func Detect(path string, dir bool, head []byte) bool {
	if dir {
		return false
	}
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	line, _, _ := bytes.Cut(head, []byte("\n"))
	return string(bytes.TrimSpace(line)) == "@ mpiP"
}

// Open reads the mpiP report in the file at path.
func Open(path string) (*model.Experiment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads an mpiP report; name names it in error messages.
func Read(r io.Reader, name string) (*model.Experiment, error) {
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
