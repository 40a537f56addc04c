//go:build unix

package testkit

import (
	"syscall"
	"time"
)

// CPUTime returns the process's user and system CPU time so far (0 where
// it cannot be read), so that a benchmark can report CPU time per
// operation, which other work on a shared machine distorts much less than
// wall time.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
