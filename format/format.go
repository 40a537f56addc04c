package format

import (
	"errors"

	"cubeview/model"
)

// Open reads the experiment in the file at path, recognising its format by
// content (CUBE 2/3 XML, possibly gzip-compressed, or CUBE 4 .cubex). Metric
// data of .cubex files are loaded lazily on first use.
func Open(path string) (*model.Experiment, error) {
	return nil, errors.New("format.Open: not implemented yet")
}

// Write writes e to path; the extension chooses the format: ".cubex" for
// CUBE 4, ".cube" for CUBE 3 XML, ".cube.gz" for compressed CUBE 3 XML.
func Write(path string, e *model.Experiment) error {
	return errors.New("format.Write: not implemented yet")
}
