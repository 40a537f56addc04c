package importer

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
)

// Budget returns how many bytes a compressed input of the given size may
// inflate to: 1 GiB plus 100 times its size. Profiles compress 5 to 50
// times; an input that inflates further is a decompression bomb, and
// reading it would only cost time and memory. Tests may replace it.
var Budget = func(compressed int64) int64 { return 1<<30 + 100*compressed }

// BudgetError reports a compressed input that inflates beyond its
// budget.
type BudgetError struct {
	Budget int64
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("decompresses to more than %s, the budget for its size; not a plausible profile", ByteSize(e.Budget))
}

// Limit returns a reader of r that fails with a *BudgetError once r
// yields more than budget bytes.
func Limit(r io.Reader, budget int64) io.Reader {
	return &budgetReader{r: r, left: budget, limit: budget}
}

// budgetReader passes on at most left bytes of r, then fails with a
// *BudgetError if r holds more.
type budgetReader struct {
	r     io.Reader
	left  int64
	limit int64
}

func (b *budgetReader) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells a stream that ends exactly here.
		var one [1]byte
		if n, _ := b.r.Read(one[:]); n > 0 {
			return 0, &BudgetError{Budget: b.limit}
		}
		return b.r.Read(p)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

// IsGzip reports whether data start with the gzip magic number.
func IsGzip(data []byte) bool { return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b }

// Gunzip returns the decompressed content of the gzip stream r, whose
// compressed size is size (0 if unknown), within Budget(size).
func Gunzip(r io.Reader, size int64) (io.Reader, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("bad gzip data: %w", err)
	}
	return Limit(zr, Budget(size)), nil
}

// A File is an input opened by Open: its content, decompressed if the
// file is gzip-compressed.
type File struct {
	*bufio.Reader
	f          io.Closer
	Compressed bool // the file is gzip-compressed
}

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// Open opens the file at path for reading its content: a gzip-compressed
// file is decompressed within the budget for its size (Budget), and
// reading beyond it fails with a *BudgetError.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	var size int64
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	file, err := NewFile(f, size, f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return file, nil
}

// NewFile is Open of a file already open: r reads its size bytes from
// the start, c closes it.
func NewFile(r io.Reader, size int64, c io.Closer) (*File, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	magic, _ := br.Peek(2)
	if !IsGzip(magic) {
		return &File{Reader: br, f: c}, nil
	}
	zr, err := Gunzip(br, size)
	if err != nil {
		return nil, err
	}
	return &File{Reader: bufio.NewReaderSize(zr, 1<<16), f: c, Compressed: true}, nil
}

// Head returns the first n bytes of the content of the file at path,
// decompressed when it is gzip-compressed (compressed is then true);
// fewer when it is shorter or its compressed data end or break early.
func Head(path string, n int) (head []byte, compressed bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	raw := make([]byte, n)
	k, err := io.ReadFull(f, raw)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, false, err
	}
	raw = raw[:k]
	if !IsGzip(raw) {
		return raw, false, nil
	}
	zr, err := gzip.NewReader(io.MultiReader(bytes.NewReader(raw), f))
	if err != nil {
		return nil, true, nil // a broken gzip header: no content to look at
	}
	head = make([]byte, n)
	k, _ = io.ReadFull(zr, head)
	return head[:k], true, nil
}

// ByteSize renders a size in the largest binary unit that keeps it ≥ 1.
func ByteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GB", n>>30)
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}
