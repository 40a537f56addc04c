package tau

import (
	"slices"
	"strings"

	"cubeview/format/internal/build"
	"cubeview/model"
)

// callTree finds and makes the regions and cnodes of the experiment being
// built: a region by its event name, a cnode by its parent and region or
// by its call-path event's name. Every new region grows the per-region
// scratch of the profile being applied.
type callTree struct {
	b         *build.Builder
	flat      bool // instrumented call paths become arcs of a call graph, not call paths
	regionIdx map[string]int
	hasFlat   []bool // the region's paradigm comes from its own event
	cinfo     []cinfo
	pathIdx   map[string]int
	rootOf    []int // region → root cnode or -1
	scratch   *scratch
}

func newCallTree(b *build.Builder, flat bool, s *scratch) *callTree {
	return &callTree{b: b, flat: flat, regionIdx: map[string]int{}, pathIdx: map[string]int{}, scratch: s}
}

// reserve makes room for about as many regions and cnodes as the first
// profile has events of each kind, so that growing the tables does not
// leave garbage behind.
func (t *callTree) reserve(n, cnodes int) {
	n, cnodes = min(n, 1<<20), min(cnodes, 1<<20)
	e := t.b.E
	e.Regions = slices.Grow(e.Regions, n)
	e.Cnodes = slices.Grow(e.Cnodes, cnodes)
	t.cinfo = slices.Grow(t.cinfo, cnodes)
	if len(t.regionIdx) == 0 && len(t.pathIdx) == 0 {
		t.regionIdx = make(map[string]int, n)
		t.pathIdx = make(map[string]int, cnodes)
	}
	t.hasFlat = slices.Grow(t.hasFlat, n)
	t.rootOf = slices.Grow(t.rootOf, n)
	s := t.scratch
	s.flatStamp = slices.Grow(s.flatStamp, n)
	s.endStamp = slices.Grow(s.endStamp, n)
	s.firstStamp = slices.Grow(s.firstStamp, n)
	s.inStamp = slices.Grow(s.inStamp, n)
	s.flat = slices.Grow(s.flat, n)
	s.flatSample = slices.Grow(s.flatSample, n)
	s.end = slices.Grow(s.end, n)
}

// region returns the region of a (trimmed) event name, creating it: its
// source location "[{file} {line,col}-{line,col}]" gives its module and
// lines.
func (t *callTree) region(name []byte) int {
	if i, ok := t.regionIdx[string(name)]; ok {
		return i
	}
	n := string(name)
	file, b, e, _ := sourceLocation(n)
	i, _ := t.b.Region(n, file)
	reg := &t.b.E.Regions[i]
	reg.Begin, reg.End = b, e
	reg.Paradigm, reg.Role = paradigmRole(nil, n)
	t.regionIdx[n] = i
	t.hasFlat = append(t.hasFlat, false)
	t.rootOf = append(t.rootOf, -1)
	s := t.scratch
	s.flatStamp = append(s.flatStamp, 0)
	s.endStamp = append(s.endStamp, 0)
	s.firstStamp = append(s.firstStamp, 0)
	s.inStamp = append(s.inStamp, 0)
	s.flat = append(s.flat, [3]float64{})
	s.flatSample = append(s.flatSample, false)
	s.end = append(s.end, [2]float64{})
	return i
}

// setGroup gives a region the paradigm and role of its own event's groups.
func (t *callTree) setGroup(reg int, group []byte) {
	if t.hasFlat[reg] {
		return
	}
	t.hasFlat[reg] = true
	gs := groups(string(group))
	g := &t.b.E.Regions[reg]
	g.Paradigm, g.Role = paradigmRole(gs, g.Name)
	if len(gs) > 0 {
		g.Attrs = append(g.Attrs, model.Attr{Key: "TAU group", Value: strings.Join(gs, "|")})
	}
}

// cnodeOf returns the cnode of region below parent (-1 for a root),
// creating it.
func (t *callTree) cnodeOf(parent, region int) int {
	c, added := t.b.Cnode(parent, region)
	if added {
		depth, root := 1, region
		if parent >= 0 {
			depth, root = t.cinfo[parent].depth+1, t.cinfo[parent].rootRegion
		}
		t.cinfo = append(t.cinfo, cinfo{depth: depth, rootRegion: root})
	}
	return c
}

func (t *callTree) root(region int) int {
	if c := t.rootOf[region]; c >= 0 {
		return c
	}
	c := t.cnodeOf(-1, region)
	t.rootOf[region] = c
	return c
}

// pathCnode returns the cnode of a call path "a => b => c", creating it
// and its ancestors. In flat mode a path of samples ("… => b => [CONTEXT]
// b => [SAMPLE] f") hangs below the root of the instrumented region that
// holds the samples (b).
func (t *callTree) pathCnode(name []byte) int {
	if c, ok := t.pathIdx[string(name)]; ok {
		return c
	}
	parts := splitPath(string(name))
	if t.flat {
		parts = parts[contextStart(parts):]
	}
	c := t.root(t.region([]byte(parts[0])))
	for _, p := range parts[1:] {
		c = t.cnodeOf(c, t.region([]byte(p)))
	}
	key := string(name)
	t.pathIdx[key] = c
	if t.cinfo[c].path == "" {
		t.cinfo[c].path = key
	}
	return c
}
