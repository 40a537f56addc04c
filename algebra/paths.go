package algebra

import (
	"fmt"
	"slices"
	"strings"

	"cubeview/model"
)

// canonicalKey is a region's canonical name at a level: 1 drops the
// decorations of the name (CanonicalRegionName without the PMPI_ rule),
// 2 applies every rule. Exact names are tried first, then level 1, then
// level 2, so that MPI_Init claims a match before PMPI_Init does.
type canonicalKey struct {
	level        int
	name, module string
	begin, end   int
}

func canonicalAt(name string, level int) string {
	if level == 1 {
		return canonicalDecorations(name)
	}
	return CanonicalRegionName(name)
}

// matchRoots makes the program roots of the operands (see programRoot)
// one region, unless Options.StrictRoots is set: their names and modules
// in names and modules become the first operand's. It sets RootsMatched
// and returns each operand's root region (nil when roots are not matched).
func (ig *Integration) matchRoots(names, modules [][]string) []int {
	if ig.Options.StrictRoots || len(ig.Operands) < 2 {
		return nil
	}
	roots := make([]int, len(ig.Operands))
	single := true
	for i, e := range ig.Operands {
		c, _ := programRoot(e)
		if c < 0 {
			return nil
		}
		roots[i] = e.Cnodes[c].Region
		if roots[i] < 0 || roots[i] >= len(e.Regions) {
			return nil
		}
		single = single && len(e.CnodeRoots) == 1
	}
	var differ []string
	first := roots[0]
	for i := range ig.Operands {
		r := roots[i]
		if names[i][r] != names[0][first] || modules[i][r] != modules[0][first] {
			names[i][r], modules[i][r] = names[0][first], modules[0][first]
			differ = append(differ, fmt.Sprintf("%q in %s", ig.Operands[i].Regions[r].Name, operandName(ig.Operands, i)))
		}
	}
	if len(differ) == 0 {
		return roots
	}
	what := "the single call-tree roots are matched whatever their names"
	if !single {
		what = "the program's call-tree roots (the roots above main, or a tool's root of the program) are matched whatever their names"
	}
	ig.RootsMatched = fmt.Sprintf("%s: %q in %s with %s", what,
		ig.Operands[0].Regions[first].Name, operandName(ig.Operands, 0), strings.Join(differ, ", "))
	return roots
}

// integrateRegions matches regions by name and module (by name alone
// when the operands were recorded differently, since every tool and
// format records a region's file differently), then by canonical name
// (CanonicalRegionName), and copies the others.
func (ig *Integration) integrateRegions() error {
	res := ig.Result
	byKey := map[regionKey][]int{}
	byCanon := map[canonicalKey][]int{}
	var claimed []int // operand index + 1 that last claimed each result region
	byName := mixedRecordings(ig.Operands)
	ig.Regions = make([][]int, len(ig.Operands))
	// Region names and modules after the rename rules; the root region of
	// every operand takes the first operand's when the roots are matched.
	names := make([][]string, len(ig.Operands))
	modules := make([][]string, len(ig.Operands))
	for i, e := range ig.Operands {
		names[i] = make([]string, len(e.Regions))
		modules[i] = make([]string, len(e.Regions))
		for r := range e.Regions {
			names[i][r] = ig.Options.renameRegion(e.Regions[r].Name)
			modules[i][r] = e.Regions[r].Module
		}
	}
	roots := ig.matchRoots(names, modules)
	for i, e := range ig.Operands {
		rmap := newMap(len(e.Regions))
		ig.Regions[i] = rmap
		keyOf := func(r int) regionKey {
			key := regionKey{name: names[i][r], module: modules[i][r]}
			if byName {
				key.module = ""
			}
			if ig.Options.StrictLines {
				key.begin, key.end = e.Regions[r].Begin, e.Regions[r].End
			}
			return key
		}
		canonOf := func(r, level int) canonicalKey {
			key := canonicalKey{level: level, name: canonicalAt(names[i][r], level), module: modules[i][r]}
			if byName {
				key.module = ""
			}
			if ig.Options.StrictLines {
				key.begin, key.end = e.Regions[r].Begin, e.Regions[r].End
			}
			return key
		}
		// among the candidates not yet claimed by this operand, prefer
		// the same module, then the same lines
		pick := func(r int, cands []int) int {
			or := &e.Regions[r]
			pick, best := -1, -1
			for _, c := range cands {
				if claimed[c] == i+1 {
					continue
				}
				score := 0
				if res.Regions[c].Module == modules[i][r] {
					score += 2
				}
				if res.Regions[c].Begin == or.Begin && res.Regions[c].End == or.End {
					score++
				}
				if score > best {
					pick, best = c, score
				}
			}
			return pick
		}
		// the root region first: another region of the root's new name
		// must not take its place
		order := make([]int, 0, len(e.Regions))
		if roots != nil {
			order = append(order, roots[i])
		}
		for r := range e.Regions {
			if roots == nil || r != roots[i] {
				order = append(order, r)
			}
		}
		for _, r := range order {
			if c := pick(r, byKey[keyOf(r)]); c >= 0 {
				claimed[c] = i + 1
				rmap[r] = c
			}
		}
		for level := 1; level <= 2; level++ {
			for r := range e.Regions {
				if rmap[r] >= 0 {
					continue
				}
				if c := pick(r, byCanon[canonOf(r, level)]); c >= 0 {
					claimed[c] = i + 1
					rmap[r] = c
					ig.Report.Regions = append(ig.Report.Regions, RegionMatch{Operand: i, Name: e.Regions[r].Name, Result: res.Regions[c].Name, region: c})
				}
			}
		}
		for r := range e.Regions {
			if rmap[r] >= 0 {
				continue
			}
			nr := e.Regions[r]
			nr.Name, nr.Module = names[i][r], modules[i][r]
			nr.ID = len(res.Regions)
			nr.Attrs = slices.Clone(nr.Attrs)
			c := len(res.Regions)
			res.Regions = append(res.Regions, nr)
			claimed = append(claimed, i+1)
			key := keyOf(r)
			byKey[key] = append(byKey[key], c)
			for level := 1; level <= 2; level++ {
				ck := canonOf(r, level)
				byCanon[ck] = append(byCanon[ck], c)
			}
			rmap[r] = c
		}
	}
	return nil
}

type cnodeKey struct {
	parent, region int
	file           string
	line           int
}

// candidate is a result cnode that an operand's cnode may match, dist
// steps below the cnode its key names as parent.
type candidate struct {
	cnode, dist int
}

// pathIndex indexes the first n result cnodes (those of earlier operands)
// by parent and region for operand i. When frames are skipped (operands
// recorded differently), a cnode is also listed under every ancestor it
// is reachable from through frames operand i never recorded (regions none
// of its cnodes has): TAU's MPI_Bcast below its program root matches
// Score-P's main/iteration/MPI_Bcast when TAU recorded neither main nor
// iteration. Lists are ordered by distance, then by cnode.
func (ig *Integration) pathIndex(i, n int, skip bool) map[cnodeKey][]candidate {
	res := ig.Result
	var recorded []bool
	if skip {
		recorded = make([]bool, len(res.Regions))
		e := ig.Operands[i]
		for c := range e.Cnodes {
			if r := e.Cnodes[c].Region; r >= 0 && r < len(e.Regions) {
				recorded[ig.Regions[i][r]] = true
			}
		}
	}
	idx := make(map[cnodeKey][]candidate, n)
	for d := 0; d < n; d++ {
		rc := &res.Cnodes[d]
		key := cnodeKey{parent: rc.Parent, region: rc.Region}
		if ig.Options.StrictLines {
			key.file, key.line = rc.CallFile, rc.CallLine
		}
		idx[key] = append(idx[key], candidate{d, 1})
		if !skip || !recorded[rc.Region] {
			continue
		}
		for p, dist := rc.Parent, 1; p >= 0 && !recorded[res.Cnodes[p].Region] && res.Cnodes[p].Parent >= 0; {
			p, dist = res.Cnodes[p].Parent, dist+1
			key.parent = p
			idx[key] = append(idx[key], candidate{d, dist})
		}
	}
	for _, l := range idx {
		if len(l) > 1 {
			slices.SortStableFunc(l, func(a, b candidate) int { return a.dist - b.dist })
		}
	}
	return idx
}

// pickCnode chooses among cands the nearest one not yet claimed by
// operand i with oc's parameters, preferring, at that distance, one with
// oc's call site. It returns the cnode and its distance, or -1.
func pickCnode(res *model.Experiment, cands []candidate, claimed []int, i int, oc *model.Cnode) (int, int) {
	pick, dist := -1, 0
	for _, cd := range cands {
		rc := &res.Cnodes[cd.cnode]
		if claimed[cd.cnode] == i+1 || !slices.Equal(rc.Params, oc.Params) {
			continue
		}
		if pick >= 0 && cd.dist > dist {
			break
		}
		if pick < 0 {
			pick, dist = cd.cnode, cd.dist
		}
		if rc.CallLine == oc.CallLine && rc.CallFile == oc.CallFile {
			return cd.cnode, cd.dist
		}
	}
	return pick, dist
}

// integrateCnodes matches call-tree nodes: the same callee region and
// parameters under a matched parent. For operands recorded differently
// (see recording) it also skips frames: an operand's cnode matches a
// cnode below its parent's counterpart reached through frames the operand
// never recorded, and the children of a frame only this operand recorded
// (a new cnode whose region no earlier operand has) match below the
// nearest matched ancestor.
func (ig *Integration) integrateCnodes() error {
	res := ig.Result
	skip := mixedRecordings(ig.Operands)
	var claimed []int
	ig.Cnodes = make([][]int, len(ig.Operands))
	for i, e := range ig.Operands {
		cmap := newMap(len(e.Cnodes))
		ig.Cnodes[i] = cmap
		existing := len(res.Cnodes)
		idx := ig.pathIndex(i, existing, skip)
		earlier := make([]bool, len(res.Regions)) // recorded by an earlier operand
		for c := 0; c < existing; c++ {
			earlier[res.Cnodes[c].Region] = true
		}
		// ownFrame reports whether operand cnode c became a new result
		// cnode of a region no earlier operand recorded.
		ownFrame := func(c int) bool {
			rc := cmap[c]
			return rc >= existing && !earlier[res.Cnodes[rc].Region]
		}
		for _, c := range e.CnodeOrder() {
			oc := &e.Cnodes[c]
			if oc.Region < 0 || oc.Region >= len(e.Regions) {
				return fmt.Errorf("%s: cnode id %d refers to region index %d of %d",
					operandName(ig.Operands, i), oc.ID, oc.Region, len(e.Regions))
			}
			parent := -1
			if oc.Parent >= 0 {
				parent = cmap[oc.Parent]
			}
			key := cnodeKey{parent: parent, region: ig.Regions[i][oc.Region]}
			if ig.Options.StrictLines {
				key.file, key.line = oc.CallFile, oc.CallLine
			}
			pick, dist := pickCnode(res, idx[key], claimed, i, oc)
			if pick >= 0 && dist > 1 {
				ig.noteSkipped(i, pick, parent, false)
			}
			if pick < 0 && skip && oc.Parent >= 0 && ownFrame(oc.Parent) {
				a := oc.Parent
				for a >= 0 && ownFrame(a) {
					a = e.Cnodes[a].Parent
				}
				anchor := -1
				if a >= 0 {
					anchor = cmap[a]
				}
				akey := key
				akey.parent = anchor
				if pick, dist = pickCnode(res, idx[akey], claimed, i, oc); pick >= 0 {
					var own []string
					for f := oc.Parent; f != a; f = e.Cnodes[f].Parent {
						own = append(own, res.Regions[res.Cnodes[cmap[f]].Region].Name)
					}
					ig.Report.notePath(i, own, true)
					if dist > 1 {
						ig.noteSkipped(i, pick, anchor, false)
					}
				}
			}
			if pick < 0 {
				nc := *oc
				nc.Region = key.region
				nc.Parent = parent
				nc.Children = nil
				nc.Present = 0
				nc.Params = slices.Clone(oc.Params)
				nc.Attrs = slices.Clone(oc.Attrs)
				pick = len(res.Cnodes)
				res.Cnodes = append(res.Cnodes, nc)
				claimed = append(claimed, 0)
			}
			claimed[pick] = i + 1
			res.Cnodes[pick].Present |= bit(i)
			cmap[c] = pick
		}
	}
	// report only the canonical matches that matched call paths
	shared := make([]model.Mask, len(res.Regions))
	for c := range res.Cnodes {
		if p := res.Cnodes[c].Present; p&(p-1) != 0 {
			shared[res.Cnodes[c].Region] |= p
		}
	}
	ig.Report.Regions = slices.DeleteFunc(ig.Report.Regions, func(m RegionMatch) bool { return !shared[m.region].Has(m.Operand) })
	return nil
}

// noteSkipped records the frames between result cnode from and the
// matched cnode pick that operand i did not record.
func (ig *Integration) noteSkipped(i, pick, from int, own bool) {
	res := ig.Result
	var frames []string
	for p := res.Cnodes[pick].Parent; p >= 0 && p != from; p = res.Cnodes[p].Parent {
		frames = append(frames, res.Regions[res.Cnodes[p].Region].Name)
	}
	ig.Report.notePath(i, frames, own)
}
