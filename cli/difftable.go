package cli

import (
	"bufio"
	"cmp"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"

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
// total, largest |A − B| first.
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
	exps, paths := []*model.Experiment{a, b}, []string{pathA, pathB}
	uniq := *o.metric
	if uniq == "" {
		if uniq, err = firstMetricWithValues(exps, paths); err != nil {
			return err
		}
	} else if uniq, err = metricUniqName(uniq, paths, exps); err != nil {
		return err
	}
	ig, err := algebra.Integrate(exps, opt)
	if err != nil {
		return err
	}
	res := ig.Result
	rows := make([]diffRow, len(res.Cnodes))
	for c := range rows {
		rows[c].cnode = c
	}
	var totals [2]float64
	var met *model.Metric
	for i, e := range exps {
		m := e.MetricByName(uniq)
		if m < 0 {
			continue // absent: counts as 0, as in the diff operator
		}
		if r := e.Metrics[m].Unavailable; r != "" {
			return fmt.Errorf("%s: metric %q is not available: %s", paths[i], uniq, r)
		}
		if met == nil {
			met = &e.Metrics[m]
		}
		sel := model.MetricSel{Metric: m, Inclusive: true}
		vals, err := e.CallTreeValues(sel, *o.incl)
		if err != nil {
			return fmt.Errorf("%s: metric %q: %w", paths[i], uniq, err)
		}
		if totals[i], err = e.MetricTotal(sel); err != nil {
			return fmt.Errorf("%s: metric %q: %w", paths[i], uniq, err)
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
	return writeDiffTable(env.Stdout, res, met, diffHeader{
		pathA: pathA, pathB: pathB, totalA: totals[0], totalB: totals[1],
		inclusive: *o.incl, exact: *o.exact, changed: len(changed), all: len(rows),
	}, shown)
}

// firstMetricWithValues is "time" when an experiment has it with values
// (what a difference is usually about), else the unique name of the first
// metric of the first experiment that has values.
func firstMetricWithValues(exps []*model.Experiment, paths []string) (string, error) {
	for _, e := range exps {
		if m := e.MetricByName("time"); m >= 0 && e.Metrics[m].Unavailable == "" {
			return "time", nil
		}
	}
	for _, e := range exps {
		for _, m := range e.MetricOrder() {
			if e.Metrics[m].Unavailable == "" {
				return e.Metrics[m].UniqName, nil
			}
		}
	}
	return "", fmt.Errorf("%s: no metric has values", paths[0])
}

type diffHeader struct {
	pathA, pathB     string
	totalA, totalB   float64
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
	fmt.Fprintf(bw, "A: %s (total %s)\nB: %s (total %s)\n", h.pathA, num(h.totalA), h.pathB, num(h.totalB))
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
