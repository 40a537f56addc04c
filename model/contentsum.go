package model

import "sync"

// SetContentSum installs how ContentSum finishes the checksum of the file
// e was read from: a reader that hashed the bytes it read sets it.
func SetContentSum(e *Experiment, sum func() (sha256 string, size int64, err error)) {
	e.contentSum = sum
}

// ContentSum returns the SHA-256 (lowercase hex) and size of the file e
// was read from, as its reader computed them from the bytes it read
// (reading only what it had not read yet). ok is false when the reader
// did not hash the file: the caller hashes the file itself.
func ContentSum(e *Experiment) (sha256 string, size int64, ok bool, err error) {
	if e.contentSum == nil {
		return "", 0, false, nil
	}
	sha256, size, err = e.contentSum()
	return sha256, size, true, err
}

// HashesContent reports whether e's reader hashes the file it reads
// (ContentSum's ok), without finishing the checksum.
func HashesContent(e *Experiment) bool { return e.contentSum != nil }

// lateAttrs completes an experiment's attributes once (SetAttrsLater).
type lateAttrs struct {
	once sync.Once
	fn   func() error
	err  error
}

// SetAttrsLater installs fn to complete e's attributes when FinishAttrs
// is first called: a result whose attributes record checksums of files
// that are still being read (ContentSum) sets it, so that the checksums
// are taken after the data were read, not in a pass of their own.
func SetAttrsLater(e *Experiment, fn func() error) {
	e.lateAttrs = &lateAttrs{fn: fn}
}

// FinishAttrs completes e's attributes with the function SetAttrsLater
// installed, once; writers call it before writing the attributes, as
// late as their format allows.
func FinishAttrs(e *Experiment) error {
	la := e.lateAttrs
	if la == nil {
		return nil
	}
	la.once.Do(func() { la.err = la.fn() })
	return la.err
}
