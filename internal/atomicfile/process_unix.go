//go:build unix

package atomicfile

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
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

// newFileMode returns the permissions of a new file: 0666 less the umask.
func newFileMode() os.FileMode { return 0o666 &^ umask() }

var umaskMu sync.Mutex

// umask returns the process's file mode creation mask: from
// /proc/self/status where the system reports it there, else by setting
// and restoring it (under a lock, since the mask is per process).
func umask() os.FileMode {
	if f, err := os.Open("/proc/self/status"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "Umask:"); ok {
				if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
					return os.FileMode(m) & os.ModePerm
				}
			}
		}
	}
	umaskMu.Lock()
	defer umaskMu.Unlock()
	m := syscall.Umask(0o022)
	syscall.Umask(m)
	return os.FileMode(m) & os.ModePerm
}

// keepOwner gives f the owner and group of the file it replaces where
// this process may (a group it belongs to; any owner for root); the
// permissions were set already.
func keepOwner(f *os.File, old os.FileInfo) {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	uid, gid := int(st.Uid), int(st.Gid)
	if uid == os.Getuid() && gid == os.Getgid() {
		return
	}
	if f.Chown(uid, gid) != nil {
		f.Chown(-1, gid) // the group alone, as a member of it
	}
}
