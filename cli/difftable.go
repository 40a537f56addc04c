package cli

import (
	"bufio"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"cubeview/algebra"
	"cubeview/model"
)

// diffTableOptions are diff's options for printing instead of writing.
type diffTableOptions struct {
	top    *int
	metric *string
	incl   *bool
	exact  *bool
}

func diffTableFlags(fs *flag.FlagSet) diffTableOptions {
	return diffTableOptions{
		top:    fs.Int("top", 20, ""),
		metric: fs.String("metric", "", ""),
		incl:   fs.Bool("incl", false, ""),
		exact:  fs.Bool("exact", false, ""),
	}
}

// given reports whether one of the table's options was set on fs.
func (o diffTableOptions) given(fs *flag.FlagSet) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		set = set || f.Name == "top" || f.Name == "metric" || f.Name == "incl" || f.Name == "exact"
	})
	return set
}

// diffRow is one call path of the table: its values in A and B.
type diffRow struct {
	cnode int // in the integrated call tree
	a, b  float64
}

func (r diffRow) diff() float64 { return r.a - r.b }

// printDiff prints the call paths whose metric value changed most between
// the experiments at pathA and pathB, matched as the diff operator
// matches them: value in A, in B, A − B and A − B as a percentage of A's
// total, largest |A − B| first. It refuses, naming the option that helps,
// a comparison in which one operand has no metric matching the one shown
// or no call path matching the other's: that is no difference.
func printDiff(env Env, pathA, pathB string, opt algebra.Options, o diffTableOptions) error {
	if *o.top < 0 {
		return usagef("--top %d: want N ≥ 0 (0: every changed call path)", *o.top)
	}
	a, err := openExperiment(pathA)
	if err != nil {
		return err
	}
	b, err := openExperiment(pathB)
	if err != nil {
		return err
	}
	paths := []string{pathA, pathB}
	ig, err := algebra.Integrate([]*model.Experiment{a, b}, opt)
	if err != nil {
		return err
	}
	res := ig.Result
	rm, err := shownMetric(ig, *o.metric, paths)
	if err != nil {
		return err
	}
	if err := comparable(ig, rm, paths); err != nil {
		return err
	}
	rows := make([]diffRow, len(res.Cnodes))
	for c := range rows {
		rows[c].cnode = c
	}
	var totals [2]float64
	var names [2]string
	for i, e := range ig.Operands {
		m := slices.Index(ig.Metrics[i], rm)
		names[i] = e.Metrics[m].UniqName
		if r := e.Metrics[m].Unavailable; r != "" {
			return fmt.Errorf("%s: metric %q is not available: %s", paths[i], names[i], r)
		}
		sel := model.MetricSel{Metric: m, Inclusive: true}
		vals, err := e.CallTreeValues(sel, *o.incl)
		if err != nil {
			return fmt.Errorf("%s: metric %q: %w", paths[i], names[i], err)
		}
		if totals[i], err = e.MetricTotal(sel); err != nil {
			return fmt.Errorf("%s: metric %q: %w", paths[i], names[i], err)
		}
		for c, v := range vals {
			rc := ig.Cnodes[i][c]
			if i == 0 {
				rows[rc].a += v
			} else {
				rows[rc].b += v
			}
		}
	}
	changed := slices.DeleteFunc(rows, func(r diffRow) bool { return r.diff() == 0 })
	slices.SortStableFunc(changed, func(x, y diffRow) int {
		return cmp.Or(cmp.Compare(math.Abs(y.diff()), math.Abs(x.diff())), cmp.Compare(res.CallPath(x.cnode), res.CallPath(y.cnode)))
	})
	shown := changed
	if *o.top > 0 && len(shown) > *o.top {
		shown = shown[:*o.top]
	}
	var notes []string
	if ig.RootsMatched != "" {
		notes = append(notes, "matched: "+ig.RootsMatched+" (--strict-roots keeps them apart)")
	}
	for _, n := range ig.Report.Matched() {
		notes = append(notes, "matched: "+n)
	}
	for _, n := range ig.Report.NotCompared() {
		notes = append(notes, "note: "+n)
	}
	return writeDiffTable(env.Stdout, res, &res.Metrics[rm], diffHeader{
		pathA: pathA, pathB: pathB, totalA: totals[0], totalB: totals[1], nameA: names[0], nameB: names[1],
		inclusive: *o.incl, exact: *o.exact, changed: len(changed), all: len(rows), notes: notes,
	}, shown)
}

// shownMetric returns the result metric diff's table shows: the one name
// names (Integration.MetricIndex), or by default time, else the first
// metric both operands have with values.
func shownMetric(ig *algebra.Integration, name string, paths []string) (int, error) {
	res := ig.Result
	if name != "" {
		r, err := ig.MetricIndex(name)
		var le *algebra.MetricLookupError
		if errors.As(err, &le) && len(le.Candidates) == 0 {
			return -1, fmt.Errorf("neither %s nor %s has a metric %q%s", paths[0], paths[1], name, didYouMean(uniqNames(res, suggest(name, le.Known))))
		}
		return r, err
	}
	both := func(r int) bool {
		return res.Metrics[r].Present.Has(0) && res.Metrics[r].Present.Has(1) && res.Metrics[r].Unavailable == ""
	}
	if r, err := ig.MetricIndex(model.IdentityTime); err == nil && both(r) {
		return r, nil
	}
	for _, r := range res.MetricOrder() {
		if both(r) {
			return r, nil
		}
	}
	if r, err := ig.MetricIndex(model.IdentityTime); err == nil {
		return r, nil // not in both: comparable says why
	}
	for _, r := range res.MetricOrder() {
		if res.Metrics[r].Unavailable == "" {
			return r, nil
		}
	}
	return -1, fmt.Errorf("%s: no metric has values", paths[0])
}

// comparable refuses a difference in which one operand contributes
// nothing: it has no metric matched to result metric rm, or no call path
// matched to the other's. The error says so in words and names what helps.
func comparable(ig *algebra.Integration, rm int, paths []string) error {
	res := ig.Result
	met := &res.Metrics[rm]
	for i := range ig.Operands {
		if met.Present.Has(i) {
			continue
		}
		other := 1 - i
		var hint []string
		for _, s := range ig.Report.Unmatched {
			if strings.Contains(s, "--map-metric") {
				hint = append(hint, s)
			}
		}
		var common []string
		for _, r := range res.MetricOrder() {
			if res.Metrics[r].Present.Has(0) && res.Metrics[r].Present.Has(1) {
				common = append(common, res.Metrics[r].UniqName)
			}
		}
		msg := fmt.Sprintf("%s has no metric matching %s of %s, so there is nothing to subtract: the table would show %s alone",
			paths[i], describeMetric(met), paths[other], paths[other])
		if len(hint) > 0 {
			msg += "; " + strings.Join(hint, "; ")
		} else {
			msg += "; --map-metric 'FROM=TO' compares metrics of different meaning"
		}
		if len(common) > 0 {
			msg += "; metrics both have: " + briefList(common) + " (--metric NAME)"
		}
		return errors.New(msg)
	}
	for c := range res.Cnodes {
		if p := res.Cnodes[c].Present; p.Has(0) && p.Has(1) {
			return nil
		}
	}
	return fmt.Errorf("%s and %s share no call path, so nothing of them is compared: their call trees have no region in common at the same place; --rename 'OLD=NEW' renames regions before matching (a program's root, functions renamed between versions)", paths[0], paths[1])
}

// describeMetric names a metric with its canonical identity when it has
// one: "time (wall clock)".
func describeMetric(m *model.Metric) string {
	if m.Identity != "" {
		if m.Identity == m.UniqName {
			return fmt.Sprintf("%q (%s)", m.UniqName, model.IdentityMeaning(m.Identity))
		}
		return fmt.Sprintf("%q (%s, %s)", m.UniqName, m.Identity, model.IdentityMeaning(m.Identity))
	}
	return fmt.Sprintf("%q", m.UniqName)
}

type diffHeader struct {
	pathA, pathB     string
	nameA, nameB     string // the operands' names of the metric
	totalA, totalB   float64
	notes            []string // how the operands were matched
	inclusive, exact bool
	changed, all     int
}

func writeDiffTable(w io.Writer, res *model.Experiment, met *model.Metric, h diffHeader, rows []diffRow) error {
	nf := metricFormat(numberFormat(h.exact), met)
	integer := met.IsInteger()
	num := func(v float64) string { return nf.Format(v, integer) }
	kind := "exclusive (own) values"
	if h.inclusive {
		kind = "inclusive values"
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "%s [%s] %s, call-tree %s summed over all locations\n", orNone(met.DispName), met.UniqName, orNone(met.Unit), kind)
	metricOf := func(name string) string {
		if name == met.UniqName {
			return ""
		}
		return ", its metric " + name
	}
	fmt.Fprintf(bw, "A: %s (total %s%s)\nB: %s (total %s%s)\n", h.pathA, num(h.totalA), metricOf(h.nameA), h.pathB, num(h.totalB), metricOf(h.nameB))
	for _, n := range h.notes {
		fmt.Fprintln(bw, n)
	}
	fmt.Fprintf(bw, "A − B: positive where A spent more; %% of A: A − B in percent of A's total\n")
	if met.IsDerived() {
		fmt.Fprintf(bw, "%s is derived (%s): A and B are each one's value of the formula, A − B their difference (not the formula of the differences)\n", met.UniqName, met.Formula)
	}
	bw.WriteByte('\n')
	if h.changed == 0 {
		fmt.Fprintf(bw, "no call path changed (%d call paths)\n", h.all)
		return bw.Flush()
	}
	cells := [][]string{{"A", "B", "A − B", "% of A", "call path"}}
	for _, r := range rows {
		cells = append(cells, []string{num(r.a), num(r.b), signed(num(r.diff())), percentCell(r.diff(), h.totalA), res.CallPath(r.cnode)})
	}
	widths := make([]int, 4)
	for _, row := range cells {
		for i := range widths {
			widths[i] = max(widths[i], runeLen(row[i]))
		}
	}
	for _, row := range cells {
		for i := range widths {
			fmt.Fprintf(bw, "%*s  ", widths[i]+len(row[i])-runeLen(row[i]), row[i])
		}
		bw.WriteString(row[4])
		bw.WriteByte('\n')
	}
	if len(rows) < h.changed {
		fmt.Fprintf(bw, "(top %d of %d changed call paths, of %d in all; --top N for more, --top 0 for all)\n", len(rows), h.changed, h.all)
	} else {
		fmt.Fprintf(bw, "(%d changed call path%s, of %d in all)\n", h.changed, plural(h.changed), h.all)
	}
	return bw.Flush()
}

// signed prefixes a positive number with "+".
func signed(s string) string {
	if s != "" && s[0] != '-' && s != "0" && s != "NaN" && s != "—" {
		return "+" + s
	}
	return s
}

func runeLen(s string) int { return len([]rune(s)) }
