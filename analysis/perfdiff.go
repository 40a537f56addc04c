package analysis

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"cubeview/algebra"
	"cubeview/analysis/significance"
	"cubeview/model"
)

// Focus is a pair of a call path and a system node of the integrated
// domain (PerfDiffResult.Domain): the metric's value at a focus is its
// call-tree inclusive value at Cnode (with Self, Cnode's own value
// without its callees) aggregated over the locations below System.
// Cnode −1 stands for all call-tree roots together and System −1 for all
// system-tree roots; they appear only when a tree has several roots.
type Focus struct {
	Cnode, System int
	// Self marks a call path's own part: the call path without the call
	// paths below it (see PerfDiffOptions.Self). It is a child of the call
	// path's focus in the call tree, beside its callees.
	Self bool
}

// FocusDiff is one focus where the two experiments differ.
type FocusDiff struct {
	Focus
	// A and B are the metric's values at the focus in each experiment,
	// over the part both have (see PerfDiffResult.Structure); for a
	// derived metric each experiment's value of the formula there (NaN
	// where it is undefined).
	A, B float64
	Diff float64 // A − B
	// Change measures how much the two experiments differ below the focus
	// (PerfDiffResult.ChangeRule): the sum of |a − b| over the call paths'
	// own values at each location below it, so that time that moved
	// between call paths or locations counts even where the net Diff is
	// about zero; for metrics that do not add up (min, max, derived) the
	// largest |A − B| of the focus or any focus below it.
	Change float64
	// MostSpecific marks a differing focus none of whose foci one step
	// below (in either tree) differs: where the search ends.
	MostSpecific bool
	// Stats compares the two groups' runs at the focus (PerfDiffGroups;
	// nil for two single experiments). A and B are then the groups' means.
	Stats *FocusStats
}

// FocusStats is the statistical comparison of two groups of runs at a
// focus: each group's runs summarised (mean, variance), the difference of
// the means with its confidence interval, the test's p-value and effect
// size, the Benjamini–Hochberg q-value over every differing focus, and
// whether the difference is significant (q < α).
type FocusStats struct {
	significance.Comparison
	Q           float64
	Significant bool
}

// PerfDiffOptions configure PerfDiff.
type PerfDiffOptions struct {
	Metric string  // uniq_name of the metric (stored or derived), in either experiment
	Delta  float64 // the smallest change that counts (≥ 0)
	// Relative makes Delta a fraction of the whole-program value: the
	// larger magnitude of the two experiments' values at the root focus.
	Relative bool
	// Self makes each call path's own part a focus of its own, "(self)",
	// beside its callees, so that a change of a caller's own time is
	// found also when a callee changed too.
	Self bool
	// Algebra controls how the two experiments' trees and metrics are
	// matched, as for the algebra's operators.
	Algebra algebra.Options

	// For groups of runs (PerfDiffGroups): Test is Welch's t-test
	// (default) or Mann–Whitney U, Method the latter's p-value
	// computation, Alpha the false-discovery rate below which a q-value
	// is significant and Level the confidence level of the intervals
	// (0: significance.DefaultAlpha, DefaultLevel).
	Test         significance.Test
	Method       significance.Method
	Alpha, Level float64

	// Top, when > 0, keeps only the Top first differing foci in the
	// report's order (PerfDiffResult.Foci), with a bounded heap: the
	// memory does not grow with the number of differing foci.
	Top int
	// Emit, when set, receives every differing focus as the search finds
	// it, with the result so far (all but the foci, their counts and,
	// without Relative, the whole program's values), in call-tree order (a call path's own part first, then its
	// callees', then the call path itself, each on its system nodes in
	// depth-first order; the pointer is valid during the call only), and
	// Foci stays empty: nothing is held or sorted. An error from Emit ends the search. Not with groups, whose
	// q-values need every focus (Emit is then called on the sorted foci).
	Emit func(*PerfDiffResult, *FocusDiff) error
}

// Side names one of the two experiments compared.
type Side uint8

// The two experiments of a comparison.
const (
	SideA Side = iota
	SideB
)

// String returns "A" or "B".
func (s Side) String() string { return string(rune('A' + s)) }

// StructuralDiff is a part of the domain that only one experiment has: a
// call path with everything below it, or a system node with every
// location below it. Structural differences are reported apart from the
// performance differences and never ranked with them.
type StructuralDiff struct {
	Only Side // the experiment that has it
	// Cnode is a call path of the domain (−1 when this is a system node);
	// its parent, if any, is in both experiments.
	Cnode int
	// System is a system node of the domain (−1 when this is a call path);
	// its parent, if any, has locations of both experiments.
	System int
	// Value is the metric there in the experiment that has it: a call
	// path's inclusive value over all its locations, a system node's value
	// over the whole call tree; NaN when that experiment lacks the metric.
	Value float64
}

// PerfDiffResult is the answer of PerfDiff.
type PerfDiffResult struct {
	// Domain holds the integrated metadata of both experiments (no
	// data): Focus indices refer to its cnodes and system nodes.
	Domain *model.Experiment
	Metric string
	// Derived tells that the metric is derived: A and B are each
	// experiment's value of the formula, Diff their difference.
	Derived bool
	// Threshold is the change that counted as differing.
	Threshold float64
	// Root is the whole-program focus and RootA, RootB its values.
	Root         Focus
	RootA, RootB float64
	// ChangeRule names how FocusDiff.Change is measured: "sum" (Σ|a − b|
	// over the points below) or "max" (the largest |A − B| at or below).
	ChangeRule string
	// Foci lists every focus whose change reaches the threshold, each
	// once: the most specific ones first, then the rest, each group by
	// decreasing Change (with PerfDiffOptions.Top only the first Top;
	// with Emit none).
	Foci []FocusDiff
	// Differing and NumMostSpecific count the differing foci and the most
	// specific ones among them, also those not in Foci.
	Differing, NumMostSpecific int
	// NumExamined counts the foci the search looked at: the differing
	// foci and every focus one step below one (the whole program alone
	// when nothing differs).
	NumExamined int
	// Structure lists the call paths and system nodes only one experiment
	// has, call paths first, each in depth-first order.
	Structure []StructuralDiff
	// Missing says, per experiment, why the metric cannot be compared
	// there (the experiment lacks it, or a metric its formula names);
	// empty when it has it. When either says something, Foci is empty.
	Missing [2]string
	// RootsMatched, when not empty, says which call-tree roots of
	// different names were matched (algebra.Options.StrictRoots).
	RootsMatched string
	// Matching says in sentences what the matching matched other than by
	// equal names (algebra.MatchReport.Matched): metrics by identity or
	// mapping, regions by canonical name, call paths across frames only
	// one experiment recorded.
	Matching []string
	// Notes says in sentences what else a reader must know, such as which
	// experiment's formula a derived metric took.
	Notes []string
	// NA and NB count the runs of each side: 1 each for PerfDiff.
	NA, NB int
	// Test and Alpha are the test and false-discovery rate of the groups'
	// comparison (PerfDiffGroups).
	Test  significance.Test
	Alpha float64

	names *PathNames
}

// MostSpecific returns the number of most specific foci (they lead Foci).
func (r *PerfDiffResult) MostSpecific() int { return r.NumMostSpecific }

// Grouped reports whether the sides are groups of runs, with a test at
// every differing focus (FocusDiff.Stats).
func (r *PerfDiffResult) Grouped() bool { return r.NA > 1 || r.NB > 1 }

// Significant returns the number of foci where the groups differ
// significantly.
func (r *PerfDiffResult) Significant() int {
	n := 0
	for i := range r.Foci {
		if st := r.Foci[i].Stats; st != nil && st.Significant {
			n++
		}
	}
	return n
}

// Compared reports whether the metric could be compared (both
// experiments have it).
func (r *PerfDiffResult) Compared() bool { return r.Missing[0] == "" && r.Missing[1] == "" }

// CallPath names the focus's call path, "(all call paths)" for −1, with
// " (self)" for a call path's own part.
func (r *PerfDiffResult) CallPath(f Focus) string {
	if f.Cnode < 0 {
		return "(all call paths)"
	}
	if r.names == nil {
		r.names = NewPathNames(r.Domain)
	}
	if f.Self {
		return r.names.CallPath(f.Cnode) + " (self)"
	}
	return r.names.CallPath(f.Cnode)
}

// AppendCallPath appends CallPath(f) to buf.
func (r *PerfDiffResult) AppendCallPath(buf []byte, f Focus) []byte {
	if f.Cnode < 0 {
		return append(buf, "(all call paths)"...)
	}
	if r.names == nil {
		r.names = NewPathNames(r.Domain)
	}
	buf = append(buf, r.names.CallPath(f.Cnode)...)
	if f.Self {
		buf = append(buf, " (self)"...)
	}
	return buf
}

// SystemPath names the focus's system node by the names from its root
// down, "(all locations)" for −1.
func (r *PerfDiffResult) SystemPath(f Focus) string {
	if f.System < 0 {
		return "(all locations)"
	}
	if r.names == nil {
		r.names = NewPathNames(r.Domain)
	}
	return r.names.SystemPath(f.System)
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
// experiments a and b for one metric.
//
// The experiments are first matched as the algebra matches operands (call
// paths by callee region, processes and threads by rank, metrics by name
// and the algebra's metric mapping). What only one of them has — a call
// path filtered out of one run, a process one run lacks, a metric one run
// did not measure — is a structural difference: it is listed apart in
// Structure or Missing and left out of the performance comparison, which
// covers the part both have.
//
// The search starts at the whole program (the call-tree roots × the
// system-tree roots). A focus differs when the change below it reaches
// the threshold: the sum of |a − b| over the call paths' own values at
// every location below it (for min, max and derived metrics, the largest
// |A − B| at or below it), so that time that moved between call paths or
// locations, with a net difference of about zero, is still found. A
// differing focus is magnified into every focus one step below it: each
// callee, the call path's own part ("(self)", with PerfDiffOptions.Self)
// and each child system node.
// Since the change of a focus is at least that of any focus below it, the
// answer is every focus whose change reaches the threshold; those none of
// whose one-step foci differ are the most specific.
//
// The metric's data are read one call path at a time, row by row, so the
// memory needed grows with the depth of the call tree times the number of
// locations, not with the size of the metric.
func PerfDiff(a, b *model.Experiment, opt PerfDiffOptions) (*PerfDiffResult, error) {
	return perfDiff([]*model.Experiment{a}, []*model.Experiment{b}, opt)
}

// PerfDiffGroups runs the performance-difference operator on two groups
// of repeated runs, a and b (at least two runs each; at most
// algebra.MaxOperands in all), all matched together as the algebra
// matches operands. The common part is what some run of A and some run of
// B have. At every focus a group's value is the mean over its runs (a sum
// metric counts 0 in a run lacking the call path or location; a min or max
// averages the runs that have a value), and the search runs on the means
// as PerfDiff does on two experiments. At every differing focus the runs'
// values are compared by opt.Test (Welch's t-test or Mann–Whitney U),
// with the confidence interval of the difference of the means and Hedges'
// g; the p-values of all differing foci are adjusted by Benjamini–Hochberg
// (with δ = 0 every focus with any change is tested), and a focus is
// significant when its q-value is below opt.Alpha — only then.
func PerfDiffGroups(a, b []*model.Experiment, opt PerfDiffOptions) (*PerfDiffResult, error) {
	if len(a) < 2 || len(b) < 2 {
		return nil, fmt.Errorf("perfdiff: groups of %d and %d runs: each group needs at least two runs to estimate its noise (%w)", len(a), len(b), significance.ErrTooFewRuns)
	}
	if len(a)+len(b) > algebra.MaxOperands {
		return nil, fmt.Errorf("perfdiff: %d runs: at most %d can be compared together", len(a)+len(b), algebra.MaxOperands)
	}
	return perfDiff(a, b, opt)
}

func perfDiff(a, b []*model.Experiment, opt PerfDiffOptions) (*PerfDiffResult, error) {
	if opt.Delta < 0 || math.IsNaN(opt.Delta) || math.IsInf(opt.Delta, 0) {
		return nil, fmt.Errorf("perfdiff: δ = %v; want a finite number ≥ 0", opt.Delta)
	}
	ig, err := algebra.Integrate(append(slices.Clone(a), b...), opt.Algebra)
	if err != nil {
		return nil, fmt.Errorf("perfdiff: %w", err)
	}
	d := ig.Result
	// The metric as the integration matched it: by name, canonical
	// identity or the algebra's metric mapping (Options.MetricMaps).
	rm, err := ig.MetricIndex(opt.Metric)
	if err != nil {
		var le *algebra.MetricLookupError
		if errors.As(err, &le) && len(le.Candidates) == 0 {
			return nil, fmt.Errorf("perfdiff: neither %s nor %s has metric %q", sourcesOf(a), sourcesOf(b), opt.Metric)
		}
		return nil, fmt.Errorf("perfdiff: %w", err)
	}
	res := &PerfDiffResult{Domain: d, Metric: d.Metrics[rm].UniqName, Threshold: opt.Delta, RootsMatched: ig.RootsMatched,
		Matching: ig.Report.Matched(), names: NewPathNames(d), NA: len(a), NB: len(b), Test: opt.Test, Alpha: opt.alpha()}
	dom := newDomain(ig, opt.Self, len(a))
	var sides [2]*sideValues
	for i := range sides {
		sv, missing, err := newSideValues(ig, dom.ops[i], rm)
		if err != nil {
			return nil, err
		}
		sides[i] = sv
		res.Missing[i] = missing
		if missing != "" && !definesMetric(ig, dom.ops[i], rm) {
			res.Missing[i] += "; " + mappingHint(ig)
		}
	}
	defer func() {
		for _, s := range sides {
			if s != nil {
				s.release()
			}
		}
	}()
	res.Derived = d.Metrics[rm].IsDerived()
	res.Notes = append(res.Notes, formulaNotes(ig, dom.ops, rm, res.Missing)...)
	if res.Structure, err = dom.structure(sides); err != nil {
		return nil, err
	}
	res.Root = dom.rootFocus()
	res.ChangeRule = "sum"
	if !sides[0].additive() || (sides[1] != nil && !sides[1].additive()) {
		res.ChangeRule = "max"
	}
	if !res.Compared() {
		// The whole program's value in the experiment that has the metric.
		var roots [2]float64
		for i, sv := range sides {
			all := make([][]int, len(dom.ops[i]))
			for r, op := range dom.ops[i] {
				for l := range ig.Operands[op].Locations {
					all[r] = append(all[r], l)
				}
			}
			if roots[i], err = sv.columnsValue(all); err != nil {
				return nil, err
			}
		}
		res.RootA, res.RootB = roots[0], roots[1]
		return res, nil
	}
	if !dom.hasCommon() {
		if opt.Relative {
			res.Threshold = 0
		}
		res.Notes = append(res.Notes, "the two experiments have no call path on a location in common")
		return res, nil
	}
	for i, sv := range sides {
		sv.mapColumns(ig, dom.ops[i], dom)
	}
	if opt.Relative {
		if res.RootA, res.RootB, err = dom.rootValues(sides); err != nil {
			return nil, err
		}
		res.Threshold = opt.Delta * math.Max(absOrZero(res.RootA), absOrZero(res.RootB))
	}
	pass := newSearch(dom, sides, res.Threshold, res.ChangeRule == "max")
	pass.test = significance.Options{Test: opt.Test, Method: opt.Method, Level: opt.Level}
	if !res.Grouped() {
		pass.top = opt.Top
		if opt.Emit != nil {
			pass.emit = func(f *FocusDiff) error { return opt.Emit(res, f) }
		}
	}
	if err := pass.run(); err != nil {
		return nil, err
	}
	res.Foci = pass.foci
	res.Differing, res.NumMostSpecific = pass.differing, pass.mostSpecific
	if !opt.Relative {
		res.RootA, res.RootB = pass.rootA, pass.rootB
	}
	if res.Grouped() {
		p := make([]float64, len(res.Foci))
		for i := range res.Foci {
			p[i] = res.Foci[i].Stats.P
		}
		for i, q := range significance.BenjaminiHochberg(p) {
			st := res.Foci[i].Stats
			st.Q = q
			st.Significant = significance.Significant(q, res.Alpha)
		}
	}
	slices.SortFunc(res.Foci, compareFoci)
	res.NumExamined = pass.examined
	if res.Grouped() {
		if opt.Top > 0 && len(res.Foci) > opt.Top {
			res.Foci = res.Foci[:opt.Top:opt.Top]
		}
		if opt.Emit != nil {
			for i := range res.Foci {
				if err := opt.Emit(res, &res.Foci[i]); err != nil {
					return nil, err
				}
			}
			res.Foci = nil
		}
	}
	return res, nil
}

func (o PerfDiffOptions) alpha() float64 {
	if o.Alpha <= 0 || o.Alpha >= 1 {
		return significance.DefaultAlpha
	}
	return o.Alpha
}

// sourcesOf names a side's runs.
func sourcesOf(runs []*model.Experiment) string {
	if len(runs) == 1 {
		return runs[0].Source
	}
	return fmt.Sprintf("%s (and %d other runs)", runs[0].Source, len(runs)-1)
}

// definesMetric reports whether every operand of ops has result metric
// rm itself.
func definesMetric(ig *algebra.Integration, ops []int, rm int) bool {
	for _, op := range ops {
		if !slices.Contains(ig.Metrics[op], rm) {
			return false
		}
	}
	return true
}

// compareFoci orders foci for the report: the most specific first, then
// by decreasing Change, decreasing |Diff|, and, so that the order is the
// same every time, by call path, own part and system node.
func compareFoci(x, y FocusDiff) int {
	if x.MostSpecific != y.MostSpecific {
		if x.MostSpecific {
			return -1
		}
		return 1
	}
	if c := cmp.Compare(y.Change, x.Change); c != 0 {
		return c
	}
	if c := cmp.Compare(absOrZero(y.Diff), absOrZero(x.Diff)); c != 0 {
		return c
	}
	if c := cmp.Compare(x.Cnode, y.Cnode); c != 0 {
		return c
	}
	if x.Self != y.Self {
		if x.Self {
			return 1
		}
		return -1
	}
	return cmp.Compare(x.System, y.System)
}

func absOrZero(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return math.Abs(x)
}

// formulaNotes says which side's definition a derived metric took when
// only one side defines it.
func formulaNotes(ig *algebra.Integration, ops [2][]int, rm int, missing [2]string) []string {
	m := &ig.Result.Metrics[rm]
	if !m.IsDerived() || missing[0] != "" || missing[1] != "" {
		return nil
	}
	var defines []Side
	for i := range ops {
		if definesMetric(ig, ops[i], rm) {
			defines = append(defines, Side(i))
		}
	}
	if len(defines) == 1 {
		other := 1 - defines[0]
		return []string{fmt.Sprintf("%s is defined only in %s (%s); %s's value uses that formula, %s",
			m.UniqName, defines[0], ig.Operands[ops[defines[0]][0]].Source, other, m.Formula)}
	}
	return nil
}

// mappingHint names the metric mapping that would compare a metric one
// experiment lacks: the integration's own suggestion when it has one.
func mappingHint(ig *algebra.Integration) string {
	var hints []string
	for _, u := range ig.Report.Unmatched {
		if strings.Contains(u, "--map-metric") {
			hints = append(hints, u)
		}
	}
	if len(hints) > 0 {
		return strings.Join(hints, "; ")
	}
	return "--map-metric 'FROM=TO' compares metrics of different names or meaning"
}
