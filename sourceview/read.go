package sourceview

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// DefaultMaxSize is the largest source file Read accepts by default.
const DefaultMaxSize = 32 << 20

// Reasons a file is not shown as source; Read wraps them.
var (
	ErrTooLarge = errors.New("file too large to show")
	ErrBinary   = errors.New("binary file, not source text")
	ErrNotUTF8  = errors.New("not UTF-8 text")
	ErrNotFile  = errors.New("not a regular file")
)

// Read returns the text of the source file at path with line ends
// normalised to "\n" and a byte-order mark removed. It refuses files that
// are not regular files, are larger than maxSize bytes (DefaultMaxSize
// when maxSize ≤ 0), contain a NUL byte or are not valid UTF-8; the error
// names the file and wraps ErrNotFile, ErrTooLarge, ErrBinary or
// ErrNotUTF8.
func Read(path string, maxSize int64) (string, error) {
	if maxSize <= 0 {
		maxSize = DefaultMaxSize
	}
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s: %w", path, ErrNotFile)
	}
	if st.Size() > maxSize {
		return "", fmt.Errorf("%s: %w (%d bytes, limit %d)", path, ErrTooLarge, st.Size(), maxSize)
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	// The file may have grown since Stat; never read more than the limit.
	data, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(data)) > maxSize {
		return "", fmt.Errorf("%s: %w (more than %d bytes)", path, ErrTooLarge, maxSize)
	}
	return Decode(path, data)
}

// Decode checks and normalises the contents of a source file as Read
// does; name is used in errors.
func Decode(name string, data []byte) (string, error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return "", fmt.Errorf("%s: %w (NUL byte at offset %d)", name, ErrBinary, i)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, n := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			off += n
		}
		line := 1 + bytes.Count(data[:off], []byte("\n"))
		return "", fmt.Errorf("%s: %w (invalid byte 0x%02x on line %d)", name, ErrNotUTF8, data[off], line)
	}
	text := string(data)
	if strings.Contains(text, "\r") {
		text = strings.ReplaceAll(text, "\r\n", "\n")
		text = strings.ReplaceAll(text, "\r", "\n")
	}
	return text, nil
}
