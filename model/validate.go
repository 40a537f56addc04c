package model

import (
	"errors"
	"fmt"
)

// Link fills the Children and root lists of all three dimensions from the
// Parent fields, keeping index order. Builders set Parent and call Link.
func (e *Experiment) Link() {
	e.MetricRoots = e.MetricRoots[:0]
	for i := range e.Metrics {
		e.Metrics[i].Children = nil
	}
	for i := range e.Metrics {
		if p := e.Metrics[i].Parent; p >= 0 && p < len(e.Metrics) {
			e.Metrics[p].Children = append(e.Metrics[p].Children, i)
		} else {
			e.MetricRoots = append(e.MetricRoots, i)
		}
	}
	e.CnodeRoots = e.CnodeRoots[:0]
	for i := range e.Cnodes {
		e.Cnodes[i].Children = nil
	}
	for i := range e.Cnodes {
		if p := e.Cnodes[i].Parent; p >= 0 && p < len(e.Cnodes) {
			e.Cnodes[p].Children = append(e.Cnodes[p].Children, i)
		} else {
			e.CnodeRoots = append(e.CnodeRoots, i)
		}
	}
	e.SystemRoots = e.SystemRoots[:0]
	for i := range e.System {
		e.System[i].Children = nil
	}
	for i := range e.System {
		if p := e.System[i].Parent; p >= 0 && p < len(e.System) {
			e.System[p].Children = append(e.System[p].Children, i)
		} else {
			e.SystemRoots = append(e.SystemRoots, i)
		}
	}
}

// NumberLocations assigns data columns to the locations in depth-first
// order of the system tree and fills Locations accordingly.
func (e *Experiment) NumberLocations() {
	e.Locations = e.Locations[:0]
	for _, s := range e.SystemOrder() {
		if e.System[s].Kind == Leaf {
			e.System[s].Location = len(e.Locations)
			e.Locations = append(e.Locations, s)
		} else {
			e.System[s].Location = -1
		}
	}
}

// Validate checks the experiment's internal consistency: unique ids,
// consistent parent and child links without cycles, references in range,
// and data blocks sized to the dimensions. It returns all problems found,
// joined, each naming the entity.
func (e *Experiment) Validate() error {
	var errs []error
	bad := func(format string, args ...any) {
		if len(errs) < 20 {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}

	metricIDs := map[int]bool{}
	uniq := map[string]bool{}
	for i := range e.Metrics {
		m := &e.Metrics[i]
		if metricIDs[m.ID] {
			bad("metric id %d is not unique", m.ID)
		}
		metricIDs[m.ID] = true
		if m.UniqName == "" {
			bad("metric id %d has no unique name", m.ID)
		} else if uniq[m.UniqName] {
			bad("metric unique name %q is not unique", m.UniqName)
		}
		uniq[m.UniqName] = true
	}
	for i := range e.Metrics {
		if e.Metrics[i].IsDerived() {
			if err := formulaProblem(e, i); err != nil {
				bad("derived metric %q: %v", e.Metrics[i].UniqName, err)
			}
		}
	}
	checkForest(len(e.Metrics), e.MetricRoots,
		func(i int) int { return e.Metrics[i].Parent },
		func(i int) []int { return e.Metrics[i].Children },
		func(i int) string { return fmt.Sprintf("metric %q", e.Metrics[i].UniqName) }, bad)

	regionIDs := map[int]bool{}
	for i := range e.Regions {
		if regionIDs[e.Regions[i].ID] {
			bad("region id %d is not unique", e.Regions[i].ID)
		}
		regionIDs[e.Regions[i].ID] = true
	}
	cnodeIDs := map[int]bool{}
	for i := range e.Cnodes {
		c := &e.Cnodes[i]
		if cnodeIDs[c.ID] {
			bad("cnode id %d is not unique", c.ID)
		}
		cnodeIDs[c.ID] = true
		if c.Region < 0 || c.Region >= len(e.Regions) {
			bad("cnode id %d refers to region index %d of %d", c.ID, c.Region, len(e.Regions))
		}
	}
	checkForest(len(e.Cnodes), e.CnodeRoots,
		func(i int) int { return e.Cnodes[i].Parent },
		func(i int) []int { return e.Cnodes[i].Children },
		func(i int) string { return fmt.Sprintf("cnode id %d", e.Cnodes[i].ID) }, bad)

	sysIDs := map[[2]int]bool{}
	for i := range e.System {
		n := &e.System[i]
		key := [2]int{int(n.Kind), n.ID}
		if sysIDs[key] {
			bad("%s id %d is not unique", n.Kind, n.ID)
		}
		sysIDs[key] = true
		if n.Kind == Leaf {
			if len(n.Children) > 0 {
				bad("location id %d has children", n.ID)
			}
			if n.Location < 0 || n.Location >= len(e.Locations) || e.Locations[n.Location] != i {
				bad("location id %d has inconsistent data column %d", n.ID, n.Location)
			}
		} else if n.Location != -1 {
			bad("%s id %d is not a location but has data column %d", n.Kind, n.ID, n.Location)
		}
	}
	for l, s := range e.Locations {
		if s < 0 || s >= len(e.System) || e.System[s].Kind != Leaf {
			bad("data column %d does not refer to a location", l)
		}
	}
	checkForest(len(e.System), e.SystemRoots,
		func(i int) int { return e.System[i].Parent },
		func(i int) []int { return e.System[i].Children },
		func(i int) string { return fmt.Sprintf("%s id %d", e.System[i].Kind, e.System[i].ID) }, bad)

	for ti, t := range e.Topologies {
		for _, c := range t.Coords {
			if c.Node < 0 || c.Node >= len(e.System) {
				bad("topology %d (%q) refers to system node %d", ti, t.Name, c.Node)
				continue
			}
			if len(c.Coord) != len(t.Dims) {
				bad("topology %d (%q) has a coordinate with %d of %d dimensions", ti, t.Name, len(c.Coord), len(t.Dims))
				continue
			}
			for d, x := range c.Coord {
				if x < 0 || x >= t.Dims[d].Size {
					bad("topology %d (%q) coordinate %d outside dimension %d of size %d", ti, t.Name, x, d, t.Dims[d].Size)
				}
			}
		}
	}

	validateCallGraph(e, bad)

	if d := &e.data; d.slots != nil {
		for m := range d.slots {
			s := &d.slots[m]
			s.mu.Lock()
			b := s.block
			s.mu.Unlock()
			if b == nil {
				continue
			}
			if b.NumCnodes() != len(e.Cnodes) || b.NumLocations() != len(e.Locations) {
				bad("metric %q: data block is %d×%d, want %d×%d", e.Metrics[m].UniqName,
					b.NumCnodes(), b.NumLocations(), len(e.Cnodes), len(e.Locations))
				continue
			}
			// Values may be NaN or infinite: CubeLib reads and writes them.
		}
	}
	return errors.Join(errs...)
}

// checkForest verifies that parents and children agree, roots are exactly
// the parentless nodes, and every node is reached exactly once.
func checkForest(n int, roots []int, parent func(int) int, children func(int) []int, name func(int) string, bad func(string, ...any)) {
	seen := make([]bool, n)
	for _, r := range roots {
		if r < 0 || r >= n {
			bad("root index %d out of range", r)
			return
		}
		if parent(r) != -1 {
			bad("%s is listed as a root but has a parent", name(r))
		}
	}
	stack := append([]int(nil), roots...)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[i] {
			bad("%s is reached twice (cycle or shared child)", name(i))
			return
		}
		seen[i] = true
		for _, c := range children(i) {
			if c < 0 || c >= n {
				bad("%s has child index %d out of range", name(i), c)
				return
			}
			if parent(c) != i {
				bad("%s lists a child whose parent is different", name(i))
			}
			stack = append(stack, c)
		}
	}
	for i := 0; i < n; i++ {
		if !seen[i] {
			bad("%s is not reachable from a root", name(i))
		}
	}
}
