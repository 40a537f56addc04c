package cli

import (
	"bufio"
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"cubeview/analysis"
	"cubeview/chart"
	"cubeview/model"
	"cubeview/numfmt"
)

func init() {
	register(&Command{
		Name:    "stat",
		Summary: "statistics of a metric across locations, or the noise of repeated runs (--runs), per call path",
		Usage: `usage: cubeview stat FILE --metric UNIQ [--cnode PATH] [--excl] [--csv]
       [-o box.png|box.svg [--top N]]
       cubeview stat --runs R1 R2 [R3…] [--metric NAME] [--excl] [--top N] [--csv] [--where FILTER]

For every call path (or those named by --cnode), the spread of the metric's
values across all locations: count, sum, min, max, mean, median, quartiles,
standard deviation, and the locations holding the minimum and maximum.
A location without a value is left out of the count: for a min or max
metric one that did not visit the call path (or, inclusive, any call path
below it), for a derived metric one where it is undefined; a call path
without any value has count 0 and empty fields ("-" in the text).

Quartiles and the median interpolate linearly between order statistics
(h = (n−1)·p; the rule of R's and NumPy's default); the standard deviation
is the population one (divided by n), as Cube's statistics show it.

  --metric UNIQ  the metric (stored or derived)
  --cnode PATH   only the call path PATH: region names from the root joined
                 by "/", e.g. main/foo/MPI_Barrier (every call path with
                 that name when several share it)
  --excl         each call path's own values instead of inclusive ones
  --csv          print CSV:
                 call_path,count,sum,min,max,mean,median,q1,q3,stddev,argmin,argmax
  -o FILE        also draw a box plot (.png or .svg, 1200 × 800 pixels): one
                 box per call path — the top N by sum, or those of --cnode —
                 spanning the quartiles, with the median (bold), the mean
                 (dashed), whiskers to the furthest values within 1.5 box
                 lengths and rings at a minimum or maximum beyond them
  --top N        the number of boxes (default 10)` + runsUsage,
		Run: runStat,
	})
}

func runStat(env Env, args []string) error {
	if hasFlag(args, "runs") {
		return runStatRuns(env, args)
	}
	fs := newFlagSet("stat")
	metric := fs.String("metric", "", "")
	cnode := fs.String("cnode", "", "")
	excl := fs.Bool("excl", false, "")
	asCSV := fs.Bool("csv", false, "")
	out := fs.String("o", "", "")
	top := fs.Int("top", 10, "")
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
	if *out != "" {
		if _, err := chart.FormatOf(*out); err != nil {
			return usagef("-o %v", err)
		}
		if err := checkOutput(*out, pos, false); err != nil {
			return err
		}
	}
	if *top < 1 {
		return usagef("--top %d: want N ≥ 1", *top)
	}
	path := pos[0]
	e, err := openExperiment(path)
	if err != nil {
		return err
	}
	m, err := metricIndex(e, path, *metric)
	if err != nil {
		return err
	}
	*metric = e.Metrics[m].UniqName
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
	if *out != "" {
		if err := saveBoxPlot(*out, e, *metric, !*excl, stats, *top); err != nil {
			return err
		}
	}
	if *asCSV {
		return writeStatCSV(env.Stdout, e, stats)
	}
	return writeStatText(env.Stdout, e, *metric, !*excl, stats)
}

// statColumns are the CSV columns of stat, in order.
var statColumns = []string{"call_path", "count", "sum", "min", "max", "mean", "median", "q1", "q3", "stddev", "argmin", "argmax"}

func statFields(e *model.Experiment, names *analysis.PathNames, s analysis.CallPathStats, format func(float64) string) []string {
	loc := func(l int) string {
		if l < 0 {
			return ""
		}
		return analysis.LocationName(e, l)
	}
	if s.Count == 0 {
		// No location has a value (a min or max no location visited, a
		// derived metric undefined everywhere): nothing to summarise.
		none := format(math.NaN())
		return []string{names.CallPath(s.Cnode), "0", none, none, none, none, none, none, none, none, "", ""}
	}
	return []string{names.CallPath(s.Cnode), strconv.Itoa(s.Count), format(s.Sum), format(s.Min), format(s.Max),
		format(s.Mean), format(s.Median), format(s.Q1), format(s.Q3), format(s.StdDev), loc(s.ArgMin), loc(s.ArgMax)}
}

func writeStatCSV(w io.Writer, e *model.Experiment, stats []analysis.CallPathStats) error {
	cw := csv.NewWriter(w)
	cw.Write(statColumns)
	names := analysis.NewPathNames(e)
	for _, s := range stats {
		cw.Write(statFields(e, names, s, func(x float64) string {
			if math.IsNaN(x) {
				return "" // no value
			}
			return numfmt.RoundTrip().Format(x, false)
		}))
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
	names := analysis.NewPathNames(e)
	for _, s := range stats {
		f := statFields(e, names, s, fmtG)
		rows = append(rows, append(f[1:], f[0]))
	}
	writeTable(bw, rows, 10)
	return bw.Flush()
}

// saveBoxPlot draws the top call paths' spread across locations.
func saveBoxPlot(path string, e *model.Experiment, metric string, inclusive bool, stats []analysis.CallPathStats, top int) error {
	stats = slices.Clone(stats)
	slices.SortStableFunc(stats, func(a, b analysis.CallPathStats) int { return cmp.Compare(b.Sum, a.Sum) })
	stats = stats[:min(top, len(stats))]
	boxes := make([]chart.Box, len(stats))
	for i, s := range stats {
		boxes[i] = chart.Box{Label: e.CallPath(s.Cnode), Min: s.Min, Q1: s.Q1, Median: s.Median, Q3: s.Q3, Max: s.Max,
			Mean: s.Mean, LowWhisker: s.LowWhisker, HighWhisker: s.HighWhisker}
	}
	m := &e.Metrics[e.MetricByName(metric)]
	kind := "exclusive"
	if inclusive {
		kind = "inclusive"
	}
	title := fmt.Sprintf("%s across %d locations, call-tree %s", metricTitle(m), e.NumLocations(), kind)
	c, err := chart.BoxChart(title, valueAxisLabel(m), boxes)
	if err != nil {
		return err
	}
	return c.Save(path, chart.DefaultWidth, chart.DefaultHeight)
}

// metricTitle names a metric in a plot title: display name and uniq_name.
func metricTitle(m *model.Metric) string {
	if m.DispName == "" || m.DispName == m.UniqName {
		return m.UniqName
	}
	return m.DispName + " [" + m.UniqName + "]"
}

// valueAxisLabel labels a value axis with the metric and its unit.
func valueAxisLabel(m *model.Metric) string {
	name := m.DispName
	if name == "" {
		name = m.UniqName
	}
	if u := m.Unit; u != "" && u != "#" {
		return name + " (" + u + ")"
	}
	return name
}
