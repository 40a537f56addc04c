package testkit

// HeldRunner holds background work back until Flush runs it, so that a
// test sees a state while the work is on its way. Its Run has the shape
// of view.Runner (work off the UI goroutine, then done on it).
type HeldRunner struct{ jobs [][2]func() }

// Run holds work and done back.
func (h *HeldRunner) Run(work, done func()) { h.jobs = append(h.jobs, [2]func(){work, done}) }

// Held returns how many jobs are held.
func (h *HeldRunner) Held() int { return len(h.jobs) }

// Flush runs the work held and what its completions start, in order.
func (h *HeldRunner) Flush() {
	for len(h.jobs) > 0 {
		h.Next()
	}
}

// Next runs the first job held, work then done.
func (h *HeldRunner) Next() {
	j := h.jobs[0]
	h.jobs = h.jobs[1:]
	j[0]()
	j[1]()
}

// Swap swaps held jobs i and j, so that a job started later ends first.
func (h *HeldRunner) Swap(i, j int) { h.jobs[i], h.jobs[j] = h.jobs[j], h.jobs[i] }
