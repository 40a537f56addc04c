package cli

import (
	"bufio"
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
		Usage: `usage: cubeview tree FILE [--metric UNIQ] [--excl] [--max-depth N]

Prints the call tree as indented text, each call path with the metric's
value aggregated over all locations (the metric with its child metrics).
Only that metric's data are read. A derived metric's value at each call path
is its formula applied to its operands' values there; a metric with
thresholds shows the name of each value's range after the call path.

  --metric UNIQ   the metric (default: the first metric that has values)
  --excl          each call path's own value instead of its inclusive value
  --max-depth N   print call paths down to depth N only (0: the roots);
                  values still include everything below (alias --depth)`,
		Run: runTree,
	})
}

func runTree(env Env, args []string) error {
	fs := newFlagSet("tree")
	metric := fs.String("metric", "", "")
	excl := fs.Bool("excl", false, "")
	maxDepth := fs.Int("max-depth", -1, "")
	fs.IntVar(maxDepth, "depth", -1, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
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
	if err := writeTree(env.Stdout, e, m, !*excl, *maxDepth); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// writeTree prints the call forest with metric m's call-tree inclusive or
// exclusive values, down to maxDepth (negative: everything).
func writeTree(w io.Writer, e *model.Experiment, m int, inclusive bool, maxDepth int) error {
	met := &e.Metrics[m]
	vals, err := e.CallTreeValues(model.MetricSel{Metric: m, Inclusive: true}, inclusive)
	if err != nil {
		return fmt.Errorf("metric %q: %w", met.UniqName, err)
	}
	kind := "exclusive"
	if inclusive {
		kind = "inclusive"
	}
	thresholds, err := met.Thresholds()
	if err != nil {
		return err
	}

	type line struct {
		value string
		depth int
		c     int
	}
	var lines []line
	width := 0
	var walk func(c, depth int)
	walk = func(c, depth int) {
		if maxDepth >= 0 && depth > maxDepth {
			return
		}
		s := numfmt.Precise().Format(vals[c], met.IsInteger())
		width = max(width, len(s))
		lines = append(lines, line{s, depth, c})
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
	fmt.Fprintf(bw, "%s [%s] %s, call-tree %s, %s over %d location%s\n",
		orNone(met.DispName), met.UniqName, orNone(met.Unit), kind, how, e.NumLocations(), plural(e.NumLocations()))
	pad := strings.Repeat(" ", width)
	var indent []byte
	for _, l := range lines {
		for len(indent) < 2*l.depth {
			indent = append(indent, ' ')
		}
		bw.WriteString(pad[len(l.value):])
		bw.WriteString(l.value)
		bw.WriteString("  ")
		bw.Write(indent[:2*l.depth])
		bw.WriteString(e.CnodeRegion(l.c).Name)
		if thresholds != nil {
			bw.WriteString(" [" + thresholds.Label(vals[l.c]) + "]")
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
