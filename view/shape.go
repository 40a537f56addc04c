package view

import "cubeview/model"

// shape is what a View derives once from its experiment's trees: roots,
// the call paths of each region and which rows the flat profile has.
type shape struct {
	metricRoots   []int // visible (not VOID) root metrics
	metricRoot    []int // root of each metric
	cnodeRoot     []int // root of each cnode
	systemRoot    []int // root of each system node
	regionCnodes  [][]int
	regionCalls   []bool // the region has callees: its flat row has "Subroutines"
	flatRegions   []int  // regions with at least one call path
	threadsHidden bool
}

func newShape(e *model.Experiment) shape {
	var s shape
	for _, m := range e.MetricRoots {
		if !e.Metrics[m].Hidden() {
			s.metricRoots = append(s.metricRoots, m)
		}
	}
	s.metricRoot = rootsOf(len(e.Metrics), func(i int) int { return e.Metrics[i].Parent })
	s.cnodeRoot = rootsOf(len(e.Cnodes), func(i int) int { return e.Cnodes[i].Parent })
	s.systemRoot = rootsOf(len(e.System), func(i int) int { return e.System[i].Parent })
	s.regionCnodes = make([][]int, len(e.Regions))
	s.regionCalls = make([]bool, len(e.Regions))
	for _, c := range e.CnodeOrder() {
		r := e.Cnodes[c].Region
		s.regionCnodes[r] = append(s.regionCnodes[r], c)
		if len(e.Cnodes[c].Children) > 0 {
			s.regionCalls[r] = true
		}
	}
	for r, cs := range s.regionCnodes {
		if len(cs) > 0 {
			s.flatRegions = append(s.flatRegions, r)
		}
	}
	s.threadsHidden = e.ThreadLevelHidden()
	return s
}

// rootsOf returns the root of every node of a forest given by parent links.
func rootsOf(n int, parent func(int) int) []int {
	root := make([]int, n)
	for i := range root {
		root[i] = -1
	}
	var find func(i, depth int) int
	find = func(i, depth int) int {
		if root[i] >= 0 {
			return root[i]
		}
		p := parent(i)
		if p < 0 || p >= n || depth > n {
			root[i] = i
		} else {
			root[i] = find(p, depth+1)
		}
		return root[i]
	}
	for i := range root {
		find(i, 0)
	}
	return root
}

// RegionCallPaths returns the call paths of region r, in call-tree order.
func RegionCallPaths(v *View, r int) []int { return v.regionCnodes[r] }

// levelName names the level of system node i of e for people: its class,
// or its kind when the file names no class.
func levelName(e *model.Experiment, i int) string {
	s := &e.System[i]
	switch {
	case s.Class != "":
		return s.Class
	case s.Kind == model.Group:
		return "process"
	case s.Kind == model.Leaf:
		return "thread"
	}
	return "node"
}
