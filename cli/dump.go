package cli

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"

	"cubeview/model"
	"cubeview/numfmt"
)

func init() {
	register(&Command{
		Name:    "dump",
		Summary: "print values per call path and location as CSV",
		Usage: `usage: cubeview dump FILE [--excl | --incl] [--metric UNIQ]…

Prints one CSV row per call-tree node and location, ordered by cnode id and
then location id, one column per metric, in the layout of "cube_dump -s csv2":

  Cnode ID, Thread ID,<uniq_name>,…

  --excl         call-tree exclusive values: each cnode's own value (default)
  --incl         call-tree inclusive values: each cnode with its whole subtree
  --metric UNIQ  print this metric (repeatable); default: every metric that
                 has values, in metric-tree order

Values are metric-inclusive (a metric includes its child metrics). A derived
metric's value at each point is its formula applied to its operands' values
there. Integral
values print without decimals, others in the shortest form that reads back
as the same number.`,
		Run: runDump,
	})
}

func runDump(env Env, args []string) error {
	fs := newFlagSet("dump")
	incl := fs.Bool("incl", false, "")
	excl := fs.Bool("excl", false, "")
	var metrics stringList
	fs.Var(&metrics, "metric", "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one FILE, got %d arguments", len(pos))
	}
	if *incl && *excl {
		return usagef("--incl and --excl exclude each other")
	}
	path := pos[0]
	e, err := openExperiment(path)
	if err != nil {
		return err
	}
	var sel []int
	if len(metrics) == 0 {
		var skipped []string
		for _, m := range e.MetricOrder() {
			if e.Metrics[m].Unavailable != "" {
				skipped = append(skipped, e.Metrics[m].UniqName)
				continue
			}
			sel = append(sel, m)
		}
		if len(skipped) > 0 {
			fmt.Fprintf(env.Stderr, "cubeview dump: %s: left out %d metric%s without values (%s); \"cubeview info %s\" says why\n",
				path, len(skipped), plural(len(skipped)), briefList(skipped), path)
		}
	} else {
		for _, name := range metrics {
			m, err := metricIndex(e, path, name)
			if err != nil {
				return err
			}
			if r := e.Metrics[m].Unavailable; r != "" {
				return fmt.Errorf("%s: metric %q is not available: %s", path, name, r)
			}
			sel = append(sel, m)
		}
	}
	if err := writeDump(env.Stdout, e, sel, *incl); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// writeDump writes the CSV of the metrics sel, call-tree inclusive or
// exclusive, per cnode and location.
//
// A stored metric's call-tree exclusive values are its rows as stored: they
// are read one cnode at a time as they are printed, without holding the
// metric's block. Call-tree inclusive values and derived metrics need
// whole blocks (model.PointValues).
func writeDump(w io.Writer, e *model.Experiment, sel []int, inclusive bool) error {
	nl := e.NumLocations()
	blocks := make([]*model.Block, len(sel))
	rows := make([]model.RowSource, len(sel))
	for i, m := range sel {
		if !inclusive && !e.Metrics[m].IsDerived() {
			r, release, err := e.Rows(m)
			if err != nil {
				return fmt.Errorf("metric %q: %w", e.Metrics[m].UniqName, err)
			}
			defer release()
			rows[i] = r
			continue
		}
		b, err := e.PointValues(model.MetricSel{Metric: m, Inclusive: true}, inclusive)
		if err != nil {
			return fmt.Errorf("metric %q: %w", e.Metrics[m].UniqName, err)
		}
		blocks[i] = b
	}
	// the current cnode's values of each metric
	vals := make([][]float64, len(sel))
	for i := range vals {
		vals[i] = make([]float64, nl)
	}

	cnodes := make([]int, len(e.Cnodes))
	for c := range cnodes {
		cnodes[c] = c
	}
	slices.SortStableFunc(cnodes, func(a, b int) int { return cmp.Compare(e.Cnodes[a].ID, e.Cnodes[b].ID) })
	locs := make([]int, e.NumLocations())
	for l := range locs {
		locs[l] = l
	}
	slices.SortStableFunc(locs, func(a, b int) int { return cmp.Compare(e.Location(a).ID, e.Location(b).ID) })

	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("Cnode ID, Thread ID")
	for _, m := range sel {
		bw.WriteByte(',')
		bw.WriteString(e.Metrics[m].UniqName)
	}
	bw.WriteByte('\n')
	buf := make([]byte, 0, 256)
	number := numfmt.RoundTrip()
	for _, c := range cnodes {
		cid := e.Cnodes[c].ID
		for i := range sel {
			var err error
			switch {
			case rows[i] != nil:
				err = rows[i].ReadRow(c, vals[i])
			case blocks[i].Row(c) != nil:
				copy(vals[i], blocks[i].Row(c))
				err = blocks[i].Err()
			default:
				clear(vals[i])
			}
			if err != nil {
				return fmt.Errorf("metric %q: %w", e.Metrics[sel[i]].UniqName, err)
			}
		}
		for _, l := range locs {
			buf = strconv.AppendInt(buf[:0], int64(cid), 10)
			buf = append(buf, ',')
			buf = strconv.AppendInt(buf, int64(e.Location(l).ID), 10)
			for i := range sel {
				buf = append(buf, ',')
				buf = number.AppendFormat(buf, vals[i][l], false)
			}
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}
