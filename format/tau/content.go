package tau

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
)

// readContent returns the content of the file at path, decompressed when
// it is gzip-compressed, within a budget of 1 GiB plus 100 times its size.
func readContent(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: bad gzip data: %w", path, err)
	}
	budget := int64(1<<30 + 100*len(data))
	out, err := io.ReadAll(io.LimitReader(zr, budget+1))
	if err != nil {
		return nil, fmt.Errorf("%s: bad gzip data: %w", path, err)
	}
	if int64(len(out)) > budget {
		return nil, fmt.Errorf("%s: decompresses to more than %d bytes", path, budget)
	}
	return out, nil
}
