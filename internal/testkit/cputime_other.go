//go:build !unix

package testkit

import "time"

// CPUTime returns 0: the process's CPU time is not read on this system.
func CPUTime() time.Duration { return 0 }
