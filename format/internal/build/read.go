package build

import (
	"fmt"
	"io"
)

// ReadAll reads all of r, a whole report or document an importer parses
// in memory, refusing more than max bytes; errors name the input name.
func ReadAll(r io.Reader, name string, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: larger than %d bytes", name, max)
	}
	return data, nil
}
