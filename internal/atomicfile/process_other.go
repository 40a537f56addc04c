//go:build !unix

package atomicfile

import "os"

// running cannot tell on this system; a file it cannot judge is kept.
func running(pid int) bool { return true }

func reraise(sig os.Signal) {}
