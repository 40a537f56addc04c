//go:build !unix

package atomicfile

import "os"

// running cannot tell on this system; a file it cannot judge is kept.
func running(pid int) bool { return true }

func reraise(sig os.Signal) {}

func newFileMode() os.FileMode { return 0o666 }

func keepOwner(f *os.File, old os.FileInfo) {}
