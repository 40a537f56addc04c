package ui

import (
	"os"

	"cubeview/internal/timinglog"
)

// timingLog is the log of the GUI timing harness (internal/timinglog),
// nil unless $CUBEVIEW_TIMING names a file.
var timingLog = timinglog.Open(os.Stderr)

// selectStarted notes the start of a selection change.
func (w *Window) selectStarted() { timingLog.SelectStarted(&w.timing) }

// painted logs, once values are shown, the first paint and the end of
// each selection change, rendering the window to make sure it is drawn.
func (w *Window) painted() {
	if w.view != nil && !w.loading {
		timingLog.Painted(&w.timing, w.doc.Name, func() { w.win.Canvas().Capture() })
	}
}
