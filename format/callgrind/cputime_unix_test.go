//go:build unix

package callgrind

import (
	"syscall"
	"time"
)

// cpuTime returns the process's user and system CPU time so far, so that
// a benchmark can report throughput per CPU second, which other work on a
// shared machine distorts much less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
