package view

// SelectedFirst lets a window show the selected metric before every
// metric's totals are read (Values.SelectedFirst). While it is on, Update
// leaves the totals of a metric whose data are not read yet undefined
// (its row shows pendingText) instead of reading them, Missing names only
// what the selected metric's values need, and Pending tells the window
// to read Values.Missing, the rest, after it has shown the selected
// metric. While it is off, Update computes every total it shows, reading
// what it needs.
type SelectedFirst struct {
	vs *Values
	on bool
}

// SelectedFirst returns vs's switch for showing the selected metric first.
func (vs *Values) SelectedFirst() *SelectedFirst {
	vs.first.vs = vs
	return &vs.first
}

// Set turns showing the selected metric first on or off.
func (s *SelectedFirst) Set(on bool) { s.on = on }

// Missing returns what to read before the next Update: when on,
// Values.Missing without the totals of the metric pane's other rows (what
// the selected metric's call and system values need), else
// Values.Missing.
func (s *SelectedFirst) Missing() []BlockRef { return s.vs.missing(!s.on) }

// Pending reports whether some shown metric's totals wait for data that
// are not read yet.
func (s *SelectedFirst) Pending() bool {
	if !s.on {
		return false
	}
	for _, m := range s.vs.visibleMetrics() {
		if s.pending(m) {
			return true
		}
	}
	return false
}

// pendingText is shown for a value not read yet.
const pendingText = "…"

// pending reports whether metric m's totals wait for data not read yet:
// when on, one of the stored metrics it is computed from is neither
// loaded nor summarized.
func (s *SelectedFirst) pending(m int) bool {
	if !s.on {
		return false
	}
	e := s.vs.v.exp
	for _, o := range storedOperands(e, m) {
		if !e.Loaded(o) && !e.Summarized(o) {
			return true
		}
	}
	return false
}

// pendingRow reports whether row n of pane d shows a value not read yet.
func (s *SelectedFirst) pendingRow(d Dim, n Node) bool {
	return d == MetricPane && n.Kind == MetricNode && s.pending(n.Index)
}
