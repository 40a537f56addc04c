package analysis

import (
	"sync"

	"cubeview/model"
)

// PathNames names the call paths and system nodes of one experiment,
// each name built once: a report of many rows asks for the same names
// again and again. It is safe for concurrent use.
type PathNames struct {
	mu    sync.Mutex
	e     *model.Experiment
	call  []string
	sys   []string
	done  []bool // call[c] is set
	sdone []bool
}

// NewPathNames returns the names of e's call paths and system nodes.
func NewPathNames(e *model.Experiment) *PathNames { return &PathNames{e: e} }

// CallPath returns e.CallPath(c): region names from the root joined by "/".
func (n *PathNames) CallPath(c int) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.call == nil {
		n.call = make([]string, len(n.e.Cnodes))
		n.done = make([]bool, len(n.e.Cnodes))
	}
	return n.callPathLocked(c)
}

func (n *PathNames) callPathLocked(c int) string {
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

// SystemPath returns SystemPath(e, s).
func (n *PathNames) SystemPath(s int) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.sys == nil {
		n.sys = make([]string, len(n.e.System))
		n.sdone = make([]bool, len(n.e.System))
	}
	return n.systemPathLocked(s)
}

func (n *PathNames) systemPathLocked(s int) string {
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
