//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// running reports whether a process with this id exists.
func running(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// reraise delivers sig to this process again, its handler reset, so that
// the process ends with the signal's usual status.
func reraise(sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		syscall.Kill(os.Getpid(), s)
		time.Sleep(time.Second)
	}
}
