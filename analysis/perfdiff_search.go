package analysis

import (
	"container/heap"
	"math"

	"cubeview/analysis/significance"
	"cubeview/model"
)

// search is one pass over the common call tree in depth-first order that
// finds every differing focus. Each call path's own rows are read once
// (in the order a .cubex file stores them); a call path's inclusive
// values per location are built from its callees' as they finish, so only
// the call paths on the current path from the root are held in memory.
// When a call path finishes, its values on every system node are
// aggregated and compared; for an additive metric that is skipped when
// the change below the call path on all locations stays under the
// threshold, since no focus of that call path can differ then.
type search struct {
	dom     *domain
	sides   [2]*sideValues
	thr     float64
	maxRule bool // Change is the largest |A − B| at or below a focus (else Σ|a − b|)
	// grouped: the sides are groups of runs; each run's values are
	// carried along too and compared (test) at every differing focus.
	grouped bool
	test    significance.Options

	frames []*frame
	foci   []FocusDiff // held foci; with top a heap of the best, worst first
	// top > 0 keeps only the top best foci; emit, when set, receives each
	// focus instead (nothing is held); err is emit's error.
	top  int
	emit func(*FocusDiff) error
	err  error

	differing, mostSpecific int
	fd                      FocusDiff // scratch: the focus being added

	rootA, rootB float64
	examined     int // foci looked at (see PerfDiffResult.NumExamined)

	// Scratch, one entry per compact system node.
	sysVals  [2][][]float64 // per side and input
	vals     [2][]float64   // per side: the metric
	change   []float64
	differs  []bool
	kidDiffs []bool // a system child differs

	// Grouped scratch, per side and run: per input and compact system
	// node the run's aggregated values, and the metric's.
	runSys  [2][][][]float64
	runVals [2][][]float64
	sampleA []float64
	sampleB []float64
}

// frame holds one call path of the current path from the root.
type frame struct {
	c      int            // domain cnode, −1 for the virtual root of several roots
	own    [2][][]float64 // per side and input: own values per common column
	incl   [2][][]float64 // per side and input: inclusive values per common column
	change []float64      // additive metric: Σ|a − b| per common column over the subtree
	// Grouped: per side, input and run, the run's own and inclusive
	// values per common column.
	runOwn    [2][][][]float64
	runIncl   [2][][][]float64
	childV    []float64 // max rule: per compact system node, the largest Change of a call child (or self)
	childDiff []bool    // per compact system node: a call child (or self) differs there
	dirty     bool      // childDiff, childV or pending holds something
	// pending counts, per compact system node, the call children (and
	// own part) that do not differ there and whose system parent does not
	// differ either: they are examined if this call path differs there.
	// allPending counts those that differ nowhere, for every node.
	pending    []int32
	allPending int32
}

func newSearch(dom *domain, sides [2]*sideValues, thr float64, maxRule bool) *search {
	p := &search{dom: dom, sides: sides, thr: thr, maxRule: maxRule}
	p.grouped = len(sides[0].runs) > 1 || len(sides[1].runs) > 1
	ns := len(dom.sysNode)
	for i, sv := range sides {
		p.sysVals[i] = make([][]float64, len(sv.aggs))
		for in := range sv.aggs {
			p.sysVals[i][in] = make([]float64, ns)
		}
		if p.grouped {
			p.runSys[i] = make([][][]float64, len(sv.runs))
			p.runVals[i] = make([][]float64, len(sv.runs))
			for r := range sv.runs {
				p.runSys[i][r] = make([][]float64, len(sv.aggs))
				for in := range sv.aggs {
					p.runSys[i][r][in] = make([]float64, ns)
				}
			}
		}
	}
	p.sampleA = make([]float64, len(sides[0].runs))
	p.sampleB = make([]float64, len(sides[1].runs))
	p.change = make([]float64, ns)
	p.differs = make([]bool, ns)
	p.kidDiffs = make([]bool, ns)
	return p
}

func (p *search) frame(depth int) *frame {
	for len(p.frames) <= depth {
		ns, nc := len(p.dom.sysNode), p.dom.ncols
		f := &frame{childDiff: make([]bool, ns), pending: make([]int32, ns)}
		for i, sv := range p.sides {
			f.own[i] = make([][]float64, len(sv.aggs))
			f.incl[i] = make([][]float64, len(sv.aggs))
			for in := range sv.aggs {
				f.own[i][in] = make([]float64, nc)
				f.incl[i][in] = make([]float64, nc)
			}
			if p.grouped {
				f.runOwn[i] = make([][][]float64, len(sv.aggs))
				f.runIncl[i] = make([][][]float64, len(sv.aggs))
				for in := range sv.aggs {
					f.runOwn[i][in] = make([][]float64, len(sv.runs))
					f.runIncl[i][in] = make([][]float64, len(sv.runs))
					for r := range sv.runs {
						f.runOwn[i][in][r] = make([]float64, nc)
						f.runIncl[i][in][r] = make([]float64, nc)
					}
				}
			}
		}
		if p.maxRule {
			f.childV = make([]float64, ns)
		} else {
			f.change = make([]float64, nc)
		}
		p.frames = append(p.frames, f)
	}
	return p.frames[depth]
}

// run walks the common call tree and collects the differing foci.
func (p *search) run() error {
	dom := p.dom
	start := -1
	if len(dom.commonRoots) == 1 {
		start = dom.commonRoots[0]
	}
	type step struct {
		c, depth int
		exit     bool
	}
	stack := []step{{c: start}}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.exit {
			p.exit(s.c, s.depth)
			if p.err != nil {
				return p.err
			}
			continue
		}
		if err := p.enter(s.c, s.depth); err != nil {
			return err
		}
		if p.err != nil {
			return p.err
		}
		stack = append(stack, step{c: s.c, depth: s.depth, exit: true})
		kids := dom.commonRoots
		if s.c >= 0 {
			kids = dom.commonKids[s.c]
		}
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, step{c: kids[i], depth: s.depth + 1})
		}
	}
	return nil
}

// enter reads call path c's own rows and compares its "(self)" foci.
func (p *search) enter(c, depth int) error {
	f := p.frame(depth)
	f.c = c
	if f.dirty {
		clear(f.childDiff)
		clear(f.pending)
		if f.childV != nil {
			clear(f.childV)
		}
		f.dirty = false
	}
	f.allPending = 0
	if c < 0 {
		for i, sv := range p.sides {
			for in := range sv.aggs {
				id := sv.aggs[in].Identity()
				fill(f.incl[i][in], id)
				if p.grouped {
					for _, v := range f.runIncl[i][in] {
						fill(v, id)
					}
				}
			}
		}
		if f.change != nil {
			clear(f.change)
		}
		return nil
	}
	for i, sv := range p.sides {
		for in := range sv.aggs {
			if err := sv.readOwn(in, c, f.own[i][in]); err != nil {
				return err
			}
			copy(f.incl[i][in], f.own[i][in])
			if p.grouped {
				for r := range sv.runs {
					v := f.runOwn[i][in][r]
					if sv.runOwn != nil {
						copy(v, sv.runOwn[in][r])
					} else {
						copy(v, f.own[i][in])
					}
					copy(f.runIncl[i][in][r], v)
				}
			}
		}
	}
	if f.change != nil {
		a, b := f.own[0][0], f.own[1][0]
		for j := range f.change {
			f.change[j] = math.Abs(a[j] - b[j])
		}
	}
	if p.dom.hasSelf(c) {
		differs, v := p.compare(Focus{Cnode: c, Self: true}, f.own, f.runOwn, f.change, nil, nil, false)
		p.mergeChild(f, differs, v)
	}
	return nil
}

// exit compares call path c's foci, now that its callees are done, and
// passes its values up to its caller.
func (p *search) exit(c, depth int) {
	f := p.frames[depth]
	var kidDiff []bool
	if f.dirty {
		kidDiff = f.childDiff
	}
	differs, v := p.compare(Focus{Cnode: c}, f.incl, f.runIncl, f.change, f.childV, kidDiff, depth == 0)
	// The call children and own part examined because c differs.
	for k, d := range differs {
		if d {
			p.examined += int(f.pending[k] + f.allPending)
		}
	}
	if depth == 0 {
		p.rootA, p.rootB = p.vals[0][0], p.vals[1][0]
		if differs == nil {
			p.examined = 1 // the whole program alone
		}
		return
	}
	parent := p.frames[depth-1]
	for i, sv := range p.sides {
		for in := range sv.aggs {
			combineInto(parent.incl[i][in], f.incl[i][in], sv.aggs[in])
			if p.grouped {
				for r := range sv.runs {
					combineInto(parent.runIncl[i][in][r], f.runIncl[i][in][r], sv.aggs[in])
				}
			}
		}
	}
	if parent.change != nil {
		for j, x := range f.change {
			parent.change[j] += x
		}
	}
	p.mergeChild(parent, differs, v)
}

// mergeChild records in f where a call child (or f's own part) differs
// and, for the max rule, its Change.
func (p *search) mergeChild(f *frame, differs []bool, v []float64) {
	if differs == nil {
		f.allPending++
		return
	}
	f.dirty = true
	par := p.dom.sysParent
	for k, d := range differs {
		switch {
		case d:
			f.childDiff[k] = true
		case par[k] < 0 || !differs[par[k]]:
			f.pending[k]++
		}
	}
	if f.childV != nil {
		for k, x := range v {
			f.childV[k] = max(f.childV[k], x)
		}
	}
}

// compare computes focus (cnode, every system node) from per-column
// values and reports the differing foci. cols holds each side's values
// per input and common column (runCols, grouped, each run's); change the additive metric's Σ|a − b| per
// column; childV and childDiff what the call children (and own part)
// found per system node (nil: none). It returns which system nodes differ
// and their Change (scratch, valid until the next call); nil when none
// does. With values set, the values are computed even then (p.vals).
func (p *search) compare(focus Focus, cols [2][][]float64, runCols [2][][][]float64, change, childV []float64, childDiff []bool, values bool) ([]bool, []float64) {
	dom := p.dom
	ns := len(dom.sysNode)
	if !p.maxRule {
		total := 0.0
		for _, x := range change {
			total += x
		}
		if !(total >= p.thr && total > 0) {
			if values {
				p.values(cols)
			}
			return nil, nil
		}
		dom.aggregate(change, model.Sum, p.change)
	}
	p.values(cols)
	a, b := p.vals[0], p.vals[1]
	v := p.change
	if p.maxRule {
		for k := range v {
			v[k] = absOrZero(a[k] - b[k])
			if childV != nil {
				v[k] = max(v[k], childV[k])
			}
		}
		for k := ns - 1; k > 0; k-- {
			pk := dom.sysParent[k]
			v[pk] = max(v[pk], v[k])
		}
	}
	found := false
	clear(p.kidDiffs)
	for k, x := range v {
		d := x >= p.thr && x > 0
		p.differs[k] = d
		if d {
			found = true
			if pk := dom.sysParent[k]; pk >= 0 {
				p.kidDiffs[pk] = true
			}
		}
	}
	if !found {
		return nil, nil
	}
	if p.grouped {
		p.runValues(runCols)
	}
	for k, d := range p.differs {
		if pk := dom.sysParent[k]; d || pk >= 0 && p.differs[pk] {
			p.examined++ // differs, or its system parent does
		}
		if !d {
			continue
		}
		most := !p.kidDiffs[k] && (childDiff == nil || !childDiff[k])
		fd := &p.fd
		*fd = FocusDiff{Focus: Focus{Cnode: focus.Cnode, System: dom.sysNode[k], Self: focus.Self},
			A: a[k], B: b[k], Diff: a[k] - b[k], Change: v[k], MostSpecific: most}
		if p.grouped {
			p.testAt(fd, k)
		}
		p.add(fd)
	}
	return p.differs, v
}

// values aggregates each side's per-column values up the system tree and
// evaluates the metric there, into p.vals.
func (p *search) values(cols [2][][]float64) {
	ns := len(p.dom.sysNode)
	for i, sv := range p.sides {
		for in := range sv.aggs {
			p.dom.aggregate(cols[i][in], sv.aggs[in], p.sysVals[i][in])
		}
		if sv.expr.formula == nil {
			p.vals[i] = p.sysVals[i][sv.expr.input]
			continue
		}
		out, err := sv.expr.eval(ns, func(in int) []float64 { return p.sysVals[i][in] })
		if err != nil {
			// Vectors always have ns values; a formula cannot fail here.
			panic(err)
		}
		p.vals[i] = out
	}
}

// runValues aggregates each run's per-column values up the system tree
// and evaluates the metric there, into p.runVals.
func (p *search) runValues(runCols [2][][][]float64) {
	ns := len(p.dom.sysNode)
	for i, sv := range p.sides {
		for r := range sv.runs {
			sys := p.runSys[i][r]
			for in := range sv.aggs {
				p.dom.aggregate(runCols[i][in][r], sv.aggs[in], sys[in])
			}
			if sv.expr.formula == nil {
				p.runVals[i][r] = sys[sv.expr.input]
				continue
			}
			out, err := sv.expr.eval(ns, func(in int) []float64 { return sys[in] })
			if err != nil {
				panic(err) // vectors always have ns values
			}
			p.runVals[i][r] = out
		}
	}
}

// testAt compares the groups' runs at compact system node k of focus fd
// (p.runVals): fd's A and B become the groups' means, with the test. A
// run without a value there (an undefined derived value, a min or max
// no location visited) leaves the test undone (P NaN).
func (p *search) testAt(fd *FocusDiff, k int) {
	for r := range p.sampleA {
		p.sampleA[r] = p.runVals[0][r][k]
	}
	for r := range p.sampleB {
		p.sampleB[r] = p.runVals[1][r][k]
	}
	st := &FocusStats{}
	c, err := significance.Compare(p.sampleA, p.sampleB, p.test)
	if err != nil {
		nan := math.NaN()
		a, b := significance.Describe(p.sampleA), significance.Describe(p.sampleB)
		c = significance.Comparison{Test: p.test.Test, A: a, B: b, Diff: a.Mean - b.Mean,
			Stat: nan, DF: nan, P: nan, CILow: nan, CIHigh: nan, Effect: nan}
	}
	st.Comparison = c
	st.Q = math.NaN()
	fd.Stats = st
	fd.A, fd.B, fd.Diff = c.A.Mean, c.B.Mean, c.Diff
}

// add records a differing focus: held, kept in the bounded heap of the
// best p.top, or passed to p.emit.
func (p *search) add(fd *FocusDiff) {
	p.differing++
	if fd.MostSpecific {
		p.mostSpecific++
	}
	switch {
	case p.emit != nil:
		if p.err == nil {
			p.err = p.emit(fd)
		}
	case p.top > 0:
		h := (*worstFirst)(&p.foci)
		if len(p.foci) < p.top {
			heap.Push(h, *fd)
		} else if compareFoci(*fd, p.foci[0]) < 0 {
			p.foci[0] = *fd
			heap.Fix(h, 0)
		}
	default:
		p.foci = append(p.foci, *fd)
	}
}

// worstFirst is a heap of foci whose root is the last in the report's
// order (compareFoci).
type worstFirst []FocusDiff

func (h worstFirst) Len() int           { return len(h) }
func (h worstFirst) Less(i, j int) bool { return compareFoci(h[i], h[j]) > 0 }
func (h worstFirst) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *worstFirst) Push(x any)        { *h = append(*h, x.(FocusDiff)) }
func (h *worstFirst) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
