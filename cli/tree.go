package cli

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strings"

	"cubeview/model"
	"cubeview/numfmt"
)

func init() {
	register(&Command{
		Name:    "tree",
		Summary: "print the call tree with one metric's values",
		Usage: `usage: cubeview tree FILE [--metric NAME] [--excl] [--max-depth N] [--exact]

Prints the call tree as indented text, each call path with the metric's
value aggregated over all locations (the metric with its child metrics) and,
for a metric that sums, its percentage of the metric's total. Only that
metric's data are read. A derived metric's value at each call path is its
formula applied to its operands' values there; a metric with thresholds
shows the name of each value's range after the call path.

  --metric NAME   the metric: unique or display name, any case (default:
                  the first metric that has values)
  --excl          each call path's own value instead of its inclusive value
  --max-depth N   print call paths down to depth N ≥ 0 only (0: the roots);
                  values still include everything below (alias --depth)
  --exact         values in full precision (the shortest text that reads
                  back as the stored number) instead of 4 significant digits`,
		Run: runTree,
	})
}

// treeOptions says what writeTree prints.
type treeOptions struct {
	Inclusive bool
	MaxDepth  int  // negative: everything
	Exact     bool // full precision instead of numfmt.Brief
}

// metricFormat returns f for metric m's values: an undefined value of a
// derived metric (NaN, as CubePL's division by zero gives) prints as "—"
// in text; CSV (exact notation) keeps NaN, which reads back.
func metricFormat(f numfmt.Format, m *model.Metric) numfmt.Format {
	if m.IsDerived() {
		f.NaN = "—"
	}
	return f
}

// numberFormat is how the command line's tables print values: 4
// significant digits for people, or every digit with --exact.
func numberFormat(exact bool) numfmt.Format {
	if exact {
		f := numfmt.RoundTrip()
		f.NaN = "NaN"
		return f
	}
	return numfmt.Brief()
}

func runTree(env Env, args []string) error {
	fs := newFlagSet("tree")
	metric := fs.String("metric", "", "")
	excl := fs.Bool("excl", false, "")
	maxDepth := fs.Int("max-depth", -1, "")
	fs.IntVar(maxDepth, "depth", -1, "")
	exact := fs.Bool("exact", false, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if err := checkDepth(fs, *maxDepth); err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one FILE, got %d arguments", len(pos))
	}
	path := pos[0]
	e, err := openExperiment(path)
	if err != nil {
		return err
	}
	m := -1
	if *metric != "" {
		if m, err = metricIndex(e, path, *metric); err != nil {
			return err
		}
		if r := e.Metrics[m].Unavailable; r != "" {
			return fmt.Errorf("%s: metric %q is not available: %s", path, *metric, r)
		}
	} else {
		for _, i := range e.MetricOrder() {
			if e.Metrics[i].Unavailable == "" {
				m = i
				break
			}
		}
		if m < 0 {
			return fmt.Errorf("%s: no metric has values", path)
		}
	}
	if err := writeTree(env.Stdout, e, m, treeOptions{Inclusive: !*excl, MaxDepth: *maxDepth, Exact: *exact}); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// checkDepth refuses a negative --max-depth (or --depth) given on the
// command line; the flags' default, -1, means no limit.
func checkDepth(fs *flag.FlagSet, depth int) error {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "max-depth" || f.Name == "depth" })
	if given && depth < 0 {
		return usagef("--max-depth %d: want a depth ≥ 0 (0: the roots only)", depth)
	}
	return nil
}

// hasShare reports whether a value of metric m is meaningfully a share of
// the metric's total: the metric sums and is not a formula.
func hasShare(m *model.Metric) bool { return m.Aggregation == model.Sum && !m.IsDerived() }

// writeTree prints the call forest with metric m's call-tree inclusive or
// exclusive values, down to o.MaxDepth, and for a metric that sums the
// percentage of the metric's total.
func writeTree(w io.Writer, e *model.Experiment, m int, o treeOptions) error {
	met := &e.Metrics[m]
	sel := model.MetricSel{Metric: m, Inclusive: true}
	vals, err := e.CallTreeValues(sel, o.Inclusive)
	if err != nil {
		return fmt.Errorf("metric %q: %w", met.UniqName, err)
	}
	kind := "exclusive"
	if o.Inclusive {
		kind = "inclusive"
	}
	thresholds, err := met.Thresholds()
	if err != nil {
		return err
	}
	share := hasShare(met)
	var total float64
	if share {
		if total, err = e.MetricTotal(sel); err != nil {
			return fmt.Errorf("metric %q: %w", met.UniqName, err)
		}
	}
	nf := metricFormat(numberFormat(o.Exact), met)

	type line struct {
		value, pct string
		depth      int
		c          int
	}
	var lines []line
	width, pctWidth := 0, 0
	var walk func(c, depth int)
	walk = func(c, depth int) {
		if o.MaxDepth >= 0 && depth > o.MaxDepth {
			return
		}
		l := line{value: nf.Format(vals[c], met.IsInteger()), depth: depth, c: c}
		if share {
			l.pct = percentCell(vals[c], total)
			pctWidth = max(pctWidth, len(l.pct))
		}
		width = max(width, len(l.value))
		lines = append(lines, l)
		for _, ch := range e.Cnodes[c].Children {
			walk(ch, depth+1)
		}
	}
	for _, r := range e.CnodeRoots {
		walk(r, 0)
	}

	bw := bufio.NewWriterSize(w, 64<<10)
	how := met.Aggregation.String()
	if met.IsDerived() {
		how = met.Formula.String() + " of the operands' aggregates"
	}
	fmt.Fprintf(bw, "%s [%s] %s, call-tree %s, %s over %d location%s",
		orNone(met.DispName), met.UniqName, orNone(met.Unit), kind, how, e.NumLocations(), plural(e.NumLocations()))
	if share {
		fmt.Fprintf(bw, "; %% of the total %s", nf.Format(total, met.IsInteger()))
	}
	bw.WriteByte('\n')
	pad := strings.Repeat(" ", max(width, pctWidth))
	var indent []byte
	for _, l := range lines {
		for len(indent) < 2*l.depth {
			indent = append(indent, ' ')
		}
		bw.WriteString(pad[len(l.value):width])
		bw.WriteString(l.value)
		bw.WriteString("  ")
		if share {
			bw.WriteString(pad[len(l.pct):pctWidth])
			bw.WriteString(l.pct)
			bw.WriteString("  ")
		}
		bw.Write(indent[:2*l.depth])
		bw.WriteString(e.CnodeRegion(l.c).Name)
		if thresholds != nil {
			if label := thresholds.Label(vals[l.c]); label != "" {
				bw.WriteString(" [" + label + "]")
			}
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// percentCell is a table's percentage of v in total: "25.0%", or "-".
func percentCell(v, total float64) string {
	p := numfmt.Percent(v, total)
	if p == "-" {
		return p
	}
	return p + "%"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
