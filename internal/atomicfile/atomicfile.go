package atomicfile

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Write creates or replaces the file at path with what write produces,
// through a temporary file in the same folder that is renamed when
// complete; on any error the temporary file is removed and the target is
// unchanged. Errors are not wrapped with the path; callers name the file.
// No error names the temporary file: the name a message gives is the
// target's (or, through a link, the linked file's).
func Write(path string, write func(w io.Writer) error) error {
	target, err := throughLinks(path)
	if err != nil {
		return err
	}
	old, err := os.Stat(target)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if old != nil && !old.Mode().IsRegular() {
		return fmt.Errorf("not a regular file but a %v", old.Mode().Type())
	}
	return writeFile(target, old, write)
}

// writeFile is Write after the target was resolved; old describes the
// file it replaces, nil for a new one.
func writeFile(path string, old os.FileInfo, write func(w io.Writer) error) error {
	mode := newFileMode()
	if old != nil {
		mode = old.Mode().Perm()
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	RemoveStale(dir)
	tmp, err := create(dir, base)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return fmt.Errorf("cannot create a file in %s: %w", filepath.Clean(dir), pe.Err)
		}
		return err
	}
	name := tmp.Name()
	defer untrack(name)
	fail := func(err error) error {
		tmp.Close()
		os.Remove(name)
		return &tempError{err: err, tmp: name, path: path}
	}
	bw := bufio.NewWriterSize(tmp, 1<<20)
	if err := write(bw); err != nil {
		return fail(err)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(mode); err != nil {
		return fail(err)
	}
	if old != nil {
		keepOwner(tmp, old)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return &tempError{err: err, tmp: name, path: path}
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return &tempError{err: err, tmp: name, path: path}
	}
	return nil
}

// tempError is an error met while writing the temporary file, whose
// message names the target file instead.
type tempError struct {
	err       error
	tmp, path string
}

func (e *tempError) Error() string {
	msg := e.err.Error()
	if i := strings.Index(msg, " "+e.tmp+" "); i >= 0 { // rename TMP PATH: …
		msg = msg[:i] + msg[i+len(e.tmp)+1:]
	}
	return strings.ReplaceAll(msg, e.tmp, e.path)
}

func (e *tempError) Unwrap() error { return e.err }

// maxLinks bounds the symbolic links followed, as the system does.
const maxLinks = 40

// throughLinks returns the file that path names after following symbolic
// links: writing there replaces the linked file and keeps the link. A link
// to a missing file resolves to that file's path when its folder exists.
func throughLinks(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return path, nil
		}
		target, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// tag is this process's part of its temporary file names.
var tag = func() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	return "cubeview-" + sanitize(host) + "-" + strconv.Itoa(os.Getpid()) + "-"
}()

// sanitize keeps a host name usable inside a file name and unambiguous
// inside ours (no '-' separators, no path characters).
func sanitize(host string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_':
			return r
		}
		return '_'
	}, host)
}

func create(dir, base string) (*os.File, error) {
	var rnd [6]byte
	for range 10 {
		if _, err := rand.Read(rnd[:]); err != nil {
			return nil, err
		}
		name := filepath.Join(dir, "."+base+"."+tag+hex.EncodeToString(rnd[:])+".tmp")
		track(name)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return f, nil
		}
		untrack(name)
		if !errors.Is(err, os.ErrExist) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("cannot create a temporary file in %s", dir)
}

var (
	mu      sync.Mutex
	pending = map[string]bool{} // temporary files that exist now
	sigs    chan os.Signal
)

// track records a temporary file before it is created, so that a signal
// arriving at any time after finds it, and listens for signals while
// there is one.
func track(name string) {
	mu.Lock()
	defer mu.Unlock()
	pending[name] = true
	if sigs == nil {
		sigs = make(chan os.Signal, 1)
		signal.Notify(sigs, caught()...)
		go onSignal(sigs)
	}
}

func untrack(name string) {
	mu.Lock()
	defer mu.Unlock()
	delete(pending, name)
	if len(pending) == 0 && sigs != nil {
		signal.Stop(sigs)
		close(sigs)
		sigs = nil
	}
}

// caught returns the signals that remove the temporary files: those that
// end a process by default and that it was not started ignoring (Notify
// would otherwise undo nohup's or a shell's ignoring).
func caught() []os.Signal {
	var out []os.Signal
	for _, s := range []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(s) {
			out = append(out, s)
		}
	}
	return out
}

// onSignal removes the pending temporary files and ends the process as
// the signal would have without a handler.
func onSignal(c chan os.Signal) {
	sig, ok := <-c
	if !ok {
		return
	}
	mu.Lock()
	for name := range pending {
		os.Remove(name)
	}
	signal.Reset(sig)
	reraise(sig)
	// Reached only if the signal did not end the process.
	os.Exit(1)
}

var (
	ours   = regexp.MustCompile(`^\..+\.cubeview-([^-]+)-([0-9]+)-[0-9a-f]+\.tmp$`)
	legacy = regexp.MustCompile(`^\.(.+)\.[0-9]+\.tmp$`)
	// legacyTargets are the endings of files earlier versions wrote
	// through ".NAME.DIGITS.tmp".
	legacyTargets = []string{".cubex", ".cube", ".cube.gz", ".png", ".svg"}
)

// legacyAge is how old a temporary file of the older naming must be
// before it counts as left behind: a writer still running would have
// finished or touched it since.
const legacyAge = time.Hour

// RemoveStale removes the temporary files in dir that a killed writer
// left behind (see the package comment) and returns how many it removed.
// Files it cannot judge are left alone.
func RemoveStale(dir string) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	host := tag[len("cubeview-"):]
	host = host[:strings.IndexByte(host, '-')]
	removed := 0
	for _, ent := range entries {
		name := ent.Name()
		if !ent.Type().IsRegular() || !strings.HasSuffix(name, ".tmp") || name[0] != '.' {
			continue
		}
		stale := false
		if m := ours.FindStringSubmatch(name); m != nil {
			pid, err := strconv.Atoi(m[2])
			stale = err == nil && m[1] == host && pid != os.Getpid() && !running(pid)
		} else if m := legacy.FindStringSubmatch(name); m != nil && hasLegacyTarget(m[1]) {
			info, err := ent.Info()
			stale = err == nil && time.Since(info.ModTime()) > legacyAge
		}
		if stale && os.Remove(filepath.Join(dir, name)) == nil {
			removed++
		}
	}
	return removed
}

func hasLegacyTarget(name string) bool {
	lower := strings.ToLower(name)
	for _, ext := range legacyTargets {
		if strings.HasSuffix(lower, ext) {
			return true
		}
	}
	return false
}

// SameFile returns the first of inputs that names the same file as out
// (also through another path, a symbolic or a hard link) or, for an input
// that is a folder (a TAU profile directory, an HPCToolkit database), a
// folder holding out at any depth; and whether there is one. A path that
// does not exist is nobody's input.
func SameFile(out string, inputs []string) (string, bool) {
	so, err := os.Stat(out)
	if err != nil {
		return "", false
	}
	for _, in := range inputs {
		si, err := os.Stat(in)
		if err != nil {
			continue
		}
		if os.SameFile(si, so) || si.IsDir() && within(out, si) {
			return in, true
		}
	}
	return "", false
}

// within reports whether the existing file at path lies in the folder
// dir or below it, following symbolic links.
func within(path string, dir os.FileInfo) bool {
	p, err := filepath.Abs(path)
	if err == nil {
		p, err = filepath.EvalSymlinks(p)
	}
	if err != nil {
		return false
	}
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		if di, err := os.Stat(d); err == nil && os.SameFile(di, dir) {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}
