package filesum

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"sync"
)

// MaxGap is the largest gap before a read that a File reads itself to
// keep hashing: larger gaps are left to Sum.
const MaxGap = 1 << 20

// ErrChanged is wrapped by the error of Sum when the file changed (size,
// time or identity) after it was opened.
var ErrChanged = errors.New("the file changed while it was read")

// File is a file opened for reading that hashes what is read from it.
// Its methods are safe for concurrent use.
type File struct {
	path string
	info os.FileInfo

	mu       sync.Mutex
	f        *os.File // nil once closed
	h        hash.Hash
	hashed   int64 // bytes 0…hashed−1 went into h
	pos      int64 // offset of the next Read
	caughtUp int64 // bytes Sum read that no reader had read in order
	sum      string
	err      error  // of an earlier Sum
	buf      []byte // for reading gaps
}

// Open opens the file at path for reading and hashing.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &File{path: path, info: st, f: f, h: sha256.New()}, nil
}

// Size returns the size of the file when it was opened.
func (s *File) Size() int64 { return s.info.Size() }

// Name returns the path the file was opened with.
func (s *File) Name() string { return s.path }

// ReadAt reads from the file at off, hashing what continues the prefix.
func (s *File) ReadAt(p []byte, off int64) (int, error) {
	f := s.file()
	if f == nil {
		return 0, os.ErrClosed
	}
	n, err := f.ReadAt(p, off)
	s.saw(f, p[:n], off)
	return n, err
}

// Read reads the next bytes of the file, hashing them.
func (s *File) Read(p []byte) (int, error) {
	s.mu.Lock()
	f, off := s.f, s.pos
	s.mu.Unlock()
	if f == nil {
		return 0, os.ErrClosed
	}
	n, err := f.ReadAt(p, off)
	if err == io.EOF && n > 0 {
		err = nil
	}
	s.mu.Lock()
	s.pos = off + int64(n)
	s.mu.Unlock()
	s.saw(f, p[:n], off)
	return n, err
}

func (s *File) file() *os.File {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.f
}

// saw hashes the part of b (read at off) that continues the prefix,
// reading a small gap before it first.
func (s *File) saw(f *os.File, b []byte, off int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sum != "" || s.err != nil {
		return
	}
	end := off + int64(len(b))
	if end <= s.hashed {
		return
	}
	if gap := off - s.hashed; gap > 0 {
		if gap > MaxGap || len(b) == 0 {
			return
		}
		if _, err := io.CopyBuffer(s.h, io.NewSectionReader(f, s.hashed, gap), s.buffer()); err != nil {
			return // the prefix stays; Sum reads it again
		}
		s.hashed = off
	}
	s.h.Write(b[s.hashed-off:])
	s.hashed = end
}

func (s *File) buffer() []byte {
	if s.buf == nil {
		s.buf = make([]byte, 64<<10)
	}
	return s.buf
}

// Close closes the file. Sum still works after it.
func (s *File) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f = nil
	return err
}

// Sum returns the file's SHA-256 in lowercase hex and its size, reading
// what no reader read in order: from the open file, or after Close from
// the file at the same path when it is still the same file (same
// identity, size and modification time), else an error wrapping
// ErrChanged.
func (s *File) Sum() (sum string, size int64, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sum != "" || s.err != nil {
		return s.sum, s.info.Size(), s.err
	}
	s.sum, s.err = s.finish()
	return s.sum, s.info.Size(), s.err
}

func (s *File) finish() (string, error) {
	f := s.f
	if f == nil {
		var err error
		if f, err = os.Open(s.path); err != nil {
			return "", err
		}
		defer f.Close()
	}
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !os.SameFile(st, s.info) || st.Size() != s.info.Size() || !st.ModTime().Equal(s.info.ModTime()) {
		return "", fmt.Errorf("%s: %w", s.path, ErrChanged)
	}
	rest := s.info.Size() - s.hashed
	n, err := io.CopyBuffer(s.h, io.NewSectionReader(f, s.hashed, rest), s.buffer())
	s.caughtUp += n
	if err != nil {
		return "", err
	}
	if n != rest {
		return "", fmt.Errorf("%s: %w (it ends at %d of %d bytes)", s.path, ErrChanged, s.hashed+n, s.info.Size())
	}
	s.hashed += n
	return hex.EncodeToString(s.h.Sum(nil)), nil
}

// CaughtUp returns how many bytes Sum read itself: those no reader read
// in order before.
func (s *File) CaughtUp() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caughtUp
}
