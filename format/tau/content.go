package tau

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// readContent returns the content of the file at path, decompressed when
// it is gzip-compressed, within a budget of 1 GiB plus 100 times its size.
func readContent(path string) ([]byte, error) {
	return readFSContent(os.DirFS(filepath.Dir(path)), filepath.Base(path), path)
}

// readFSContent is readContent for file name of fsys, named display in
// errors.
func readFSContent(fsys fs.FS, name, display string) ([]byte, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", display, err)
	}
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: bad gzip data: %w", display, err)
	}
	budget := int64(1<<30 + 100*len(data))
	out, err := io.ReadAll(io.LimitReader(zr, budget+1))
	if err != nil {
		return nil, fmt.Errorf("%s: bad gzip data: %w", display, err)
	}
	if int64(len(out)) > budget {
		return nil, fmt.Errorf("%s: decompresses to more than %d bytes", display, budget)
	}
	return out, nil
}
