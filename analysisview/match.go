package analysisview

import "cubeview/model"

// MatchCnode returns the call path of e that stands where call path c of
// src stands: the same regions (name and module) from the root down, as
// the algebra matches call paths; -1 when there is none. src may be e, an
// operand or an integrated domain of several experiments.
func MatchCnode(e, src *model.Experiment, c int) int {
	if c < 0 || c >= len(src.Cnodes) {
		return -1
	}
	if src == e {
		return c
	}
	var path []int
	for x := c; x >= 0; x = src.Cnodes[x].Parent {
		path = append(path, x)
	}
	level := e.CnodeRoots
	found := -1
	for i := len(path) - 1; i >= 0; i-- {
		want := &src.Regions[src.Cnodes[path[i]].Region]
		found = -1
		for _, cand := range level {
			r := &e.Regions[e.Cnodes[cand].Region]
			if r.Name == want.Name && r.Module == want.Module {
				found = cand
				break
			}
		}
		if found < 0 {
			return -1
		}
		level = e.Cnodes[found].Children
	}
	return found
}

// matchSystem returns the system node of e that stands where node s of
// src stands, as the algebra matches them: processes by rank, threads by
// rank within their process, other nodes by the names from the root; -1
// when there is none.
func matchSystem(e, src *model.Experiment, s int) int {
	if s < 0 || s >= len(src.System) {
		return -1
	}
	if src == e {
		return s
	}
	n := &src.System[s]
	switch n.Kind {
	case model.Group:
		return findSystem(e, func(x *model.SystemNode) bool { return x.Kind == model.Group && x.Rank == n.Rank })
	case model.Leaf:
		if n.Parent < 0 || src.System[n.Parent].Kind != model.Group {
			break
		}
		g := matchSystem(e, src, n.Parent)
		if g < 0 {
			return -1
		}
		for _, ch := range e.System[g].Children {
			if x := &e.System[ch]; x.Kind == model.Leaf && x.Rank == n.Rank {
				return ch
			}
		}
		return -1
	}
	var path []int
	for x := s; x >= 0; x = src.System[x].Parent {
		path = append(path, x)
	}
	level := e.SystemRoots
	found := -1
	for i := len(path) - 1; i >= 0; i-- {
		want := &src.System[path[i]]
		found = -1
		for _, cand := range level {
			if x := &e.System[cand]; x.Kind == want.Kind && x.Name == want.Name {
				found = cand
				break
			}
		}
		if found < 0 {
			return -1
		}
		level = e.System[found].Children
	}
	return found
}

func findSystem(e *model.Experiment, ok func(*model.SystemNode) bool) int {
	for i := range e.System {
		if ok(&e.System[i]) {
			return i
		}
	}
	return -1
}
