package cli

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"cubeview/analysis"
	"cubeview/model"
)

func init() {
	register(&Command{
		Name:    "stat",
		Summary: "statistics of a metric across locations, per call path",
		Usage: `usage: cubeview stat FILE --metric UNIQ [--cnode PATH] [--excl] [--csv]

For every call path (or those named by --cnode), the spread of the metric's
values across all locations: count, sum, min, max, mean, median, quartiles,
standard deviation, and the locations holding the minimum and maximum.

Quartiles and the median interpolate linearly between order statistics
(h = (n−1)·p; the rule of R's and NumPy's default); the standard deviation
is the population one (divided by n), as Cube's statistics show it.

  --metric UNIQ  the metric (stored or derived)
  --cnode PATH   only the call path PATH: region names from the root joined
                 by "/", e.g. main/foo/MPI_Barrier (every call path with
                 that name when several share it)
  --excl         each call path's own values instead of inclusive ones
  --csv          print CSV:
                 call_path,count,sum,min,max,mean,median,q1,q3,stddev,argmin,argmax`,
		Run: runStat,
	})
}

func runStat(env Env, args []string) error {
	fs := newFlagSet("stat")
	metric := fs.String("metric", "", "")
	cnode := fs.String("cnode", "", "")
	excl := fs.Bool("excl", false, "")
	asCSV := fs.Bool("csv", false, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one FILE, got %d arguments", len(pos))
	}
	if *metric == "" {
		return usagef("--metric is required")
	}
	path := pos[0]
	e, err := openExperiment(path)
	if err != nil {
		return err
	}
	if _, err := metricIndex(e, path, *metric); err != nil {
		return err
	}
	var cnodes []int
	if *cnode != "" {
		for _, c := range e.CnodeOrder() {
			if e.CallPath(c) == *cnode {
				cnodes = append(cnodes, c)
			}
		}
		if len(cnodes) == 0 {
			return fmt.Errorf("%s has no call path %q", path, *cnode)
		}
	}
	stats, err := analysis.Statistics(e, *metric, cnodes, !*excl)
	if err != nil {
		return err
	}
	if *asCSV {
		return writeStatCSV(env.Stdout, e, stats)
	}
	return writeStatText(env.Stdout, e, *metric, !*excl, stats)
}

// statColumns are the CSV columns of stat, in order.
var statColumns = []string{"call_path", "count", "sum", "min", "max", "mean", "median", "q1", "q3", "stddev", "argmin", "argmax"}

func statFields(e *model.Experiment, s analysis.CallPathStats, format func(float64) string) []string {
	loc := func(l int) string {
		if l < 0 {
			return ""
		}
		return analysis.LocationName(e, l)
	}
	return []string{e.CallPath(s.Cnode), strconv.Itoa(s.Count), format(s.Sum), format(s.Min), format(s.Max),
		format(s.Mean), format(s.Median), format(s.Q1), format(s.Q3), format(s.StdDev), loc(s.ArgMin), loc(s.ArgMax)}
}

func writeStatCSV(w io.Writer, e *model.Experiment, stats []analysis.CallPathStats) error {
	cw := csv.NewWriter(w)
	cw.Write(statColumns)
	for _, s := range stats {
		cw.Write(statFields(e, s, formatExact))
	}
	cw.Flush()
	return cw.Error()
}

func writeStatText(w io.Writer, e *model.Experiment, metric string, inclusive bool, stats []analysis.CallPathStats) error {
	bw := bufio.NewWriter(w)
	m := &e.Metrics[e.MetricByName(metric)]
	kind := "exclusive"
	if inclusive {
		kind = "inclusive"
	}
	fmt.Fprintf(bw, "%s [%s] %s, call-tree %s, across %d location%s\n",
		orNone(m.DispName), m.UniqName, orNone(m.Unit), kind, e.NumLocations(), plural(e.NumLocations()))
	rows := [][]string{{"count", "sum", "min", "max", "mean", "median", "q1", "q3", "stddev", "argmin", "argmax", "call path"}}
	for _, s := range stats {
		f := statFields(e, s, fmtG)
		rows = append(rows, append(f[1:], f[0]))
	}
	writeTable(bw, rows, 10)
	return bw.Flush()
}
