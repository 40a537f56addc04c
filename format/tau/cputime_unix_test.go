//go:build unix

package tau

import (
	"syscall"
	"time"
)

// cpuTime returns the process's user + system CPU time, which measures a
// benchmark's work also when other programs share the processors.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
