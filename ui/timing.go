package ui

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// TimingEnv names the environment variable that makes windows log when
// they first show values and how long each selection change takes, one
// line per event with a wall-clock time, for the GUI timing harness
// (scripts/gui-timing.sh). Each logged paint renders the window once
// (Canvas.Capture), so the time includes drawing.
const TimingEnv = "CUBEVIEW_TIMING"

type timingLog struct {
	mu sync.Mutex
	f  *os.File
}

var timing = openTiming()

func openTiming() *timingLog {
	path := os.Getenv(TimingEnv)
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cubeview: %s: %v\n", TimingEnv, err)
		return nil
	}
	t := &timingLog{f: f}
	t.event("start", "")
	return t
}

// event writes "UNIXNANO EVENT DETAIL".
func (t *timingLog) event(name, detail string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.f, "%d %s %s\n", time.Now().UnixNano(), name, detail)
}

// selectStarted notes the start of a selection change.
func (w *Window) selectStarted() {
	if timing != nil {
		w.selectAt = time.Now()
	}
}

// painted logs, once values are shown, the first paint and the end of
// each selection change, rendering the window to make sure it is drawn.
func (w *Window) painted() {
	if timing == nil || w.view == nil || w.loading {
		return
	}
	switch {
	case !w.firstPaint:
		w.firstPaint = true
		w.win.Canvas().Capture()
		timing.event("values", w.doc.Name)
	case !w.selectAt.IsZero():
		w.win.Canvas().Capture()
		timing.event("selected", fmt.Sprintf("%.1fms", float64(time.Since(w.selectAt).Microseconds())/1e3))
		w.selectAt = time.Time{}
	}
}
