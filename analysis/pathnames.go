package analysis

import (
	"sync"

	"cubeview/model"
)

// pathNames names the call paths and system nodes of one experiment,
// each name built once: a report of many foci asks for the same names
// again and again.
type pathNames struct {
	mu    sync.Mutex
	e     *model.Experiment
	call  []string
	sys   []string
	done  []bool // call[c] is set
	sdone []bool
}

// callPath returns e.CallPath(c).
func (n *pathNames) callPath(c int) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.call == nil {
		n.call = make([]string, len(n.e.Cnodes))
		n.done = make([]bool, len(n.e.Cnodes))
	}
	return n.callPathLocked(c)
}

func (n *pathNames) callPathLocked(c int) string {
	if n.done[c] {
		return n.call[c]
	}
	name := n.e.Regions[n.e.Cnodes[c].Region].Name
	if p := n.e.Cnodes[c].Parent; p >= 0 {
		name = n.callPathLocked(p) + "/" + name
	}
	n.call[c], n.done[c] = name, true
	return name
}

// systemPath returns SystemPath(e, s).
func (n *pathNames) systemPath(s int) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.sys == nil {
		n.sys = make([]string, len(n.e.System))
		n.sdone = make([]bool, len(n.e.System))
	}
	return n.systemPathLocked(s)
}

func (n *pathNames) systemPathLocked(s int) string {
	if n.sdone[s] {
		return n.sys[s]
	}
	name := n.e.System[s].Name
	if p := n.e.System[s].Parent; p >= 0 {
		name = n.systemPathLocked(p) + "/" + name
	}
	n.sys[s], n.sdone[s] = name, true
	return name
}
