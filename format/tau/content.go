package tau

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"

	"cubeview/format/importer"
)

// readContent returns the content of the file at path, decompressed
// within the shared decompression budget when it is gzip-compressed.
func readContent(path string) ([]byte, error) {
	f, err := importer.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, nil
}

// readFSContent is readContent for file name of fsys, named display in
// errors.
func readFSContent(fsys fs.FS, name, display string) ([]byte, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", display, err)
	}
	if !importer.IsGzip(data) {
		return data, nil
	}
	r, err := importer.Gunzip(bytes.NewReader(data), int64(len(data)))
	if err == nil {
		data, err = io.ReadAll(r)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", display, err)
	}
	return data, nil
}
