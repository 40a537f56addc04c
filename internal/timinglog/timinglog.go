package timinglog

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Env names the environment variable that holds the log file's path; the
// log is off when it is unset.
const Env = "CUBEVIEW_TIMING"

// Log is a timing log; a nil Log logs nothing.
type Log struct {
	mu  sync.Mutex
	w   io.Writer
	now func() time.Time
}

// Open opens the log named by $CUBEVIEW_TIMING for appending and logs
// "start", or returns nil when the variable is unset or the file cannot
// be opened (which it reports on stderr).
func Open(stderr io.Writer) *Log {
	path := os.Getenv(Env)
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintf(stderr, "cubeview: %s: %v\n", Env, err)
		return nil
	}
	l := &Log{w: f, now: time.Now}
	l.Event("start", "")
	return l
}

// Event writes "UNIXNANO EVENT DETAIL".
func (l *Log) Event(name, detail string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "%d %s %s\n", l.now().UnixNano(), name, detail)
}

// Window is the timing state of one window: whether it has shown values,
// and when the selection change being timed started. The zero Window is
// a new window's.
type Window struct {
	shown      bool
	selectedAt time.Time
}

// SelectStarted notes the start of a selection change in w.
func (l *Log) SelectStarted(w *Window) {
	if l != nil {
		w.selectedAt = l.now()
	}
}

// Painted logs, after w painted its values, the first paint ("values
// NAME") and the end of each selection change ("selected 12.3ms"). Before
// logging it calls render, which renders the window, so that the time
// includes drawing.
func (l *Log) Painted(w *Window, name string, render func()) {
	switch {
	case l == nil:
	case !w.shown:
		w.shown = true
		render()
		l.Event("values", name)
	case !w.selectedAt.IsZero():
		render()
		l.Event("selected", fmt.Sprintf("%.1fms", float64(l.now().Sub(w.selectedAt).Microseconds())/1e3))
		w.selectedAt = time.Time{}
	}
}
