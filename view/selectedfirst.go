package view

// SetSelectedFirst lets a window show the selected metric before every
// metric's totals are read: with it, Update leaves the totals of a metric
// whose data are not read yet undefined (its row shows PendingText) instead
// of reading them, MissingFirst names only what the selected metric's
// values need, and Missing the rest, which the window reads after it has
// shown the selected metric. Without it, Update computes every total it
// shows, reading what it needs.
func (vs *Values) SetSelectedFirst(on bool) { vs.selectedFirst = on }

// MissingFirst returns what to read before the next Update: with
// SetSelectedFirst, Missing without the totals of the metric pane's other
// rows (what the selected metric's call and system values need), else
// Missing.
func (vs *Values) MissingFirst() []BlockRef { return vs.missing(!vs.selectedFirst) }

// Pending reports whether some shown metric's totals wait for data that
// are not read yet (SetSelectedFirst).
func (vs *Values) Pending() bool {
	if !vs.selectedFirst {
		return false
	}
	for _, m := range vs.visibleMetrics() {
		if vs.pending(m) {
			return true
		}
	}
	return false
}

// PendingText is shown for a value not read yet.
const PendingText = "…"

// pending reports whether metric m's totals wait for data not read yet:
// with SetSelectedFirst, when one of the stored metrics it is computed
// from is neither loaded nor summarized.
func (vs *Values) pending(m int) bool {
	if !vs.selectedFirst {
		return false
	}
	e := vs.v.exp
	for _, s := range storedOperands(e, m) {
		if !e.Loaded(s) && !e.Summarized(s) {
			return true
		}
	}
	return false
}

// pendingRow reports whether row n of pane d shows a value not read yet.
func (vs *Values) pendingRow(d Dim, n Node) bool {
	return d == MetricPane && n.Kind == MetricNode && vs.pending(n.Index)
}
