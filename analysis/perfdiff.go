package analysis

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"cubeview/algebra"
	"cubeview/model"
)

// Focus is a pair of a call path and a system node of the integrated
// domain (PerfDiffResult.Domain): the metric's value at a focus is its
// call-tree inclusive value at Cnode aggregated over the locations below
// System. Cnode −1 stands for all call-tree roots together and System −1
// for all system-tree roots; they appear only when a tree has several
// roots.
type Focus struct {
	Cnode, System int
}

// FocusDiff is one focus where the two experiments differ.
type FocusDiff struct {
	Focus
	A, B float64 // the metric's value at the focus in each experiment
	Diff float64 // A − B
	// Significant marks a most specific difference: no focus one step
	// below it (in either tree) differs.
	Significant bool
}

// PerfDiffOptions configure PerfDiff.
type PerfDiffOptions struct {
	Metric string  // uniq_name of the metric (stored or derived)
	Delta  float64 // the smallest difference that counts (≥ 0)
	// Relative makes Delta a fraction of the whole-program value: the
	// larger magnitude of the two experiments' values at the root focus.
	Relative bool
	// Algebra controls how the two experiments' trees are matched.
	Algebra algebra.Options
}

// PerfDiffResult is the answer of PerfDiff.
type PerfDiffResult struct {
	// Domain holds the integrated metadata of both experiments (no
	// data): Focus indices refer to its cnodes and system nodes.
	Domain *model.Experiment
	Metric string
	// Threshold is the absolute difference that counted as differing.
	Threshold float64
	// Foci lists every focus that differs, each once: the significant
	// ones first, then the rest, each group by decreasing |Diff|.
	Foci []FocusDiff
	// Examined lists every focus whose values were compared, each once,
	// in the order of the search.
	Examined []Focus
}

// Significant returns the number of significant foci (they lead Foci).
func (r *PerfDiffResult) Significant() int {
	n := 0
	for n < len(r.Foci) && r.Foci[n].Significant {
		n++
	}
	return n
}

// CallPath names the focus's call path, "(all call paths)" for −1.
func (r *PerfDiffResult) CallPath(f Focus) string {
	if f.Cnode < 0 {
		return "(all call paths)"
	}
	return r.Domain.CallPath(f.Cnode)
}

// SystemPath names the focus's system node by the names from its root
// down, "(all locations)" for −1.
func (r *PerfDiffResult) SystemPath(f Focus) string {
	if f.System < 0 {
		return "(all locations)"
	}
	return SystemPath(r.Domain, f.System)
}

// SystemPath names system node s by the names of the nodes from its root
// down to it, joined by "/".
func SystemPath(e *model.Experiment, s int) string {
	var parts []string
	for ; s >= 0; s = e.System[s].Parent {
		parts = append(parts, e.System[s].Name)
	}
	slices.Reverse(parts)
	return strings.Join(parts, "/")
}

// PerfDiff runs Karavanic & Miller's performance-difference operator on
// experiments a and b for one metric: starting at the whole program (the
// call-tree root × the system-tree root), a focus whose values differ by
// at least the threshold is magnified into every focus one step below it
// in the call tree and in the system tree; each focus is examined once.
// The answer is every differing focus; those none of whose magnified
// foci differ are significant.
//
// The two experiments are matched as the algebra matches operands (same
// call paths by callee region, processes and threads by rank); a call path
// or location present in only one counts as 0 in the other.
func PerfDiff(a, b *model.Experiment, opt PerfDiffOptions) (*PerfDiffResult, error) {
	if opt.Delta < 0 || math.IsNaN(opt.Delta) || math.IsInf(opt.Delta, 0) {
		return nil, fmt.Errorf("perfdiff: δ = %v; want a finite number ≥ 0", opt.Delta)
	}
	ig, err := algebra.Integrate([]*model.Experiment{a, b}, opt.Algebra)
	if err != nil {
		return nil, fmt.Errorf("perfdiff: %w", err)
	}
	d := ig.Result
	sides := [2]*focusValues{}
	cols := systemColumns(d)
	for i := range sides {
		if sides[i], err = newFocusValues(ig, i, opt.Metric, cols, true); err != nil {
			return nil, err
		}
	}
	if sides[0].metric < 0 && sides[1].metric < 0 {
		return nil, fmt.Errorf("perfdiff: neither %s nor %s has metric %q", a.Source, b.Source, opt.Metric)
	}

	root := Focus{Cnode: -1, System: -1}
	if len(d.CnodeRoots) == 1 {
		root.Cnode = d.CnodeRoots[0]
	}
	if len(d.SystemRoots) == 1 {
		root.System = d.SystemRoots[0]
	}
	res := &PerfDiffResult{Domain: d, Metric: opt.Metric, Threshold: opt.Delta}
	value := func(f Focus) (va, vb float64, err error) {
		if va, err = sides[0].value(f); err != nil {
			return
		}
		vb, err = sides[1].value(f)
		return
	}
	ra, rb, err := value(root)
	if err != nil {
		return nil, err
	}
	if opt.Relative {
		res.Threshold = opt.Delta * math.Max(math.Abs(ra), math.Abs(rb))
	}
	differs := func(va, vb float64) bool {
		diff := math.Abs(va - vb)
		// A zero threshold still needs a difference.
		return diff >= res.Threshold && diff > 0
	}

	cnodeChildren := func(c int) []int {
		if c < 0 {
			return d.CnodeRoots
		}
		return d.Cnodes[c].Children
	}
	systemChildren := func(s int) []int {
		if s < 0 {
			return d.SystemRoots
		}
		return d.System[s].Children
	}
	nsys := len(d.System) + 1
	key := func(f Focus) int { return (f.Cnode+1)*nsys + f.System + 1 }
	type visit struct {
		f    Focus
		a, b float64
	}
	seen := map[int]visit{key(root): {root, ra, rb}}
	queue := []visit{{root, ra, rb}}
	res.Examined = append(res.Examined, root)
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		if !differs(v.a, v.b) {
			continue
		}
		significant := true
		examine := func(f Focus) error {
			w, ok := seen[key(f)]
			if !ok {
				// First reached: compare it and magnify it later.
				va, vb, err := value(f)
				if err != nil {
					return err
				}
				w = visit{f, va, vb}
				seen[key(f)] = w
				res.Examined = append(res.Examined, f)
				queue = append(queue, w)
			}
			if differs(w.a, w.b) {
				significant = false
			}
			return nil
		}
		for _, c := range cnodeChildren(v.f.Cnode) {
			if err := examine(Focus{Cnode: c, System: v.f.System}); err != nil {
				return nil, err
			}
		}
		for _, s := range systemChildren(v.f.System) {
			if err := examine(Focus{Cnode: v.f.Cnode, System: s}); err != nil {
				return nil, err
			}
		}
		res.Foci = append(res.Foci, FocusDiff{Focus: v.f, A: v.a, B: v.b, Diff: v.a - v.b, Significant: significant})
	}
	slices.SortStableFunc(res.Foci, func(x, y FocusDiff) int {
		if x.Significant != y.Significant {
			if x.Significant {
				return -1
			}
			return 1
		}
		return cmp.Compare(math.Abs(y.Diff), math.Abs(x.Diff))
	})
	return res, nil
}

// focusValues answers the value of one operand's metric at any focus of
// the integrated domain.
type focusValues struct {
	ig      *algebra.Integration
	op      int
	exp     *model.Experiment
	metric  int // in the operand, −1 when it lacks the metric
	formula *model.Formula
	agg     model.Aggregation
	// values holds the stored metric's values on the domain: call-tree
	// inclusive, or exclusive when the focusValues answers own values.
	values  *model.Block
	cols    [][]int // per domain system node: the data columns below it
	all     []int   // every data column
	operand map[string]*focusValues
}

func newFocusValues(ig *algebra.Integration, op int, metric string, cols [][]int, inclusive bool) (*focusValues, error) {
	e := ig.Operands[op]
	fv := &focusValues{ig: ig, op: op, exp: e, metric: e.MetricByName(metric), cols: cols}
	if fv.metric < 0 {
		return fv, nil
	}
	m := &e.Metrics[fv.metric]
	if m.Unavailable != "" {
		return nil, fmt.Errorf("perfdiff: %s: metric %q has no values: %s", e.Source, metric, m.Unavailable)
	}
	fv.agg = m.Aggregation
	if m.IsDerived() {
		fv.formula = m.Formula
		fv.operand = map[string]*focusValues{}
		for _, name := range m.Formula.Metrics() {
			o, err := newFocusValues(ig, op, name, cols, inclusive)
			if err != nil {
				return nil, err
			}
			fv.operand[name] = o
		}
		return fv, nil
	}
	excl, err := e.PointValues(model.MetricSel{Metric: fv.metric, Inclusive: true}, false)
	if err != nil {
		return nil, fmt.Errorf("%s: metric %q: %w", e.Source, metric, err)
	}
	if fv.values, err = onDomain(ig, op, excl, fv.agg, inclusive); err != nil {
		return nil, fmt.Errorf("%s: metric %q: %w", e.Source, metric, err)
	}
	return fv, nil
}

// onDomain maps an operand's call-tree exclusive block onto the
// integrated domain and, with inclusive, makes it call-tree inclusive, in
// one block allocation. As in model.CallInclusiveBlock an absent row
// counts as zeros, also for min/max metrics, and a subtree without rows
// stays absent.
func onDomain(ig *algebra.Integration, op int, excl *model.Block, agg model.Aggregation, inclusive bool) (*model.Block, error) {
	d := ig.Result
	cmap, lmap := ig.Cnodes[op], ig.Locations[op]
	nc, nl := len(d.Cnodes), len(d.Locations)
	order := d.CnodeOrder()
	has := make([]bool, nc) // a stored row in the subtree
	for c := range cmap {
		if rc := cmap[c]; rc >= 0 && excl.HasRow(c) {
			has[rc] = true
		}
	}
	for i := len(order) - 1; inclusive && i >= 0; i-- {
		c := order[i]
		if p := d.Cnodes[c].Parent; p >= 0 && has[c] {
			has[p] = true
		}
	}
	var rows []int
	for c, ok := range has {
		if ok {
			rows = append(rows, c)
		}
	}
	incl := model.NewBlock(nc, nl)
	incl.AllocRows(rows)
	set := make([]bool, nc) // own values stored (else zeros)
	err := excl.Scan(func(c int, row []float64) error {
		rc := cmap[c]
		if rc < 0 {
			return nil
		}
		dst := incl.MutableRow(rc)
		switch {
		case !set[rc]:
			for l, v := range row {
				dst[lmap[l]] = v
			}
		case agg == model.Sum:
			for l, v := range row {
				dst[lmap[l]] += v
			}
		default:
			for l, v := range row {
				dst[lmap[l]] = agg.Combine(dst[lmap[l]], v)
			}
		}
		set[rc] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := len(order) - 1; inclusive && i >= 0; i-- {
		c := order[i]
		p := d.Cnodes[c].Parent
		if p < 0 || !has[c] {
			continue
		}
		src, dst := incl.Row(c), incl.MutableRow(p)
		if agg == model.Sum {
			for l, v := range src {
				dst[l] += v
			}
			continue
		}
		for l, v := range src {
			dst[l] = agg.Combine(dst[l], v)
		}
	}
	return incl, nil
}

// systemColumns lists, per system node, the data columns below it.
func systemColumns(e *model.Experiment) [][]int {
	cols := make([][]int, len(e.System))
	order := e.SystemOrder()
	for i := len(order) - 1; i >= 0; i-- {
		s := order[i]
		n := &e.System[s]
		if n.Location >= 0 {
			cols[s] = append(cols[s], n.Location)
		}
		if n.Parent >= 0 {
			cols[n.Parent] = append(cols[n.Parent], cols[s]...)
		}
	}
	return cols
}

var errNoFocus = errors.New("focus outside the domain")

// value returns the operand's metric at focus f.
func (fv *focusValues) value(f Focus) (float64, error) {
	d := fv.ig.Result
	if f.Cnode >= len(d.Cnodes) || f.System >= len(d.System) {
		return 0, errNoFocus
	}
	rows := d.CnodeRoots
	if f.Cnode >= 0 {
		rows = []int{f.Cnode}
	}
	var cols []int
	if f.System >= 0 {
		cols = fv.cols[f.System]
	} else {
		cols = fv.allColumns()
	}
	return fv.over(rows, cols)
}

func (fv *focusValues) allColumns() []int {
	if fv.all == nil {
		fv.all = make([]int, len(fv.ig.Result.Locations))
		for l := range fv.all {
			fv.all[l] = l
		}
	}
	return fv.all
}

// over returns the operand's metric at the domain cnodes rows (call-tree
// inclusive, each subtree counted once: rows must not nest; exclusive
// when own) aggregated over the domain data columns cols.
func (fv *focusValues) over(rows, cols []int) (float64, error) {
	if fv.metric < 0 {
		return 0, nil
	}
	if fv.formula != nil {
		return fv.formula.EvalScalar(func(name string) (float64, error) {
			return fv.operand[name].over(rows, cols)
		})
	}
	blk := fv.values
	acc := fv.agg.Identity()
	for _, c := range rows {
		row := blk.Row(c)
		switch {
		case row == nil && fv.agg != model.Sum:
			acc = fv.agg.Combine(acc, 0)
		case row == nil:
		default:
			for _, l := range cols {
				acc = fv.agg.Combine(acc, row[l])
			}
		}
	}
	if err := blk.Err(); err != nil {
		return 0, err
	}
	if math.IsInf(acc, 0) {
		return 0, nil
	}
	return acc, nil
}
