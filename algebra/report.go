package algebra

import (
	"fmt"
	"slices"
	"strings"

	"cubeview/model"
)

// MatchReport says what an integration matched other than by equal
// names, and what it could not compare and why, in sentences for the
// summary line of a result.
type MatchReport struct {
	// Metrics lists the result metrics whose operands' metrics have
	// different names (matched by canonical identity or a mapping rule).
	Metrics []MetricMatch
	// Unmatched says which metrics were not compared and names the
	// option that compares them.
	Unmatched []string
	// Unused lists the mapping rules that named no metric.
	Unused []string
	// Regions lists the regions matched by canonical name.
	Regions []RegionMatch
	// Paths lists, per operand, the call paths matched across frames
	// only one side recorded.
	Paths []PathSkip
	// Flat lists the operands whose call trees were compared as flat
	// profiles, with the reason.
	Flat []string
	// OneSided names the metrics only some operands have.
	OneSided []string
}

// RegionMatch is a region of an operand matched by canonical name to a
// result region of another name.
type RegionMatch struct {
	Operand      int
	Name, Result string
	region       int // in the result
}

// PathSkip counts the call paths of an operand matched across frames:
// frames the operand did not record (Own false: TAU's MPI_Bcast matched
// below Score-P's main and iteration), or frames only it recorded (Own
// true).
type PathSkip struct {
	Operand int
	Own     bool
	Paths   int
	Frames  []string // distinct frame names, in order of first use
}

func (r *MatchReport) notePath(i int, frames []string, own bool) {
	k := slices.IndexFunc(r.Paths, func(p PathSkip) bool { return p.Operand == i && p.Own == own })
	if k < 0 {
		r.Paths = append(r.Paths, PathSkip{Operand: i, Own: own})
		k = len(r.Paths) - 1
	}
	p := &r.Paths[k]
	p.Paths++
	for j := len(frames) - 1; j >= 0; j-- {
		if !slices.Contains(p.Frames, frames[j]) {
			p.Frames = append(p.Frames, frames[j])
		}
	}
}

// listed joins up to five names and says how many more there are.
func listed(names []string) string {
	if len(names) <= 5 {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:5], ", "), len(names)-5)
}

// Sentences returns the report in sentences: what was matched
// (Matched), then what was not compared (NotCompared).
func (r MatchReport) Sentences() []string {
	return append(r.Matched(), r.NotCompared()...)
}

// Matched says in sentences what was matched other than by equal names.
func (r MatchReport) Matched() []string {
	var out []string
	for _, m := range r.Metrics {
		out = append(out, m.String())
	}
	if n := len(r.Regions); n > 0 {
		var ex []string
		for _, m := range r.Regions {
			ex = append(ex, fmt.Sprintf("%s (operand %d) = %s", m.Name, m.Operand, m.Result))
		}
		out = append(out, fmt.Sprintf("%d region%s matched by canonical name: %s", n, plural(n), listed(ex)))
	}
	for _, p := range r.Paths {
		if p.Own {
			out = append(out, fmt.Sprintf("%d call path%s of operand %d matched outside frames only it recorded (%s)",
				p.Paths, plural(p.Paths), p.Operand, listed(p.Frames)))
		} else {
			out = append(out, fmt.Sprintf("%d call path%s of operand %d matched through frames it did not record (%s)",
				p.Paths, plural(p.Paths), p.Operand, listed(p.Frames)))
		}
	}
	return append(out, r.Flat...)
}

// NotCompared says in sentences what was not compared and why, naming
// the option that compares it where there is one.
func (r MatchReport) NotCompared() []string {
	var out []string
	out = append(out, r.Unmatched...)
	out = append(out, r.Unused...)
	return append(out, r.OneSided...)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// reportCoverage adds to the report what an operand contributes nothing
// to: metrics only some operands have (whose values in a difference or a
// mean are not compared with anything), and an operand that shares no
// call path with the others.
func (ig *Integration) reportCoverage() {
	n := len(ig.Operands)
	if n < 2 {
		return
	}
	res := ig.Result
	all := model.Mask(1)<<uint(n) - 1
	var masks []model.Mask
	byMask := map[model.Mask][]string{}
	for _, m := range res.MetricOrder() {
		met := &res.Metrics[m]
		if p := met.Present & all; p != all && met.Unavailable == "" && !met.IsDerived() {
			if _, ok := byMask[p]; !ok {
				masks = append(masks, p)
			}
			byMask[p] = append(byMask[p], met.UniqName)
		}
	}
	for _, p := range masks {
		names := byMask[p]
		ig.Report.OneSided = append(ig.Report.OneSided, fmt.Sprintf(
			"%d metric%s only in %s, so not compared: %s",
			len(names), plural(len(names)), operandList(p, n), listed(names)))
	}
	shared := make([]bool, n)
	for c := range res.Cnodes {
		p := res.Cnodes[c].Present & all
		if p&(p-1) == 0 {
			continue
		}
		for i := range shared {
			shared[i] = shared[i] || p.Has(i)
		}
	}
	for i, ok := range shared {
		if !ok {
			ig.Report.Unmatched = append(ig.Report.Unmatched, fmt.Sprintf(
				"%s shares no call path with the other operands, so none of its values is compared with theirs; --rename 'OLD=NEW' renames regions before matching",
				operandName(ig.Operands, i)))
		}
	}
}
